package verify

import (
	"crypto/ecdsa"

	"github.com/p256tls/p256tls/internal/ecdsaverify/ecdsasig"
	p384verify "github.com/p256tls/p256tls/internal/p384/ecdsaverify"
	p384point "github.com/p256tls/p256tls/internal/p384/point"
	p384scalar "github.com/p256tls/p256tls/internal/p384/scalar"
)

// verifyP384 checks (r, s) under a P-384 key with crypto/ecdsa's rules: r
// and s in [1, n−1], coordinates in [0, p), the point on the curve; then one
// joint wNAF chain (internal/p384/ecdsaverify) and the final check.
func verifyP384(pub *ecdsa.PublicKey, digest, rb, sb []byte) bool {
	var rs, ss p384scalar.Scalar
	if !ecdsasig.ScalarFromBytes384(&rs, rb) || !ecdsasig.ScalarFromBytes384(&ss, sb) {
		return false
	}
	var q p384point.Affine
	if !p384Point(&q, pub) {
		return false
	}
	return p384verify.VerifyPoint(&q, digest, &rs, &ss)
}

// p384Point reads pub's coordinates without allocating, refusing values
// outside [0, p) and points off the curve (the point at infinity, (0, 0), is
// not on it).
func p384Point(q *p384point.Affine, pub *ecdsa.PublicKey) bool {
	//lint:ignore SA1019 the coordinates are only read: Bytes would allocate.
	x, y := pub.X, pub.Y
	if x == nil || y == nil || x.Sign() < 0 || y.Sign() < 0 || x.BitLen() > 384 || y.BitLen() > 384 {
		return false
	}
	var b [48]byte
	x.FillBytes(b[:])
	if _, err := q.X.SetBytes(b[:]); err != nil {
		return false
	}
	y.FillBytes(b[:])
	if _, err := q.Y.SetBytes(b[:]); err != nil {
		return false
	}
	return q.IsOnCurve() == 1
}
