// Package keytable verifies P-256 ECDSA signatures with a per-key table.
//
// A key that verifies signature after signature (a server's own key, a
// trust anchor) is worth a table built once: the key's point Q, then
// sixteen runs, run j holding the odd multiples 1·, 3·, 5·, 7·(2^(17j)·Q) in
// affine form (128 points, 8 KiB). A verification recodes u2 = r·s⁻¹ into
// width-5 NAF and u1 = e·s⁻¹ into width-8 NAF, cuts each into sixteen runs
// of 17 positions, and adds the digits of all runs (the key's, and the
// generator's from a static table) into one chain of 16 doublings: about
// 16 doublings and 71 mixed additions instead of the 256 doublings of an
// ordinary verification. Four runs of 65 positions at width 7 (the same
// 128 points) were measured too: 64 doublings and 61 additions, a third
// slower. See docs/verification.md.
//
// NewLarge builds the same runs at width 7 (512 points, 32 KiB): about
// 32 instead of 43 additions for the key's digits. The signer (package sign)
// uses it for the key it checks every signature against; trust anchors keep
// the 8 KiB tables of New.
//
// The zero Table (declared but never built, and not yet filled by a
// successful UnmarshalBinary) verifies nothing: every Verify method returns
// false, PublicKey returns nil and MarshalBinary an error.
//
// A Table is immutable once built (UnmarshalBinary must not be called on a
// Table in use) and safe for concurrent use by any
// number of goroutines. Verification is variable time; it handles only
// public data (the key, the digest, the signature).
package keytable

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

// Width is the wNAF width of the runs of a table built by New or
// NewFromBytes: each of the ecdsaverify.Runs runs holds 2^(Width−2) odd
// multiples. With 16 runs, width 5 fills the 128-point (8 KiB) budget of a
// trust store's tables; other widths and run counts were measured
// (docs/verification.md).
//
// WidthLarge is the width of a table built by NewLarge: 512 points, 32 KiB,
// for a key that checks every signature it makes (a server's identity):
// about 11 fewer additions per verification for a build about three times
// as long (the measurements are in docs/verification.md).
const (
	Width      = 5
	WidthLarge = 7
)

const runs = ecdsaverify.Runs

// Errors returned by the constructors.
var (
	ErrNilKey     = errors.New("keytable: nil public key")
	ErrCurve      = errors.New("keytable: the key is not on P-256 (only P-256 keys get a table)")
	ErrInfinity   = errors.New("keytable: the public key is the point at infinity")
	ErrNotOnCurve = errors.New("keytable: the public key's point is not on the P-256 curve")
	ErrEncoding   = errors.New("keytable: invalid SEC 1 encoding of a P-256 point")
)

// Table is the per-key verification table of one P-256 public key.
type Table struct {
	q   point.Affine
	w   uint           // Width or WidthLarge
	tab []point.Affine // runs · 2^(w−2) points
}

// New builds the table of a P-256 public key (width Width, 8 KiB). It
// refuses keys on other curves, the point at infinity and points that are
// not on the curve.
func New(pub *ecdsa.PublicKey) (*Table, error) {
	return newTable(pub, Width)
}

// NewLarge is New with runs of width WidthLarge (32 KiB): faster
// verification for a key that verifies many signatures, such as a
// signer's own key.
func NewLarge(pub *ecdsa.PublicKey) (*Table, error) {
	return newTable(pub, WidthLarge)
}

func newTable(pub *ecdsa.PublicKey, w uint) (*Table, error) {
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
	return fromBytes(enc[:], w)
}

// fill writes the 32-byte big-endian encoding of a non-negative x < 2^256.
func fill(b []byte, x *big.Int) bool {
	if x.Sign() < 0 || x.BitLen() > 256 {
		return false
	}
	x.FillBytes(b)
	return true
}

// NewFromBytes builds the table of the P-256 point encoded in SEC 1 form,
// uncompressed (65 bytes) or compressed (33 bytes). It refuses the point at
// infinity, coordinates ≥ p and points that are not on the curve.
func NewFromBytes(sec1 []byte) (*Table, error) {
	return fromBytes(sec1, Width)
}

func fromBytes(sec1 []byte, w uint) (*Table, error) {
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
	return build(&q, w), nil
}

// build makes the table of the valid point q at width w.
func build(q *point.Affine, w uint) *Table {
	t := &Table{q: *q, w: w, tab: make([]point.Affine, runs<<(w-2))}
	point.BuildRuns(t.tab, q, w, ecdsaverify.Runs, ecdsaverify.RunLen)
	return t
}

// PublicKey returns the table's key as a new *ecdsa.PublicKey.
func (t *Table) PublicKey() *ecdsa.PublicKey {
	if t.w == 0 {
		return nil // the zero Table
	}
	enc := t.q.BytesUncompressed()
	pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), enc[:])
	if err != nil {
		panic("keytable: table holds an invalid point: " + err.Error())
	}
	return pub
}

// Bytes returns the SEC 1 uncompressed encoding of the table's key.
func (t *Table) Bytes() []byte {
	enc := t.q.BytesUncompressed()
	return enc[:]
}

// VerifyASN1 reports whether sig, an ASN.1 DER ECDSA signature, is a valid
// signature of digest under the table's key. The digest is handled as
// crypto/ecdsa does: truncated to the bit length of n (so SHA-256, SHA-384
// and SHA-512 digests give crypto/ecdsa's answers), then reduced. The DER
// parsing is as strict as crypto/ecdsa's.
func (t *Table) VerifyASN1(digest, sig []byte) bool {
	rb, sb, ok := ecdsasig.ParseDER(sig)
	if !ok || t.w == 0 {
		return false
	}
	var r, s scalar.Scalar
	if !ecdsasig.ScalarFromBytes(&r, rb) || !ecdsasig.ScalarFromBytes(&s, sb) {
		return false
	}
	return ecdsaverify.VerifySplit(t.tab, t.w, digest, &r, &s)
}

// Verify reports whether (r, s), each 32 bytes big-endian, is a valid
// signature of digest under the table's key. r and s must be in [1, n−1];
// anything else is refused.
func (t *Table) Verify(digest []byte, r, s *[32]byte) bool {
	var rs, ss scalar.Scalar
	if t.w == 0 || !ecdsasig.Scalar32(&rs, r) || !ecdsasig.Scalar32(&ss, s) {
		return false
	}
	return ecdsaverify.VerifySplit(t.tab, t.w, digest, &rs, &ss)
}

// VerifyInverse is Verify for a caller that already holds sInv = s⁻¹ mod n
// (32 bytes big-endian), as a signer checking its own signature does: sInv
// is accepted only if sInv·s ≡ 1 (mod n), and the verification then skips
// its own inversion of s. It reports exactly what Verify reports, except
// that a wrong sInv gives false.
func (t *Table) VerifyInverse(digest []byte, r, s, sInv *[32]byte) bool {
	var rs, ss, ws scalar.Scalar
	if t.w == 0 || !ecdsasig.Scalar32(&rs, r) || !ecdsasig.Scalar32(&ss, s) || !ecdsasig.Scalar32(&ws, sInv) {
		return false
	}
	return ecdsaverify.VerifySplitInverse(t.tab, t.w, digest, &rs, &ss, &ws)
}
