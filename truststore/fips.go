package truststore

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/fips140"
	"crypto/rsa"
	"crypto/x509"
)

// crypto/tls filters the chains it verifies when its FIPS requirement
// holds: with GODEBUG=fips140=on or only, or, in a Go+BoringCrypto build
// (GOEXPERIMENT=boringcrypto), when crypto/tls/fipsonly is imported. The
// rule it applies is chosen by the build, not by what set the requirement:
// the Go Cryptographic Module's in an ordinary build, BoringCrypto's in a
// Go+BoringCrypto one (goBoringCrypto, fips_boring.go and
// fips_noboring.go). Whether crypto/tls/fipsonly was imported cannot be
// observed, so a Go+BoringCrypto build always filters (fipsRequired): the
// store may then refuse a chain that crypto/tls, without fipsonly, accepts,
// never the reverse.

// fipsRequired reports whether crypto/tls may be filtering chains in this
// process, and so Verify must.
func fipsRequired() bool { return goBoringCrypto || fips140.Enabled() }

// fipsKeyAllowed reports whether crypto/tls's FIPS chain filter accepts c's
// public key. The Go Cryptographic Module's rule (boring false): RSA of at
// least 2048 bits, ECDSA on P-256, P-384 or P-521, or Ed25519.
// BoringCrypto's (boring true): RSA of exactly 2048, 3072 or 4096 bits, or
// ECDSA on those curves. crypto/tls applies the filter only when it
// verifies chains itself, so a verifier installed with InsecureSkipVerify
// must apply it again.
func fipsKeyAllowed(c *x509.Certificate, boring bool) bool {
	switch pub := c.PublicKey.(type) {
	case *rsa.PublicKey:
		n := pub.N.BitLen()
		if boring {
			return n == 2048 || n == 3072 || n == 4096
		}
		return n >= 2048
	case *ecdsa.PublicKey:
		switch pub.Curve {
		case elliptic.P256(), elliptic.P384(), elliptic.P521():
			return true
		}
		return false
	case ed25519.PublicKey:
		return !boring
	}
	return false
}

// fipsChainAllowed reports whether every key of a non-empty chain passes
// this build's FIPS chain filter.
func fipsChainAllowed(chain []*x509.Certificate) bool {
	if len(chain) == 0 {
		return false
	}
	for _, c := range chain {
		if !fipsKeyAllowed(c, goBoringCrypto) {
			return false
		}
	}
	return true
}
