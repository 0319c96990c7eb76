// Package keytab is the per-key verification table behind package keytable
// and package sign: a P-256 key's point Q and sixteen runs of odd multiples
// of 2^(17j)·Q, at width 5 (128 points, 8 KiB: keytable.New, trust anchors)
// or width 7 (512 points, 32 KiB: the key a Signer checks every signature
// against). See package keytable for the algorithm and docs/verification.md
// for the measurements.
//
// The zero Table verifies nothing. A Table is immutable once built and safe
// for concurrent use. Verification is variable time; it handles only public
// data.
package keytab

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"errors"
	"math/big"

	"github.com/p256tls/p256tls/internal/ecdsaverify"
	"github.com/p256tls/p256tls/internal/ecdsaverify/ecdsasig"
	"github.com/p256tls/p256tls/internal/point"
	"github.com/p256tls/p256tls/internal/scalar"
)

// Width is the wNAF width of keytable.New's runs (2^(Width−2) odd multiples
// each, 128 points with 16 runs); WidthLarge that of the signer's tables
// (512 points).
const (
	Width      = 5
	WidthLarge = 7
)

const runs = ecdsaverify.Runs

// The reasons a key gets no table; package keytable wraps them in its
// ErrInvalidKey.
var (
	ErrNilKey     = errors.New("nil public key")
	ErrCurve      = errors.New("the key is not on P-256 (only P-256 keys get a table)")
	ErrInfinity   = errors.New("the public key is the point at infinity")
	ErrNotOnCurve = errors.New("the public key's point is not on the P-256 curve")
	ErrEncoding   = errors.New("invalid SEC 1 encoding of a P-256 point")
)

// Table is the verification table of one P-256 public key.
type Table struct {
	q   point.Affine
	w   uint           // Width or WidthLarge; 0 for the zero Table
	tab []point.Affine // runs · 2^(w−2) points
}

// New builds the table of pub at width w (Width or WidthLarge). It refuses
// a nil key, keys on other curves, the point at infinity and points that
// are not on the curve, with one of the errors above.
func New(pub *ecdsa.PublicKey, w uint) (*Table, error) {
	if pub == nil {
		return nil, ErrNilKey
	}
	if pub.Curve != elliptic.P256() {
		return nil, ErrCurve
	}
	//lint:ignore SA1019 the coordinates are read, not modified, to avoid an allocation-heavy round trip through Bytes.
	x, y := pub.X, pub.Y
	if x == nil || y == nil {
		return nil, ErrNotOnCurve
	}
	if x.Sign() == 0 && y.Sign() == 0 {
		return nil, ErrInfinity
	}
	var enc [65]byte
	if !fill(enc[1:33], x) || !fill(enc[33:], y) {
		return nil, ErrNotOnCurve
	}
	enc[0] = 4
	return FromBytes(enc[:], w)
}

// fill writes the 32-byte big-endian encoding of a non-negative x < 2^256.
func fill(b []byte, x *big.Int) bool {
	if x.Sign() < 0 || x.BitLen() > 256 {
		return false
	}
	x.FillBytes(b)
	return true
}

// FromBytes builds the table, at width w, of the P-256 point encoded in SEC
// 1 form, uncompressed (65 bytes) or compressed (33 bytes). It refuses the
// point at infinity, coordinates ≥ p and points that are not on the curve.
func FromBytes(sec1 []byte, w uint) (*Table, error) {
	var q point.Affine
	if _, err := q.SetBytes(sec1); err != nil {
		switch err {
		case point.ErrInfinity:
			return nil, ErrInfinity
		case point.ErrNotOnCurve, point.ErrCoordinate:
			return nil, ErrNotOnCurve
		default:
			return nil, ErrEncoding
		}
	}
	t := &Table{q: q, w: w, tab: make([]point.Affine, runs<<(w-2))}
	point.BuildRuns(t.tab, &q, w, ecdsaverify.Runs, ecdsaverify.RunLen)
	return t, nil
}

// IsZero reports whether t is the zero Table.
func (t *Table) IsZero() bool { return t.w == 0 }

// Points returns the number of points t holds.
func (t *Table) Points() int { return len(t.tab) }

// PublicKey returns the table's key as a new *ecdsa.PublicKey, or nil for
// the zero Table.
func (t *Table) PublicKey() *ecdsa.PublicKey {
	if t.w == 0 {
		return nil
	}
	enc := t.q.BytesUncompressed()
	pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), enc[:])
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
// reports, except that a wrong sInv gives false.
func (t *Table) VerifyInverse(digest []byte, r, s, sInv *[32]byte) bool {
	var rs, ss, ws scalar.Scalar
	if t.w == 0 || !ecdsasig.Scalar32(&rs, r) || !ecdsasig.Scalar32(&ss, s) || !ecdsasig.Scalar32(&ws, sInv) {
		return false
	}
	return ecdsaverify.VerifySplitInverse(t.tab, t.w, digest, &rs, &ss, &ws)
}
