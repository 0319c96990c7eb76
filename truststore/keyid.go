package truststore

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/binary"
)

// keyID names a public key for every cache (see keyIDOf).
type keyID [32]byte

// keyIDOf names a public key by the SHA-256 of a canonical encoding of the
// key itself, never of the struct's numbers as given: two keys get one id
// only when they are the same valid key. ok is false for any other key
// (another type, nil fields included), and then no cache may be consulted
// for it.
//
// An ECDSA key is encoded uncompressed (SEC 1), as ecdsa.PublicKey.Bytes
// makes it. Bytes refuses what crypto/ecdsa would refuse to verify with (a
// curve other than P-224, P-256, P-384 or P-521, negative or oversized
// coordinates, coordinates not reduced modulo p, a point off the curve).
//
// An RSA key is encoded as "RSA\x00", E in 4 bytes big-endian, then N in
// big-endian bytes without leading zeros; it must have, as
// x509.ParseCertificate makes them, a positive N (of at most 8192 bits,
// more than the fast path handles) and a positive E, here also at most
// 2^31 − 1 (the largest crypto/rsa accepts). The first byte keeps the two
// encodings apart (SEC 1 begins with 4).
func keyIDOf(pub crypto.PublicKey) (id keyID, ok bool) {
	switch pub := pub.(type) {
	case *ecdsa.PublicKey:
		return ecdsaKeyID(pub)
	case *rsa.PublicKey:
		return rsaKeyID(pub)
	}
	return keyID{}, false
}

func ecdsaKeyID(pub *ecdsa.PublicKey) (keyID, bool) {
	if pub == nil || pub.X == nil || pub.Y == nil {
		return keyID{}, false
	}
	enc, err := pub.Bytes()
	if err != nil {
		return keyID{}, false
	}
	return sha256.Sum256(enc), true
}

// maxRSAIDBytes bounds the modulus an RSA key id encodes.
const maxRSAIDBytes = 8192 / 8

func rsaKeyID(pub *rsa.PublicKey) (keyID, bool) {
	if pub == nil || pub.N == nil || pub.N.Sign() <= 0 || pub.E <= 0 || pub.E > 1<<31-1 {
		return keyID{}, false
	}
	n := (pub.N.BitLen() + 7) / 8
	if n > maxRSAIDBytes {
		return keyID{}, false
	}
	var buf [8 + maxRSAIDBytes]byte
	copy(buf[:4], "RSA\x00")
	binary.BigEndian.PutUint32(buf[4:8], uint32(pub.E))
	pub.N.FillBytes(buf[8 : 8+n])
	return sha256.Sum256(buf[:8+n]), true
}

// ecdsaKey returns c's ECDSA public key, or nil when it has another type.
func ecdsaKey(c *x509.Certificate) *ecdsa.PublicKey {
	pub, _ := c.PublicKey.(*ecdsa.PublicKey)
	return pub
}
