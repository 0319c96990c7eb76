package truststore

import (
	"crypto/ecdsa"
	"crypto/sha256"
	"crypto/x509"
)

// keyID names a public key for every cache (see keyIDOf).
type keyID [32]byte

// keyIDOf names an ECDSA public key by the SHA-256 of its uncompressed
// SEC 1 encoding, as ecdsa.PublicKey.Bytes makes it. Bytes refuses what
// crypto/ecdsa would refuse to verify with (a curve other than P-224,
// P-256, P-384 or P-521, negative or oversized coordinates, coordinates
// not reduced modulo p, a point off the curve), so two keys get one id only
// when they are the same valid key; ok is false for any other key, nil
// fields included, and then no cache may be consulted for it.
func keyIDOf(pub *ecdsa.PublicKey) (id keyID, ok bool) {
	if pub == nil || pub.X == nil || pub.Y == nil {
		return keyID{}, false
	}
	enc, err := pub.Bytes()
	if err != nil {
		return keyID{}, false
	}
	return sha256.Sum256(enc), true
}

// ecdsaKey returns c's ECDSA public key, or nil when it has another type.
func ecdsaKey(c *x509.Certificate) *ecdsa.PublicKey {
	pub, _ := c.PublicKey.(*ecdsa.PublicKey)
	return pub
}
