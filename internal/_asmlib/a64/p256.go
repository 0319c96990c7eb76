package a64

import (
	"fmt"

	"github.com/p256tls/p256tls/internal/_asmlib/formula"
)

// P-256's field arithmetic on arm64, in registers: the Montgomery product
// and square (R = 2^256) and the modular addition, subtraction and
// halving, for the field kernels (internal/p256/field/_asm) and the fused
// point kernels. Every operation takes and returns elements below p,
// fully reduced, so each gives the same limbs as the Go twins whatever
// the order of operations around it.
//
// The reduction is asmlib's (its package comment has the one explanation):
// with m the low limb, (u + m·p)/2^64 = (u >> 64) + A(m), where A(m) is the
// four limbs (m<<32, m>>32, lo(m·p3), hi(m·p3)) and m·p3 = (m:m) −
// (m>>32 : m<<32), so a round costs a shift, SUBS/SBC and four additions,
// and no multiplication: a product costs its 16 MUL and 16 UMULH, a square
// 10 and 10.

// P256 holds the two constant limbs of p the subtraction needs, p1 = 2^32 − 1
// and p3 = 2^64 − 2^32 + 1 (p0 = 2^64 − 1 and p2 = 0 need no register),
// loaded once per kernel by NewP256.
type P256 struct {
	fn     *Func
	p1, p3 GP
}

// NewP256 loads p1 and p3 into registers taken from regs, for the
// operations below; p3 = −p1 mod 2^64.
func NewP256(fn *Func, regs *Pool) *P256 {
	f := &P256{fn: fn, p1: regs.Get(), p3: regs.Get()}
	fn.MOVD(f.p1, uint64(0xffffffff))
	fn.NEG(f.p3, f.p1)
	return f
}

// Mul returns x·y·2^-256 mod p in four registers from regs. x and y are
// not changed; it takes eleven registers from regs and gives back all but
// the four of the result.
func (f *P256) Mul(x, y []GP, regs *Pool) []GP {
	fn := f.fn
	t := regs.GetN(8)
	tmp := regs.GetN(2)
	fn.Comment("x·y, by rows: the low halves of a row on one carry chain, then its high halves")
	for i := 0; i < 4; i++ {
		productRow(fn, t, x, y[i], i, tmp)
	}
	regs.Put(tmp...)
	return f.reduce(t, regs)
}

// Square returns x·x·2^-256 mod p in four registers from regs; x is not
// changed. It takes twelve registers and gives back all but four.
func (f *P256) Square(x []GP, regs *Pool) []GP {
	fn := f.fn
	t := regs.GetN(8)
	l, h := regs.Get(), regs.Get()
	a, b := regs.Get(), regs.Get()
	fn.Comment("the products xi·xj, i < j, into t[1..6]")
	// Row x0: t1..t4.
	fn.MUL(t[1], x[0], x[1])
	fn.UMULH(a, x[0], x[1])
	fn.MUL(l, x[0], x[2])
	fn.UMULH(b, x[0], x[2])
	fn.MUL(h, x[0], x[3])
	fn.UMULH(t[4], x[0], x[3])
	fn.ADDS(t[2], l, a)
	fn.ADCS(t[3], h, b)
	fn.ADC(t[4], t[4], ZR)
	// Row x1: x1·x2 into t3..t4 (its high half into t4..t5), x1·x3 into
	// t4..t5.
	fn.MUL(l, x[1], x[2])
	fn.UMULH(a, x[1], x[2])
	fn.MUL(h, x[1], x[3])
	fn.UMULH(t[5], x[1], x[3])
	fn.ADDS(t[3], t[3], l)
	fn.ADCS(t[4], t[4], h)
	fn.ADC(t[5], t[5], ZR)
	fn.ADDS(t[4], t[4], a)
	// Row x2: x2·x3 into t5..t6; the carry out of t4 goes in with it.
	fn.MUL(l, x[2], x[3])
	fn.UMULH(t[6], x[2], x[3])
	fn.ADCS(t[5], t[5], l)
	fn.ADC(t[6], t[6], ZR)
	fn.Comment("doubled, then the squares xi² added")
	fn.ADDS(t[1], t[1], t[1])
	fn.ADCS(t[2], t[2], t[2])
	fn.ADCS(t[3], t[3], t[3])
	fn.ADCS(t[4], t[4], t[4])
	fn.ADCS(t[5], t[5], t[5])
	fn.ADCS(t[6], t[6], t[6])
	fn.ADC(t[7], ZR, ZR)
	fn.MUL(t[0], x[0], x[0])
	fn.UMULH(a, x[0], x[0])
	fn.MUL(l, x[1], x[1])
	fn.UMULH(h, x[1], x[1])
	fn.ADDS(t[1], t[1], a)
	fn.ADCS(t[2], t[2], l)
	fn.ADCS(t[3], t[3], h)
	fn.MUL(l, x[2], x[2])
	fn.UMULH(h, x[2], x[2])
	fn.ADCS(t[4], t[4], l)
	fn.ADCS(t[5], t[5], h)
	fn.MUL(l, x[3], x[3])
	fn.UMULH(h, x[3], x[3])
	fn.ADCS(t[6], t[6], l)
	fn.ADC(t[7], t[7], h)
	regs.Put(l, h, a, b)
	return f.reduce(t, regs)
}

// reduce returns t·2^-256 mod p for the product t < p² in eight
// registers: four rounds on the low half (each (u + m·p)/2^64, below
// 2^256 without a fifth limb, leaving a value ≤ p), the high half added
// (r < 2p), and one conditional subtraction. It gives back t's registers
// but the four of the result.
func (f *P256) reduce(t []GP, regs *Pool) []GP {
	fn := f.fn
	fn.Comment("four reduction rounds on t[0..3]")
	u := []GP{t[0], t[1], t[2], t[3]}
	s, lo, hi := regs.Get(), regs.Get(), regs.Get()
	for k := 0; k < 4; k++ {
		m := u[0]
		// A(m) = (m<<32, m>>32, lo, hi), lo:hi = m·p3 = (m:m) − (m>>32 : m<<32).
		fn.LSR(s, m, 32)
		fn.SUBS(lo, m, m.Lsl(32))
		fn.SBC(hi, m, s)
		fn.ADDS(u[1], u[1], m.Lsl(32))
		fn.ADCS(u[2], u[2], s)
		fn.ADCS(u[3], u[3], lo)
		// m itself is spent: its register becomes the new top limb.
		fn.ADC(m, hi, ZR)
		u = []GP{u[1], u[2], u[3], m}
	}
	regs.Put(s, lo, hi)
	fn.Comment("plus the high half, then minus p if that does not borrow")
	c := regs.Get()
	fn.ADDS(u[0], u[0], t[4])
	fn.ADCS(u[1], u[1], t[5])
	fn.ADCS(u[2], u[2], t[6])
	fn.ADCS(u[3], u[3], t[7])
	fn.ADC(c, ZR, ZR)
	f.subP(u, c, []GP{t[4], t[5], t[6], t[7]})
	regs.Put(c)
	regs.Put(t[4], t[5], t[6], t[7])
	return u
}

// subP sets u = u − p if the five-limb value (c:u) is at least p, with d as
// scratch (u < 2p on entry, so one subtraction suffices). No branch: the
// borrow of the subtraction selects.
func (f *P256) subP(u []GP, c GP, d []GP) {
	fn := f.fn
	// u0 − (2^64 − 1) = u0 + 1 mod 2^64, with no borrow exactly when
	// u0 + 1 carries: ADDS $1 sets the carry as SUBS of p0 would.
	fn.ADDS(d[0], u[0], 1)
	fn.SBCS(d[1], u[1], f.p1)
	fn.SBCS(d[2], u[2], ZR)
	fn.SBCS(d[3], u[3], f.p3)
	fn.SBCS(ZR, c, ZR)
	for i := range u {
		fn.CSEL(CS, u[i], d[i], u[i])
	}
}

// Add returns x + y mod p in four registers from regs (x, y < p); x and y
// are not changed.
func (f *P256) Add(x, y []GP, regs *Pool) []GP {
	fn := f.fn
	u := regs.GetN(4)
	c := regs.Get()
	d := regs.GetN(4)
	fn.ADDS(u[0], x[0], y[0])
	fn.ADCS(u[1], x[1], y[1])
	fn.ADCS(u[2], x[2], y[2])
	fn.ADCS(u[3], x[3], y[3])
	fn.ADC(c, ZR, ZR)
	f.subP(u, c, d)
	regs.Put(d...)
	regs.Put(c)
	return u
}

// Sub returns x − y mod p in four registers from regs (x, y < p); x and y
// are not changed. p is added back under a mask when the subtraction
// borrows.
func (f *P256) Sub(x, y []GP, regs *Pool) []GP {
	fn := f.fn
	u := regs.GetN(4)
	m := regs.Get()
	fn.SUBS(u[0], x[0], y[0])
	fn.SBCS(u[1], x[1], y[1])
	fn.SBCS(u[2], x[2], y[2])
	fn.SBCS(u[3], x[3], y[3])
	fn.CSETM(CC, m)
	// + (p & m): p0 & m = m, p1 & m, 0, p3 & m.
	a1, a3 := regs.Get(), regs.Get()
	fn.AND(a1, m, f.p1)
	fn.AND(a3, m, f.p3)
	fn.ADDS(u[0], u[0], m)
	fn.ADCS(u[1], u[1], a1)
	fn.ADCS(u[2], u[2], ZR)
	fn.ADC(u[3], u[3], a3)
	regs.Put(m, a1, a3)
	return u
}

// Limbs returns 4.
func (f *P256) Limbs() int { return 4 }

// Regs returns the registers each operation holds at once, its result's
// included (formula.go's Field.Regs): the product's eight limbs and two
// scratch registers, then three in the reduction (Mul: 11); the square's
// eight and four (12); the sum, its carry and the difference with p (Add:
// 9); the difference, its mask and p's two masked limbs (Sub: 7); the half
// with its mask, carry and p's two limbs (Half: 8); p − x and the zero
// test (Neg: 5). TestRegs checks each figure is both enough and needed.
func (f *P256) Regs(op formula.Op) int {
	switch op {
	case formula.Mul:
		return 11
	case formula.Sqr:
		return 12
	case formula.Add:
		return 9
	case formula.Sub:
		return 7
	case formula.Half:
		return 8
	case formula.Neg:
		return 5
	}
	panic("a64: P256 has no operation " + fmt.Sprint(op))
}

// Consumes returns false: no operation takes its operands' registers.
func (f *P256) Consumes(op formula.Op) bool { return false }

// Half returns x/2 mod p in four registers from regs (x < p): x, plus p if
// x is odd (under a mask), shifted right by one bit across five limbs.
func (f *P256) Half(x []GP, regs *Pool) []GP {
	fn := f.fn
	u := regs.GetN(4)
	m, c, a1, a3 := regs.Get(), regs.Get(), regs.Get(), regs.Get()
	// m = all ones if x is odd: the low bit, negated.
	fn.AND(m, x[0], 1)
	fn.NEG(m, m)
	fn.AND(a1, m, f.p1)
	fn.AND(a3, m, f.p3)
	fn.ADDS(u[0], x[0], m)
	fn.ADCS(u[1], x[1], a1)
	fn.ADCS(u[2], x[2], ZR)
	fn.ADCS(u[3], x[3], a3)
	fn.ADC(c, ZR, ZR)
	fn.EXTR(u[0], u[1], u[0], 1)
	fn.EXTR(u[1], u[2], u[1], 1)
	fn.EXTR(u[2], u[3], u[2], 1)
	fn.EXTR(u[3], c, u[3], 1)
	regs.Put(m, c, a1, a3)
	return u
}

// Neg returns −x mod p in four registers from regs (x < p): p − x, and 0
// for x = 0, selected without a branch.
func (f *P256) Neg(x []GP, regs *Pool) []GP {
	fn := f.fn
	u := regs.GetN(4)
	z := regs.Get()
	// u = p − x (no borrow: x < p); p0 = 2^64 − 1, p2 = 0.
	fn.MOVD(z, int64(-1))
	fn.SUBS(u[0], z, x[0])
	fn.SBCS(u[1], f.p1, x[1])
	fn.SBCS(u[2], ZR, x[2])
	fn.SBC(u[3], f.p3, x[3])
	// z = x0 | x1 | x2 | x3; u = 0 where z = 0.
	fn.ORR(z, x[0], x[1])
	fn.ORR(z, z, x[2])
	fn.ORR(z, z, x[3])
	fn.CMP(z, 0)
	for i := range u {
		fn.CSEL(EQ, u[i], ZR, u[i])
	}
	regs.Put(z)
	return u
}
