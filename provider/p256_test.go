package provider

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"sync"
	"sync/atomic"
	"testing"
)

// TestCombKeyLeavesCallersKeyAlone: building the comb signer of a key must
// not disturb the caller's own signing with the same *ecdsa.PrivateKey at
// the same time (a server's ACME client signing a CSR, the standard signer
// of a handshake that fell back). sign.New erases the key bytes it reads
// through ecdsa.PrivateKey.Bytes, which in Go 1.26 are crypto/ecdsa's cached
// internal copy of the key; the provider therefore hands sign.New a copy of
// the key object.
func TestCombKeyLeavesCallersKeyAlone(t *testing.T) {
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	digest := sha256.Sum256([]byte("p256tls"))
	var bad, signed atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for g := 0; g < 2; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				sig, err := ecdsa.SignASN1(rand.Reader, priv, digest[:])
				signed.Add(1)
				if err != nil || !ecdsa.VerifyASN1(&priv.PublicKey, digest[:], sig) {
					bad.Add(1)
				}
			}
		}()
	}
	for i := 0; i < 300; i++ {
		if _, err := newCombKey(priv, "test"); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	wg.Wait()
	if bad.Load() > 0 {
		t.Fatalf("%d of %d standard signatures made while the comb signer was being built were bad", bad.Load(), signed.Load())
	}
	if _, err := priv.Bytes(); err != nil {
		t.Fatal(err)
	}
}
