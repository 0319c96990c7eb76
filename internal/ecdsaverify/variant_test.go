package ecdsaverify

import (
	"crypto/elliptic"
	"crypto/rand"
	"math/big"
	"testing"

	"github.com/p256tls/p256tls/internal/ecdsaverify/ecdsatest"
	"github.com/p256tls/p256tls/internal/field"
	"github.com/p256tls/p256tls/internal/gtable"
	"github.com/p256tls/p256tls/internal/point"
	"github.com/p256tls/p256tls/internal/wnaf"
)

// jointSumAffine is the design alternative to JointSum that
// docs/verification.md measured and rejected: Q's odd multiples made affine
// by one inversion (Montgomery's trick), so that the chain uses mixed
// additions instead of cached Jacobian ones. TestJointSumAffine checks it
// computes the same sum, so that BenchmarkJoint compares two correct
// chains; rerun BenchmarkJoint when the field or the formulas change.
func jointSumAffine(acc *point.Jacobian, u1, u2 *[4]uint64, q *point.Affine, qw uint) {
	var gd, qd [wnaf.Len]int8
	wnaf.Recode(gd[:], u1[:], gtable.Width)
	top := wnaf.Recode(qd[:], u2[:], qw)
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
	if top < RunLen-1 {
		top = RunLen - 1
	}
	acc.SetInfinity()
	for t := top; t >= 0; t-- {
		if acc.Z.IsZero() == 0 {
			acc.Double()
		}
		if d := qd[t]; d != 0 {
			acc.AddMixedVartime(&qa[abs(d)>>1], d < 0)
		}
		if t < RunLen {
			for j := 0; j < Runs; j++ {
				if d := gd[RunLen*j+t]; d != 0 {
					acc.AddMixedVartime(&gtable.Table[j][abs(d)>>1], d < 0)
				}
			}
		}
	}
}

func randLimbs(b testing.TB) [4]uint64 {
	k, err := rand.Int(rand.Reader, nBig)
	if err != nil {
		b.Fatal(err)
	}
	return limbs(k)
}

func TestJointSumAffine(t *testing.T) {
	c := elliptic.P256()
	for i := 0; i < 20; i++ {
		d, _ := rand.Int(rand.Reader, nBig)
		qx, qy := c.ScalarBaseMult(d.FillBytes(make([]byte, 32)))
		q := affine(t, qx, qy)
		u1, u2 := randLimbs(t), randLimbs(t)
		x, y := ecdsatestSum(qx, qy, u1, u2)
		for _, w := range []uint{4, 5, 6} {
			var acc point.Jacobian
			jointSumAffine(&acc, &u1, &u2, &q, w)
			if !sameAs(&acc, x, y) {
				t.Fatalf("w=%d: wrong sum", w)
			}
		}
	}
}

func ecdsatestSum(qx, qy *big.Int, u1, u2 [4]uint64) (*big.Int, *big.Int) {
	toBig := func(l [4]uint64) *big.Int {
		v := new(big.Int)
		for i := 3; i >= 0; i-- {
			v.Lsh(v, 64).Or(v, new(big.Int).SetUint64(l[i]))
		}
		return v
	}
	c := elliptic.P256()
	x1, y1 := c.ScalarBaseMult(toBig(u1).FillBytes(make([]byte, 32)))
	x2, y2 := c.ScalarMult(qx, qy, toBig(u2).FillBytes(make([]byte, 32)))
	return c.Add(x1, y1, x2, y2)
}

// BenchmarkJoint compares the ordinary chain with Q's multiples in Jacobian
// form (JointSum, width 5) and in affine form (widths 4–6).
func BenchmarkJoint(b *testing.B) {
	c := elliptic.P256()
	d, _ := rand.Int(rand.Reader, nBig)
	qx, qy := c.ScalarBaseMult(d.FillBytes(make([]byte, 32)))
	q := affine(b, qx, qy)
	u1, u2 := randLimbs(b), randLimbs(b)
	var acc point.Jacobian
	b.Run("jacobian-w5", func(b *testing.B) {
		ecdsatest.Loop(b, func() { JointSum(&acc, &u1, &u2, &q) })
	})
	for _, w := range []uint{4, 5, 6} {
		b.Run("affine-w"+string(rune('0'+w)), func(b *testing.B) {
			ecdsatest.Loop(b, func() { jointSumAffine(&acc, &u1, &u2, &q, w) })
		})
	}
}
