package keytable

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"testing"
)

func TestQuickSanity(t *testing.T) {
	for i := 0; i < 50; i++ {
		k, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		tb, err := New(&k.PublicKey)
		if err != nil {
			t.Fatal(err)
		}
		h := sha256.Sum256([]byte{byte(i)})
		sig, _ := ecdsa.SignASN1(rand.Reader, k, h[:])
		if !tb.VerifyASN1(h[:], sig) {
			t.Fatal("valid rejected")
		}
		h[0] ^= 1
		if tb.VerifyASN1(h[:], sig) {
			t.Fatal("invalid accepted")
		}
	}
}
