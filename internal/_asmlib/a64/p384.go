package a64

import (
	"fmt"
	"slices"

	"github.com/p256tls/p256tls/internal/_asmlib/formula"
)

// P-384's field arithmetic on arm64, in registers: the Montgomery product
// and square (R = 2^384), the modular addition and subtraction, and the
// halving and negation, for the field kernels
// (internal/p384/field/_asm/arm64) and the fused point kernels
// (internal/gen/point/_asm/arm64, through formula.go's Field).
// Every operation takes and returns elements below p, fully reduced, so
// each gives the same limbs as the Go twins whatever the order of
// operations around it. All are constant time: no branch, no memory
// access.
//
// # Reduction
//
// It is the one internal/p384/field's redc (field_generic.go) and
// asmlib's mul384.go explain: p = 2^384 − c, the quotient digit of the
// low limb u0 is m = u0 + u0<<32 mod 2^64, and a round subtracts the limbs
// 1..3 of m·c, (t1, t2, t3) = (s − sh − [m < s], m + sh − borrow(t1),
// carry(m + sh)) with s = m<<32 = u0<<32 and sh = m>>32, from the next
// three limbs: no multiplication. As in mul384.go, a round leaves its
// borrow for the next round's t3 (t3 + borrow ≤ 2) instead of propagating
// it, and the digits are added once at the end; here a digit simply stays
// in the register of the limb it came from. The low half u = t[0..5] of
// the product is reduced alone: the twelve limbs l[0..11] are t[0..5],
// then the digits, m_k = l[k+6]; round k subtracts at l[k+1..k+3], so
// after six rounds l[6..11] = (u + Q·p)/2^384 ≤ p. Adding the high half
// t[6..11] gives r < 2p, and one conditional subtraction finishes.
//
// A round is twelve instructions: LSL s, ADD m; LSR sh; SUBS (m < s), SBCS
// t1; SBC, ADDS t2 with t3 in the carry, ADC t3 + the previous borrow;
// SUBS, SBCS, SBCS from l[k+1..k+3]; CSET the borrow. A product costs its
// 36 MUL and 36 UMULH and 71 additions, a square its 21 and 21 and 54
// (four of them carry across a split, see Square), the six rounds 74
// instructions, the final addition and subtraction 20.
//
// # Subtracting p
//
// p's limbs are p0 = 2^32 − 1, p1 = 2^64 − 2^32 = ^p0, p2 = 2^64 − 2 = ^1
// and p3 = p4 = p5 = 2^64 − 1. SBCS computes a + ^b + carry, so a − p1
// is ADCS of p0, a − p2 ADCS of 1 and a − p3 ADCS of ZR: p0 and 1 are the
// only constants in registers.
//
// # Registers
//
// The operations take their scratch from a Pool and give it back. With
// x, y and the two constants in registers, each needs at most 24 of
// Usable's 26 at once (TestP384Registers checks the counts in the doc
// comments). To stay there, the binary operations consume y: Mul reuses
// y's registers once their rows are done, Add and Sub overwrite them with
// the result.

// P384 holds the constants of p the subtraction needs in registers, p0 =
// 2^32 − 1 and 1, loaded once per kernel by NewP384.
type P384 struct {
	fn      *Func
	p0, one GP
}

// NewP384 loads p0 and 1 into two registers taken from regs, for the
// operations below, which leave them unchanged.
func NewP384(fn *Func, regs *Pool) *P384 {
	f := &P384{fn: fn, p0: regs.Get(), one: regs.Get()}
	fn.MOVD(f.p0, uint64(0xffffffff))
	fn.MOVD(f.one, 1)
	return f
}

// Mul returns x·y·2^-384 mod p in six registers from regs, for x, y < p.
// x is not changed. y is consumed: each y[i] goes back to regs after the
// row that uses it (the product is symmetric: pass as y the operand that
// is no longer needed). It needs ten registers in regs besides y's, and
// gives back all but the six of the result. If y is x (the same
// registers), it is Square(x) and x is kept.
//
// The rows of x·y and the reduction rounds alternate, round k after row
// k+1 (as in asmlib's Mul384ADX), so that the rounds overlap the
// multiplications instead of following them (llvm-mca, N1 model: 89.2
// cycles against 94.7 with the rounds after the product).
func (f *P384) Mul(x, y []GP, regs *Pool) []GP {
	if sameOperand(x, y) {
		return f.Square(x, regs)
	}
	fn := f.fn
	t := make([]GP, 12)
	for i := 0; i < 7; i++ {
		t[i] = regs.Get()
	}
	tmp := regs.GetN(2)
	fn.Comment("row 0: t[0..6] = x·y0")
	productRow(fn, t, x, y[0], 0, tmp)
	regs.Put(tmp...)
	regs.Put(y[0])
	red := newRed384(f, t[:6])
	for i := 1; i < 6; i++ {
		t[i+6] = regs.Get()
		tmp := regs.GetN(2)
		fn.Comment("row %d: t[%d..%d] += x·y%d", i, i, i+6, i)
		productRow(fn, t, x, y[i], i, tmp)
		regs.Put(tmp...)
		regs.Put(y[i])
		red.round(i-1, regs)
	}
	red.round(5, regs)
	return f.finish(red.l[6:], t[6:], regs)
}

// Square returns x·x·2^-384 mod p in six registers from regs, for x < p; x
// is not changed. It needs sixteen registers in regs and gives back all
// but the six of the result.
//
// The product is the square's own: the fifteen products xi·xj, i < j, by
// rows, doubled, plus the six squares xi², 21 MUL and 21 UMULH. The
// doubling and the squares, each one carry chain, are split after t5, so
// that the low half is final after rows 0..2 and the first rounds run
// before rows 3 and 4 (llvm-mca, M1 model: 73.2 cycles against 81.2 with
// one chain each and the rounds after them; N1 72.2 either way).
func (f *P384) Square(x []GP, regs *Pool) []GP {
	fn := f.fn
	t := make([]GP, 12)
	row := func(i int) {
		if i == 0 {
			copy(t, regs.GetN(7))
		} else {
			t[i+6] = regs.Get()
		}
		tmp := regs.GetN(2)
		defer regs.Put(tmp...)
		if i == 0 {
			fn.Comment("the products xi·xj, i < j, into t[1..10]; row 0: t[1..6] = x0·(x1..x5)")
			for j := 1; j < 6; j++ {
				fn.MUL(t[j], x[0], x[j])
			}
			fn.UMULH(t[6], x[0], x[5])
			for j := 1; j < 5; j++ {
				fn.UMULH(tmp[j%2], x[0], x[j])
				if j == 1 {
					fn.ADDS(t[2], t[2], tmp[1])
				} else {
					fn.ADCS(t[j+1], t[j+1], tmp[j%2])
				}
			}
			fn.ADC(t[6], t[6], ZR)
			return
		}
		// Row i adds xi·x(i+1..5) at t[2i+1..i+6], the low halves on one
		// chain, whose carry goes into the new limb t[i+6] = hi(xi·x5),
		// then the other high halves; each partial sum is below
		// 2^(64(i+7)), so nothing carries out of t[i+6].
		fn.Comment("row %d: t[%d..%d] += x%d·(x%d..x5)", i, 2*i+1, i+6, i, i+1)
		for j := i + 1; j < 6; j++ {
			fn.MUL(tmp[j%2], x[i], x[j])
			if j == i+1 {
				fn.ADDS(t[i+j], t[i+j], tmp[j%2])
			} else {
				fn.ADCS(t[i+j], t[i+j], tmp[j%2])
			}
		}
		fn.UMULH(t[i+6], x[i], x[5])
		fn.ADC(t[i+6], t[i+6], ZR)
		if i == 4 {
			return
		}
		for j := i + 1; j < 5; j++ {
			fn.UMULH(tmp[j%2], x[i], x[j])
			if j == i+1 {
				fn.ADDS(t[i+j+1], t[i+j+1], tmp[j%2])
			} else {
				fn.ADCS(t[i+j+1], t[i+j+1], tmp[j%2])
			}
		}
		fn.ADC(t[i+6], t[i+6], ZR)
	}
	// cd and cs keep the carries into t6 of the doubling's and the
	// squares' chains over t[0..5].
	cd, cs := regs.Get(), regs.Get()
	lowHalf := func() {
		a, b := regs.Get(), regs.Get()
		defer regs.Put(a, b)
		fn.Comment("t[0..5]: doubled, plus x0², x1², x2²")
		fn.ADDS(t[1], t[1], t[1])
		for i := 2; i <= 5; i++ {
			fn.ADCS(t[i], t[i], t[i])
		}
		fn.CSET(CS, cd)
		fn.MUL(t[0], x[0], x[0])
		fn.UMULH(a, x[0], x[0])
		fn.ADDS(t[1], t[1], a)
		for i := 1; i < 3; i++ {
			fn.MUL(a, x[i], x[i])
			fn.UMULH(b, x[i], x[i])
			fn.ADCS(t[2*i], t[2*i], a)
			fn.ADCS(t[2*i+1], t[2*i+1], b)
		}
		fn.CSET(CS, cs)
	}
	highHalf := func() {
		t[11] = regs.Get()
		fn.Comment("t[6..11]: doubled, plus x3², x4², x5², after the carries of t[0..5]")
		fn.SUBS(cd, cd, 1) // the carry flag = cd
		for i := 6; i <= 10; i++ {
			fn.ADCS(t[i], t[i], t[i])
		}
		fn.ADC(t[11], ZR, ZR)
		fn.SUBS(cs, cs, 1)
		// Spent, cd and cs hold the products.
		a, b := cd, cs
		for i := 3; i < 6; i++ {
			fn.MUL(a, x[i], x[i])
			fn.UMULH(b, x[i], x[i])
			fn.ADCS(t[2*i], t[2*i], a)
			if i < 5 {
				fn.ADCS(t[2*i+1], t[2*i+1], b)
			} else {
				fn.ADC(t[11], t[11], b)
			}
		}
		regs.Put(a, b)
	}
	row(0)
	row(1)
	row(2)
	lowHalf()
	red := newRed384(f, t[:6])
	for k := 0; k < 3; k++ {
		red.round(k, regs)
	}
	row(3)
	red.round(3, regs)
	row(4)
	highHalf()
	red.round(4, regs)
	red.round(5, regs)
	return f.finish(red.l[6:], t[6:], regs)
}

// sameOperand reports whether y is x, the same registers in the same
// order; it panics if they share some registers but not all, in place.
func sameOperand(x, y []GP) bool {
	if slices.Equal(x, y) {
		return true
	}
	for _, r := range y {
		if slices.Contains(x, r) {
			panic(fmt.Sprintf("a64: operands %v and %v share a register", x, y))
		}
	}
	return false
}

// red384 is the reduction of the low half of a product: l[0..11], the
// half's six limbs and then the digits (package comment), and the
// register of the borrow a round leaves for the next.
type red384 struct {
	f *P384
	l []GP
	b GP
}

func newRed384(f *P384, lo []GP) *red384 {
	return &red384{f: f, l: append(append([]GP{}, lo...), make([]GP, 6)...)}
}

// round emits round k: m = l[k]·(2^32+1) mod 2^64 in l[k]'s register, which
// becomes l[k+6]; t1, t2 and t3 + the previous borrow subtracted from
// l[k+1..k+3], the borrow out kept in r.b (taken from regs in round 0).
// The last round propagates the borrow through l[9..11] instead, where it
// ends: l[6..11] is then the reduced value. It takes three registers from
// regs and gives them back.
func (r *red384) round(k int, regs *Pool) {
	fn, l := r.f.fn, r.l
	m := l[k]
	s, sh, t2 := regs.Get(), regs.Get(), regs.Get()
	if k == 0 {
		r.b = regs.Get()
	}
	fn.Comment("round %d: m = l%d·(2^32+1); l[%d..%d] −= limbs 1..3 of m·c", k, k, k+1, k+3)
	fn.LSL(s, m, 32)
	fn.ADD(m, m, m.Lsl(32))
	fn.LSR(sh, m, 32)
	// t1 = s − sh − [m < s] in s. The comparison writes t2, not ZR: no
	// core waits on ZR, but llvm-mca's models make every later MUL (MADD
	// with ZR) wait on such a write.
	fn.SUBS(t2, m, s)
	fn.SBCS(s, s, sh)
	// t2 = m − borrow(t1) + sh, whose carry is t3: m − borrow(t1) does not
	// wrap (m = 0 makes t1 = 0), and it changes the carry of m + sh only if
	// m + sh = 2^64, which needs m = 2^64 − 2^32 + 1, where t1 = 1 does not
	// borrow. t3 + the previous borrow into r.b.
	fn.SBC(t2, m, ZR)
	fn.ADDS(t2, t2, sh)
	if k == 0 {
		fn.ADC(r.b, ZR, ZR)
	} else {
		fn.ADC(r.b, r.b, ZR)
	}
	fn.SUBS(l[k+1], l[k+1], s)
	fn.SBCS(l[k+2], l[k+2], t2)
	fn.SBCS(l[k+3], l[k+3], r.b)
	regs.Put(s, sh, t2)
	l[k+6] = m
	if k < 5 {
		fn.CSET(CC, r.b)
		return
	}
	fn.SBCS(l[9], l[9], ZR)
	fn.SBCS(l[10], l[10], ZR)
	fn.SBC(l[11], l[11], ZR)
	regs.Put(r.b)
}

// finish returns u + h mod p in u's registers, for the reduced low half
// u ≤ p and the high half h < p, and gives h's registers back to regs.
func (f *P384) finish(u, h []GP, regs *Pool) []GP {
	f.fn.Comment("plus the high half, then minus p if that does not borrow")
	f.addMod(u, u, h, h, regs)
	regs.Put(h...)
	return u
}

// addMod sets d = a + b mod p, for a + b < 2p, with s (six registers, not
// d's) as scratch; it takes one more register from regs and gives it back.
// d may be a or b.
func (f *P384) addMod(d, a, b, s []GP, regs *Pool) {
	fn := f.fn
	c := regs.Get()
	fn.ADDS(d[0], a[0], b[0])
	for i := 1; i < 6; i++ {
		fn.ADCS(d[i], a[i], b[i])
	}
	fn.CSET(CS, c)
	f.subP(d, c, s)
	regs.Put(c)
}

// subP sets u = u − p if the seven-limb value (c:u) is at least p, with d
// as scratch (c:u < 2p on entry, so one subtraction suffices). No branch:
// the borrow of the subtraction selects.
func (f *P384) subP(u []GP, c GP, d []GP) {
	fn := f.fn
	fn.SUBS(d[0], u[0], f.p0)
	fn.ADCS(d[1], u[1], f.p0) // − p1 = + ^p1 = + p0
	fn.ADCS(d[2], u[2], f.one)
	fn.ADCS(d[3], u[3], ZR)
	fn.ADCS(d[4], u[4], ZR)
	fn.ADCS(d[5], u[5], ZR)
	fn.SBCS(c, c, ZR)
	for i := range u {
		fn.CSEL(CS, u[i], d[i], u[i])
	}
}

// Add returns x + y mod p (x, y < p) in y's registers: x is not changed,
// y is overwritten (so is x if y is x). It needs seven registers in regs
// and gives them back.
func (f *P384) Add(x, y []GP, regs *Pool) []GP {
	sameOperand(x, y)
	s := regs.GetN(6)
	f.addMod(y, x, y, s, regs)
	regs.Put(s...)
	return y
}

// Sub returns x − y mod p (x, y < p) in y's registers: x is not changed,
// y is overwritten (so is x if y is x). p is added back under a mask when
// the subtraction borrows. It needs four registers in regs and gives them
// back.
func (f *P384) Sub(x, y []GP, regs *Pool) []GP {
	sameOperand(x, y)
	f.subMod(y, x, y, regs)
	return y
}

// Neg returns −x mod p in six new registers from regs (x < p): 0 − x, with
// p added back under the mask of its borrow, which is p − x for x ≠ 0 and
// 0 for x = 0. x is not changed. It needs ten registers in regs and gives
// back all but the six of the result.
func (f *P384) Neg(x []GP, regs *Pool) []GP {
	u := regs.GetN(6)
	zero := []GP{ZR, ZR, ZR, ZR, ZR, ZR}
	f.subMod(u, zero, x, regs)
	return u
}

// subMod sets d = x − y mod p (x, y < p; d may be y): p is added back
// under a mask when the subtraction borrows. It takes four registers from
// regs and gives them back.
func (f *P384) subMod(d, x, y []GP, regs *Pool) {
	fn := f.fn
	fn.SUBS(d[0], x[0], y[0])
	for i := 1; i < 6; i++ {
		fn.SBCS(d[i], x[i], y[i])
	}
	m := regs.Get()
	fn.CSETM(CC, m)
	f.addMaskedP(d, d, m, regs)
	regs.Put(m)
}

// addMaskedP sets d = x + (p & m), for m all ones or zero, with the carry
// out of d[5] in the flags (d may be x). It takes three registers from
// regs and gives them back.
func (f *P384) addMaskedP(d, x []GP, m GP, regs *Pool) {
	fn := f.fn
	// p & m: p0 & m, p1 & m = m &^ p0, p2 & m = m &^ 1, then m thrice.
	a := regs.GetN(3)
	fn.AND(a[0], m, f.p0)
	fn.BIC(a[1], m, f.p0)
	fn.BIC(a[2], m, f.one)
	fn.ADDS(d[0], x[0], a[0])
	fn.ADCS(d[1], x[1], a[1])
	fn.ADCS(d[2], x[2], a[2])
	fn.ADCS(d[3], x[3], m)
	fn.ADCS(d[4], x[4], m)
	fn.ADCS(d[5], x[5], m)
	regs.Put(a...)
}

// Half returns x/2 mod p in six new registers from regs (x < p): x, plus p
// if x is odd (under a mask), shifted right by one bit across seven limbs.
// x is not changed. It needs eleven registers in regs and gives back all
// but the six of the result.
func (f *P384) Half(x []GP, regs *Pool) []GP {
	fn := f.fn
	u := regs.GetN(6)
	m, hi := regs.Get(), regs.Get()
	// m = all ones if x is odd.
	fn.AND(m, x[0], 1)
	fn.NEG(m, m)
	f.addMaskedP(u, x, m, regs)
	fn.CSET(CS, hi)
	for i := 0; i < 5; i++ {
		fn.EXTR(u[i], u[i+1], u[i], 1)
	}
	fn.EXTR(u[5], hi, u[5], 1)
	regs.Put(m, hi)
	return u
}

// Limbs returns 6.
func (f *P384) Limbs() int { return 6 }

// Regs returns the registers each operation needs from regs besides its
// operands (formula.go's Field.Regs), the figures of the doc comments
// above, which TestP384Registers checks: Mul 10 (beside y's, which it
// consumes), Sqr 16, Add 7, Sub 4, Half 11, Neg 10.
func (f *P384) Regs(op formula.Op) int {
	switch op {
	case formula.Mul:
		return 10
	case formula.Sqr:
		return 16
	case formula.Add:
		return 7
	case formula.Sub:
		return 4
	case formula.Half:
		return 11
	case formula.Neg:
		return 10
	}
	panic("a64: P384 has no operation " + fmt.Sprint(op))
}

// Consumes reports true for Mul, Add and Sub, which take y's registers.
func (f *P384) Consumes(op formula.Op) bool {
	return op == formula.Mul || op == formula.Add || op == formula.Sub
}
