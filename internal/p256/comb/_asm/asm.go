package main

// This file writes the scalar amd64 kernels of package comb:
//
//   - lookupAVX2 reads all 2^(w−1) entries of one table position with
//     256-bit masked loads and keeps the wanted one: every entry is read,
//     no address depends on the digit, and there is no branch at all (the
//     loop is unrolled).
//   - addMixedADX, combStepADX and addFullADX are the complete additions of
//     internal/_asmlib/formula (Renes, Costello and Batina, algorithms 5 and 4, a = −3)
//     with every field operation inlined, all on 32-byte slots of the stack
//     frame, and no branch at all.
//
// The field arithmetic is internal/_asmlib's, the same code as package
// field's kernels (Montgomery form with R = 2^256, every value fully
// reduced below p): the multiplication is asmlib.MulADX (MULX with the
// ADCX/ADOX carry chains, interleaved with the multiplication-free
// reduction rounds explained in _asmlib), the addition and subtraction are
// asmlib.AddMod and asmlib.SubMod (a conditional subtraction by CMOV, a
// masked addition of p). No global symbol is referenced (constants are
// immediates), so R15 is free even when dynamically linking.

import (
	"fmt"
	"strings"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"

	"github.com/p256tls/p256tls/internal/_asmlib"
	"github.com/p256tls/p256tls/internal/_asmlib/formula"
)

// slot is a field element in the frame of a kernel, as a byte offset: from
// SP for the scalar kernels, from DI for the vector kernel.
type slot int

// fe returns the element in frame slot s.
func (s slot) fe() asmlib.FE { return asmlib.At(Mem{Base: StackPointer}, int(s)) }

// argMem returns the memory operand of the Go argument name.
func argMem(name string) Mem {
	b, err := Param(name).Resolve()
	if err != nil {
		panic(err)
	}
	return b.Addr
}

// ptrFE returns the element at byte offset disp from the pointer in r.
func ptrFE(r GPPhysical, disp int) asmlib.FE { return asmlib.At(Mem{Base: r}, disp) }

func mops(x asmlib.FE) []Op { return []Op{x[0], x[1], x[2], x[3]} }

// newPool returns every general register but DX (MULX's implicit operand,
// and the scratch of MulADX's final subtraction) and SP.
func newPool() *asmlib.Pool {
	return asmlib.NewPool(RAX, RBX, RCX, RSI, RDI, R8, R9, R10, R11, R12, R13, R14, R15)
}

// load returns the element x in four new registers.
func load(x asmlib.FE, regs *asmlib.Pool) []GPPhysical {
	r := make([]GPPhysical, 4)
	for i := range r {
		r[i] = regs.Get()
		MOVQ(x[i], r[i])
	}
	return r
}

// storeFree writes v to x and returns its registers to regs.
func storeFree(v []GPPhysical, x asmlib.FE, regs *asmlib.Pool) {
	for i := range v {
		MOVQ(v[i], x[i])
	}
	regs.Put(v...)
}

// scalarOps emits the field operations of the scalar kernels on frame
// slots (an asmlib.FieldOps, run by asmlib.RunFormula); every register is
// free between two operations.
type scalarOps struct{ regs *asmlib.Pool }

func (f scalarOps) Mul(dst, x, y slot) {
	s, _ := asmlib.MulADX(x.fe(), y.fe(), f.regs, RDX)
	storeFree(s[:], dst.fe(), f.regs)
}

func (f scalarOps) Add(dst, x, y slot) {
	s := asmlib.AddMod(load(x.fe(), f.regs), mops(y.fe()), asmlib.P256Limbs, f.regs)
	storeFree(s, dst.fe(), f.regs)
}

func (f scalarOps) Sub(dst, x, y slot) {
	a := load(x.fe(), f.regs)
	asmlib.SubMod(a, mops(y.fe()), asmlib.P256Limbs, f.regs)
	storeFree(a, dst.fe(), f.regs)
}

// copy32 copies a 32-byte value with two SSE2 moves.
func copy32(dst, src asmlib.FE) {
	MOVOU(src[0], X0)
	MOVOU(src[2], X1)
	MOVOU(X0, dst[0])
	MOVOU(X1, dst[2])
}

// copyPoint copies n coordinates from src[i] to dst[i].
func copyPoint(dst, src []asmlib.FE) {
	for i := range dst {
		copy32(dst[i], src[i])
	}
}

// pointAt returns the n coordinates of the point at (r).
func pointAt(r GPPhysical, n int) []asmlib.FE {
	c := make([]asmlib.FE, n)
	for i := range c {
		c[i] = ptrFE(r, 32*i)
	}
	return c
}

// storeB stores b in Montgomery form at slot b.
func storeB(b slot) {
	for i, l := range curve.Montgomery(curve.B) {
		asmlib.MovImm(l, RAX)
		MOVQ(RAX, b.fe()[i])
	}
}

// lookupBody emits the masked read of all entries of the table at (tab)
// into Y0 (x) and Y1 (y); idx is the operand of the wanted index ∈
// [1, entries].
func lookupBody(tab GPPhysical, idx Mem, entries int) {
	VPBROADCASTQ(idx, Y15) // wanted index
	MOVQ(I32(1), RAX)
	MOVQ(RAX, X14)
	VPBROADCASTQ(X14, Y14) // counter j+1, from 1
	VMOVDQU(Y14, Y13)      // increment
	VPXOR(Y0, Y0, Y0)
	VPXOR(Y1, Y1, Y1)
	for j := 0; j < entries; j++ {
		VPCMPEQQ(Y14, Y15, Y12)
		VPAND(Mem{Base: tab, Disp: 64 * j}, Y12, Y10)
		VPAND(Mem{Base: tab, Disp: 64*j + 32}, Y12, Y11)
		VPOR(Y10, Y0, Y0)
		VPOR(Y11, Y1, Y1)
		if j != entries-1 {
			VPADDQ(Y13, Y14, Y14)
		}
	}
}

// text starts the function name with the Go signature sig (which avo
// writes to the stubs file) and a local frame of frame bytes at 0(SP).
func text(name, sig string, frame int, doc ...string) {
	TEXT(name, NOSPLIT, sig)
	Doc(doc...)
	Pragma("noescape") // the kernels keep no pointer
	if frame > 0 {
		AllocLocal(frame)
	}
}

// frame is the stack frame of a scalar kernel: named 32-byte slots, one
// after the other from 0(SP).
type frame map[string]slot

func newFrame(names string) frame {
	f := frame{}
	for i, n := range strings.Fields(names) {
		f[n] = slot(32 * i)
	}
	return f
}

func (f frame) size() int { return 32 * len(f) }

// fes returns the elements of the named slots.
func (f frame) fes(names string) []asmlib.FE {
	var e []asmlib.FE
	for _, n := range strings.Fields(names) {
		e = append(e, f[n].fe())
	}
	return e
}

// The frames of the mixed additions (addMixedADX, combStepADX) and of the
// full addition (addFullADX): the inputs, b, the formulas' temporaries and
// the sum.
var (
	mixedFrame = newFrame("X1 Y1 Z1 X2 Y2 b t0 t1 t2 t3 t4 X3 Y3 Z3")
	fullFrame  = newFrame("X1 Y1 Z1 X2 Y2 Z2 b t0 t1 t2 t3 t4 X3 Y3 Z3")
)

// addBody emits the formula prog on the frame f: b is stored, the inputs
// must be in place, and the sum is left in X3, Y3, Z3.
func addBody(f frame, prog string) {
	storeB(f["b"])
	asmlib.RunFormula(scalarOps{newPool()}, prog, f)
}

// negY2 sets y = −y if neg+24(FP) is not zero, by CMOV: 0 − y mod
// p (which is p − y, and 0 for y = 0).
func negY2(y asmlib.FE) {
	regs := newPool()
	n := make([]GPPhysical, 4)
	for i := range n {
		n[i] = regs.Get()
		XORL(n[i].As32(), n[i].As32())
	}
	asmlib.SubMod(n, mops(y), asmlib.P256Limbs, regs)
	v := regs.Get()
	Load(Param("neg"), v)
	TESTQ(v, v)
	for i := range n {
		MOVQ(y[i], v)
		CMOVQNE(n[i], v)
		MOVQ(v, y[i])
	}
}

// genAdd emits the kernel name: out = q + the argument second, whose
// coordinates go to the slots named in coords of frame f, by the formula
// prog.
func genAdd(name, sig string, f frame, prog, second, coords string, doc ...string) {
	text(name, sig, f.size(), doc...)
	Load(Param("q"), RAX)
	Load(Param(second), RBX)
	copyPoint(f.fes("X1 Y1 Z1"), pointAt(RAX, 3))
	copyPoint(f.fes(coords), pointAt(RBX, len(f.fes(coords))))
	addBody(f, prog)
	Comment("Store the sum.")
	Load(Param("out"), RAX)
	copyPoint(pointAt(RAX, 3), f.fes("X3 Y3 Z3"))
	RET()
}

func generateAsm(w int) {
	entries := 1 << (w - 1)
	tabSig := fmt.Sprintf("*[%d][8]uint64", entries)

	text("lookupAVX2", "func(e *[8]uint64, tab "+tabSig+", idx int)", 0,
		"lookupAVX2 sets e to entry idx−1 of tab (a point.Affine each). It reads all",
		fmt.Sprintf("%d entries and keeps the wanted one by mask. Requires AVX2.", entries))
	Load(Param("tab"), RSI)
	lookupBody(RSI, argMem("idx"), entries)
	Load(Param("e"), RDI)
	VMOVDQU(Y0, Mem{Base: RDI})
	VMOVDQU(Y1, Mem{Base: RDI, Disp: 32})
	VZEROUPPER()
	RET()

	m := mixedFrame
	genAdd("addMixedADX", "func(out, q *[12]uint64, a *[8]uint64)", m, formula.RCBMixed, "a", "X2 Y2",
		"addMixedADX sets out = q + a (point.Projective, point.Affine), the complete",
		"mixed addition (RCB algorithm 5). Requires ADX, BMI2, CMOV.")

	text("combStepADX", "func(acc *[12]uint64, tab "+tabSig+", idx, neg, keep int)", m.size(),
		"combStepADX reads e = tab[idx−1], negated if neg = 1, and sets acc = acc if",
		"keep = 1, else acc + e (complete mixed addition). Requires AVX2, ADX, BMI2,",
		"CMOV.")
	Load(Param("tab"), RSI)
	lookupBody(RSI, argMem("idx"), entries)
	VMOVDQU(Y0, m["X2"].fe()[0])
	VMOVDQU(Y1, m["Y2"].fe()[0])
	VZEROUPPER()
	Comment("y2 = −y2 if neg = 1, kept by CMOV.")
	negY2(m["Y2"].fe())
	Load(Param("acc"), RAX)
	copyPoint(m.fes("X1 Y1 Z1"), pointAt(RAX, 3))
	addBody(m, formula.RCBMixed)
	Comment("acc = keep ? acc : sum, by CMOV.")
	Load(Param("acc"), RAX)
	Load(Param("keep"), RBX)
	TESTQ(RBX, RBX)
	acc, old := pointAt(RAX, 3), m.fes("X1 Y1 Z1")
	for c, src := range m.fes("X3 Y3 Z3") {
		for i := range src {
			MOVQ(src[i], R8)
			CMOVQNE(old[c][i], R8)
			MOVQ(R8, acc[c][i])
		}
	}
	RET()

	genAdd("addFullADX", "func(out, q, r *[12]uint64)", fullFrame, formula.RCBFull, "r", "X2 Y2 Z2",
		"addFullADX sets out = q + r (point.Projective), the complete addition (RCB",
		"algorithm 4). Requires ADX, BMI2, CMOV.")

	genComb8((positions(w)+7)/8, entries)
}

// positions is the number of comb positions for window width w.
func positions(w int) int { return (257 + w - 1) / w }
