// Command _asm generates the amd64 Montgomery multiplication and squaring
// kernels of package internal/p384/field with avo. Run it through go
// generate in the parent directory, which does
//
//	go run -C _asm . -out ../field_amd64.s -stubs ../field_amd64_stubs.go -pkg field
//
// Two families are emitted. The ADX kernels (mulADX, squareADX) need BMI2
// and ADX: asmlib.Mul384ADX and asmlib.Square384ADX (internal/_asmlib/
// mul384.go), MULX products, P-384's multiplication-free reduction rounds
// interleaved with the rows (the square has rows of its own, 21 MULX
// instead of 36: x_i times the doubled operand, the rounds between them
// too), the borrow of each round kept for the next and the quotient digits
// added once at the end. The MULQ kernels (mulMULQ,
// squareMULQ: asmlib.Mul384MULQ and asmlib.Square384MULQ, the same
// structure with MULQ and one carry chain) run on every amd64 CPU;
// squareMULQ has a squaring product of its own too. mulADX passes its x as
// the emitter's y (x's limbs go to DX, y's are the MULX memory operands),
// which is faster when x comes from the previous operation, as in the
// benchmarks; mulMULQ is the other way round, for the same reason.
//
// Kept only for comparison (bench kernels, redc_alt_amd64_test.go):
// mulADXMont and mulMULQMont, the kernels by asmlib.MontMulN that these
// replaced (which the fused point kernels still used when this was
// written), and mulADXMulxRedc/squareADXMulxRedc, MontMulN with the
// textbook reduction round, which measure the choice of reduction.
//
// Measured on the Intel Xeon VM of docs/arithmetic.md (2.6 GHz nominal,
// AVX-512 and AMX: a Sapphire Rapids class core), go test -bench
// 'Mul|Square' -benchtime 0.3s, 8 runs interleaved with the previous
// kernels, benchstat medians, chained operations (latency): mulADX 35.2 →
// 26.4 ns, squareADX 26.2 → 23.4 ns, mulMULQ 29.5 → 27.7 ns, squareMULQ
// (before: the multiplication with x twice) 30.4 → 26.4 ns.
//
// squareADX then moved from its product followed by the six rounds to
// rows with the doubled operand and the rounds between them
// (asmlib.Square384ADX): 23.00 → 21.50 ns (−6.5%, p = 0.000, CPU time per
// operation of 40,000,000 chained squarings, 10 runs interleaved with the
// previous kernel; mulADX 26.50 → 26.25 ns, p = 0.29, in the same runs).
// Of the orders of rows and rounds measured, each round about one row
// after its digit is final (sqOrder384) was fastest, 21.5–21.9 ns; the
// rounds as early as possible measured 24.0 ns. Measured and not kept: the
// doubling of the old product by SHLD (port 1) instead of ADCX, which
// spends fourteen fewer port 0/6 operations but measured +1 ns; and the
// round computing q>>32 from a[k] (one step less on the chain from one
// digit to the next), no faster here or in mulADX.
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
	genMul("mulADX", true)
	genSquare("squareADX", true)
	genMul("mulMULQ", false)
	genSquare("squareMULQ", false)
	gen("mulADXMont", true, false, "mulADXMont is mulADX by asmlib.MontMulN, for benchmarks only. It requires BMI2 and ADX.")
	gen("mulMULQMont", false, false, "mulMULQMont is mulMULQ by asmlib.MontMulN, for benchmarks only.")
	genMulxRedc("mulADXMulxRedc", false)
	genMulxRedc("squareADXMulxRedc", true)
	Generate()
}

// genMul emits the multiplication by asmlib.Mul384ADX (adx) or
// asmlib.Mul384MULQ, its quotient digits in the frame.
func genMul(name string, adx bool) {
	TEXT(name, NOSPLIT, "func(z, x, y *[6]uint64)")
	if adx {
		Doc(name + " sets z = x·y·2^-384 mod p. It requires BMI2 and ADX.")
	} else {
		Doc(name + " sets z = x·y·2^-384 mod p using only MULQ, ADD/ADC/SUB/SBB, shifts, XOR and AND.")
	}
	Pragma("noescape")
	tm := AllocLocal(96)
	xp, yp := RSI, RDI
	Load(Param("x"), xp)
	Load(Param("y"), yp)
	x, y := asmlib.LimbsN(xp, 6), asmlib.LimbsN(yp, 6)
	var s []GPPhysical
	var regs *asmlib.Pool
	if adx {
		regs = asmlib.NewPool(RAX, RBX, RCX, R8, R9, R10, R11, R12, R13, R14, R15)
		s = asmlib.Mul384ADX(y, x, frame(tm, 12), regs, xp, yp)
	} else {
		regs = asmlib.NewPool(RBX, RCX, R8, R9, R10, R11, R12, R13, R14, R15)
		s = asmlib.Mul384MULQ(x, y, frame(tm, 12), regs, xp, yp)
	}
	store(s, regs)
}

// genSquare emits the squaring by asmlib.Square384ADX (adx) or
// asmlib.Square384MULQ, with its twelve limbs of frame.
func genSquare(name string, adx bool) {
	TEXT(name, NOSPLIT, "func(z, x *[6]uint64)")
	if adx {
		Doc(name + " sets z = x·x·2^-384 mod p with a dedicated squaring product. It requires BMI2 and ADX.")
	} else {
		Doc(name + " sets z = x·x·2^-384 mod p with a dedicated squaring product, using only MULQ, ADD/ADC/SUB/SBB, NEG, shifts, XOR and AND.")
	}
	Pragma("noescape")
	tm := AllocLocal(96)
	xp := RSI
	Load(Param("x"), xp)
	x := asmlib.LimbsN(xp, 6)
	var s []GPPhysical
	var regs *asmlib.Pool
	if adx {
		regs = asmlib.NewPool(RAX, RBX, RCX, RDI, R8, R9, R10, R11, R12, R13, R14, R15)
		s = asmlib.Square384ADX(x, frame(tm, 12), regs, xp)
	} else {
		regs = asmlib.NewPool(RBX, RCX, RDI, R8, R9, R10, R11, R12, R13, R14, R15)
		s = asmlib.Square384MULQ(x, frame(tm, 12), regs, xp)
	}
	store(s, regs)
}

// store writes the result s to z and returns.
func store(s []GPPhysical, regs *asmlib.Pool) {
	zp := regs.Get()
	Load(Param("z"), zp)
	for i := range s {
		MOVQ(s[i], Mem{Base: zp}.Offset(8*i))
	}
	RET()
}

// frame returns the n limbs of a frame slot.
func frame(m Mem, n int) []Mem {
	e := make([]Mem, n)
	for i := range e {
		e[i] = m.Offset(8 * i)
	}
	return e
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
