// Command _asm generates the amd64 Montgomery multiplication and squaring
// kernels of package internal/p384/field with avo. Run it through go
// generate in the parent directory, which does
//
//	go run -C _asm . -out ../field_amd64.s -stubs ../field_amd64_stubs.go -pkg field
//
// Two families are emitted, both from internal/_asmlib's n-limb Montgomery
// multiplication (MontMulN) with P-384's multiplication-free reduction
// round (asmlib.P384, explained there): the ADX kernels (mulADX,
// squareADX) multiply with MULX and add on two carry chains, ADCX on CF and
// ADOX on OF, and need BMI2 and ADX; the MULQ kernels (mulMULQ, squareMULQ)
// use only MULQ, ADDQ/ADCQ, shifts and CMOV and run on every amd64 CPU.
// squareMULQ is the multiplication with both operands x; squareADX has a
// product of its own (genSquareADX: 21 MULX instead of 36), then the same
// reduction rounds. Measured on the Intel Xeon VM of docs/arithmetic.md
// (8 interleaved runs, fastest each): squareADX 26.4 ns against 37.5 ns for
// mulADX(x, x), which stays beside it as the benchmark kernel "adx-mul".
package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"

	"github.com/p256tls/p256tls/internal/_asmlib"
)

func main() {
	ConstraintExpr("amd64")
	ConstraintExpr("!purego")
	gen("mulADX", true, false, "mulADX sets z = x·y·2^-384 mod p. It requires BMI2 and ADX.")
	genSquareADX("squareADX")
	gen("mulMULQ", false, false, "mulMULQ sets z = x·y·2^-384 mod p using only MULQ, ADDQ/ADCQ, shifts and CMOV.")
	gen("squareMULQ", false, true, "squareMULQ sets z = x·x·2^-384 mod p using only MULQ, ADDQ/ADCQ, shifts and CMOV.")
	genMulxRedc("mulADXMulxRedc", false)
	genMulxRedc("squareADXMulxRedc", true)
	Generate()
}

// genMulxRedc emits the ADX kernel with the textbook reduction round
// (asmlib.MulxRound: quotient digit by IMUL, q·p by MULX) in place of
// P-384's, kept only to measure the choice of reduction (bench_test.go); p
// is copied to the stack frame, where MULX reads it.
func genMulxRedc(name string, square bool) {
	sig := "func(z, x, y *[6]uint64)"
	if square {
		sig = "func(z, x *[6]uint64)"
	}
	TEXT(name, NOSPLIT, sig)
	Doc(name + " is mulADX (or squareADX) with the textbook reduction round, for benchmarks only. It requires BMI2 and ADX.")
	Pragma("noescape")
	pm := AllocLocal(48)
	for j, l := range asmlib.P384.Limbs {
		MOVQ(U64(l), RDX)
		MOVQ(RDX, pm.Offset(8*j))
	}
	mem := make([]Mem, 6)
	for j := range mem {
		mem[j] = pm.Offset(8 * j)
	}
	body(square, true, &asmlib.Modulus{Limbs: asmlib.P384.Limbs, Round: asmlib.MulxRound(mem, 1<<32+1)})
}

func gen(name string, adx, square bool, doc string) {
	sig := "func(z, x, y *[6]uint64)"
	if square {
		sig = "func(z, x *[6]uint64)"
	}
	TEXT(name, NOSPLIT, sig)
	Doc(doc)
	Pragma("noescape")
	body(square, adx, asmlib.P384)
}

func body(square, adx bool, m *asmlib.Modulus) {
	xp, yp := RSI, RDI
	Load(Param("x"), xp)
	if square {
		MOVQ(xp, yp)
	} else {
		Load(Param("y"), yp)
	}
	var regs *asmlib.Pool
	if adx {
		regs = asmlib.NewPool(RAX, RBX, RCX, R8, R9, R10, R11, R12, R13, R14, R15)
	} else {
		regs = asmlib.NewPool(RBX, RCX, R8, R9, R10, R11, R12, R13, R14, R15)
	}
	s := asmlib.MontMulN(asmlib.LimbsN(xp, 6), asmlib.LimbsN(yp, 6), m, regs, adx, xp, yp)
	zp := regs.Get()
	Load(Param("z"), zp)
	for i := range s {
		MOVQ(s[i], Mem{Base: zp}.Offset(8*i))
	}
	RET()
}

// genSquareADX emits the ADX squaring with a dedicated product: the 15
// cross products x_i·x_j (i < j) in rows on the ADCX and ADOX chains, the
// finished limbs spilled to the frame; one pass that doubles them (CF) and
// adds the six squares x_i² (OF); the Montgomery reduction of the low six
// limbs L by P-384's six rounds, r = (L + Q·p)/2^384 ≤ p; and the high six
// limbs H < p added to r, then one conditional subtraction of p
// (r + H < 2p). 21 products instead of the multiplication's 36.
func genSquareADX(name string) {
	TEXT(name, NOSPLIT, "func(z, x *[6]uint64)")
	Doc(name + " sets z = x·x·2^-384 mod p with a dedicated squaring product. It requires BMI2 and ADX.")
	Pragma("noescape")
	tm := AllocLocal(96)
	t := func(k int) Mem { return tm.Offset(8 * k) }
	xp := RSI
	Load(Param("x"), xp)
	x := asmlib.LimbsN(xp, 6)
	regs := asmlib.NewPool(RAX, RBX, RCX, RDI, R8, R9, R10, R11, R12, R13, R14, R15)
	c := make([]GPPhysical, 11)

	Comment("Row 0: c[1..6] = x0·x[1..5].")
	lo := regs.Get()
	MOVQ(x[0], RDX)
	for j := 1; j <= 5; j++ {
		c[j+1] = regs.Get()
		if j == 1 {
			c[1] = regs.Get()
			MULXQ(x[j], c[1], c[2])
			continue
		}
		MULXQ(x[j], lo, c[j+1])
		if j == 2 {
			ADDQ(lo, c[j])
		} else {
			ADCQ(lo, c[j])
		}
	}
	ADCQ(Imm(0), c[6])
	regs.Put(lo)
	spill := func(k int) {
		MOVQ(c[k], t(k))
		regs.Put(c[k])
	}
	spill(1)
	spill(2)
	// After row i the cross sum is Σ_{i' ≤ i} x_i'·2^(64i')·Σ_{j > i'} x_j·2^(64j)
	// < 2^384·(2^(64(i+1)) − 1) < 2^(64(i+7)): limb i+6 is row i's top, and
	// nothing carries out of it (so there is no limb 11).
	for i := 1; i <= 4; i++ {
		Commentf("Row %d: c[%d..%d] += x%d·x[%d..5]; low halves on CF, high halves on OF.", i, 2*i+1, i+6, i, i+1)
		lo, hi, zr := regs.Get(), regs.Get(), regs.Get()
		XORL(zr.As32(), zr.As32())
		c[i+6] = regs.Get()
		MOVL(U32(0), c[i+6].As32())
		MOVQ(x[i], RDX)
		for j := i + 1; j <= 5; j++ {
			MULXQ(x[j], lo, hi)
			ADCXQ(lo, c[i+j])
			ADOXQ(hi, c[i+j+1])
		}
		ADCXQ(zr, c[i+6])
		regs.Put(lo, hi, zr)
		spill(2*i + 1)
		spill(2*i + 2)
	}

	Comment("f = 2c + Σ x_i²·2^(128i): doubling on CF, squares on OF; f[0..5] stay, f[6..11] go to the frame.")
	f := make([]GPPhysical, 6)
	lo, hi, zr := regs.Get(), regs.Get(), regs.Get()
	XORL(zr.As32(), zr.As32())
	for i := 0; i < 6; i++ {
		MOVQ(x[i], RDX)
		MULXQ(x[i], lo, hi)
		for h, sq := range []GPPhysical{lo, hi} {
			k := 2*i + h
			var v GPPhysical
			if k < 6 {
				f[k] = regs.Get()
				v = f[k]
			} else {
				v = RDX
			}
			if k == 0 || k == 11 {
				MOVL(U32(0), v.As32())
			} else {
				MOVQ(t(k), v)
			}
			ADCXQ(v, v)
			ADOXQ(sq, v)
			if k >= 6 {
				MOVQ(v, t(k))
			}
		}
	}
	regs.Put(lo, hi, zr)

	Comment("r = (L + Q·p)/2^384 for L = f[0..5]: six reduction rounds.")
	a := make([]GPPhysical, 13)
	copy(a, f)
	for k := 0; k < 6; k++ {
		for _, i := range []int{k + 6, k + 7} {
			if a[i] == nil {
				a[i] = regs.Get()
				MOVL(U32(0), a[i].As32())
			}
		}
		var sc [4]GPPhysical
		sc[0] = RDX
		for i := 1; i < 4; i++ {
			sc[i] = regs.Get()
		}
		asmlib.P384.Round(a, k, sc)
		regs.Put(sc[1:]...)
		regs.Put(a[k])
	}
	regs.Put(xp)

	Comment("r + H < 2p, H = f[6..11]; minus p unless that borrows.")
	r, top := a[6:12], a[12]
	for i := range r {
		if i == 0 {
			ADDQ(t(6+i), r[i])
		} else {
			ADCQ(t(6+i), r[i])
		}
	}
	ADCQ(Imm(0), top)
	s := make([]GPPhysical, 6)
	for i := range s {
		s[i] = regs.Get()
	}
	asmlib.SubConst(s, r, asmlib.P384.Limbs, RDX)
	SBBQ(Imm(0), top)
	for i := range s {
		CMOVQCS(r[i], s[i])
	}
	regs.Put(r...)
	regs.Put(top)
	zp := regs.Get()
	Load(Param("z"), zp)
	for i := range s {
		MOVQ(s[i], Mem{Base: zp}.Offset(8*i))
	}
	RET()
}
