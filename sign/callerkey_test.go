package sign

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"testing"
)

// TestNewLeavesCallersKeyAlone: building a Signer must not change the
// caller's key. crypto/ecdsa's PrivateKey.Bytes returns the scalar it keeps
// cached for the key, so erasing that slice would make every later
// standard-library signature with the same key use d = 0.
func TestNewLeavesCallersKeyAlone(t *testing.T) {
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	digest := sha256.Sum256([]byte("caller's key"))
	// Make crypto/ecdsa build and cache its internal key first.
	if _, err := ecdsa.SignASN1(rand.Reader, priv, digest[:]); err != nil {
		t.Fatal(err)
	}
	// cached is crypto/ecdsa's own copy of the scalar (Bytes returns it, not
	// a fresh one); a concurrent standard-library signature may be using
	// it while sign.New runs, so it must never change. (A later Bytes
	// call would not show the damage: crypto/ecdsa rebuilds a cache entry
	// that no longer matches the key, so only signatures made in between
	// come out wrong.)
	cached, _ := priv.Bytes()
	want := append([]byte(nil), cached...)
	for _, mk := range []func(*ecdsa.PrivateKey) (*Signer, error){New, NewDeterministic} {
		if _, err := mk(priv); err != nil {
			t.Fatal(err)
		}
		if string(cached) != string(want) {
			t.Fatalf("sign.New changed crypto/ecdsa's cached private key: %x → %x", want, cached)
		}
		sig, err := ecdsa.SignASN1(rand.Reader, priv, digest[:])
		if err != nil {
			t.Fatal(err)
		}
		if !ecdsa.VerifyASN1(&priv.PublicKey, digest[:], sig) {
			t.Fatal("crypto/ecdsa's signature with the caller's key no longer verifies after sign.New")
		}
		sig, err = priv.Sign(nil, digest[:], crypto.SHA256) // the deterministic path too
		if err != nil || !ecdsa.VerifyASN1(&priv.PublicKey, digest[:], sig) {
			t.Fatalf("deterministic crypto/ecdsa signature after sign.New: err %v, or it does not verify", err)
		}
	}
}
