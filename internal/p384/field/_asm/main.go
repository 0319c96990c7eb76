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
