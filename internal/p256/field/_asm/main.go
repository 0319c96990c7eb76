// Command _asm generates the amd64 Montgomery multiplication and squaring
// kernels of package field with avo. Run it through go generate in the
// parent directory, which does
//
//	go run -C _asm . -out ../field_amd64.s -stubs ../field_amd64_stubs.go -pkg field
//
// Two families are emitted. The ADX kernels (mulADX, squareADX) multiply with
// MULX and add with two independent carry chains, ADCX on CF and ADOX on OF;
// they need BMI2 and ADX. The MULQ kernels (mulMULQ, squareMULQ) use only
// MULQ, ADDQ/ADCQ and shifts and run on every amd64 CPU. mulAsm and squareAsm
// pick one of the two at run time from the package variable useADX.
//
// The reduction, its bounds and the multiplication and squaring with MULX
// are internal/_asmlib's (explained once there); the MULQ products and the
// non-ADX final addition are here.
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"

	"github.com/p256tls/p256tls/internal/_asmlib"
)

func main() {
	ConstraintExpr("amd64")
	ConstraintExpr("!purego")

	genMulADX()
	genSquareADX()
	genMulMULQ()
	genSquareMULQ()

	Generate()
	appendDispatch()
}

// limb returns the memory operand of limb i of the [4]uint64 at base.
func limb(base GPPhysical, i int) Mem { return Mem{Base: base, Disp: 8 * i} }

// store writes v to the result pointer z.
func store(v [4]GPPhysical, zp GPPhysical) {
	Load(Param("z"), zp)
	for i := range v {
		MOVQ(v[i], limb(zp, i))
	}
	RET()
}

// ---------------------------------------------------------------------------
// ADX multiplication: rows of x·y[i] interleaved with reduction rounds
// (asmlib.MulADX, shared with internal/gen/point/_asm).

func genMulADX() {
	TEXT("mulADX", NOSPLIT, "func(z, x, y *[4]uint64)")
	Doc("mulADX sets z = x·y·2^-256 mod p. It requires BMI2 and ADX.")
	Pragma("noescape")
	xp, yp := RSI, RDI
	Load(Param("x"), xp)
	Load(Param("y"), yp)
	regs := asmlib.NewPool(RAX, RBX, RCX, R8, R9, R10, R11, R12, R13, R14, R15)
	s, pr := asmlib.MulADX(asmlib.Limbs(xp), asmlib.Limbs(yp), regs, nil)
	store(s, pr)
}

// ---------------------------------------------------------------------------
// Squaring with MULX, and the MULQ products.

// The remaining kernels compute the whole 512-bit product into t, then
// reduce its low half and finish with asmlib.ReduceLow and final. t lives
// in R8..R15.
var prod = [8]GPPhysical{R8, R9, R10, R11, R12, R13, R14, R15}

// productMULQ sets t = x·y with MULQ by rows. c is a scratch register; AX and
// DX are clobbered.
func productMULQ(t [8]GPPhysical, xp, yp, c GPPhysical) {
	Comment("Row 0: t[0..4] = x·y[0].")
	MOVQ(limb(xp, 0), RAX)
	MULQ(limb(yp, 0))
	MOVQ(RAX, t[0])
	MOVQ(RDX, t[1])
	for j := 1; j < 4; j++ {
		MOVQ(limb(xp, j), RAX)
		MULQ(limb(yp, 0))
		ADDQ(RAX, t[j])
		ADCQ(Imm(0), RDX)
		MOVQ(RDX, t[j+1])
	}
	for i := 1; i < 4; i++ {
		Commentf("Row %d: t[%d..%d] += x·y[%d].", i, i, i+4, i)
		MOVQ(limb(xp, 0), RAX)
		MULQ(limb(yp, i))
		ADDQ(RAX, t[i])
		ADCQ(Imm(0), RDX)
		MOVQ(RDX, c)
		for j := 1; j < 4; j++ {
			MOVQ(limb(xp, j), RAX)
			MULQ(limb(yp, i))
			ADDQ(c, t[i+j])
			ADCQ(Imm(0), RDX)
			ADDQ(RAX, t[i+j])
			ADCQ(Imm(0), RDX)
			if j < 3 {
				MOVQ(RDX, c)
			} else {
				MOVQ(RDX, t[i+4])
			}
		}
	}
}

// squareProductMULQ sets t = x² with MULQ. c is a scratch register; AX and
// DX are clobbered.
func squareProductMULQ(t [8]GPPhysical, xp, c GPPhysical) {
	Comment("Off-diagonal products x[i]·x[j], i < j, into t[1..6].")
	MOVQ(limb(xp, 0), RAX)
	MULQ(limb(xp, 1))
	MOVQ(RAX, t[1])
	MOVQ(RDX, t[2])
	for j := 2; j < 4; j++ {
		MOVQ(limb(xp, 0), RAX)
		MULQ(limb(xp, j))
		ADDQ(RAX, t[j])
		ADCQ(Imm(0), RDX)
		MOVQ(RDX, t[j+1])
	}
	MOVQ(limb(xp, 1), RAX)
	MULQ(limb(xp, 2))
	ADDQ(RAX, t[3])
	ADCQ(Imm(0), RDX)
	MOVQ(RDX, c)
	MOVQ(limb(xp, 1), RAX)
	MULQ(limb(xp, 3))
	ADDQ(c, t[4])
	ADCQ(Imm(0), RDX)
	ADDQ(RAX, t[4])
	ADCQ(Imm(0), RDX)
	MOVQ(RDX, t[5])
	MOVQ(limb(xp, 2), RAX)
	MULQ(limb(xp, 3))
	ADDQ(RAX, t[5])
	ADCQ(Imm(0), RDX)
	MOVQ(RDX, t[6])

	Comment("Double them.")
	XORL(t[7].As32(), t[7].As32())
	ADDQ(t[1], t[1])
	for i := 2; i < 7; i++ {
		ADCQ(t[i], t[i])
	}
	ADCQ(Imm(0), t[7])

	Comment("Add the squares x[i]²; c carries the carry across MULQ as 0 or -1.")
	MOVQ(limb(xp, 0), RAX)
	MULQ(RAX)
	MOVQ(RAX, t[0])
	MOVQ(RDX, c)
	MOVQ(limb(xp, 1), RAX)
	MULQ(RAX)
	ADDQ(c, t[1])
	ADCQ(RAX, t[2])
	ADCQ(RDX, t[3])
	SBBQ(c, c)
	for i := 2; i < 4; i++ {
		MOVQ(limb(xp, i), RAX)
		MULQ(RAX)
		NEGQ(c)
		ADCQ(RAX, t[2*i])
		ADCQ(RDX, t[2*i+1])
		if i < 3 {
			SBBQ(c, c)
		}
	}
}

// final stores r = u + t[4..7] reduced mod p, for u ≤ p and t[4..7] < p, so
// r < 2p. It forms d = t[4..7] - p while the reduction runs, then r = u +
// t[4..7] and s = u + d side by side: s carries out of 2^256 exactly when
// r ≥ p, and is stored then. With ADX the two sums share one pass on CF and
// OF; without, they are two ADC chains.
func final(t [8]GPPhysical, u [4]GPPhysical, regs *asmlib.Pool, adx bool) {
	var d [4]GPPhysical
	pr := regs.Get()
	for i := range d {
		d[i] = regs.Get()
	}
	h := [4]GPPhysical{t[4], t[5], t[6], t[7]}
	if adx {
		asmlib.FinalADX(d, u, h, pr)
	} else {
		Comment("d = t[4..7] - p mod 2^256.")
		asmlib.SubP(d, h, pr)
		Comment("s = u + d; c = -1 iff it carries, that is iff r ≥ p.")
		ADDQ(u[0], d[0])
		for i := 1; i < 4; i++ {
			ADCQ(u[i], d[i])
		}
		c := regs.Get()
		SBBQ(c, c)
		Comment("r = u + t[4..7]; keep it where s did not carry.")
		ADDQ(t[4], u[0])
		for i := 1; i < 4; i++ {
			ADCQ(t[4+i], u[i])
		}
		TESTQ(c, c)
		for i := range d {
			CMOVQEQ(u[i], d[i])
		}
	}
	store(d, pr)
}

// ---------------------------------------------------------------------------
// The other kernels. SI and DI hold the operand pointers, R8..R15 the
// product; AX, BX, CX and DX are scratch, and so are the pointers once read.

func genSquareADX() {
	TEXT("squareADX", NOSPLIT, "func(z, x *[4]uint64)")
	Doc("squareADX sets z = x·x·2^-256 mod p. It requires BMI2 and ADX.")
	Pragma("noescape")
	Load(Param("x"), RSI)
	asmlib.SquareProductADX(prod, asmlib.Limbs(RSI), RAX, RBX, RCX, RDI)
	regs := asmlib.NewPool(RAX, RBX, RCX, RDX, RSI, RDI)
	u := asmlib.ReduceLow(prod, regs)
	final(prod, u, regs, true)
}

func genMulMULQ() {
	TEXT("mulMULQ", NOSPLIT, "func(z, x, y *[4]uint64)")
	Doc("mulMULQ sets z = x·y·2^-256 mod p using only MULQ, ADDQ/ADCQ and shifts.")
	Pragma("noescape")
	Load(Param("x"), RSI)
	Load(Param("y"), RDI)
	productMULQ(prod, RSI, RDI, RCX)
	regs := asmlib.NewPool(RAX, RBX, RCX, RDX, RSI, RDI)
	u := asmlib.ReduceLow(prod, regs)
	final(prod, u, regs, false)
}

func genSquareMULQ() {
	TEXT("squareMULQ", NOSPLIT, "func(z, x *[4]uint64)")
	Doc("squareMULQ sets z = x·x·2^-256 mod p using only MULQ, ADDQ/ADCQ and shifts.")
	Pragma("noescape")
	Load(Param("x"), RSI)
	squareProductMULQ(prod, RSI, RCX)
	regs := asmlib.NewPool(RAX, RBX, RCX, RDX, RSI, RDI)
	u := asmlib.ReduceLow(prod, regs)
	final(prod, u, regs, false)
}

// ---------------------------------------------------------------------------
// Dispatch.

// appendDispatch appends to the generated files mulAsm and squareAsm, the
// entry points of mul and square: they test useADX and tail-jump to the
// chosen kernel, whose arguments are laid out the same way. avo has no
// jumps to other functions, so they are written as text.
func appendDispatch() {
	out, stubs := flag.Lookup("out").Value.String(), flag.Lookup("stubs").Value.String()
	if out == "" || stubs == "" {
		fmt.Fprintln(os.Stderr, "-out and -stubs are required")
		os.Exit(2)
	}
	var asm, decl strings.Builder
	for _, d := range []struct{ name, sig, frame, adx, mulq string }{
		{"mulAsm", "z *[4]uint64, x *[4]uint64, y *[4]uint64", "$0-24", "mulADX", "mulMULQ"},
		{"squareAsm", "z *[4]uint64, x *[4]uint64", "$0-16", "squareADX", "squareMULQ"},
	} {
		fmt.Fprintf(&asm, "\n// func %s(%s)\n", d.name, d.sig)
		fmt.Fprintf(&asm, "TEXT ·%s(SB), NOSPLIT, %s\n", d.name, d.frame)
		fmt.Fprintf(&asm, "\tCMPB ·useADX(SB), $0x00\n")
		fmt.Fprintf(&asm, "\tJEQ  %s_mulq\n", d.name)
		fmt.Fprintf(&asm, "\tJMP  ·%s(SB)\n\n", d.adx)
		fmt.Fprintf(&asm, "%s_mulq:\n", d.name)
		fmt.Fprintf(&asm, "\tJMP ·%s(SB)\n", d.mulq)
		fmt.Fprintf(&decl, "\n// %s runs %s if useADX is set and %s otherwise.\n", d.name, d.adx, d.mulq)
		fmt.Fprintf(&decl, "//\n//go:noescape\nfunc %s(%s)\n", d.name, d.sig)
	}
	appendFile(out, asm.String())
	appendFile(stubs, decl.String())
}

func appendFile(name, text string) {
	f, err := os.OpenFile(name, os.O_APPEND|os.O_WRONLY, 0)
	if err == nil {
		_, err = f.WriteString(text)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
