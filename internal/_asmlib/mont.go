package asmlib

// Montgomery multiplication for any limb count (this file) and a modulus
// given by its limbs and its reduction round (p384.go holds P-384's). The
// P-256 helpers of p256.go are the four-limb, one-modulus version of the
// same structure.
//
// The multiplication is word-by-word (CIOS) Montgomery multiplication over
// a sliding window a[k..k+n+1] of accumulator limbs, n the limb count: row
// k adds x·y[k] at limbs k..k+n, carrying into a new limb a[k+n+1], then
// round k adds q·m for the quotient digit q of a[k], which retires a[k].
// Relative to 2^(64k) the accumulator is below 2m before row k, below
// m·(2^64+2) < 2^(64(n+1)+1) after it, and below 2m again after round k,
// so a[k+n+1] is a carry bit and no carry is lost for any m < 2^(64n).
// (The P-256 helpers of p256.go put row k+1 before round k instead, which
// needs m·(2^128+2^64+2) < 2^(64(n+2)): true for P-256, false for P-384.)
// After the last round the result r < 2m is the limbs a[n..2n−1] plus the
// bit a[2n], and one conditional subtraction of m finishes.

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// LimbsN returns the n limb operands of the element at (base).
func LimbsN(base GPPhysical, n int) []Mem {
	e := make([]Mem, n)
	for i := range e {
		e[i] = Mem{Base: base}.Offset(8 * i)
	}
	return e
}

// Round emits one reduction round on the window a[k..k+n+1] of an n-limb
// multiplication: it adds q·m, q the Montgomery quotient digit of a[k], so
// that a[k] becomes zero and is retired; the carry out of a[k+n] goes into
// a[k+n+1]. t are four scratch registers; a[k] may be overwritten.
type Round func(a []GPPhysical, k int, t [4]GPPhysical)

// Modulus is what the n-limb kernels need to know of m: its limbs, least
// significant first, and its reduction round.
type Modulus struct {
	Limbs []uint64
	Round Round
}

// N returns the limb count.
func (m *Modulus) N() int { return len(m.Limbs) }

// MulRowN adds x·y[r] into a[r..r+n] on the two carry chains of ADCX
// (low halves) and ADOX (high halves), and sets the new limb a[r+n+1],
// taken from regs, to the carries out of a[r+n]. It uses DX and three
// scratch registers of regs.
func MulRowN(a []GPPhysical, x, y []Mem, r int, regs *Pool) {
	n := len(x)
	Commentf("Row %d: a[%d..%d] += x·y[%d]; low halves on CF, high halves on OF.", r, r, r+n+1, r)
	lo, hi, zr := regs.Get(), regs.Get(), regs.Get()
	a[r+n+1] = regs.Get()
	MOVQ(y[r], RDX)
	XORL(zr.As32(), zr.As32())
	MOVL(U32(0), a[r+n+1].As32())
	for j := 0; j < n; j++ {
		MULXQ(x[j], lo, hi)
		ADCXQ(lo, a[r+j])
		ADOXQ(hi, a[r+j+1])
	}
	Comment("CF belongs to a[r+n]; its carry and OF go to a[r+n+1].")
	ADCXQ(zr, a[r+n])
	ADCXQ(zr, a[r+n+1])
	ADOXQ(zr, a[r+n+1])
	regs.Put(lo, hi, zr)
}

// MulRowMULQ adds x·y[r] into a[r..r+n] with MULQ and one carry chain,
// and sets the new limb a[r+n+1], taken from regs, to the carry out of
// a[r+n]. It uses AX, DX and one scratch register.
func MulRowMULQ(a []GPPhysical, x, y []Mem, r int, regs *Pool) {
	n := len(x)
	Commentf("Row %d: a[%d..%d] += x·y[%d].", r, r, r+n+1, r)
	hi := regs.Get()
	a[r+n+1] = regs.Get()
	for j := 0; j < n; j++ {
		MOVQ(x[j], RAX)
		MULQ(y[r])
		if j > 0 {
			ADDQ(hi, RAX)
			ADCQ(Imm(0), RDX)
		}
		ADDQ(RAX, a[r+j])
		ADCQ(Imm(0), RDX)
		if j < n-1 {
			MOVQ(RDX, hi)
		}
	}
	MOVL(U32(0), a[r+n+1].As32())
	ADDQ(RDX, a[r+n])
	ADCQ(Imm(0), a[r+n+1])
	regs.Put(hi)
}

// mulRow0 sets a[0..n] = x·y[0] and a[n+1] = 0, with MULX when adx, else
// with MULQ.
func mulRow0(a []GPPhysical, x, y []Mem, regs *Pool, adx bool) {
	n := len(x)
	Commentf("Row 0: a[0..%d] = x·y[0].", n+1)
	for i := 0; i <= n+1; i++ {
		a[i] = regs.Get()
	}
	XORL(a[n+1].As32(), a[n+1].As32())
	if adx {
		lo := regs.Get()
		MOVQ(y[0], RDX)
		MULXQ(x[0], a[0], a[1])
		for j := 1; j < n; j++ {
			MULXQ(x[j], lo, a[j+1])
			if j == 1 {
				ADDQ(lo, a[j])
			} else {
				ADCQ(lo, a[j])
			}
		}
		ADCQ(Imm(0), a[n])
		regs.Put(lo)
		return
	}
	for j := 0; j < n; j++ {
		MOVQ(x[j], RAX)
		MULQ(y[0])
		if j == 0 {
			MOVQ(RAX, a[0])
		} else {
			ADDQ(a[j], RAX) // a[j] holds the previous high half
			ADCQ(Imm(0), RDX)
			MOVQ(RAX, a[j])
		}
		MOVQ(RDX, a[j+1])
	}
}

// SubConst sets s = v − c limb by limb from copies of v, c a constant
// given by its limbs, and leaves the borrow in CF. pr is a scratch register
// for the limbs that are not a sign-extended 32-bit immediate.
func SubConst(s, v []GPPhysical, c []uint64, pr GPPhysical) {
	for i := range s {
		MOVQ(v[i], s[i])
	}
	for i, l := range c {
		op := ConstOp(l, pr)
		if i == 0 {
			SUBQ(op, s[i])
		} else {
			SBBQ(op, s[i])
		}
	}
}

// ConstOp returns the operand for the constant limb l of an addition or
// subtraction: a sign-extended 32-bit immediate when l is one, else pr,
// loaded with l by loadConst. It does not touch the flags, so it may run
// inside a carry chain.
func ConstOp(l uint64, pr GPPhysical) Op {
	if int64(l) == int64(int32(l)) {
		return I32(int32(l))
	}
	loadConst(l, pr)
	return pr
}

// loadConst sets r = l: MOVL when l fits in 32 bits (it clears the upper
// half), else MOVQ. Neither touches the flags.
func loadConst(l uint64, r GPPhysical) {
	if l <= 0xffffffff {
		MOVL(U32(uint32(l)), r.As32())
	} else {
		MOVQ(U64(l), r)
	}
}

// MontMulN returns x·y·2^(−64n) mod m, below m, in n registers from regs:
// row 0, round 0, then row k and round k for k = 1..n−1, then one
// conditional subtraction of m done with CMOV. With adx the rows use
// MULX/ADCX/ADOX (MulRowN) and regs must not hold DX; without, they use
// MULQ (MulRowMULQ) and regs must hold neither AX nor DX. The window needs
// n+2 registers and an ADX row three more (MULQ: one); the rounds take
// their four scratch registers from DX (ADX) or AX and DX (MULQ) first,
// then from regs. After the last round the registers of release (the
// operands' pointers) and AX join regs for the final subtraction. For
// n = 6, regs must hold the eleven registers other than DX and release's
// two (ADX), or the ten other than AX and DX (MULQ).
func MontMulN(x, y []Mem, m *Modulus, regs *Pool, adx bool, release ...GPPhysical) []GPPhysical {
	n := m.N()
	if len(x) != n || len(y) != n {
		panic(fmt.Sprintf("asmlib: %d-limb operands for a %d-limb modulus", len(x), n))
	}
	var extra []GPPhysical
	row := MulRowMULQ
	if adx {
		extra = []GPPhysical{RDX}
		row = MulRowN
	} else {
		extra = []GPPhysical{RAX, RDX}
	}
	a := make([]GPPhysical, 2*n+1)
	mulRow0(a, x, y, regs, adx)
	round := func(k int) {
		var t [4]GPPhysical
		var taken []GPPhysical
		for i := range t {
			if i < len(extra) {
				t[i] = extra[i]
			} else {
				t[i] = regs.Get()
				taken = append(taken, t[i])
			}
		}
		m.Round(a, k, t)
		regs.Put(taken...)
		regs.Put(a[k])
	}
	round(0)
	for k := 1; k < n; k++ {
		row(a, x, y, k, regs)
		round(k)
	}
	regs.Put(release...)
	regs.Put(extra[:len(extra)-1]...)

	Commentf("r = a[%d..%d] + 2^%d·a[%d] < 2m; r − m unless that borrows.", n, 2*n-1, 64*n, 2*n)
	r, hi := a[n:2*n], a[2*n]
	s := make([]GPPhysical, n)
	for i := range s {
		s[i] = regs.Get()
	}
	SubConst(s, r, m.Limbs, extra[len(extra)-1])
	SBBQ(Imm(0), hi) // borrows iff the top bit is 0 and r − m borrowed
	for i := range s {
		CMOVQCS(r[i], s[i])
	}
	regs.Put(r...)
	regs.Put(hi)
	return s
}

// MulxRound returns the textbook reduction round for a modulus of no
// special form, for ADX kernels: the quotient digit q = a[k]·k0, k0 =
// −m⁻¹ mod 2^64, by IMUL into DX, then q·m added on the two carry chains
// of ADCX and ADOX, m's limbs read from mem. Its first scratch register
// must be DX (MontMulN's ADX rounds get DX first).
func MulxRound(mem []Mem, k0 uint64) Round {
	return func(a []GPPhysical, k int, t [4]GPPhysical) {
		n := len(mem)
		Commentf("Round %d: q = a[%d]·k0; a[%d..%d] += q·m.", k, k, k, k+n+1)
		if t[0] != RDX {
			panic("asmlib: MulxRound needs DX as its first scratch register")
		}
		lo, hi, zr := t[1], t[2], t[3]
		MOVQ(a[k], RDX)
		MOVQ(U64(k0), lo)
		IMULQ(lo, RDX)
		XORL(zr.As32(), zr.As32())
		for j := 0; j < n; j++ {
			MULXQ(mem[j], lo, hi)
			ADCXQ(lo, a[k+j])
			ADOXQ(hi, a[k+j+1])
		}
		ADCXQ(zr, a[k+n])
		ADCXQ(zr, a[k+n+1])
		ADOXQ(zr, a[k+n+1])
	}
}

// AddMod returns a + b mod m in new registers from regs, for a, b < m < 2^(64n)
// given by its n limbs, and frees a: the sum on ADD/ADC with its carry, then
// the sum less m, kept by CMOV unless that borrows. b may be registers or
// memory (a itself for a doubling). It takes n + 2 registers besides a.
func AddMod(a []GPPhysical, b []Op, m []uint64, regs *Pool) []GPPhysical {
	c := regs.Get()
	XORL(c.As32(), c.As32())
	ADDQ(b[0], a[0])
	for i := 1; i < len(a); i++ {
		ADCQ(b[i], a[i])
	}
	ADCQ(Imm(0), c)
	s := make([]GPPhysical, len(a))
	for i := range s {
		s[i] = regs.Get()
	}
	pr := regs.Get()
	SubConst(s, a, m, pr)
	SBBQ(Imm(0), c) // borrows iff a + b < m
	for i := range s {
		CMOVQCS(a[i], s[i])
	}
	regs.Put(a...)
	regs.Put(c, pr)
	return s
}

// SubMod sets a = a − b mod m, for a, b < m given by its limbs: the
// difference on SUB/SBB, then m masked by the borrow added back. b may be
// registers or memory. It takes one register for the mask, and one more
// for each limb of m other than 0 and 2^64 − 1 (those are an immediate 0
// and the mask itself).
func SubMod(a []GPPhysical, b []Op, m []uint64, regs *Pool) {
	mask := regs.Get()
	SUBQ(b[0], a[0])
	for i := 1; i < len(a); i++ {
		SBBQ(b[i], a[i])
	}
	SBBQ(mask, mask) // −borrow: add m back
	add := make([]Op, len(m))
	var taken []GPPhysical
	for i, l := range m {
		switch {
		case l == 0:
			add[i] = Imm(0)
		case l == ^uint64(0):
			add[i] = mask
		default:
			r := regs.Get()
			taken = append(taken, r)
			loadConst(l, r)
			ANDQ(mask, r)
			add[i] = r
		}
	}
	ADDQ(add[0], a[0])
	for i := 1; i < len(a); i++ {
		ADCQ(add[i], a[i])
	}
	regs.Put(mask)
	regs.Put(taken...)
}
