package provider

import (
	"crypto"
	"io"
	"runtime"
)

// key is the crypto.Signer that a provider identity puts in
// tls.Certificate.PrivateKey. It either signs with the comb signer (P-256
// keys, every signature checked) or passes through to the standard signer
// and counts the signature as a fallback.
//
// Public returns the public key of the underlying signer unchanged, so
// crypto/tls, which type-switches on Public() to choose signature
// algorithms, sees exactly what it would have seen without the provider.
type key struct {
	pub  crypto.PublicKey
	comb combSigner    // P-256 keys
	std  crypto.Signer // every other key
	c    *counters
}

var (
	_ crypto.Signer        = (*key)(nil)
	_ crypto.MessageSigner = (*key)(nil)
)

func newFallbackKey(std crypto.Signer, label, algorithm string) *key {
	k := &key{pub: std.Public(), std: std, c: &counters{label: label, algorithm: algorithm}}
	reg.track(k, k.c)
	return k
}

// Public implements crypto.Signer.
func (k *key) Public() crypto.PublicKey { return k.pub }

// Sign implements crypto.Signer. For a P-256 key the signature has been
// verified before it is returned; a failed check returns an error and no
// signature.
func (k *key) Sign(rand io.Reader, digest []byte, opts crypto.SignerOpts) ([]byte, error) {
	// Keep k reachable until the counters are updated, so that its cleanup
	// (which folds the counters into the retired total) cannot run first.
	defer runtime.KeepAlive(k)
	if k.comb != nil {
		return k.comb.Sign(rand, digest, opts)
	}
	sig, err := k.std.Sign(rand, digest, opts)
	if err == nil {
		k.c.fallbacks.Add(1)
	}
	return sig, err
}

// SignMessage implements crypto.MessageSigner, which crypto/tls prefers when
// it is available. It hashes msg with opts.HashFunc() unless the standard
// signer signs messages itself (Ed25519, some hardware signers).
func (k *key) SignMessage(rand io.Reader, msg []byte, opts crypto.SignerOpts) ([]byte, error) {
	if k.std != nil {
		if ms, ok := k.std.(crypto.MessageSigner); ok {
			defer runtime.KeepAlive(k)
			sig, err := ms.SignMessage(rand, msg, opts)
			if err == nil {
				k.c.fallbacks.Add(1)
			}
			return sig, err
		}
	}
	if h := opts.HashFunc(); h != 0 {
		if !h.Available() {
			return nil, errHashUnavailable(h)
		}
		hh := h.New()
		hh.Write(msg)
		msg = hh.Sum(nil)
	}
	return k.Sign(rand, msg, opts)
}
