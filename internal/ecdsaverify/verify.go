// Package ecdsaverify holds the P-256 ECDSA verification machinery shared by
// keytable (per-key split-wNAF tables) and verify (ordinary verification):
// strict DER parsing, the range checks and digest handling of crypto/ecdsa,
// the multi-scalar chains, and the inversion-free final check.
//
// Everything here is variable time and must only see public data: public
// keys, digests and signatures.
package ecdsaverify

import (
	"github.com/p256tls/p256tls/internal/gtable"
	"github.com/p256tls/p256tls/internal/point"
	"github.com/p256tls/p256tls/internal/scalar"
	"github.com/p256tls/p256tls/internal/wnaf"
)

// Runs and RunLen describe the split of a 257-digit wNAF into runs; they are
// the generator table's, which the per-key tables share.
const (
	Runs   = gtable.Runs
	RunLen = gtable.RunLen
)

// QWidth is the wNAF width for the per-call odd multiples of Q in ordinary
// verification.
const QWidth = 5

// prepare computes u1 = e·s⁻¹ and u2 = r·s⁻¹ as plain limbs, e the digest
// truncated to n's bit length and reduced (bits2int, as crypto/ecdsa).
func prepare(digest []byte, r, s *scalar.Scalar) (u1, u2 [4]uint64) {
	var e, w, t scalar.Scalar
	e.SetDigest(digest)
	w.InvertVartime(s)
	t.Mul(&e, &w)
	u1 = t.Canonical()
	t.Mul(r, &w)
	u2 = t.Canonical()
	return u1, u2
}

// abs returns |d| for a wNAF digit (never −128).
func abs(d int8) int {
	if d < 0 {
		return int(-d)
	}
	return int(d)
}

// VerifySplit checks the signature (r, s) of digest under the key whose
// split-wNAF runs are tab: tab holds Runs runs of 2^(w−2) affine points,
// run j the odd multiples of 2^(RunLen·j)·Q. r and s must already be in
// [1, n−1].
func VerifySplit(tab []point.Affine, w uint, digest []byte, r, s *scalar.Scalar) bool {
	u1, u2 := prepare(digest, r, s)
	var acc point.Jacobian
	SplitSum(&acc, &u1, &u2, tab, w)
	return checkX(&acc, r)
}

// SplitSum sets acc = u1·G + u2·Q with one chain of RunLen−1 doublings, G's
// digits from gtable and Q's from tab (as in VerifySplit).
func SplitSum(acc *point.Jacobian, u1, u2 *[4]uint64, tab []point.Affine, w uint) {
	per := 1 << (w - 2)
	if len(tab) != Runs*per {
		panic("ecdsaverify: table size does not match its width")
	}
	var gd, qd [wnaf.Len]int8
	wnaf.Recode(&gd, u1, gtable.Width)
	wnaf.Recode(&qd, u2, w)
	acc.SetInfinity()
	for t := RunLen - 1; t >= 0; t-- {
		if acc.Z.IsZero() == 0 {
			doubleFast(acc)
		}
		for j := 0; j < Runs; j++ {
			if d := gd[RunLen*j+t]; d != 0 {
				addMixedFast(acc, &gtable.Table[j][abs(d)>>1], d < 0) // G's run j
			}
			if d := qd[RunLen*j+t]; d != 0 {
				addMixedFast(acc, &tab[j*per+abs(d)>>1], d < 0)
			}
		}
	}
}

// VerifyPoint checks the signature (r, s) of digest under the public key q
// (on the curve, checked by the caller) with one joint wNAF chain: Q's odd
// multiples are built per call, G's come from gtable. r and s must already
// be in [1, n−1].
func VerifyPoint(q *point.Affine, digest []byte, r, s *scalar.Scalar) bool {
	u1, u2 := prepare(digest, r, s)
	var acc point.Jacobian
	JointSum(&acc, &u1, &u2, q)
	return checkX(&acc, r)
}

// JointSum sets acc = u1·G + u2·Q: a chain over Q's width-QWidth NAF, into
// whose last RunLen steps G's runs are added.
func JointSum(acc *point.Jacobian, u1, u2 *[4]uint64, q *point.Affine) {
	var gd, qd [wnaf.Len]int8
	wnaf.Recode(&gd, u1, gtable.Width)
	top := wnaf.Recode(&qd, u2, QWidth)

	// Odd multiples Q, 3Q, …, (2^(QWidth−1)−1)·Q in Jacobian form, with their
	// Z² and Z³.
	var qm [1 << (QWidth - 2)]cached
	var cur, q2j point.Jacobian
	cur.SetAffine(q)
	qm[0].set(&cur)
	q2j = cur
	double(&q2j)
	var q2 cached
	q2.set(&q2j)
	for i := 1; i < len(qm); i++ {
		addCached(&cur, &q2, false)
		qm[i].set(&cur)
	}

	if top < RunLen-1 {
		top = RunLen - 1
	}
	acc.SetInfinity()
	for t := top; t >= 0; t-- {
		if acc.Z.IsZero() == 0 {
			doubleFast(acc)
		}
		if d := qd[t]; d != 0 {
			addCached(acc, &qm[abs(d)>>1], d < 0)
		}
		if t < RunLen {
			for j := 0; j < Runs; j++ {
				if d := gd[RunLen*j+t]; d != 0 {
					addMixedFast(acc, &gtable.Table[j][abs(d)>>1], d < 0) // G, ordinary chain
				}
			}
		}
	}
}
