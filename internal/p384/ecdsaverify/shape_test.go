package ecdsaverify

import (
	"crypto/ecdsa"
	"crypto/rand"
	"fmt"
	"testing"

	"github.com/p256tls/p256tls/internal/ecdsaverify/ecdsatest"
	"github.com/p256tls/p256tls/internal/p384/point"
	"github.com/p256tls/p256tls/internal/wnaf"
)

// This file compares splits of the P-384 table chain (docs/verification.md,
// "P-384"): R runs of L = ⌈385/R⌉ positions, the key's runs at width qw and
// the generator's at width gw, both tables built here with point.BuildRuns
// so that every shape runs in one binary. Fewer runs mean more doublings
// (L − 1) and, at the same key-table memory, a wider key NAF (fewer
// additions). TestShapes checks every shape's sum against crypto/elliptic;
// BenchmarkShape times the chains and the key-table builds. BenchmarkJoint
// times the ordinary chain at Q widths 4–6 (QWidth).

type shape struct {
	runs, runLen int
	qw, gw       uint
}

var shapes = []shape{
	{8, 49, 6, 8},  // 128 key points (12 KiB), 48 doublings
	{16, 25, 5, 8}, // 128 key points (12 KiB), 24 doublings
	{20, 20, 5, 8}, // 160 key points (15 KiB), 19 doublings
	{20, 20, 5, 7},
	{21, 19, 5, 8}, // 168 key points (15.75 KiB), 18 doublings
	{30, 13, 4, 8}, // 120 key points (11.25 KiB), 12 doublings
	{33, 12, 4, 8}, // 132 key points (12.4 KiB), 11 doublings
}

func buildShape(q *point.Affine, w uint, runs, runLen int) []point.Affine {
	out := make([]point.Affine, runs<<(w-2))
	point.BuildRuns(out, q, w, runs, runLen)
	return out
}

func splitSumShape(acc *point.Jacobian, u1, u2 *[6]uint64, g, q []point.Affine, s shape) {
	gper, qper := 1<<(s.gw-2), 1<<(s.qw-2)
	var gs, qs wnaf.Sparse
	wnaf.RecodeSparse(&gs, u1[:], s.gw)
	wnaf.RecodeSparse(&qs, u2[:], s.qw)
	type add struct {
		e   *point.Affine
		neg bool
	}
	steps := make([][]add, s.runLen)
	for _, d := range gs.D[:gs.N] {
		j, t := int(d.Pos)/s.runLen, int(d.Pos)%s.runLen
		steps[t] = append(steps[t], add{&g[j*gper+abs(d.Val)>>1], d.Val < 0})
	}
	for _, d := range qs.D[:qs.N] {
		j, t := int(d.Pos)/s.runLen, int(d.Pos)%s.runLen
		steps[t] = append(steps[t], add{&q[j*qper+abs(d.Val)>>1], d.Val < 0})
	}
	acc.SetInfinity()
	for t := s.runLen - 1; t >= 0; t-- {
		if acc.Z.IsZero() == 0 {
			acc.Double()
		}
		for _, a := range steps[t] {
			acc.AddMixedVartime(a.e, a.neg)
		}
	}
}

// jointSumWidth is JointSum with the Q width as a parameter.
func jointSumWidth(acc *point.Jacobian, u1, u2 *[6]uint64, q *point.Affine, qw uint) {
	var gs wnaf.Sparse
	var qd [wnaf.Len384]int8
	wnaf.RecodeSparse(&gs, u1[:], 8)
	var pl plan
	pl.add(&gs, nil, 0)
	top := wnaf.Recode(qd[:], u2[:], qw)
	var qm [16]point.Cached
	var base, cur, two point.Jacobian
	base.SetAffine(q)
	point.DoubleCoZ(&two, &cur, &base)
	qm[0].Set(&cur)
	for i := 1; i < 1<<(qw-2); i++ {
		point.AddCoZ(&cur, &two)
		qm[i].Set(&cur)
	}
	if top < RunLen-1 {
		top = RunLen - 1
	}
	acc.SetInfinity()
	for t := top; t >= 0; t-- {
		if acc.Z.IsZero() == 0 {
			acc.Double()
		}
		if d := qd[t]; d != 0 {
			acc.AddCachedVartime(&qm[abs(d)>>1], d < 0)
		}
		if t < RunLen {
			for _, c := range pl.a[t][:pl.n[t]] {
				acc.AddMixedVartime(pl.entry(c, nil, 0), c&planNeg != 0)
			}
		}
	}
}

func randKey(t testing.TB) (*ecdsa.PrivateKey, point.Affine) {
	k, err := ecdsa.GenerateKey(curve, rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	enc, _ := k.PublicKey.Bytes()
	var q point.Affine
	if _, err := q.SetBytes(enc); err != nil {
		t.Fatal(err)
	}
	return k, q
}

func randLimbs(t testing.TB) [6]uint64 {
	var b [48]byte
	rand.Read(b[:])
	var l [6]uint64
	for i := range l {
		for j := 0; j < 8; j++ {
			l[i] |= uint64(b[8*i+j]) << (8 * j)
		}
	}
	l[5] >>= 1 // below n
	return l
}

func TestShapes(t *testing.T) {
	g := point.Generator()
	for _, s := range shapes {
		if s.runs*s.runLen < 385 || (s.runs-1)*s.runLen >= 385 {
			t.Fatalf("shape %+v does not fit 385 digits tightly", s)
		}
		gt := buildShape(&g, s.gw, s.runs, s.runLen)
		for i := 0; i < 3; i++ {
			k, q := randKey(t)
			qt := buildShape(&q, s.qw, s.runs, s.runLen)
			u1, u2 := randLimbs(t), randLimbs(t)
			x, y := ecdsatest.SumOn(curve, k.X, k.Y, bigOf(u1), bigOf(u2))
			var acc point.Jacobian
			splitSumShape(&acc, &u1, &u2, gt, qt, s)
			if !sameAs(&acc, x, y) {
				t.Fatalf("shape %+v: wrong sum", s)
			}
		}
	}
	for _, qw := range []uint{4, 5, 6} {
		k, q := randKey(t)
		u1, u2 := randLimbs(t), randLimbs(t)
		x, y := ecdsatest.SumOn(curve, k.X, k.Y, bigOf(u1), bigOf(u2))
		var acc point.Jacobian
		jointSumWidth(&acc, &u1, &u2, &q, qw)
		if !sameAs(&acc, x, y) {
			t.Fatalf("joint width %d: wrong sum", qw)
		}
	}
}

func BenchmarkShape(b *testing.B) {
	_, q := randKey(b)
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

func BenchmarkJoint(b *testing.B) {
	_, q := randKey(b)
	u1, u2 := randLimbs(b), randLimbs(b)
	for _, qw := range []uint{4, 5, 6} {
		var acc point.Jacobian
		b.Run(fmt.Sprintf("qw=%d", qw), func(b *testing.B) {
			ecdsatest.Loop(b, func() { jointSumWidth(&acc, &u1, &u2, &q, qw) })
		})
	}
}
