package scalar

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/asn1"
	"math/big"
	"testing"
)

// TestSetDigestECDSA checks SetDigest against crypto/ecdsa itself: for
// SHA-256, SHA-384 and SHA-512 digests signed by crypto/ecdsa, the
// verification equation, evaluated with e = SetDigest(digest), must hold.
func TestSetDigestECDSA(t *testing.T) {
	key, err := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	c := elliptic.P384()
	for i := 0; i < 8; i++ {
		msg := []byte{byte(i), 'p', '3', '8', '4'}
		d256 := sha256.Sum256(msg)
		d384 := sha512.Sum384(msg)
		d512 := sha512.Sum512(msg)
		for _, d := range [][]byte{d256[:], d384[:], d512[:]} {
			der, err := ecdsa.SignASN1(rand.Reader, key, d)
			if err != nil {
				t.Fatal(err)
			}
			var sig struct{ R, S *big.Int }
			if _, err := asn1.Unmarshal(der, &sig); err != nil {
				t.Fatal(err)
			}
			var e Scalar
			e.SetDigest(d)
			w := new(big.Int).ModInverse(sig.S, tN)
			u1 := tMod(new(big.Int).Mul(tValue(&e), w))
			u2 := tMod(new(big.Int).Mul(sig.R, w))
			x1, y1 := c.ScalarBaseMult(u1.Bytes())
			x2, y2 := c.ScalarMult(key.X, key.Y, u2.Bytes())
			x, _ := c.Add(x1, y1, x2, y2)
			if tMod(x).Cmp(sig.R) != 0 {
				t.Fatalf("%d-byte digest: SetDigest disagrees with crypto/ecdsa", len(d))
			}
		}
	}
}
