package ecdsaverify

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"fmt"
	"testing"

	"github.com/p256tls/p256tls/internal/ecdsaverify/ecdsatest"
	"github.com/p256tls/p256tls/internal/field"
	"github.com/p256tls/p256tls/internal/point"
	"github.com/p256tls/p256tls/internal/wnaf"
)

// This file compares splits of the chain at the same key-table memory (128
// affine points, 8 KiB): 16 runs of 17 positions at width 5 (the shipped
// shape, gtable.Runs × gtable.RunLen and keytable.Width), 8 runs of 33 at
// width 6 and 4 runs of 65 at width 7 (the original proposal), with
// the generator's runs at width 8 or 7 cut the same way. Fewer runs mean
// more doublings and fewer additions. Both tables are built here with the
// same arithmetic (internal/point's formulas), so that all shapes run in one
// binary: TestShapes checks every shape's sum against crypto/elliptic, and
// BenchmarkShape times them (docs/verification.md, "Shape kept").

type shape struct {
	runs, runLen int
	qw, gw       uint
}

func buildShape(q *point.Affine, w uint, runs, runLen int) []point.Affine {
	per := 1 << (w - 2)
	out := make([]point.Affine, runs*per)
	jac := make([]point.Jacobian, len(out))
	scratch := make([]field.Element, len(out))
	var base point.Jacobian
	var two point.Cached
	base.SetAffine(q)
	for j := 0; j < runs; j++ {
		run := jac[j*per : (j+1)*per]
		d := base
		d.Double()
		two.Set(&d)
		run[0] = base
		for i := 1; i < per; i++ {
			run[i] = run[i-1]
			run[i].AddCachedVartime(&two, false)
		}
		base = d
		for k := 1; k < runLen; k++ {
			base.Double()
		}
	}
	if !point.BatchToAffineVartime(out, jac, scratch) {
		panic("infinity")
	}
	return out
}

func splitSumShape(acc *point.Jacobian, u1, u2 *[4]uint64, g, q []point.Affine, s shape) {
	gper, qper := 1<<(s.gw-2), 1<<(s.qw-2)
	var gd, qd [wnaf.Len]int8
	wnaf.Recode(gd[:], u1[:], s.gw)
	wnaf.Recode(qd[:], u2[:], s.qw)
	acc.SetInfinity()
	for t := s.runLen - 1; t >= 0; t-- {
		if acc.Z.IsZero() == 0 {
			acc.Double()
		}
		for j := 0; j < s.runs; j++ {
			if d := gd[s.runLen*j+t]; d != 0 {
				acc.AddMixedVartime(&g[j*gper+abs(d)>>1], d < 0)
			}
			if d := qd[s.runLen*j+t]; d != 0 {
				acc.AddMixedVartime(&q[j*qper+abs(d)>>1], d < 0)
			}
		}
	}
}

var shapes = []shape{{4, 65, 7, 8}, {8, 33, 6, 8}, {16, 17, 5, 8}, {8, 33, 6, 7}, {16, 17, 5, 7}}

func TestShapes(t *testing.T) {
	c := elliptic.P256()
	g := point.Generator()
	for _, s := range shapes {
		gt := buildShape(&g, s.gw, s.runs, s.runLen)
		for i := 0; i < 5; i++ {
			k, _ := ecdsa.GenerateKey(c, rand.Reader)
			enc, _ := k.PublicKey.Bytes()
			var q point.Affine
			q.SetBytes(enc)
			qt := buildShape(&q, s.qw, s.runs, s.runLen)
			u1, u2 := randLimbs(t), randLimbs(t)
			x, y := ecdsatestSum(k.X, k.Y, u1, u2)
			var acc point.Jacobian
			splitSumShape(&acc, &u1, &u2, gt, qt, s)
			if !sameAs(&acc, x, y) {
				t.Fatalf("shape %+v: wrong sum", s)
			}
		}
	}
}

func BenchmarkShape(b *testing.B) {
	k, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	enc, _ := k.PublicKey.Bytes()
	var q point.Affine
	q.SetBytes(enc)
	g := point.Generator()
	u1, u2 := randLimbs(b), randLimbs(b)
	for _, s := range shapes {
		gt := buildShape(&g, s.gw, s.runs, s.runLen)
		qt := buildShape(&q, s.qw, s.runs, s.runLen)
		var acc point.Jacobian
		b.Run(fmt.Sprintf("sum/runs=%d/qw=%d/gw=%d", s.runs, s.qw, s.gw), func(b *testing.B) {
			ecdsatest.Loop(b, func() { splitSumShape(&acc, &u1, &u2, gt, qt, s) })
		})
		b.Run(fmt.Sprintf("build/runs=%d/qw=%d", s.runs, s.qw), func(b *testing.B) {
			ecdsatest.Loop(b, func() { buildShape(&q, s.qw, s.runs, s.runLen) })
		})
	}
}
