package truststore

import (
	"crypto/rsa"
	"crypto/x509"
)

// rsaKeyHandled reports whether the fast path verifies signatures by the RSA
// key pub: a positive modulus of exactly 2048, 3072 or 4096 bits and the
// exponent 65537, what the Web PKI's RSA CAs use. Anything else (other
// sizes, other exponents, nil fields) is left to crypto/x509.
//
// The signature itself is checked by rsa.VerifyPKCS1v15, the call
// crypto/x509 makes (checkSignature, for SHA256WithRSA, SHA384WithRSA and
// SHA512WithRSA), so the answer for one link is crypto/x509's by
// construction. The key rules exist for the link cache: a success is
// remembered, so it must not depend on settings that can change while the
// process runs. In Go 1.26 crypto/rsa's checks of a public key are
//
//   - checkPublicKeySize: N set and at least 1024 bits, unless GODEBUG
//     rsa1024min=0 (readable again after os.Setenv("GODEBUG", ...));
//   - in GODEBUG fips140=only mode, checkFIPS140OnlyPublicKey: at least
//     2048 bits, an even size, E > 2^16 and odd, and a SHA-2 or SHA-3 hash;
//   - the FIPS module's checkPublicKey, always: N odd, E ≥ 2, odd and at
//     most 2^31 − 1 (a failure is a refusal, a key under 2048 bits or with
//     E ≤ 2^16 only counts as not approved).
//
// The keys admitted here pass the first two whatever the settings, and the
// third decides the same way every time. GODEBUG x509rsacrt concerns only
// private keys, and crypto/x509 checks nothing more of an RSA issuer key
// than that it is an *rsa.PublicKey; x509.ParseCertificate guarantees N > 0
// and E > 0 for the keys it makes. crypto/tls's FIPS chain filter also
// requires RSA keys of at least 2048 bits, or in a Go+BoringCrypto build of
// exactly 2048, 3072 or 4096 bits (fipsKeyAllowed): a separate rule, which
// these sizes happen to meet.
func rsaKeyHandled(pub *rsa.PublicKey) bool {
	if pub == nil || pub.N == nil || pub.N.Sign() <= 0 || pub.E != 65537 {
		return false
	}
	switch pub.N.BitLen() {
	case 2048, 3072, 4096:
		return true
	}
	return false
}

// rsaKey returns c's RSA public key, or nil when it has another type.
func rsaKey(c *x509.Certificate) *rsa.PublicKey {
	pub, _ := c.PublicKey.(*rsa.PublicKey)
	return pub
}
