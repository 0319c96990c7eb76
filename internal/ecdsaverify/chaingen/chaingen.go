// Package chaingen writes the ECDSA verification chains of one curve as Go
// source from the one template chains.go.tmpl: internal/ecdsaverify's
// chains.go (P-256) and internal/p384/ecdsaverify's (P-384). The curve's
// constants (p − n, n in Montgomery form) come from internal/curvedef. It
// is shared by the generator program (../gen) and the tests of both
// packages, which regenerate the file and compare.
package chaingen

import (
	"bytes"
	_ "embed"
	"fmt"
	"go/format"
	"math"
	"math/big"
	"strings"
	"text/template"

	"github.com/p256tls/p256tls/internal/curvedef"
)

//go:embed chains.go.tmpl
var tmpl string

// params are the template's inputs for one curve.
type params struct {
	Command                      string
	Field, Point, Scalar, Gtable string
	Limbs, LastLimb, Digits      int
	WnafLen                      string
	QWidth                       int
	PMinusN, NField              string
	PMinusNBits                  string
}

const module = "github.com/p256tls/p256tls/internal/"

// Command returns the go:generate command of a curve's chains (the
// generated file's header, and the directive in its package).
func Command(curve string) string {
	if curve == "P-256" {
		return "go run ./gen -curve P-256 -out chains.go"
	}
	return "go run ../../ecdsaverify/gen -curve " + curve + " -out chains.go"
}

// Source returns the gofmt-formatted chains.go of a curve ("P-256" or
// "P-384").
func Source(curve string) ([]byte, error) {
	var c *curvedef.Curve
	p := params{Command: Command(curve)}
	switch curve {
	case "P-256":
		c = curvedef.P256()
		p.Field, p.Point, p.Scalar, p.Gtable = module+"field", module+"point", module+"scalar", module+"gtable"
		p.WnafLen, p.QWidth = "wnaf.Len", 5
	case "P-384":
		c = curvedef.P384()
		p.Field, p.Point, p.Scalar, p.Gtable = module+"p384/field", module+"p384/point", module+"p384/scalar", module+"p384/gtable"
		p.WnafLen, p.QWidth = "wnaf.Len384", 6
	default:
		return nil, fmt.Errorf("chaingen: unknown curve %q", curve)
	}
	p.Limbs, p.LastLimb, p.Digits = c.Limbs, c.Limbs-1, c.N.BitLen()+1
	pn := new(big.Int).Sub(c.P, c.N)
	l, err := c.Limbs64(pn)
	if err != nil {
		return nil, err
	}
	p.PMinusN = literal(l)
	// log2(p − n) to one decimal, from its top 53 bits.
	f, _ := new(big.Float).SetInt(pn).Float64()
	p.PMinusNBits = fmt.Sprintf("%.1f", math.Log2(f))
	p.NField = literal(c.Montgomery(c.N))
	t, err := template.New("chains").Parse(tmpl)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := t.Execute(&b, p); err != nil {
		return nil, err
	}
	return format.Source(b.Bytes())
}

// literal prints limbs as a comma-separated list of 16-digit hex constants.
func literal(l []uint64) string {
	s := make([]string, len(l))
	for i, v := range l {
		s[i] = fmt.Sprintf("%#016x", v)
	}
	return strings.Join(s, ", ")
}
