// Package asmlib holds the avo building blocks of P-256 field arithmetic
// that more than one of the repository's assembly generators emit
// (internal/field/_asm, internal/ecdsaverify/_asm): a register pool, the
// reduction addend of p, the subtraction of p, and the rows and rounds of
// the MULX/ADCX/ADOX Montgomery multiplication. It is a module of its own,
// used by the generators through replace directives; it is not part of the
// library.
//
// p = 2^256 − 2^224 + 2^192 + 2^96 − 1; Montgomery form with R = 2^256. Since
// −p⁻¹ ≡ 1 (mod 2^64), the quotient digit of a reduction round is the low
// limb itself, and (p + 1)/2^64 = 2^192 − 2^160 + 2^128 + 2^32, so a round
// adds A(m) = m·2^32 + m·p3·2^128 (p3 = 2^64 − 2^32 + 1) above the retired
// limb.
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
