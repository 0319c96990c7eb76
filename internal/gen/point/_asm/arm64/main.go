// Command arm64 generates the fused arm64 Jacobian kernels of the group law
// with internal/_asmlib/a64, the four of the amd64 generator (its parent
// directory) under the same contracts: doubleAsm, addMixedAsm, addCachedAsm
// and addCoZAsm compute exactly double, addMixed (its general case),
// addCached (its general case) and addCoZ of the package's jacobian.go,
// every intermediate fully reduced, so the limbs are the same. Each kernel
// is one program of field operations (the constants below), run by
// a64.Formula over the curve's a64 field, which keeps values in registers
// between the steps and goes to memory only when it runs out of them. Run
// it through go generate in the package directory:
//
//	go run -C ../../gen/point/_asm ./arm64 -curve P-256 -out ../../../p256/point/jacobian_arm64.s -stubs ../../../p256/point/jacobian_arm64_stubs.go -pkg point
//
// (-curve P-384 for internal/p384/point). The programs depend on the curve
// only through its field: a curve is a limb count and an a64 field.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/p256tls/p256tls/internal/_asmlib/a64"
	"github.com/p256tls/p256tls/internal/_asmlib/formula"
)

// curve is what the kernels need of a curve: its limb count and its a64
// field, which loads its constants into registers from regs.
type curve struct {
	limbs int
	field func(fn *a64.Func, regs *a64.Pool) a64.Field
}

// curves are the curves with an a64 field, by the name -curve takes.
var curves = map[string]curve{
	"P-256": {4, func(fn *a64.Func, regs *a64.Pool) a64.Field { return a64.NewP256(fn, regs) }},
	"P-384": {6, func(fn *a64.Func, regs *a64.Pool) a64.Field { return a64.NewP384(fn, regs) }},
}

// curveName is the curve whose kernels are generated.
var curveName = flag.String("curve", "P-256", "the curve: P-256 or P-384")

func main() {
	a64.Main(func(f *a64.File) {
		c, ok := curves[*curveName]
		if !ok {
			fmt.Fprintf(os.Stderr, "arm64: no a64 field for curve %q\n", *curveName)
			os.Exit(2)
		}
		for _, k := range kernels {
			gen(f, c, k)
		}
	})
}

// double is doubleKeep of jacobian.go: dbl-2001-b scaled by 1/2, in place.
const double = `
delta = Z·Z; y2 = Y·Y; beta = X·y2; t = X − delta; alpha = X + delta; alpha = alpha·t
t = alpha + alpha; alpha = alpha + t; alpha = alpha/2; Z = Z·Y
t = beta + beta; X = alpha·alpha; X = X − t; t = beta − X; Y = alpha·t; y2 = y2·y2; Y = Y − y2
`

// addMixed is the general case of addMixed (madd-2004-hmv), stopping
// before it writes p when H = 0.
const addMixed = `
z1z1 = Z·Z; u2 = aX·z1z1; h = u2 − X
exit if h = 0
s2 = aY·Z; s2 = s2·z1z1; s2 = ±s2; r = s2 − Y
hh = h·h; hhh = hh·h; v = X·hh; Z = Z·h
t = v + v; X = r·r; X = X − hhh; X = X − t
hhh = hhh·Y; t = v − X; Y = r·t; Y = Y − hhh
`

// addCached is the general case of addCached (add-1998-cmo-2 with Z2² and
// Z2³ cached), stopping before it writes p when H = 0.
const addCached = `
z1z1 = Z·Z; u1 = X·qZZ; u2 = qX·z1z1; h = u2 − u1
exit if h = 0
s1 = Y·qZZZ; s2 = qY·Z; s2 = s2·z1z1; s2 = ±s2; r = s2 − s1
hh = h·h; hhh = hh·h; v = u1·hh; Z = Z·qZ; Z = Z·h
t = v + v; X = r·r; X = X − hhh; X = X − t
s1 = s1·hhh; t = v − X; Y = r·t; Y = Y − s1
`

// addCoZ is addCoZ (Meloni's ZADDU) with q's new X and Y computed in place
// of addCoZ's b and e (q's old X and Y are read only before).
const addCoZ = `
dx = X − qX; dy = Y − qY; a = dx·dx; qX = qX·a; c = X·a; e = c − qX; qY = qY·e; Z = Z·dx
X = dy·dy; X = X − qX; X = X − c; c = qX − X; Y = dy·c; Y = Y − qY; qZ = Z
`

// kernel is one kernel: its name, its Go signature over n-limb words (%[1]d
// is 3n, a Jacobian; %[2]d 2n, an Affine; %[3]d 5n, a Cached), its doc
// comment, its program, and its point arguments with the names their
// coordinates have in the program (p's are X, Y, Z). A kernel whose program
// has an exit test returns hZero, 1 at the exit and 0 at the end.
type kernel struct {
	name, sig, doc, prog string
	points               []point
}

// point is a pointer argument and its coordinates' names, in order.
type point struct {
	arg    string
	coords []string
}

var kernels = []kernel{
	{
		name: "doubleAsm", sig: "func(p *[%[1]d]uint64)", prog: double,
		doc: `doubleAsm sets p = 2p in place, p a Jacobian point (X, Y, Z), with the
formula of double: α = 3(X − Z²)(X + Z²)/2, β = X·Y², X' = α² − 2β,
Y' = α(β − X') − Y⁴, Z' = Y·Z. Constant time: no branch.`,
		points: []point{{"p", []string{"X", "Y", "Z"}}},
	},
	{
		name: "addMixedAsm", sig: "func(p *[%[1]d]uint64, a *[%[2]d]uint64, neg uint64) (hZero uint64)", prog: addMixed,
		doc: `addMixedAsm sets p = p + a if neg is 0 and p = p − a otherwise, p a
Jacobian point (X1, Y1, Z1) with Z1 ≠ 0 and a an affine point (X2, Y2),
with the formula of addMixed: H = X2·Z1² − X1, r = ±Y2·Z1³ − Y1,
X3 = r² − H³ − 2·X1·H², Y3 = r(X1·H² − X3) − Y1·H³, Z3 = Z1·H. If H = 0
it leaves p unchanged and returns 1, else it returns 0: it branches on H,
public points only.`,
		points: []point{{"p", []string{"X", "Y", "Z"}}, {"a", []string{"aX", "aY"}}},
	},
	{
		name: "addCachedAsm", sig: "func(p *[%[1]d]uint64, q *[%[3]d]uint64, neg uint64) (hZero uint64)", prog: addCached,
		doc: `addCachedAsm sets p = p + q if neg is 0 and p = p − q otherwise, p a
Jacobian point (X1, Y1, Z1) with Z1 ≠ 0 and q a Cached point (X2, Y2,
Z2, Z2², Z2³) with Z2 ≠ 0, with the formula of addCached: U1 = X1·Z2²,
S1 = Y1·Z2³, H = X2·Z1² − U1, r = ±Y2·Z1³ − S1, X3 = r² − H³ − 2·U1·H²,
Y3 = r(U1·H² − X3) − S1·H³, Z3 = Z1·Z2·H. If H = 0 it leaves p
unchanged and returns 1, else it returns 0: it branches on H, public
points only. p and q must not overlap.`,
		points: []point{{"p", []string{"X", "Y", "Z"}}, {"q", []string{"qX", "qY", "qZ", "qZZ", "qZZZ"}}},
	},
	{
		name: "addCoZAsm", sig: "func(p, q *[%[1]d]uint64)", prog: addCoZ,
		doc: `addCoZAsm sets p = p + q and q = q rescaled to the sum's Z, p and q
Jacobian points (Xp, Yp, Z) and (Xq, Yq, Z) with the same Z, with the
formula of addCoZ: A = (Xp − Xq)², B = Xq·A, C = Xp·A,
E = Yq·(C − B), X3 = (Yp − Yq)² − B − C, Y3 = (Yp − Yq)(B − X3) − E,
Z3 = Z·(Xp − Xq), q = (B, E, Z3). Constant time: no branch. p and q
must not alias.`,
		points: []point{{"p", []string{"X", "Y", "Z"}}, {"q", []string{"qX", "qY", "qZ"}}},
	},
}

// gen emits kernel k: the point pointers in R0, R1, …, the field's
// constants and the program's values in the other usable registers, the
// program's other names in the frame, as temporaries.
func gen(f *a64.File, c curve, k kernel) {
	n := c.limbs
	fn := f.Func(k.name, fmt.Sprintf(k.sig, 3*n, 2*n, 5*n), k.doc)
	lines := formula.MustParse(k.prog)
	has := func(op formula.Op) bool {
		for _, l := range lines {
			for _, s := range l.Steps {
				if s.Op == op {
					return true
				}
			}
		}
		return false
	}
	exit := has(formula.ExitIfZero)

	vars := map[string]a64.Elem{}
	for i, pt := range k.points {
		ptr := a64.GP(i)
		fn.Load(pt.arg, ptr)
		for j, c := range pt.coords {
			vars[c] = a64.Elem{Base: ptr, Off: 8 * n * j}
		}
	}
	var locals []string
	for _, name := range formula.Names(lines) {
		if _, ok := vars[name]; !ok {
			locals = append(locals, name)
		}
	}
	fn.Locals(8 * n * len(locals))
	temps := map[string]bool{}
	for i, name := range locals {
		vars[name] = fn.LocalElem(8 * n * i)
		temps[name] = true
	}

	regs := a64.NewPool(a64.Usable()[len(k.points):]...)
	r := a64.NewFormula(fn, c.field(fn, regs), regs, vars)
	r.Temps = temps
	if has(formula.NegIf) {
		r.Sign = fn.Arg("neg")
	}
	if exit {
		r.Exit = "hzero"
	}
	r.Run(k.prog)
	if exit {
		fn.Store(a64.ZR, "hZero")
		fn.RET()
		fn.Label("hzero")
		one := a64.GP(0)
		fn.MOVD(one, 1)
		fn.Store(one, "hZero")
	}
	fn.RET()
}
