// Package ecdsaverify holds the P-256 ECDSA verification chains shared by
// keytable (per-key split-wNAF tables) and verify (ordinary verification):
// the weights u1 = e·s⁻¹ and u2 = r·s⁻¹ (digest handling as crypto/ecdsa),
// the multi-scalar chains u1·G + u2·Q with the prefetch of their addends,
// and the inversion-free final check. Signature parsing and the range of r
// and s are ecdsaverify/ecdsasig's; the group law, its kernels and the
// key-table build (point.BuildRuns) are internal/point's.
//
// Everything here is variable time and must only see public data: public
// keys, digests and signatures.
package ecdsaverify

import (
	"sync/atomic"

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
	var w scalar.Scalar
	w.InvertVartime(s)
	return weights(digest, r, &w)
}

// weights returns u1 = e·w and u2 = r·w as plain limbs, for w = s⁻¹.
func weights(digest []byte, r, w *scalar.Scalar) (u1, u2 [4]uint64) {
	var e, t scalar.Scalar
	e.SetDigest(digest)
	t.Mul(&e, w)
	u1 = t.Canonical()
	t.Mul(r, w)
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

// VerifySplitInverse is VerifySplit for a caller that already holds
// w = s⁻¹ mod n (a signer, which gets it from the inversion it does
// anyway): w is accepted only if w·s ≡ 1 (mod n), and the verification then
// skips its own inversion. The answer is VerifySplit's for every w; a w that
// is not s's inverse gives false.
func VerifySplitInverse(tab []point.Affine, w uint, digest []byte, r, s, sInv *scalar.Scalar) bool {
	var t scalar.Scalar
	t.Mul(s, sInv)
	if t.Equal(&one) != 1 {
		return false
	}
	u1, u2 := weights(digest, r, sInv)
	var acc point.Jacobian
	SplitSum(&acc, &u1, &u2, tab, w)
	return checkX(&acc, r)
}

// one is 1 mod n (in the scalar package's representation).
var one = *new(scalar.Scalar).One()

// SplitSum sets acc = u1·G + u2·Q with one chain of RunLen−1 doublings, G's
// digits from gtable and Q's from tab (as in VerifySplit).
func SplitSum(acc *point.Jacobian, u1, u2 *[4]uint64, tab []point.Affine, w uint) {
	per := 1 << (w - 2)
	if len(tab) != Runs*per {
		panic("ecdsaverify: table size does not match its width")
	}
	var gs, qs wnaf.Sparse
	wnaf.RecodeSparse(&gs, u1, gtable.Width)
	wnaf.RecodeSparse(&qs, u2, w)
	var pl plan
	pl.add(&gs, nil, 0)
	pl.add(&qs, tab, per)
	acc.SetInfinity()
	for t := RunLen - 1; t >= 0; t-- {
		if acc.Z.IsZero() == 0 {
			acc.Double()
		}
		for _, c := range pl.a[t][:pl.n[t]] {
			acc.AddMixedVartime(pl.entry(c, tab, per), c&planNeg != 0)
		}
	}
}

// A plan lists the table additions of a split chain by step: the run j and
// position t of digit RunLen·j + t put its addend in step t. An addend is
// coded in 16 bits: the odd multiple's index in bits 0–7, the run in bits
// 8–11, planQ for the key's table (else the generator's), planNeg for a
// negative digit.
//
// Building a plan also loads every addend it names, all at once, before the
// chain starts: in a TLS handshake the tables have been evicted from the
// L1 and L2 caches by everything else the server did since its previous
// signature, and misses issued together overlap where the chain would wait
// for them one at a time (see docs/provider.md).
type plan struct {
	n [RunLen]uint8
	a [RunLen][2 * Runs]uint16
}

const (
	planQ   = 1 << 14
	planNeg = 1 << 15
)

// add appends the digits of s: the generator's when tab is nil, else those
// of the key's table tab with per entries in each run. Each position holds
// one digit of each scalar, so a step gets at most 2·Runs addends.
func (pl *plan) add(s *wnaf.Sparse, tab []point.Affine, per int) {
	var q uint16
	if tab != nil {
		q = planQ
	}
	var sink uint64
	for _, d := range s.D[:s.N] {
		j, t := d.Pos/RunLen, d.Pos%RunLen
		c := j<<8 | uint16(abs(d.Val)>>1) | q
		if d.Val < 0 {
			c |= planNeg
		}
		pl.a[t][pl.n[t]] = c
		pl.n[t]++
		e := pl.entry(c, tab, per)
		sink += e.X[0] ^ e.Y[3] // the first and the last word: both cache lines of an unaligned entry
	}
	if sink == touchNever {
		touchHits.Add(1) // never taken in practice; keeps the loads live
	}
}

// entry returns the table point an addend code names.
func (pl *plan) entry(c uint16, tab []point.Affine, per int) *point.Affine {
	i, j := int(c&0xff), int(c>>8&0xf)
	if c&planQ != 0 {
		return &tab[j*per+i]
	}
	return &gtable.Table[j][i]
}

// touchNever and touchHits only keep plan.add's loads from being optimized
// away: the loaded words are summed and compared with touchNever, a
// variable the compiler cannot see through, whose value (not 0, which an
// empty sum gives) no sum of table words is expected to hit.
var (
	touchNever uint64 = 0x9e3779b97f4a7c15
	touchHits  atomic.Uint64
)

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
	var gs wnaf.Sparse
	var qd [wnaf.Len]int8
	wnaf.RecodeSparse(&gs, u1, gtable.Width)
	var pl plan
	pl.add(&gs, nil, 0)
	top := wnaf.Recode(&qd, u2, QWidth)

	// Odd multiples Q, 3Q, …, (2^(QWidth−1)−1)·Q in Jacobian form, with their
	// Z² and Z³.
	// Made with a co-Z doubling and co-Z additions, as the key tables are
	// (point.BuildRuns): the multiples k·Q + 2Q (k odd, small) are never equal or
	// opposite for a valid Q.
	var qm [1 << (QWidth - 2)]point.Cached
	var base, cur, two point.Jacobian
	base.SetAffine(q)
	point.DoubleCoZ(&two, &cur, &base)
	qm[0].Set(&cur)
	for i := 1; i < len(qm); i++ {
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
				acc.AddMixedVartime(pl.entry(c, nil, 0), c&planNeg != 0) // G's runs
			}
		}
	}
}
