package verify

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"testing"
)

func TestQuickSanity(t *testing.T) {
	for _, c := range []elliptic.Curve{elliptic.P256(), elliptic.P384(), elliptic.P521(), elliptic.P224()} {
		for i := 0; i < 20; i++ {
			k, _ := ecdsa.GenerateKey(c, rand.Reader)
			h := sha256.Sum256([]byte{byte(i)})
			sig, _ := ecdsa.SignASN1(rand.Reader, k, h[:])
			if !VerifyASN1(&k.PublicKey, h[:], sig) {
				t.Fatal("valid rejected", c.Params().Name)
			}
			h[0] ^= 1
			if VerifyASN1(&k.PublicKey, h[:], sig) {
				t.Fatal("invalid accepted")
			}
		}
	}
}
