// Package keytab is the per-key verification table behind package keytable
// and package sign. The table follows the key's curve:
//
//   - P-256: the key's point Q and sixteen runs of odd multiples of
//     2^(17j)·Q, at width 5 (128 points, 8 KiB: keytable.New, trust
//     anchors) or width 7 (512 points, 32 KiB: the key a Signer checks every
//     signature against), verified by internal/p256/ecdsaverify;
//   - P-384: Q and twenty runs of odd multiples of 2^(20j)·Q at width 5
//     (160 points, 15 KiB), verified by internal/p384/ecdsaverify.
//
// See package keytable for the algorithm and docs/verification.md for the
// measurements.
//
// The zero Table verifies nothing. A Table is immutable once built and safe
// for concurrent use. Verification is variable time; it handles only public
// data.
package keytab

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"errors"
	"unsafe"

	"github.com/p256tls/p256tls/internal/ecdsasig"
	"github.com/p256tls/p256tls/internal/p256/ecdsaverify"
	"github.com/p256tls/p256tls/internal/p256/point"
	"github.com/p256tls/p256tls/internal/p256/scalar"
	p384verify "github.com/p256tls/p256tls/internal/p384/ecdsaverify"
	p384point "github.com/p256tls/p256tls/internal/p384/point"
	p384scalar "github.com/p256tls/p256tls/internal/p384/scalar"
)

// Width is the wNAF width of keytable.New's P-256 runs (2^(Width−2) odd
// multiples each, 128 points with 16 runs); WidthLarge that of the signer's
// tables (512 points). Width384 is the width of every P-384 table's runs
// (160 points with internal/p384/gtable's 20 runs).
const (
	Width      = 5
	WidthLarge = 7
	Width384   = 5
)

const runs = ecdsaverify.Runs

// Bytes and Bytes384 are the memory the points of one table hold: P-256 at
// Width (8 KiB) and P-384 at Width384 (15 KiB), what package truststore
// counts per anchor and hot table. A WidthLarge table holds 4·Bytes.
const (
	Bytes    = runs << (Width - 2) * int(unsafe.Sizeof(point.Affine{}))
	Bytes384 = p384verify.Runs << (Width384 - 2) * int(unsafe.Sizeof(p384point.Affine{}))
)

// The reasons a key gets no table; package keytable wraps them in its
// ErrInvalidKey.
var (
	ErrNilKey     = errors.New("nil public key")
	ErrCurve      = errors.New("the key is on neither P-256 nor P-384 (only those keys get a table)")
	ErrInfinity   = errors.New("the public key is the point at infinity")
	ErrNotOnCurve = errors.New("the public key's point is not on its curve")
	ErrEncoding   = errors.New("invalid SEC 1 encoding of a P-256 or P-384 point")
)

// Table is the verification table of one P-256 or P-384 public key: the
// fields of its curve are set, the others zero.
type Table struct {
	w uint // Width or WidthLarge (P-256), Width384 (P-384); 0 for the zero Table

	q   point.Affine
	tab []point.Affine // P-256: runs · 2^(w−2) points

	q384   p384point.Affine
	tab384 []p384point.Affine // P-384: p384verify.Runs · 2^(Width384−2) points
}

// New builds the table of pub: for a P-256 key at width w (Width or
// WidthLarge), for a P-384 key at Width384 whatever w is. It refuses a nil
// key, keys on other curves, the point at infinity and points that are not
// on the curve (coordinates outside [0, p) included), with one of the errors
// above; pub is only read.
func New(pub *ecdsa.PublicKey, w uint) (*Table, error) {
	if pub == nil {
		return nil, ErrNilKey
	}
	size := 0
	switch pub.Curve {
	case elliptic.P256():
		size = 32
	case elliptic.P384():
		size = 48
	default:
		return nil, ErrCurve
	}
	var enc [97]byte
	sec1 := ecdsasig.PublicKeyBytes(enc[:], pub, size)
	if sec1 == nil {
		return nil, ErrNotOnCurve
	}
	//lint:ignore SA1019 only read, to tell infinity from other points off the curve.
	if pub.X.Sign() == 0 && pub.Y.Sign() == 0 {
		return nil, ErrInfinity
	}
	if size == 48 {
		return FromBytes384(sec1)
	}
	return FromBytes(sec1, w)
}

// reason maps the error of a point package's SetBytes (its ErrInfinity,
// ErrNotOnCurve and ErrCoordinate, else a malformed encoding) to this
// package's reasons.
func reason(err, infinity, notOnCurve, coordinate error) error {
	switch err {
	case infinity:
		return ErrInfinity
	case notOnCurve, coordinate:
		return ErrNotOnCurve
	}
	return ErrEncoding
}

// FromBytes builds the table, at width w, of the P-256 point encoded in SEC
// 1 form, uncompressed (65 bytes) or compressed (33 bytes). It refuses the
// point at infinity, coordinates ≥ p and points that are not on the curve.
func FromBytes(sec1 []byte, w uint) (*Table, error) {
	var q point.Affine
	if _, err := q.SetBytes(sec1); err != nil {
		return nil, reason(err, point.ErrInfinity, point.ErrNotOnCurve, point.ErrCoordinate)
	}
	t := &Table{q: q, w: w, tab: make([]point.Affine, runs<<(w-2))}
	point.BuildRuns(t.tab, &q, w, ecdsaverify.Runs, ecdsaverify.RunLen)
	return t, nil
}

// FromBytes384 builds the table (at Width384) of the P-384 point encoded in
// SEC 1 form, uncompressed (97 bytes) or compressed (49 bytes). It refuses
// the point at infinity, coordinates ≥ p and points that are not on the
// curve.
func FromBytes384(sec1 []byte) (*Table, error) {
	var q p384point.Affine
	if _, err := q.SetBytes(sec1); err != nil {
		return nil, reason(err, p384point.ErrInfinity, p384point.ErrNotOnCurve, p384point.ErrCoordinate)
	}
	t := &Table{q384: q, w: Width384, tab384: make([]p384point.Affine, p384verify.Runs<<(Width384-2))}
	p384point.BuildRuns(t.tab384, &q, Width384, p384verify.Runs, p384verify.RunLen)
	return t, nil
}

// Points returns the number of points t holds.
func (t *Table) Points() int { return len(t.tab) + len(t.tab384) }

// PublicKey returns the table's key as a new *ecdsa.PublicKey, or nil for
// the zero Table.
func (t *Table) PublicKey() *ecdsa.PublicKey {
	var pub *ecdsa.PublicKey
	var err error
	switch {
	case t.w == 0:
		return nil
	case t.tab384 != nil:
		enc := t.q384.BytesUncompressed()
		pub, err = ecdsa.ParseUncompressedPublicKey(elliptic.P384(), enc[:])
	default:
		enc := t.q.BytesUncompressed()
		pub, err = ecdsa.ParseUncompressedPublicKey(elliptic.P256(), enc[:])
	}
	if err != nil {
		// Unreachable: q passed SetBytes's checks when the table was built.
		return nil
	}
	return pub
}

// VerifyASN1 reports whether sig, an ASN.1 DER ECDSA signature, is a valid
// signature of digest under the table's key, with crypto/ecdsa's digest
// truncation and DER strictness. The zero Table refuses everything.
func (t *Table) VerifyASN1(digest, sig []byte) bool {
	rb, sb, ok := ecdsasig.ParseDER(sig)
	if !ok {
		return false
	}
	return t.Verify(digest, rb, sb)
}

// Verify reports whether (r, s), big-endian unsigned integers of any length
// (leading zeros allowed), is a valid signature of digest under the table's
// key; r and s must be in [1, n−1]. The zero Table refuses everything.
func (t *Table) Verify(digest, r, s []byte) bool {
	if t.tab384 != nil {
		var rs, ss p384scalar.Scalar
		if !ecdsasig.ScalarFromBytes384(&rs, r) || !ecdsasig.ScalarFromBytes384(&ss, s) {
			return false
		}
		return p384verify.VerifySplit(t.tab384, Width384, digest, &rs, &ss)
	}
	var rs, ss scalar.Scalar
	if t.w == 0 || !ecdsasig.ScalarFromBytes(&rs, r) || !ecdsasig.ScalarFromBytes(&ss, s) {
		return false
	}
	return ecdsaverify.VerifySplit(t.tab, t.w, digest, &rs, &ss)
}

// VerifyInverse is Verify for a caller that already holds sInv = s⁻¹ mod n
// (all three 32 bytes big-endian), as a signer checking its own signature
// does: sInv is accepted only if sInv·s ≡ 1 (mod n), and the verification
// then skips its own inversion of s. It reports exactly what Verify
// reports, except that a wrong sInv gives false. P-256 only: a P-384 table
// (and the zero Table) refuses everything.
func (t *Table) VerifyInverse(digest []byte, r, s, sInv *[32]byte) bool {
	var rs, ss, ws scalar.Scalar
	if t.w == 0 || t.tab384 != nil || !ecdsasig.Scalar32(&rs, r) || !ecdsasig.Scalar32(&ss, s) || !ecdsasig.Scalar32(&ws, sInv) {
		return false
	}
	return ecdsaverify.VerifySplitInverse(t.tab, t.w, digest, &rs, &ss, &ws)
}
