// Command genfield writes the limb-generic files of a Montgomery-form prime
// field (P-256's internal/p256/field, P-384's internal/p384/field) from one set of
// templates, as genpoint does for the group law. go generate runs it in each
// package:
//
//	go run ../../gen/field -field P-256 -dir .
//
// The templates (templates/*.tmpl) are the code whose text depends only on
// the limb count: the element's plumbing (Zero, One, Set, Mul, Square,
// SquareN), the modular addition, subtraction, negation and doubling with
// their final subtraction, Select, Equal and IsZero, unrolled limb by limb so
// that the compiler sees straight-line code; the kernel registry the tests
// use (kernel_registry_test.go, and kernel_registry_amd64_test.go, which
// lists the assembly kernels: test files, so that importing a field runs no
// init) and its tests and benchmarks (kernels_test.go); the portable dispatch
// (field_noasm.go). What stays in
// each package by hand is what differs: p and its constants, the kernels
// (field_generic.go, the generated assembly and its dispatch in
// field_amd64.go), Half, the exponentiation chains of Invert and Sqrt,
// InvertVartime and the encodings.
//
// One hook: P-256's functions on the signer's secret path carry the
// //p256tls:secret marker scripts/branch-audit reads; P-384's, which the
// signer does not use, carry none (the audit refuses markers it cannot
// reach).
//
// Each output starts with a "Code generated" line; TestGenerated in this
// directory regenerates both packages in memory and compares them with the
// files on disk byte for byte.
package main

import (
	"embed"
	"flag"
	"fmt"
	"os"
	"strings"
	"text/template"

	"github.com/p256tls/p256tls/internal/gensrc"
)

//go:embed templates/*.tmpl
var templates embed.FS

// params is what the templates see.
type params struct {
	Name   string // "P-256"
	Limbs  int
	Bits   int
	Secret bool // write the //p256tls:secret markers
}

// Idx returns 0, …, Limbs−1, for {{range}}.
func (p params) Idx() []int {
	l := make([]int, p.Limbs)
	for i := range l {
		l[i] = i
	}
	return l
}

// Last returns Limbs − 1.
func (p params) Last() int { return p.Limbs - 1 }

var fields = map[string]params{
	"P-256": {Name: "P-256", Limbs: 4, Bits: 256, Secret: true},
	"P-384": {Name: "P-384", Limbs: 6, Bits: 384, Secret: false},
}

// generate returns the files of the named field, by file name, gofmt'ed.
func generate(name string) (map[string][]byte, error) {
	p, ok := fields[name]
	if !ok {
		return nil, fmt.Errorf("genfield: unknown field %q", name)
	}
	funcs := template.FuncMap{
		"secret": func() string {
			if p.Secret {
				return "\n//\n//p256tls:secret"
			}
			return ""
		},
		// edgeBits lists the exponents k of the edge values 2^k, 2^k − 1
		// and p − 2^k: each 32-bit boundary and its neighbours, and the top
		// two bits.
		"edgeBits": func() string {
			var ks []string
			for m := 32; m < p.Bits; m += 32 {
				ks = append(ks, fmt.Sprint(m-1), fmt.Sprint(m), fmt.Sprint(m+1))
			}
			ks = append(ks, fmt.Sprint(p.Bits-2), fmt.Sprint(p.Bits-1))
			return strings.Join(ks, ", ")
		},
	}
	return gensrc.Render(templates, "templates", p, funcs, "internal/gen/field", p.Name)
}

func main() {
	name := flag.String("field", "", "the field: P-256 or P-384")
	dir := flag.String("dir", ".", "the package directory to write into")
	flag.Parse()
	files, err := generate(*name)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := gensrc.Write(*dir, files); err != nil {
		fmt.Fprintln(os.Stderr, "genfield:", err)
		os.Exit(1)
	}
}
