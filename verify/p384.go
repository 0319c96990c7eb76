package verify

import (
	"crypto/ecdsa"

	"github.com/p256tls/p256tls/internal/ecdsasig"
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
	var enc [97]byte
	var q p384point.Affine
	if _, err := q.SetBytes(ecdsasig.PublicKeyBytes(enc[:], pub, 48)); err != nil {
		return false
	}
	return p384verify.VerifyPoint(&q, digest, &rs, &ss)
}
