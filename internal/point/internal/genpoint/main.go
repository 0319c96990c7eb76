// Command genpoint writes the curve-generic files of a short Weierstrass
// group law with a = −3 (P-256 in internal/point, P-384 in
// internal/p384/point) from one set of templates, the way Go's nistec
// writes its curves from one template. go generate runs it in each package:
//
//	go run <path to genpoint> -curve P-256 -dir .
//
// The templates (templates/*.tmpl) use nothing of the field but the methods
// both fields share (Mul, Square, Add, Sub, Neg, Double, Half, IsZero,
// Equal, Select, Sqrt, InvertVartime, SetBytes, Bytes, PutBytes), so one
// text serves both curves; what differs is a curve's parameters
// (internal/curvedef: b and G, written here in Montgomery form, and the
// lengths of its encodings) and whether the package has fused kernels for
// Double and AddMixedVartime (P-256's amd64 ones, hand-written dispatch in
// internal/point/kernels_*.go) or gets the portable formulas as its
// methods.
//
// Each output starts with a "Code generated" line; TestGenerated in this
// directory regenerates both packages in memory and compares them with the
// files on disk byte for byte.
package main

import (
	"embed"
	"flag"
	"fmt"
	"math/big"
	"os"
	"strings"

	"github.com/p256tls/p256tls/internal/curvedef"
	"github.com/p256tls/p256tls/internal/gensrc"
)

//go:embed templates/*.tmpl
var templates embed.FS

// params is what the templates see.
type params struct {
	Name        string // "P-256"
	FieldImport string // import path of the field package
	Fused       bool   // Double and AddMixedVartime are hand-written (fused kernels)
	ECDH        string // crypto/ecdh's constructor: "P256"
	Bits        int    // field element bits
	Limbs       int
	ByteLen     int // bytes of a coordinate
	LastByte    int // ByteLen − 1
	CompLen     int // 1 + ByteLen
	UncompLen   int // 1 + 2·ByteLen
	YStart      int // CompLen, where Y starts in an uncompressed encoding
	MaxRunBits  int // Bits + 1, the bound on runs·runLen
	RunLen16    int // the run length of 16 runs covering Bits + 1 bits
	B           string
	Gx, Gy      string
}

// curves are the curves genpoint knows, by the name -curve takes.
var curves = map[string]func() params{
	"P-256": func() params {
		return newParams(curvedef.P256(), "github.com/p256tls/p256tls/internal/field", true, "P256")
	},
	"P-384": func() params {
		return newParams(curvedef.P384(), "github.com/p256tls/p256tls/internal/p384/field", false, "P384")
	},
}

func newParams(c *curvedef.Curve, fieldImport string, fused bool, ecdh string) params {
	n := c.Bits() / 8
	return params{
		Name: c.Name, FieldImport: fieldImport, Fused: fused, ECDH: ecdh,
		Bits: c.Bits(), Limbs: c.Limbs, ByteLen: n, LastByte: n - 1,
		CompLen: n + 1, UncompLen: 2*n + 1, YStart: n + 1, MaxRunBits: c.Bits() + 1, RunLen16: (c.Bits() + 16) / 16,
		B:  element(c, c.B),
		Gx: element(c, c.Gx),
		Gy: element(c, c.Gy),
	}
}

// element returns x in Montgomery form as a field.Element literal.
func element(c *curvedef.Curve, x *big.Int) string {
	l := c.Montgomery(x)
	s := make([]string, len(l))
	for i, v := range l {
		s[i] = fmt.Sprintf("%#016x", v)
	}
	return "field.Element{" + strings.Join(s, ", ") + "}"
}

// generate returns the files of the named curve, by file name, gofmt'ed.
func generate(curve string) (map[string][]byte, error) {
	mk, ok := curves[curve]
	if !ok {
		return nil, fmt.Errorf("genpoint: unknown curve %q", curve)
	}
	p := mk()
	return gensrc.Render(templates, "templates", p, nil, "internal/point/internal/genpoint", p.Name)
}

func main() {
	curve := flag.String("curve", "", "the curve: P-256 or P-384")
	dir := flag.String("dir", ".", "the package directory to write into")
	flag.Parse()
	files, err := generate(*curve)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := gensrc.Write(*dir, files); err != nil {
		fmt.Fprintln(os.Stderr, "genpoint:", err)
		os.Exit(1)
	}
}
