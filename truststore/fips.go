package truststore

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
	"crypto/x509"
)

// fipsKeyAllowed reports whether crypto/tls, with crypto/fips140 enabled,
// accepts c's public key in a peer's chain: RSA of at least 2048 bits,
// ECDSA on P-256, P-384 or P-521, or Ed25519. crypto/tls applies this
// filter only when it verifies chains itself, so a verifier installed with
// InsecureSkipVerify must apply it again.
func fipsKeyAllowed(c *x509.Certificate) bool {
	switch pub := c.PublicKey.(type) {
	case *rsa.PublicKey:
		return pub.N.BitLen() >= 2048
	case *ecdsa.PublicKey:
		switch pub.Curve {
		case elliptic.P256(), elliptic.P384(), elliptic.P521():
			return true
		}
		return false
	case ed25519.PublicKey:
		return true
	}
	return false
}

// fipsChainAllowed reports whether every key of a non-empty chain is
// allowed in FIPS 140-3 mode.
func fipsChainAllowed(chain []*x509.Certificate) bool {
	if len(chain) == 0 {
		return false
	}
	for _, c := range chain {
		if !fipsKeyAllowed(c) {
			return false
		}
	}
	return true
}
