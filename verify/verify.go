// Package verify checks ECDSA signatures for keys that have no per-key table
// (a peer's leaf or intermediate certificate, met once).
//
//   - P-256: one joint (Straus–Shamir) wNAF chain for u1·G + u2·Q, G's odd
//     multiples from a static table, Q's (width 5) built per call, and an
//     inversion-free final check. No allocations.
//   - P-384: the same chain over P-384 (internal/p384/ecdsaverify, generated
//     from the template of the P-256 chains), Q's odd multiples at width 6,
//     G's from a static table, after crypto/ecdsa's range checks (r, s in
//     [1, n−1], a valid point). No allocations.
//   - Any other curve (P-224, P-521, …): crypto/ecdsa.
//
// So a caller may hand any ECDSA key from a certificate to VerifyASN1.
// Digests are handled as crypto/ecdsa does (truncated to n's bit length,
// then reduced); DER signatures are parsed as strictly as crypto/ecdsa
// parses them. Verification is variable time: public data only.
//
// Exported identifiers, and why each exists:
//
//   - VerifyASN1: a DER signature (what X.509 and TLS carry) under any
//     ECDSA key, crypto/ecdsa.VerifyASN1's answer.
//   - Verify: the same for (r, s) as big-endian integers of any length
//     (leading zeros allowed, r and s in [1, n−1]): a P1363 signature cut
//     in halves.
//
// keytable.Table has the same two methods, minus the key, for a key that
// verifies many signatures.
package verify

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"math/big"

	"github.com/p256tls/p256tls/internal/ecdsasig"
	"github.com/p256tls/p256tls/internal/p256/ecdsaverify"
	"github.com/p256tls/p256tls/internal/p256/point"
	"github.com/p256tls/p256tls/internal/p256/scalar"
)

// VerifyASN1 reports whether sig, an ASN.1 DER ECDSA signature, is a valid
// signature of digest under pub. It gives crypto/ecdsa.VerifyASN1's answer
// for every input.
func VerifyASN1(pub *ecdsa.PublicKey, digest, sig []byte) bool {
	if pub == nil || pub.Curve == nil {
		return false
	}
	switch pub.Curve {
	case elliptic.P256():
		rb, sb, ok := ecdsasig.ParseDER(sig)
		return ok && verifyP256(pub, digest, rb, sb)
	case elliptic.P384():
		rb, sb, ok := ecdsasig.ParseDER(sig)
		return ok && verifyP384(pub, digest, rb, sb)
	}
	if !hasCoordinates(pub) {
		return false
	}
	return ecdsa.VerifyASN1(pub, digest, sig)
}

// Verify reports whether (r, s), given as big-endian unsigned integers (of
// any length; leading zeros are allowed), is a valid signature of digest
// under pub. r and s must be in [1, n−1]. This is the form of a P1363
// signature cut in halves.
func Verify(pub *ecdsa.PublicKey, digest, r, s []byte) bool {
	if pub == nil || pub.Curve == nil {
		return false
	}
	switch pub.Curve {
	case elliptic.P256():
		return verifyP256(pub, digest, r, s)
	case elliptic.P384():
		return verifyP384(pub, digest, r, s)
	}
	if !hasCoordinates(pub) {
		return false
	}
	return ecdsa.Verify(pub, digest, new(big.Int).SetBytes(r), new(big.Int).SetBytes(s))
}

// hasCoordinates reports whether pub has both coordinates: crypto/ecdsa
// dereferences them, so a hand-made key without them would panic there
// instead of failing to verify.
func hasCoordinates(pub *ecdsa.PublicKey) bool {
	//lint:ignore SA1019 the coordinates are only tested for nil.
	return pub.X != nil && pub.Y != nil
}

// verifyP256 checks (r, s) under a P-256 key with crypto/ecdsa's rules: r
// and s in [1, n−1], coordinates in [0, p), the point on the curve; then the
// joint wNAF chain (internal/p256/ecdsaverify) and the final check.
func verifyP256(pub *ecdsa.PublicKey, digest, rb, sb []byte) bool {
	var rs, ss scalar.Scalar
	if !ecdsasig.ScalarFromBytes(&rs, rb) || !ecdsasig.ScalarFromBytes(&ss, sb) {
		return false
	}
	var enc [65]byte
	var q point.Affine
	if _, err := q.SetBytes(ecdsasig.PublicKeyBytes(enc[:], pub, 32)); err != nil {
		return false
	}
	return ecdsaverify.VerifyPoint(&q, digest, &rs, &ss)
}
