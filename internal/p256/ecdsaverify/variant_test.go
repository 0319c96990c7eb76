package ecdsaverify

import (
	"crypto/rand"
	"testing"

	"github.com/p256tls/p256tls/internal/ecdsatest"
	"github.com/p256tls/p256tls/internal/p256/field"
	"github.com/p256tls/p256tls/internal/p256/gtable"
	"github.com/p256tls/p256tls/internal/p256/point"
	"github.com/p256tls/p256tls/internal/wnaf"
)

// jointSumAffine is the design alternative to JointSum that
// docs/verification.md measured and rejected: Q's odd multiples made affine
// by one inversion (Montgomery's trick), so that the chain uses mixed
// additions instead of cached Jacobian ones; G's digits are JointSum's
// (gDigits). TestJointSumAffine checks it
// computes the same sum, so that BenchmarkJoint compares two correct
// chains (BenchmarkJoint times it through jointVariants); rerun
// BenchmarkJoint when the field or the formulas change.
func jointSumAffine(acc *point.Jacobian, u1, u2 *[4]uint64, q *point.Affine, qw uint) {
	var gd gDigits
	gtop := gd.recode(u1[:])
	var qd [wnaf.Len]int8
	top := max(wnaf.Recode(qd[:], u2[:], qw), gtop)
	var qj [16]point.Jacobian
	var qa [16]point.Affine
	var scratch [16]field.Element
	m := 1 << (qw - 2)
	qj[0].SetAffine(q)
	q2j := qj[0]
	q2j.Double()
	var q2 point.Cached
	q2.Set(&q2j)
	for i := 1; i < m; i++ {
		qj[i] = qj[i-1]
		qj[i].AddCachedVartime(&q2, false)
	}
	point.BatchToAffineVartime(qa[:m], qj[:m], scratch[:m])
	acc.SetInfinity()
	for t := top; t >= 0; t-- {
		if acc.Z.IsZero() == 0 {
			acc.Double()
		}
		if d := qd[t]; d != 0 {
			acc.AddMixedVartime(&qa[abs(d)>>1], d < 0)
		}
		if d := gd.at(t); d != 0 {
			acc.AddMixedVartime(&gtable.Odd[abs(d)>>1], d < 0)
		}
	}
}

// jointVariants are the affine alternatives that BenchmarkJoint times
// beside JointSum (docs/verification.md: the Jacobian table stays).
var jointVariants = []jointVariant{
	{"affine-w4", func(acc *point.Jacobian, u1, u2 *[4]uint64, q *point.Affine) { jointSumAffine(acc, u1, u2, q, 4) }},
	{"affine-w5", func(acc *point.Jacobian, u1, u2 *[4]uint64, q *point.Affine) { jointSumAffine(acc, u1, u2, q, 5) }},
	{"affine-w6", func(acc *point.Jacobian, u1, u2 *[4]uint64, q *point.Affine) { jointSumAffine(acc, u1, u2, q, 6) }},
}

// TestJointSumAffine checks jointSumAffine at widths 4–6 against
// crypto/elliptic for random keys and scalars.
func TestJointSumAffine(t *testing.T) {
	for i := 0; i < 20; i++ {
		d, _ := rand.Int(rand.Reader, nBig)
		//lint:ignore SA1019 the deprecated API is the independent reference here.
		qx, qy := curve.ScalarBaseMult(d.FillBytes(make([]byte, 32)))
		q := affine(t, qx, qy)
		u1, u2 := randLimbs(t), randLimbs(t)
		x, y := ecdsatest.SumOn(curve, qx, qy, bigOf(u1), bigOf(u2))
		for _, w := range []uint{4, 5, 6} {
			var acc point.Jacobian
			jointSumAffine(&acc, &u1, &u2, &q, w)
			if !sameAs(&acc, x, y) {
				t.Fatalf("w=%d: wrong sum", w)
			}
		}
	}
}
