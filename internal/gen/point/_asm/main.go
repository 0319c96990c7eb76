// Command _asm generates the fused amd64 Jacobian kernels of the group law
// with avo, the same four for P-256 (package internal/p256/point) and P-384
// (package internal/p384/point): doubleADX, the Jacobian doubling,
// addMixedADX, the general case of the mixed addition (see genAddMixed),
// addCachedADX, the general case of the cached Jacobian addition (see
// genAddCached), and addCoZADX, the co-Z addition (genAddCoZ). One set of
// formulas (this file) is emitted over a curve's field operations (p256.go,
// p384.go). Run it through go generate in the package directories, which do
//
//	go run -C ../../gen/point/_asm . -out ../../../p256/point/jacobian_amd64.s -stubs ../../../p256/point/jacobian_amd64_stubs.go -pkg point
//	go run -C ../../gen/point/_asm . -curve P-384 -out ../../../p384/point/jacobian_amd64.s -stubs ../../../p384/point/jacobian_amd64_stubs.go -pkg point
//
// (-curve defaults to P-256). doubleADX computes exactly what double in the
// package's jacobian.go computes, the dbl-2001-b doubling scaled by 1/2,
// with every field operation inlined: the Montgomery products and squares
// (MULX with ADCX/ADOX, the reductions of internal/_asmlib), the modular
// additions, subtractions and the halving. Every intermediate value is
// fully reduced, below p, as the field packages' are, so the result is the
// same limbs as double's whatever the order of the operations. Values live
// in registers and in stack slots; there are no calls, and doubleADX has no
// branches.
package main

import (
	"flag"
	"fmt"
	"os"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"

	"github.com/p256tls/p256tls/internal/_asmlib"
)

func main() {
	name := flag.String("curve", "P-256", "the curve: P-256 or P-384")
	flag.Parse()
	c, ok := map[string]*curve{"P-256": p256, "P-384": p384}[*name]
	if !ok {
		fmt.Fprintf(os.Stderr, "_asm: unknown curve %q\n", *name)
		os.Exit(2)
	}
	ConstraintExpr("amd64")
	ConstraintExpr("!purego")
	genDouble(c)
	genAddMixed(c)
	genAddCached(c)
	genAddCoZ(c)
	Generate()
}

// fe is a field element in memory: its limbs, least significant first.
type fe = []Mem

// The register pool (DX is never in it: MULX reads it, and the code below
// uses it as a named scratch register) is asmlib's.
type pool = asmlib.Pool

func newPool(rs ...GPPhysical) *pool { return asmlib.NewPool(rs...) }

// curve is what the formulas need of a curve's field. Every operation takes
// and leaves elements below p.
type curve struct {
	name  string
	limbs int
	// spill is set when the pool cannot hold two elements beside a
	// subtraction's scratch registers: the formulas then store a value
	// before they load the next, and take the second operand of every
	// addition and subtraction from memory.
	spill bool
	// slots is the number of 8-byte frame slots the products need; a
	// kernel allocates them after its own and passes them to tmp.
	slots int
	tmp   func(fe)
	// pool returns the kernels' register pool, full.
	pool func() *pool
	// mul and square return x·y·R⁻¹ and x·x·R⁻¹ mod p in new registers;
	// they need the whole pool free.
	mul    func(x, y fe, regs *pool) []GPPhysical
	square func(x fe, regs *pool) []GPPhysical
	// add returns a + b mod p and frees a (or returns a itself); b may be
	// a (a doubling) or memory.
	add func(a []GPPhysical, b []Op, regs *pool) []GPPhysical
	// sub sets a = a − b mod p; half sets a = a/2 mod p.
	sub  func(a []GPPhysical, b []Op, regs *pool)
	half func(a []GPPhysical, regs *pool)
}

// at returns the n-limb element at byte offset disp from m.
func at(m Mem, disp, n int) fe {
	e := make(fe, n)
	for i := range e {
		e[i] = m.Offset(disp + 8*i)
	}
	return e
}

// load returns the element x in new registers.
func load(x fe, regs *pool) []GPPhysical {
	r := make([]GPPhysical, len(x))
	for i := range r {
		r[i] = regs.Get()
	}
	for i := range r {
		MOVQ(x[i], r[i])
	}
	return r
}

// storeFE writes v to x.
func storeFE(v []GPPhysical, x fe) {
	for i := range v {
		MOVQ(v[i], x[i])
	}
}

// storeFree writes v to x and returns v's registers to regs.
func storeFree(v []GPPhysical, x fe, regs *pool) {
	storeFE(v, x)
	regs.Put(v...)
}

func ops(r []GPPhysical) []Op {
	o := make([]Op, len(r))
	for i := range r {
		o[i] = r[i]
	}
	return o
}

func mops(m fe) []Op {
	o := make([]Op, len(m))
	for i := range m {
		o[i] = m[i]
	}
	return o
}

// ---------------------------------------------------------------------------

func genDouble(c *curve) {
	n, w := c.limbs, 8*c.limbs
	TEXT("doubleADX", NOSPLIT, fmt.Sprintf("func(p *[%d]uint64)", 3*n))
	Doc(
		"doubleADX sets p = 2p in place, p a Jacobian point (X, Y, Z), with the",
		"formula of double: α = 3(X - Z²)(X + Z²)/2, β = X·Y², X' = α² - 2β,",
		"Y' = α(β - X') - Y⁴, Z' = Y·Z. It requires BMI2 and ADX.",
	)
	Pragma("noescape")
	pp := RDI
	Load(Param("p"), pp)
	X, Y, Z := at(Mem{Base: pp}, 0, n), at(Mem{Base: pp}, w, n), at(Mem{Base: pp}, 2*w, n)
	frame := AllocLocal(5 * w)
	if c.slots > 0 {
		c.tmp(at(AllocLocal(8*c.slots), 0, c.slots))
	}
	A, T, alpha, gamma, beta := at(frame, 0, n), at(frame, w, n), at(frame, 2*w, n), at(frame, 3*w, n), at(frame, 4*w, n)
	regs := c.pool()

	// The products are in an order that lets each start before its
	// predecessor ends: δ, γ and Z' depend on nothing here, and two
	// products stand between δ and α, so δ waits in A, not in registers.
	Comment("δ = Z², kept in A")
	s := c.square(Z, regs)
	storeFree(s, A, regs)
	Comment("γ = Y²")
	s = c.square(Y, regs)
	storeFree(s, gamma, regs)
	Comment("Z' = Y·Z")
	s = c.mul(Z, Y, regs)
	storeFree(s, Z, regs)

	Comment("T = X - δ, A = X + δ")
	s = load(X, regs)
	c.sub(s, mops(A), regs)
	storeFree(s, T, regs)
	s = load(A, regs)
	s = c.add(s, mops(X), regs)
	storeFree(s, A, regs)

	Comment("α = A·T, then 3α/2")
	s = c.mul(A, T, regs)
	storeFE(s, alpha)
	s = c.add(s, ops(s), regs)
	s = c.add(s, mops(alpha), regs)
	c.half(s, regs)
	storeFree(s, alpha, regs)

	Comment("β = X·γ")
	s = c.mul(X, gamma, regs)
	storeFree(s, beta, regs)

	Comment("X' = α² - 2β")
	x := c.square(alpha, regs)
	c.sub(x, mops(beta), regs)
	c.sub(x, mops(beta), regs)
	storeFE(x, X)
	Comment("T = β - X'")
	s = subFrom(c, beta, x, X, regs)
	storeFree(s, T, regs)
	if !c.spill {
		regs.Put(x...)
	}

	Comment("γ = γ², Y' = α·T - γ")
	s = c.square(gamma, regs)
	storeFree(s, gamma, regs)
	s = c.mul(alpha, T, regs)
	c.sub(s, mops(gamma), regs)
	storeFree(s, Y, regs)
	RET()
}

// subFrom returns m − x in new registers, x an element in registers just
// stored to xm. With spill, x's registers are freed first and x is read
// from xm; else they stay x's, for the caller to free.
func subFrom(c *curve, m fe, x []GPPhysical, xm fe, regs *pool) []GPPhysical {
	b := ops(x)
	if c.spill {
		regs.Put(x...)
		b = mops(xm)
	}
	s := load(m, regs)
	c.sub(s, b, regs)
	return s
}

// ---------------------------------------------------------------------------

// genAddMixed generates addMixedADX, the general case of addMixed in
// jacobian.go (madd-2004-hmv) with every field operation inlined. It stops
// before writing anything to p when H = 0, the case where addMixed doubles
// or returns infinity, and reports it; the caller redoes that case.
func genAddMixed(c *curve) {
	n, w := c.limbs, 8*c.limbs
	TEXT("addMixedADX", NOSPLIT, fmt.Sprintf("func(p *[%d]uint64, a *[%d]uint64, neg uint64) (hZero uint64)", 3*n, 2*n))
	Doc(
		"addMixedADX sets p = p + a if neg is 0 and p = p - a otherwise, p a",
		"Jacobian point (X1, Y1, Z1) with Z1 ≠ 0 and a an affine point (X2, Y2),",
		"with the formula of addMixed: H = X2·Z1² - X1, r = ±Y2·Z1³ - Y1,",
		"X3 = r² - H³ - 2·X1·H², Y3 = r(X1·H² - X3) - Y1·H³, Z3 = Z1·H. If H = 0",
		"it leaves p unchanged and returns 1, else it returns 0. It requires",
		"BMI2 and ADX.",
	)
	X, Y, Z, frame, regs := addPrologue(c, 9, "a", 2, "Copy a's X2 and Y2 to the frame.")
	AX_, AY_, ZZ, H, R := at(frame, 0, n), at(frame, w, n), at(frame, 2*w, n), at(frame, 3*w, n), at(frame, 4*w, n)
	HH, HHH, V, T := at(frame, 5*w, n), at(frame, 6*w, n), at(frame, 7*w, n), at(frame, 8*w, n)

	Comment("ZZ = Z1²")
	s := c.square(Z, regs)
	storeFree(s, ZZ, regs)

	genAddGeneral(c, addSlots{
		X: X, Y: Y, Z: Z, x2: AX_, y2: AY_, u1: X, s1: Y, u1Name: "X1", s1Name: "Y1",
		ZZ: ZZ, H: H, R: R, HH: HH, HHH: HHH, V: V, T: T,
	}, regs)
}

// addPrologue emits the start the additions share, after their TEXT and
// Doc: p's pointer in DI, a frame of slots field elements, the products'
// frame slots (c.slots), and the first elems elements of the argument
// param copied to the start of the frame (the products take every register,
// so the addend is read from there). It returns p's coordinates, the frame
// and the register pool.
func addPrologue(c *curve, slots int, param string, elems int, comment string) (X, Y, Z fe, frame Mem, regs *pool) {
	n, w := c.limbs, 8*c.limbs
	Pragma("noescape")
	pp := RDI
	Load(Param("p"), pp)
	X, Y, Z = at(Mem{Base: pp}, 0, n), at(Mem{Base: pp}, w, n), at(Mem{Base: pp}, 2*w, n)
	frame = AllocLocal(slots * w)
	if c.slots > 0 {
		c.tmp(at(AllocLocal(8*c.slots), 0, c.slots))
	}
	regs = c.pool()

	Comment(comment)
	ap := regs.Get()
	Load(Param(param), ap)
	for i := 0; i < elems*n; i++ {
		MOVQ(Mem{Base: ap, Disp: 8 * i}, RDX)
		MOVQ(RDX, frame.Offset(8*i))
	}
	regs.Put(ap)
	return X, Y, Z, frame, regs
}

// addSlots names the elements genAddGeneral works on: p's coordinates X,
// Y, Z (in place), the addend's x2, y2 and, for a Jacobian addend, z2 (nil
// for an affine one), u1 and s1 (X1 and Y1 for the mixed addition, U1 =
// X1·Z2² and S1 = Y1·Z2³ for the cached one, named u1Name and s1Name in the
// comments), ZZ = Z1², and the frame slots of the formula's values.
type addSlots struct {
	X, Y, Z, x2, y2, z2, u1, s1 fe
	u1Name, s1Name              string
	ZZ, H, R, HH, HHH, V, T     fe
}

// genAddGeneral emits the part the mixed and the cached additions share,
// from H on, with ZZ already in its slot:
//
//	H = x2·ZZ − u1 (stop if H = 0), r = ±y2·Z1·ZZ − s1,
//	X3 = r² − H³ − 2·u1·H², Y3 = r(u1·H² − X3) − s1·H³, Z3 = Z1·z2·H,
//
// and returns hZero. Nothing is written to p before the H = 0 stop.
func genAddGeneral(c *curve, a addSlots, regs *pool) {
	// The products are in an order that lets each start before its
	// predecessor ends: no product reads the one just before it, but for
	// the subtractions at the ends of X3 and Y3.
	Comment("S2 = Y2·Z1 (then times ZZ below)")
	s := c.mul(a.y2, a.Z, regs)
	storeFree(s, a.R, regs)
	zh := a.Z
	if a.z2 != nil {
		Comment("T = Z1·Z2, for Z3")
		s = c.mul(a.Z, a.z2, regs)
		storeFree(s, a.T, regs) // p is written only after the H = 0 stop
		zh = a.T
	}

	Commentf("H = X2·ZZ - %s; stop if H = 0", a.u1Name)
	s = c.mul(a.x2, a.ZZ, regs)
	c.sub(s, mops(a.u1), regs) // H
	storeFE(s, a.H)
	jumpIfZero(s, "hzero", regs)
	regs.Put(s...)

	Commentf("S2 = S2·ZZ, negated if neg ≠ 0; r = S2 - %s", a.s1Name)
	s = c.mul(a.R, a.ZZ, regs)
	s = negIf(c, s, a.R, regs)
	c.sub(s, mops(a.s1), regs) // r
	storeFree(s, a.R, regs)

	Comment("HH = H²")
	s = c.square(a.H, regs)
	storeFree(s, a.HH, regs)
	if a.z2 == nil {
		Comment("Z3 = Z1·H")
	} else {
		Comment("Z3 = Z1·Z2·H")
	}
	s = c.mul(zh, a.H, regs)
	storeFree(s, a.Z, regs)
	Commentf("V = %s·HH, HHH = HH·H", a.u1Name)
	s = c.mul(a.u1, a.HH, regs)
	storeFree(s, a.V, regs)
	s = c.mul(a.HH, a.H, regs)
	storeFree(s, a.HHH, regs)

	Comment("X3 = r² - HHH - 2V")
	x := c.square(a.R, regs)
	c.sub(x, mops(a.HHH), regs)
	c.sub(x, mops(a.V), regs)
	c.sub(x, mops(a.V), regs)
	storeFE(x, a.X)
	Comment("T = V - X3")
	s = subFrom(c, a.V, x, a.X, regs)
	storeFree(s, a.T, regs)
	if !c.spill {
		regs.Put(x...)
	}

	Commentf("HHH = HHH·%s, Y3 = r·T - HHH", a.s1Name)
	s = c.mul(a.HHH, a.s1, regs)
	storeFree(s, a.HHH, regs) // HHH·s1
	s = c.mul(a.R, a.T, regs)
	c.sub(s, mops(a.HHH), regs) // Y3
	storeFree(s, a.Y, regs)

	returnHZero(regs)
}

// jumpIfZero jumps to label if the element s (in registers) is zero. It
// takes one register.
func jumpIfZero(s []GPPhysical, label string, regs *pool) {
	t := regs.Get()
	MOVQ(s[0], t)
	for i := 1; i < len(s); i++ {
		ORQ(s[i], t)
	}
	JZ(LabelRef(label))
	regs.Put(t)
}

// negIf returns, in new registers, −s mod p if the argument neg is
// nonzero and s otherwise, for s in registers: s is stored to the frame
// element m and its registers freed, then 0 − s is computed (p added back on
// a borrow) and s itself chosen back from m by CMOV when neg is 0, so the
// register pool needs room for one element only.
func negIf(c *curve, s []GPPhysical, m fe, regs *pool) []GPPhysical {
	storeFE(s, m)
	regs.Put(s...)
	ng := make([]GPPhysical, len(s))
	for i := range ng {
		ng[i] = regs.Get()
		XORL(ng[i].As32(), ng[i].As32())
	}
	c.sub(ng, mops(m), regs)
	t := regs.Get()
	Load(Param("neg"), t)
	TESTQ(t, t)
	for i := range ng {
		CMOVQEQ(m[i], ng[i])
	}
	regs.Put(t)
	return ng
}

// returnHZero ends a kernel that reports hZero: 0 on the fall-through
// path, 1 at the label "hzero".
func returnHZero(regs *pool) {
	t := regs.Get()
	XORL(t.As32(), t.As32())
	Store(t, ReturnIndex(0))
	RET()

	Label("hzero")
	MOVL(U32(1), t.As32())
	Store(t, ReturnIndex(0))
	RET()
}

// ---------------------------------------------------------------------------

// genAddCached generates addCachedADX, the general case of addCached in
// jacobian.go (add-1998-cmo-2 with Z2² and Z2³ cached) with every field
// operation inlined. Like addMixedADX it stops before writing anything to p
// when H = 0, the case where addCached doubles or returns infinity, and
// reports it; the caller redoes that case. The Cached point q is copied to
// the frame first: the products take every register, the pointer to p
// included, so q's elements are read from there.
func genAddCached(c *curve) {
	n, w := c.limbs, 8*c.limbs
	TEXT("addCachedADX", NOSPLIT, fmt.Sprintf("func(p *[%d]uint64, q *[%d]uint64, neg uint64) (hZero uint64)", 3*n, 5*n))
	Doc(
		"addCachedADX sets p = p + q if neg is 0 and p = p - q otherwise, p a",
		"Jacobian point (X1, Y1, Z1) with Z1 ≠ 0 and q a Cached point (X2, Y2,",
		"Z2, Z2², Z2³) with Z2 ≠ 0, with the formula of addCached: U1 = X1·Z2²,",
		"S1 = Y1·Z2³, H = X2·Z1² - U1, r = ±Y2·Z1³ - S1, X3 = r² - H³ - 2·U1·H²,",
		"Y3 = r(U1·H² - X3) - S1·H³, Z3 = Z1·Z2·H. If H = 0 it leaves p",
		"unchanged and returns 1, else it returns 0. It requires BMI2 and ADX.",
	)
	X, Y, Z, frame, regs := addPrologue(c, 14, "q", 5, "Copy q's X2, Y2, Z2, Z2² and Z2³ to the frame.") // Cached
	QX, QY, QZ, QZZ, QZZZ := at(frame, 0, n), at(frame, w, n), at(frame, 2*w, n), at(frame, 3*w, n), at(frame, 4*w, n)
	ZZ, U1, S1, H, R := at(frame, 5*w, n), at(frame, 6*w, n), at(frame, 7*w, n), at(frame, 8*w, n), at(frame, 9*w, n)
	HH, HHH, V, T := at(frame, 10*w, n), at(frame, 11*w, n), at(frame, 12*w, n), at(frame, 13*w, n)

	Comment("ZZ = Z1², U1 = X1·Z2², S1 = Y1·Z2³")
	s := c.square(Z, regs)
	storeFree(s, ZZ, regs)
	s = c.mul(X, QZZ, regs)
	storeFree(s, U1, regs)
	s = c.mul(Y, QZZZ, regs)
	storeFree(s, S1, regs)

	genAddGeneral(c, addSlots{
		X: X, Y: Y, Z: Z, x2: QX, y2: QY, z2: QZ, u1: U1, s1: S1, u1Name: "U1", s1Name: "S1",
		ZZ: ZZ, H: H, R: R, HH: HH, HHH: HHH, V: V, T: T,
	}, regs)
}

// ---------------------------------------------------------------------------

// genAddCoZ generates addCoZADX, addCoZ in jacobian.go (Meloni's ZADDU)
// with every field operation inlined. q's X and Y are copied to the frame
// first (the products take every register), and q's new coordinates are
// copied out at the end.
func genAddCoZ(c *curve) {
	n, w := c.limbs, 8*c.limbs
	TEXT("addCoZADX", NOSPLIT, fmt.Sprintf("func(p, q *[%d]uint64)", 3*n))
	Doc(
		"addCoZADX sets p = p + q and q = q rescaled to the sum's Z, p and q",
		"Jacobian points (Xp, Yp, Z) and (Xq, Yq, Z) with the same Z, with the",
		"formula of addCoZ: A = (Xp - Xq)², B = Xq·A, C = Xp·A,",
		"E = Yq·(C - B), X3 = (Yp - Yq)² - B - C, Y3 = (Yp - Yq)(B - X3) - E,",
		"Z3 = Z·(Xp - Xq), q = (B, E, Z3). p and q must not alias. It requires",
		"BMI2 and ADX.",
	)
	X, Y, Z, frame, regs := addPrologue(c, 9, "q", 2, "Copy q's Xq and Yq to the frame.") // Xq, Yq
	QX, QY, DX, DY, A := at(frame, 0, n), at(frame, w, n), at(frame, 2*w, n), at(frame, 3*w, n), at(frame, 4*w, n)
	B, C, E, T := at(frame, 5*w, n), at(frame, 6*w, n), at(frame, 7*w, n), at(frame, 8*w, n)

	Comment("DX = Xp - Xq, DY = Yp - Yq")
	s := load(X, regs)
	c.sub(s, mops(QX), regs)
	storeFree(s, DX, regs)
	s = load(Y, regs)
	c.sub(s, mops(QY), regs)
	storeFree(s, DY, regs)

	// The products are in an order where each but E waits at least one
	// other product after the one it reads (A before Z3 and B, DY² before C).
	Comment("A = DX², Z3 = Z·DX, B = Xq·A")
	s = c.square(DX, regs)
	storeFree(s, A, regs)
	s = c.mul(Z, DX, regs)
	storeFree(s, Z, regs)
	s = c.mul(QX, A, regs)
	storeFree(s, B, regs)
	Comment("T = DY², C = Xp·A")
	s = c.square(DY, regs)
	storeFree(s, T, regs)
	s = c.mul(X, A, regs)
	storeFree(s, C, regs)

	Comment("X3 = T - B - C")
	x := load(T, regs)
	c.sub(x, mops(B), regs)
	c.sub(x, mops(C), regs) // X3
	storeFE(x, X)
	Comment("T = B - X3")
	s = subFrom(c, B, x, X, regs)
	storeFree(s, T, regs)
	if !c.spill {
		regs.Put(x...)
	}

	Comment("E = Yq·(C - B)")
	s = load(C, regs)
	c.sub(s, mops(B), regs)
	storeFree(s, E, regs)
	s = c.mul(QY, E, regs)
	storeFree(s, E, regs) // Yq·(C - B)

	Comment("Y3 = DY·T - E")
	s = c.mul(DY, T, regs)
	c.sub(s, mops(E), regs)
	storeFree(s, Y, regs)

	Comment("q = (B, E, Z3)")
	qp := regs.Get()
	Load(Param("q"), qp)
	for i, v := range [][]Mem{B, E, Z} {
		for j := range v {
			MOVQ(v[j], RDX)
			MOVQ(RDX, Mem{Base: qp, Disp: i*w + 8*j})
		}
	}
	regs.Put(qp)
	RET()
}
