// Command arm64 generates comb_arm64.s and comb_arm64_stubs.go, the arm64
// kernels of package comb, with internal/_asmlib/a64:
//
//	go run -C _asm ./arm64 -w 6 -out ../comb_arm64.s -stubs ../comb_arm64_stubs.go -pkg comb
//
// The kernels:
//
//   - combStepAsm is one comb position. It reads all 2^(w−1) entries of
//     the position's table with NEON loads and keeps the wanted one with a
//     mask made by a compare (VCMEQ, VBIT): every entry is read, no address
//     depends on the digit, and the unrolled code has no branch at all.
//     Then it negates y under a CSEL, adds, and chooses between the old and
//     the new sum by CSEL.
//   - addMixedAsm and combStepAsm's addition are the complete mixed
//     addition of internal/_asmlib/formula (Renes, Costello and Batina,
//     algorithm 5, a = −3) on a64's P-256 field arithmetic (the same code
//     as package field's arm64 kernels), every value fully reduced, no
//     branch.
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/p256tls/p256tls/internal/_asmlib/a64"
	"github.com/p256tls/p256tls/internal/_asmlib/formula"
	"github.com/p256tls/p256tls/internal/curvedef"
)

// width is the window width in bits (Booth digits).
var width = flag.Int("w", 6, "window width in bits (Booth digits)")

func main() {
	a64.Main(func(f *a64.File) {
		if *width < 2 || *width > 8 {
			fmt.Fprintf(os.Stderr, "window width %d out of range [2, 8]\n", *width)
			os.Exit(2)
		}
		g := &gen{f: f, entries: 1 << (*width - 1)}
		g.b = f.Const64("combB", curvedef.P256().Montgomery(curvedef.P256().B)...)
		g.addMixed()
		g.step()
	})
}

type gen struct {
	f       *a64.File
	entries int
	b       string // the symbol of b in Montgomery form
}

func (g *gen) tabSig() string { return fmt.Sprintf("*[%d][8]uint64", g.entries) }

// Vector registers of the lookup: the sum in V0–V3, an entry in V4–V7, the
// mask in V8, the wanted index in V30, the counter in V29 and its
// increment in V28.
const (
	vMask, vIdx, vCount, vOne = a64.V(8), a64.V(30), a64.V(29), a64.V(28)
)

var vSum, vEntry = []a64.V{0, 1, 2, 3}, []a64.V{4, 5, 6, 7}

// lookupBody reads the entries at (tab) into V0–V3, keeping entry idx−1;
// it advances tab past the table. idx is a register holding the wanted
// index ∈ [1, entries]; one is a scratch register.
func (g *gen) lookupBody(fn *a64.Func, tab, idx, one a64.GP) {
	fn.Comment("every entry read; entry idx−1 kept by a mask from VCMEQ")
	fn.VDUP(vIdx, idx)
	fn.MOVD(one, 1)
	fn.VDUP(vOne, one)
	fn.VDUP(vCount, one)
	for _, v := range vSum {
		fn.VEOR(v, v, v)
	}
	for j := 0; j < g.entries; j++ {
		fn.VLD1(tab, true, vEntry...)
		fn.VCMEQ(vMask, vCount, vIdx)
		for i := range vSum {
			fn.VBIT(vSum[i], vEntry[i], vMask)
		}
		if j != g.entries-1 {
			fn.VADD(vCount, vCount, vOne)
		}
	}
}

// The frame of the additions: the affine addend, the formula's
// temporaries and the sum, 32 bytes each, from local 0.
var frameNames = strings.Fields("X2 Y2 t0 t1 t2 t3 t4 X3 Y3 Z3")

// addition sets up the field, the formula's elements and the pointer to
// b: X1, Y1, Z1 at (q), the rest in the frame. It returns the runner.
func (g *gen) addition(fn *a64.Func, q, bp a64.GP, regs *a64.Pool) (*a64.Formula, *a64.P256) {
	fld := a64.NewP256(fn, regs)
	fn.MOVD(bp, a64.Operand("$"+g.b))
	vars := map[string]a64.Elem{
		"X1": {Base: q, Off: 0}, "Y1": {Base: q, Off: 32}, "Z1": {Base: q, Off: 64},
		"b": {Base: bp, Off: 0},
	}
	for i, n := range frameNames {
		vars[n] = fn.LocalElem(32 * i)
	}
	return a64.NewFormula(fn, fld, regs, vars), fld
}

func (g *gen) addMixed() {
	fn := g.f.Func("addMixedAsm", "func(out, q *[12]uint64, a *[8]uint64)",
		"addMixedAsm sets out = q + a (point.Projective, point.Affine), the complete\n"+
			"mixed addition (RCB algorithm 5). Constant time; out may alias q.")
	fn.Locals(32 * len(frameNames))
	out, q, a, bp := a64.GP(0), a64.GP(1), a64.GP(2), a64.GP(3)
	regs := a64.NewPool(a64.Usable()[4:]...)
	fn.Load("q", q)
	fn.Load("a", a)
	run, _ := g.addition(fn, q, bp, regs)
	fn.Comment("the addend into the frame")
	t := regs.GetN(4)
	for c := 0; c < 2; c++ {
		fn.LoadN(t, a, 32*c)
		fn.StoreN(t, a64.RSP, 8+32*c)
	}
	regs.Put(t...)
	run.Run(formula.RCBMixed)
	fn.Comment("the sum to out")
	fn.Load("out", out)
	for c := 0; c < 3; c++ {
		v := run.Load([]string{"X3", "Y3", "Z3"}[c])
		fn.StoreN(v, out, 32*c)
		regs.Put(v...)
	}
	fn.RET()
}

func (g *gen) step() {
	fn := g.f.Func("combStepAsm", "func(acc *[12]uint64, tab "+g.tabSig()+", idx, neg, keep int)",
		"combStepAsm reads e = tab[idx−1], negated if neg = 1, and sets acc = acc if\n"+
			"keep = 1, else acc + e (complete mixed addition). Constant time.")
	fn.Locals(32 * len(frameNames))
	acc, tab, t, bp := a64.GP(0), a64.GP(1), a64.GP(2), a64.GP(3)
	regs := a64.NewPool(a64.Usable()[4:]...)
	fn.Load("tab", tab)
	fn.Load("idx", t)
	one := regs.Get()
	g.lookupBody(fn, tab, t, one)
	regs.Put(one)
	fn.Comment("the entry into the frame's X2, Y2")
	fn.ADD(t, a64.RSP, 8)
	fn.VST1(t, false, vSum...)
	fn.Load("acc", acc)
	run, fld := g.addition(fn, acc, bp, regs)
	fn.Comment("y2 = −y2 if neg = 1, by CSEL")
	y := run.Load("Y2")
	ny := fld.Neg(y, regs)
	fn.Load("neg", t)
	fn.CMP(t, 0)
	for i := range y {
		fn.CSEL(a64.NE, y[i], ny[i], y[i])
	}
	run.Store(y, "Y2")
	regs.Put(y...)
	regs.Put(ny...)
	run.Run(formula.RCBMixed)
	fn.Comment("acc = keep ? acc : sum, by CSEL")
	fn.Load("keep", t)
	fn.CMP(t, 0)
	old := regs.GetN(4)
	for c, n := range []string{"X3", "Y3", "Z3"} {
		v := run.Load(n)
		fn.LoadN(old, acc, 32*c)
		for i := range v {
			fn.CSEL(a64.NE, v[i], old[i], v[i])
		}
		fn.StoreN(v, acc, 32*c)
		regs.Put(v...)
	}
	fn.RET()
}
