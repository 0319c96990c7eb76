// Command _asm generates doubleADX, the fused amd64 Jacobian doubling of
// package point, and addMixedADX, the general case of its mixed addition
// (see genAddMixed), with avo. Run it through go generate in the parent
// directory, which does
//
//	go run -C _asm . -out ../jacobian_amd64.s -stubs ../jacobian_amd64_stubs.go -pkg point
//
// doubleADX computes exactly what double in jacobian.go computes, the
// dbl-2001-b doubling scaled by 1/2, with every field operation inlined: the
// Montgomery products and squares (MULX with ADCX/ADOX, the reduction of
// internal/_asmlib), the modular additions, subtractions and the halving.
// Every intermediate value is fully reduced, below p, as the field package's
// are, so the result is the same limbs as double's. Values live in registers
// and in five 32-byte stack slots; there are no calls and no branches.
//
// The products, squares and reduction rounds are internal/_asmlib's
// (MulADX, SquareProductADX, ReduceLow, FinalADX), the same code as
// internal/field's mulADX and squareADX; the reduction is explained there.
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
	genDouble()
	genAddMixed()
	Generate()
}

// fe is a field element in memory: four limbs, least significant first.
type fe = asmlib.FE

// at returns the element at byte offset disp from m.
func at(m Mem, disp int) fe { return asmlib.At(m, disp) }

// The register pool (DX is never in it: MULX reads it, and the code below
// uses it as a named scratch register), the reduction addend, the
// subtraction of p and the rows and rounds of the multiplication are
// asmlib's, shared with internal/field/_asm.
type pool = asmlib.Pool

func newPool(rs ...GPPhysical) *pool { return asmlib.NewPool(rs...) }

// load returns the element x in four new registers.
func load(x fe, regs *pool) [4]GPPhysical {
	r := regs.Get4()
	for i := range r {
		MOVQ(x[i], r[i])
	}
	return r
}

// storeFE writes v to x.
func storeFE(v [4]GPPhysical, x fe) {
	for i := range v {
		MOVQ(v[i], x[i])
	}
}

// mul returns x·y·2^-256 mod p, below p, in four new registers
// (asmlib.MulADX, the multiplication of internal/field's mulADX; the
// subtraction of p uses DX as scratch).
func mul(x, y fe, regs *pool) [4]GPPhysical {
	s, _ := asmlib.MulADX(x, y, regs, RDX)
	return s
}

// square returns x·x·2^-256 mod p, below p, in four new registers: the
// product, its low half reduced in four rounds, and the high half added
// with one conditional subtraction (asmlib.SquareProductADX, ReduceLow and
// FinalADX, as internal/field's squareADX). It needs the twelve registers
// of the pool free.
func square(x fe, regs *pool) [4]GPPhysical {
	var t [8]GPPhysical
	for i := range t {
		t[i] = regs.Get()
	}
	lo, h0, b0, b1 := regs.Get(), regs.Get(), regs.Get(), regs.Get()
	asmlib.SquareProductADX(t, x, lo, h0, b0, b1)
	regs.Put(lo, h0, b0, b1)
	u := asmlib.ReduceLow(t, regs)
	h := [4]GPPhysical{t[4], t[5], t[6], t[7]}
	d := regs.Get4()
	asmlib.FinalADX(d, u, h, RDX)
	regs.Put4(u)
	regs.Put4(h)
	return d
}

// ---------------------------------------------------------------------------
// Additions. Operands are below p and so are the results.

// add returns a + b mod p in four new registers and frees a. b may be a
// itself (a doubling) or memory.
func add(a [4]GPPhysical, b [4]Op, regs *pool) [4]GPPhysical {
	c := regs.Get()
	XORL(c.As32(), c.As32())
	ADDQ(b[0], a[0])
	for i := 1; i < 4; i++ {
		ADCQ(b[i], a[i])
	}
	ADCQ(Imm(0), c)
	s := regs.Get4()
	asmlib.SubP(s, a, RDX)
	SBBQ(Imm(0), c) // borrows iff a + b < p
	for i := range s {
		CMOVQCS(a[i], s[i])
	}
	regs.Put4(a)
	regs.Put(c)
	return s
}

// sub sets a = a - b mod p.
func sub(a [4]GPPhysical, b [4]Op, regs *pool) {
	m, t := regs.Get(), regs.Get()
	SUBQ(b[0], a[0])
	for i := 1; i < 4; i++ {
		SBBQ(b[i], a[i])
	}
	SBBQ(m, m) // m = -borrow: add p back
	MOVL(U32(asmlib.P1), t.As32())
	ANDQ(m, t)
	MOVQ(U64(asmlib.P3), RDX)
	ANDQ(m, RDX)
	ADDQ(m, a[0])
	ADCQ(t, a[1])
	ADCQ(Imm(0), a[2])
	ADCQ(RDX, a[3])
	regs.Put(m, t)
}

// half sets a = a/2 mod p: (a + p)/2 if a is odd, else a/2.
func half(a [4]GPPhysical, regs *pool) {
	m, t, c := regs.Get(), regs.Get(), regs.Get()
	MOVQ(a[0], m)
	ANDQ(Imm(1), m)
	NEGQ(m)
	MOVL(U32(asmlib.P1), t.As32())
	ANDQ(m, t)
	MOVQ(U64(asmlib.P3), RDX)
	ANDQ(m, RDX)
	MOVL(U32(0), c.As32())
	ADDQ(m, a[0])
	ADCQ(t, a[1])
	ADCQ(Imm(0), a[2])
	ADCQ(RDX, a[3])
	ADCQ(Imm(0), c)
	SHRQ(U8(1), a[1], a[0])
	SHRQ(U8(1), a[2], a[1])
	SHRQ(U8(1), a[3], a[2])
	SHRQ(U8(1), c, a[3])
	regs.Put(m, t, c)
}

func ops(r [4]GPPhysical) [4]Op { return [4]Op{r[0], r[1], r[2], r[3]} }

func mops(m fe) [4]Op { return [4]Op{m[0], m[1], m[2], m[3]} }

// ---------------------------------------------------------------------------

func genDouble() {
	TEXT("doubleADX", NOSPLIT, "func(p *[12]uint64)")
	Doc(
		"doubleADX sets p = 2p in place, p a Jacobian point (X, Y, Z), with the",
		"formula of double: α = 3(X - Z²)(X + Z²)/2, β = X·Y², X' = α² - 2β,",
		"Y' = α(β - X') - Y⁴, Z' = Y·Z. It requires BMI2 and ADX.",
	)
	Pragma("noescape")
	pp := RDI
	Load(Param("p"), pp)
	X, Y, Z := at(Mem{Base: pp}, 0), at(Mem{Base: pp}, 32), at(Mem{Base: pp}, 64)
	frame := AllocLocal(5 * 32)
	A, T, alpha, gamma, beta := at(frame, 0), at(frame, 32), at(frame, 64), at(frame, 96), at(frame, 128)
	regs := newPool(RAX, RBX, RCX, RSI, R8, R9, R10, R11, R12, R13, R14, R15)

	Comment("δ = Z²")
	d := square(Z, regs)
	Comment("T = X - δ, A = X + δ")
	s := load(X, regs)
	sub(s, ops(d), regs)
	storeFE(s, T)
	regs.Put4(s)
	s = add(d, mops(X), regs)
	storeFE(s, A)
	regs.Put4(s)

	Comment("α = A·T, then 3α/2")
	s = mul(A, T, regs)
	storeFE(s, alpha)
	s = add(s, ops(s), regs)
	s = add(s, mops(alpha), regs)
	half(s, regs)
	storeFE(s, alpha)
	regs.Put4(s)

	Comment("γ = Y², β = X·γ")
	s = square(Y, regs)
	storeFE(s, gamma)
	regs.Put4(s)
	s = mul(X, gamma, regs)
	storeFE(s, beta)
	regs.Put4(s)

	Comment("Z' = Y·Z")
	s = mul(Z, Y, regs)
	storeFE(s, Z)
	regs.Put4(s)

	Comment("X' = α² - 2β")
	x := square(alpha, regs)
	sub(x, mops(beta), regs)
	sub(x, mops(beta), regs)
	storeFE(x, X)
	Comment("T = β - X'")
	s = load(beta, regs)
	sub(s, ops(x), regs)
	storeFE(s, T)
	regs.Put4(s)
	regs.Put4(x)

	Comment("γ = γ², Y' = α·T - γ")
	s = square(gamma, regs)
	storeFE(s, gamma)
	regs.Put4(s)
	s = mul(alpha, T, regs)
	sub(s, mops(gamma), regs)
	storeFE(s, Y)
	regs.Put4(s)
	RET()
}

// ---------------------------------------------------------------------------

// genAddMixed generates addMixedADX, the general case of addMixed in
// jacobian.go (madd-2004-hmv) with every field operation inlined. It stops
// before writing anything to p when H = 0, the case where addMixed doubles
// or returns infinity, and reports it; the caller redoes that case.
func genAddMixed() {
	TEXT("addMixedADX", NOSPLIT, "func(p *[12]uint64, a *[8]uint64, neg uint64) (hZero uint64)")
	Doc(
		"addMixedADX sets p = p + a if neg is 0 and p = p - a otherwise, p a",
		"Jacobian point (X1, Y1, Z1) with Z1 ≠ 0 and a an affine point (X2, Y2),",
		"with the formula of addMixed: H = X2·Z1² - X1, r = ±Y2·Z1³ - Y1,",
		"X3 = r² - H³ - 2·X1·H², Y3 = r(X1·H² - X3) - Y1·H³, Z3 = Z1·H. If H = 0",
		"it leaves p unchanged and returns 1, else it returns 0. It requires",
		"BMI2 and ADX.",
	)
	Pragma("noescape")
	pp := RDI
	Load(Param("p"), pp)
	X, Y, Z := at(Mem{Base: pp}, 0), at(Mem{Base: pp}, 32), at(Mem{Base: pp}, 64)
	frame := AllocLocal(9 * 32)
	AX_, AY_, ZZ, H, R := at(frame, 0), at(frame, 32), at(frame, 64), at(frame, 96), at(frame, 128)
	HH, HHH, V, T := at(frame, 160), at(frame, 192), at(frame, 224), at(frame, 256)
	regs := newPool(RAX, RBX, RCX, RSI, R8, R9, R10, R11, R12, R13, R14, R15)

	Comment("Copy a's X2 and Y2 to the frame.")
	ap := regs.Get()
	Load(Param("a"), ap)
	for i := 0; i < 8; i++ {
		MOVQ(Mem{Base: ap, Disp: 8 * i}, RDX)
		MOVQ(RDX, frame.Offset(8*i))
	}
	regs.Put(ap)

	Comment("ZZ = Z1²")
	s := square(Z, regs)
	storeFE(s, ZZ)
	regs.Put4(s)

	Comment("H = X2·ZZ - X1; stop if H = 0")
	s = mul(AX_, ZZ, regs)
	sub(s, mops(X), regs)
	storeFE(s, H)
	t := regs.Get()
	MOVQ(s[0], t)
	ORQ(s[1], t)
	ORQ(s[2], t)
	ORQ(s[3], t)
	JZ(LabelRef("hzero"))
	regs.Put(t)
	regs.Put4(s)

	Comment("S2 = Y2·Z1·ZZ, negated if neg ≠ 0")
	s = mul(AY_, Z, regs)
	storeFE(s, R)
	regs.Put4(s)
	s = mul(R, ZZ, regs)
	n := regs.Get4()
	for i := range n {
		XORL(n[i].As32(), n[i].As32())
	}
	sub(n, ops(s), regs)
	t = regs.Get()
	Load(Param("neg"), t)
	TESTQ(t, t)
	for i := range s {
		CMOVQNE(n[i], s[i])
	}
	regs.Put(t)
	regs.Put4(n)

	Comment("r = S2 - Y1")
	sub(s, mops(Y), regs)
	storeFE(s, R)
	regs.Put4(s)

	Comment("HH = H², HHH = HH·H, V = X1·HH")
	s = square(H, regs)
	storeFE(s, HH)
	regs.Put4(s)
	s = mul(HH, H, regs)
	storeFE(s, HHH)
	regs.Put4(s)
	s = mul(X, HH, regs)
	storeFE(s, V)
	regs.Put4(s)

	Comment("Z3 = Z1·H")
	s = mul(Z, H, regs)
	storeFE(s, Z)
	regs.Put4(s)

	Comment("X3 = r² - HHH - 2V")
	x := square(R, regs)
	sub(x, mops(HHH), regs)
	sub(x, mops(V), regs)
	sub(x, mops(V), regs)
	storeFE(x, X)
	Comment("T = V - X3")
	s = load(V, regs)
	sub(s, ops(x), regs)
	storeFE(s, T)
	regs.Put4(s)
	regs.Put4(x)

	Comment("HHH = HHH·Y1, Y3 = r·T - HHH")
	s = mul(HHH, Y, regs)
	storeFE(s, HHH)
	regs.Put4(s)
	s = mul(R, T, regs)
	sub(s, mops(HHH), regs)
	storeFE(s, Y)
	regs.Put4(s)

	t = regs.Get()
	XORL(t.As32(), t.As32())
	Store(t, ReturnIndex(0))
	RET()

	Label("hzero")
	MOVL(U32(1), t.As32())
	Store(t, ReturnIndex(0))
	RET()
}
