// Package asmlib holds the avo building blocks of field arithmetic that the
// repository's assembly generators share: internal/p256/field/_asm (the field
// kernels), internal/gen/point/_asm (the fused Jacobian kernels),
// internal/p256/comb/_asm (the comb's fused complete additions and its
// eight-lane kernel), internal/p384/field/_asm and internal/p384/lanes/_asm
// (P-384's eight-lane chain). For P-256 (this file): a register pool, the
// reduction addend of p, the subtraction of p, the rows and rounds of the
// MULX/ADCX/ADOX Montgomery multiplication and the whole multiplication
// (MulADX), and the squaring's product, reduction and final addition
// (SquareProductADX, ReduceLow, FinalADX). For P-384 (mul384.go): the
// multiplications and squarings of internal/p384/field and of P-384's fused
// point kernels (Mul384ADX, Mul384MULQ, Square384ADX, Square384MULQ). For any
// limb count and modulus (mont.go): the subtraction of a constant, the
// modular addition and subtraction (AddMod, SubMod), and the textbook
// Montgomery multiplication MontMulN, which with P-384's round (p384.go)
// is now only internal/p384/field's comparison kernels. For AVX-512
// (vec.go): the radix-2^52 helpers of the eight-lane kernels and the
// interpreter of the formula programs they and the comb run. It is a
// module of its own, used by the generators through replace directives; it
// is not part of the library.
//
// # Reduction
//
// This is the one explanation of the reduction; the generators refer to
// it. p = 2^256 − 2^224 + 2^192 + 2^96 − 1 has the limbs p0 = 2^64 − 1,
// p1 = 2^32 − 1, p2 = 0, p3 = 2^64 − 2^32 + 1, and Montgomery form uses
// R = 2^256. With m the low limb of the value u being reduced, p ≡ −1
// (mod 2^64) makes m the Montgomery quotient digit (−p⁻¹ ≡ 1), and
// u + m·p = (u − m) + m·(p + 1) with p + 1 = 2^64·(2^32 + p3·2^128), so
//
//	(u + m·p) / 2^64 = (u >> 64) + A(m),  A(m) = m·2^32 + m·p3·2^128.
//
// A(m) is the four limbs (m<<32, m>>32, lo(m·p3), hi(m·p3)), and since
// m·p3 = m·2^64 + m − m·2^32 = (m:m) − (m>>32 : m<<32) the last two are
// one subtraction with borrow away (Addend): a round costs two shifts,
// SUB/SBB and four additions, and no multiplication.
//
// # Bounds
//
// Reducing a value u < 2^256 by one round gives (u + m·p)/2^64 <
// 2^192 + p < 2^256, so the low half of a product is reduced in four
// rounds without a fifth limb (ReduceLow), leaving a value ≤ p; adding the
// high half (< p) gives r < 2p, and one conditional subtraction of p, done
// with CMOV, finishes (FinalADX). The interleaved multiplication (MulADX)
// instead keeps a five-limb window that stays below p·(2^64+1) < 2^320
// after each round, and below 2p after the last.
//
// # Other moduli
//
// What is specific to P-256 here is the addend A(m) (Addend, MulRound,
// ReduceLow), the constant limbs of SubP and the four-limb FE. The row
// structure (MulRow, the product of SquareProductADX) and the final
// selections are the same for any limb count. P-384's products are
// mul384.go's, whose rounds for p = 2^384 − c keep their borrow and add the
// quotient digits at the end (explained there); AddMod and SubMod take any
// modulus's limbs (P256Limbs for the comb).
package asmlib

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// Limbs of p that are neither 0 nor 2^64 − 1.
const (
	P1 = 0x00000000ffffffff
	P3 = 0xffffffff00000001
)

// P256Limbs are the limbs of p, least significant first, for the n-limb
// helpers of mont.go (SubConst, AddMod, SubMod).
var P256Limbs = []uint64{0xffffffffffffffff, P1, 0, P3}

// FE is a field element in memory: four limb operands, least significant
// first.
type FE [4]Mem

// Limbs returns the element at (base).
func Limbs(base GPPhysical) FE { return At(Mem{Base: base}, 0) }

// At returns the element at byte offset disp from m.
func At(m Mem, disp int) FE {
	var e FE
	for i := range e {
		e[i] = m.Offset(disp + 8*i)
	}
	return e
}

// Pool is a free list of physical registers, handed out in a fixed order so
// that the output does not change from run to run.
type Pool struct{ free []GPPhysical }

// NewPool returns a pool of rs, handed out first to last.
func NewPool(rs ...GPPhysical) *Pool { return &Pool{free: rs} }

// Get takes a register from the pool.
func (p *Pool) Get() GPPhysical {
	if len(p.free) == 0 {
		panic("out of registers")
	}
	r := p.free[0]
	p.free = p.free[1:]
	return r
}

// Get4 takes four registers.
func (p *Pool) Get4() [4]GPPhysical {
	return [4]GPPhysical{p.Get(), p.Get(), p.Get(), p.Get()}
}

// Put returns registers to the pool.
func (p *Pool) Put(rs ...GPPhysical) { p.free = append(p.free, rs...) }

// Put4 returns four registers.
func (p *Pool) Put4(r [4]GPPhysical) { p.Put(r[:]...) }

// Addend computes the limbs of A(m) = m·2^32 + m·p3·2^128 without a
// multiplication. It returns (m<<32, m>>32, lo(m·p3), hi(m·p3)); the third
// is m itself, overwritten.
func Addend(m GPPhysical, regs *Pool) (lo, hi, pl, ph GPPhysical) {
	lo, hi, ph = regs.Get(), regs.Get(), regs.Get()
	MOVQ(m, lo)
	SHLQ(U8(32), lo)
	MOVQ(m, hi)
	SHRQ(U8(32), hi)
	MOVQ(m, ph)
	SUBQ(lo, m) // m·p3 = (m:m) - (hi:lo)
	SBBQ(hi, ph)
	return lo, hi, m, ph
}

// SubP sets s = v − p limb by limb from copies of v and leaves the borrow
// in CF. pr is a scratch register for the constant limbs.
func SubP(s, v [4]GPPhysical, pr GPPhysical) {
	for i := range s {
		MOVQ(v[i], s[i])
	}
	SUBQ(I32(-1), s[0])
	MOVL(U32(P1), pr.As32())
	SBBQ(pr, s[1])
	SBBQ(Imm(0), s[2])
	MOVQ(U64(P3), pr)
	SBBQ(pr, s[3])
}

// The multiplication interleaves rows of x·y[i] with reduction rounds over a
// sliding window a[k..k+5] of accumulator limbs. Row i adds x·y[i] at limbs
// i..i+4; round k adds A(a[k]) at limbs k+1..k+4 and retires limb k. Row
// k+1 comes before round k, so that the quotient digit of round k+1, limb
// k+1, is complete one addition after round k starts.

// MulRow adds x·y[r] into a[r..r+4] on the two carry chains (ADCX, ADOX);
// a[r+4] is new. It uses DX.
func MulRow(a []GPPhysical, x, y FE, r int, regs *Pool) {
	Commentf("Row %d: a[%d..%d] += x·y[%d]; low halves on CF, high halves on OF.", r, r, r+4, r)
	lo, hi, zr := regs.Get(), regs.Get(), regs.Get()
	a[r+4] = regs.Get()
	MOVQ(y[r], RDX)
	XORL(zr.As32(), zr.As32())
	for j := 0; j < 3; j++ {
		MULXQ(x[j], lo, hi)
		ADCXQ(lo, a[r+j])
		ADOXQ(hi, a[r+j+1])
	}
	MULXQ(x[3], lo, a[r+4])
	ADCXQ(lo, a[r+3])
	ADOXQ(zr, a[r+4])
	ADCXQ(zr, a[r+4])
	regs.Put(lo, hi, zr)
}

// MulRound adds A(a[k]) into a[k+1..k+4] and, unless last, the carry into
// a[k+5]. a[k] is retired. The last round leaves its carry in CF.
func MulRound(a []GPPhysical, k int, regs *Pool, last bool) {
	Commentf("Round %d: m = a[%d]; a[%d..%d] += m·2^32 + m·p3·2^128.", k, k, k+1, k+4)
	lo, hi, pl, ph := Addend(a[k], regs)
	ADDQ(lo, a[k+1])
	ADCQ(hi, a[k+2])
	ADCQ(pl, a[k+3])
	ADCQ(ph, a[k+4])
	if !last {
		ADCQ(Imm(0), a[k+5])
	}
	regs.Put(lo, hi, pl, ph)
}

// MulADX returns x·y·2^-256 mod p, below p, in four registers from regs:
// row 0, then rows of x·y[i] interleaved with reduction rounds (MulRow,
// MulRound), then one conditional subtraction of p done with CMOV. The
// pool must hold at least eleven registers (not DX, which MULX reads). The
// subtraction's constants go through scratch, or, when scratch is nil,
// through a register taken from regs (returned, still taken, so that the
// caller may reuse it, for example for the result pointer).
func MulADX(x, y FE, regs *Pool, scratch GPPhysical) (s [4]GPPhysical, pr GPPhysical) {
	a := make([]GPPhysical, 9)
	for i := 0; i < 5; i++ {
		a[i] = regs.Get()
	}
	lo := regs.Get()
	Comment("Row 0: a[0..4] = x·y[0].")
	MOVQ(y[0], RDX)
	MULXQ(x[0], a[0], a[1])
	MULXQ(x[1], lo, a[2])
	ADDQ(lo, a[1])
	MULXQ(x[2], lo, a[3])
	ADCQ(lo, a[2])
	MULXQ(x[3], lo, a[4])
	ADCQ(lo, a[3])
	ADCQ(Imm(0), a[4])
	regs.Put(lo)

	MulRow(a, x, y, 1, regs)
	MulRound(a, 0, regs, false)
	MulRow(a, x, y, 2, regs)
	MulRound(a, 1, regs, false)
	MulRow(a, x, y, 3, regs)
	MulRound(a, 2, regs, false)
	MulRound(a, 3, regs, true)

	Comment("r = a[4..7] + 2^256·CF < 2p; r - p unless that borrows.")
	c := regs.Get()
	SBBQ(c, c) // c = -carry
	r := [4]GPPhysical{a[4], a[5], a[6], a[7]}
	pr = scratch
	if pr == nil {
		pr = regs.Get()
	}
	s = regs.Get4()
	SubP(s, r, pr)
	SBBQ(Imm(0), c) // borrows iff the carry was 0 and r - p borrowed
	for i := range s {
		CMOVQCS(r[i], s[i])
	}
	regs.Put4(r)
	regs.Put(c)
	return s, pr
}

// SquareProductADX sets t = x² with MULX: the six products x[i]·x[j],
// i < j, then one pass that doubles them on CF and adds the squares x[i]²
// on OF. The off-diagonal sum is split in two independent chains,
// x[0]·x[1..3] and x[1]·x[2..3] + x[2]·x[3]·2^64, joined by a third, which
// is shorter than accumulating the three rows one after the other. lo, h0,
// b0 and b1 are scratch. It uses DX.
func SquareProductADX(t [8]GPPhysical, x FE, lo, h0, b0, b1 GPPhysical) {
	Comment("Square: x[0]² first; its low half is the first quotient digit.")
	MOVQ(x[0], RDX)
	MULXQ(RDX, t[0], h0)
	Comment("x[0]·x[1..3] into t[1..4],")
	MULXQ(x[1], t[1], t[2])
	MULXQ(x[2], lo, t[3])
	ADDQ(lo, t[2])
	MULXQ(x[3], lo, t[4])
	ADCQ(lo, t[3])
	ADCQ(Imm(0), t[4])
	Comment("x[1]·x[2..3] + x[2]·x[3]·2^64 into b0, b1, t[5], t[6] (limbs 3..6),")
	MOVQ(x[1], RDX)
	MULXQ(x[2], b0, b1)
	MULXQ(x[3], lo, t[5])
	ADDQ(lo, b1)
	MOVQ(x[2], RDX)
	MULXQ(x[3], lo, t[6])
	ADCQ(lo, t[5])
	ADCQ(Imm(0), t[6])
	Comment("and their sum in t[1..6].")
	ADDQ(b0, t[3])
	ADCQ(b1, t[4])
	ADCQ(Imm(0), t[5])
	ADCQ(Imm(0), t[6])
	Comment("Double them on CF and add the squares x[i]² on OF.")
	zr, hi := b0, b1
	XORL(zr.As32(), zr.As32())
	ADCXQ(t[1], t[1])
	ADOXQ(h0, t[1])
	for i := 1; i < 4; i++ {
		MOVQ(x[i], RDX)
		if i < 3 {
			MULXQ(RDX, lo, hi)
		} else {
			MULXQ(RDX, lo, t[7])
		}
		ADCXQ(t[2*i], t[2*i])
		ADOXQ(lo, t[2*i])
		if i < 3 {
			ADCXQ(t[2*i+1], t[2*i+1])
			ADOXQ(hi, t[2*i+1])
		}
	}
	ADCXQ(zr, t[7])
	ADOXQ(zr, t[7])
}

// ReduceLow reduces the low half of the product t in four rounds and
// returns u ≤ p with u·2^256 ≡ t[0..3] (mod p). Only t[0..3] and registers
// of regs are written; u lives in t[1..3] and one register of regs.
func ReduceLow(t [8]GPPhysical, regs *Pool) [4]GPPhysical {
	u := [4]GPPhysical{t[0], t[1], t[2], t[3]}
	for k := 0; k < 4; k++ {
		Commentf("Reduction round %d: u = u/2^64 + A(u[0]).", k)
		lo, hi, pl, ph := Addend(u[0], regs)
		ADDQ(lo, u[1])
		ADCQ(hi, u[2])
		ADCQ(pl, u[3])
		ADCQ(Imm(0), ph)
		regs.Put(lo, hi, pl)
		u = [4]GPPhysical{u[1], u[2], u[3], ph}
	}
	return u
}

// FinalADX sets d = u + h reduced mod p, for u ≤ p and h < p (so the sum is
// below 2p): it forms d = h − p, then r = u + h on CF and s = u + d on OF
// side by side; s carries out of 2^256 exactly when r ≥ p, and d keeps s
// then, else takes r. pr is scratch for the constants of p (cleared to
// zero for the flag pass).
func FinalADX(d, u, h [4]GPPhysical, pr GPPhysical) {
	Comment("d = h - p; r = u + h on CF, s = u + d on OF; OF is set iff r ≥ p.")
	SubP(d, h, pr)
	XORL(pr.As32(), pr.As32())
	for i := range d {
		ADOXQ(u[i], d[i])
		ADCXQ(h[i], u[i])
	}
	for i := range d {
		CMOVQOC(u[i], d[i])
	}
}
