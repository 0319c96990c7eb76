package sign

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/rand"
	"crypto/sha256"
	"testing"

	"github.com/p256tls/p256tls/internal/signer"
)

// TestInternalAccess: internal/signer reaches a Signer's unchecked
// signature and its counters, and refuses anything that is not a *Signer.
func TestInternalAccess(t *testing.T) {
	k := newKey(t)
	s := newSignerT(t, k)
	d := sha256.Sum256([]byte("internal"))
	sig, err := signer.SignUnchecked(s, rand.Reader, d[:])
	if err != nil || !ecdsa.VerifyASN1(&k.PublicKey, d[:], sig) {
		t.Fatalf("signer.SignUnchecked: %x, %v", sig, err)
	}
	if _, err := s.Sign(rand.Reader, d[:], crypto.SHA256); err != nil {
		t.Fatal(err)
	}
	if c, ok := signer.CountersOf(s); !ok || c != (signer.Counters{Signatures: 2, Checks: 1}) {
		t.Errorf("signer.CountersOf = %+v, %v; want 2 signatures, 1 check", c, ok)
	}
	var nilSigner *Signer
	for _, other := range []crypto.Signer{nil, k, nilSigner} {
		if _, err := signer.SignUnchecked(other, rand.Reader, d[:]); err == nil {
			t.Errorf("signer.SignUnchecked(%T) succeeded", other)
		}
		if c, ok := signer.CountersOf(other); ok || c != (signer.Counters{}) {
			t.Errorf("signer.CountersOf(%T) = %+v, %v", other, c, ok)
		}
	}
}
