// Command arm64 generates the fused arm64 Jacobian kernels of the group law
// with internal/_asmlib/a64 (work in progress: the doubling).
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/p256tls/p256tls/internal/_asmlib/a64"
)

func main() {
	out := flag.String("out", "", "assembly output file")
	stubs := flag.String("stubs", "", "Go declarations output file")
	pkg := flag.String("pkg", "", "package name")
	flag.Parse()
	f := a64.NewFile(*pkg)
	genDouble(f)
	cmd := "go run ./arm64 " + strings.Join(os.Args[1:], " ")
	if err := f.Write(*out, *stubs, cmd); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// double is dbl-2001-b scaled by 1/2, in place: doubleKeep of jacobian.go.
const double = `
delta = Z·Z; y2 = Y·Y; beta = X·y2; t = X − delta; alpha = X + delta; alpha = alpha·t
t = alpha + alpha; alpha = alpha + t; alpha = alpha/2; Z = Z·Y
t = beta + beta; X = alpha·alpha; X = X − t; t = beta − X; Y = alpha·t; y2 = y2·y2; Y = Y − y2
`

func genDouble(f *a64.File) {
	fn := f.Func("doubleAsm", "func(p *[12]uint64)", "doubleAsm sets p = 2p in place: double's formula, constant time.")
	const n = 4
	fn.Locals(5 * 8 * n)
	pp := a64.GP(0)
	fn.Load("p", pp)
	regs := a64.NewPool(a64.Usable()[1:]...)
	fld := a64.NewP256(fn, regs)
	vars := map[string]a64.Elem{
		"X": {Base: pp, Off: 0}, "Y": {Base: pp, Off: 8 * n}, "Z": {Base: pp, Off: 16 * n},
	}
	for i, name := range []string{"delta", "y2", "beta", "t", "alpha"} {
		vars[name] = fn.LocalElem(8 * n * i)
	}
	a64.NewFormula(fn, fld, regs, vars).Run(double)
	fn.RET()
}
