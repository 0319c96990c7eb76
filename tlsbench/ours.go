package main

// The p256tls side of every comparison lives in this file, so that what the
// "p256tls" column runs is in one place.

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"fmt"

	isigner "github.com/p256tls/p256tls/internal/signer"
	"github.com/p256tls/p256tls/keytable"
	"github.com/p256tls/p256tls/provider"
	"github.com/p256tls/p256tls/sign"
	"github.com/p256tls/p256tls/truststore"
	"github.com/p256tls/p256tls/verify"
)

// oursCertificate turns the standard certificate into a p256tls provider
// identity (provider.NewIdentity). note says what the identity does with
// a key that is not P-256; stats reads the identity's signing counters.
func oursCertificate(std tls.Certificate) (cert tls.Certificate, note string, stats func() string, err error) {
	id, err := provider.NewIdentity(std)
	if err != nil {
		return tls.Certificate{}, "", nil, err
	}
	if !id.Checked() {
		note = fmt.Sprintf("the provider identity passes %s keys through to the standard signer (counted as fallbacks), so both columns sign the same way", id.Algorithm())
	}
	stats = func() string {
		st := id.Stats()
		return fmt.Sprintf("provider identity (%s): %d signatures by the comb signer, %d checks, %d faults detected, %d fallbacks to the standard signer",
			id.Algorithm(), st.Signatures, st.Checks, st.FaultsDetected, st.Fallbacks)
	}
	return *id.Certificate(), note, stats, nil
}

// oursGetCertificate wraps a GetCertificate with the provider's cache
// (provider.WrapGetCertificate): the certificates it returns sign with their
// key's checked comb signer, built once per key.
func oursGetCertificate(get func(*tls.ClientHelloInfo) (*tls.Certificate, error)) func(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	return provider.WrapGetCertificate(get)
}

// oursDynamicStats returns what to call after a GetCertificate row: it
// describes the signatures the process made through the provider and the
// provider cache's work since oursDynamicStats was called.
func oursDynamicStats() func() string {
	s0, c0 := provider.TotalStats(), provider.DefaultCache().Stats()
	return func() string {
		s, c := provider.TotalStats(), provider.DefaultCache().Stats()
		return fmt.Sprintf("a GetCertificate returning a new *tls.Certificate per handshake (as autocert, certmagic and go-spiffe do), wrapped by provider.WrapGetCertificate: %d signatures by the comb signer, %d checks, %d faults detected; its cache: %d hits, %d tables built, %d certificates passed through unchanged",
			s.Signatures-s0.Signatures, s.Checks-s0.Checks, s.FaultsDetected-s0.FaultsDetected,
			c.Hits-c0.Hits, c.Builds-c0.Builds, c.Fallbacks-c0.Fallbacks)
	}
}

// oursSigner is sign.Signer for one P-256 key.
type oursSigner struct{ s *sign.Signer }

func newOursSigner(priv *ecdsa.PrivateKey) (oursSigner, error) {
	s, err := sign.New(priv)
	return oursSigner{s}, err
}

// Sign is the checked signature: verified against the key's table before
// it is returned.
func (o oursSigner) Sign(digest []byte) ([]byte, error) {
	return o.s.Sign(rand.Reader, digest, crypto.SHA256)
}

// SignUnchecked is the signature without its check, through
// internal/signer (a measurement, never a signature to release).
func (o oursSigner) SignUnchecked(digest []byte) ([]byte, error) {
	return isigner.SignUnchecked(o.s, rand.Reader, digest)
}

// oursTable builds the key's verification table (keytable.New).
func oursTable(pub *ecdsa.PublicKey) (func(digest, sig []byte) bool, error) {
	t, err := keytable.New(pub)
	if err != nil {
		return nil, err
	}
	return t.VerifyASN1, nil
}

// oursVerify is p256tls's ordinary verification (verify.VerifyASN1).
func oursVerify(pub *ecdsa.PublicKey, digest, sig []byte) bool {
	return verify.VerifyASN1(pub, digest, sig)
}

// oursChainVerifier returns the trust store's verification of a server
// chain (truststore.New with the root, Store.Verify), and stats, what the
// store did so far.
func oursChainVerifier(root *x509.Certificate) (verify func([]*x509.Certificate) error, stats func() string, err error) {
	store, err := truststore.New([]*x509.Certificate{root})
	if err != nil {
		return nil, nil, err
	}
	opts := truststore.VerifyOptions{DNSName: serverName, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	verify = func(chain []*x509.Certificate) error { _, err := store.Verify(chain, opts); return err }
	stats = func() string {
		st := store.Stats()
		return fmt.Sprintf("the trust store over the cold and warm rows: %d chains accepted by its fast path, %d decided by crypto/x509, %d chain signatures skipped thanks to its link cache",
			st.FastAccepts, st.SlowVerifies, st.LinkHits)
	}
	return verify, stats, nil
}

// oursClientHook returns what makes a client configuration verify servers
// with one p256tls trust store holding the root (provider.HookClientConfig),
// instead of crypto/x509 with RootCAs; stats reports what the store did.
func oursClientHook(root *x509.Certificate) (wrap func(*tls.Config) *tls.Config, stats func() string, err error) {
	store, err := truststore.New([]*x509.Certificate{root})
	if err != nil {
		return nil, nil, err
	}
	wrap = func(cfg *tls.Config) *tls.Config { return provider.HookClientConfig(cfg, store) }
	stats = func() string {
		st := store.Stats()
		return fmt.Sprintf("%d chains accepted by the trust store's fast path, %d decided by crypto/x509, %d chain signatures skipped thanks to its link cache",
			st.FastAccepts, st.SlowVerifies, st.LinkHits)
	}
	return wrap, stats, nil
}
