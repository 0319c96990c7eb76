package provider

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
)

// Errors returned (wrapped) by NewIdentity and LoadIdentity. Test for them
// with errors.Is.
var (
	// ErrNoCertificate: the certificate chain is empty, or a certificate
	// file holds no CERTIFICATE block.
	ErrNoCertificate = errors.New("no certificate")
	// ErrNoPrivateKey: the tls.Certificate has no private key, or a key
	// file holds no private key block.
	ErrNoPrivateKey = errors.New("no private key")
	// ErrKeyMismatch: the private key does not belong to the leaf
	// certificate's public key.
	ErrKeyMismatch = errors.New("private key does not match the certificate's public key")
	// ErrEncryptedKey: the key file is encrypted (PKCS#8 "ENCRYPTED PRIVATE
	// KEY" or legacy "Proc-Type: 4,ENCRYPTED" PEM). Decrypt it first.
	ErrEncryptedKey = errors.New("encrypted private key")
	// ErrUnsupportedKey: the key's type or format cannot sign TLS
	// handshakes (DSA, X25519, P-224, OpenSSH format, ...).
	ErrUnsupportedKey = errors.New("unsupported private key")
)

// Identity is a certificate chain with its private key, ready for crypto/tls
// and quic-go. A P-256 key signs with the comb signer, whose precomputed
// table is built once in NewIdentity, and every signature is verified before
// it leaves the process. Any other key signs with its standard signer.
//
// An Identity is immutable and safe for concurrent use.
type Identity struct {
	// Leaf is the parsed leaf certificate. Do not modify it.
	Leaf *x509.Certificate

	cert      tls.Certificate // PrivateKey is k
	k         *key
	algorithm string
}

// NewIdentity builds an identity from what tls.X509KeyPair or
// tls.LoadX509KeyPair return. The private key must belong to the leaf
// certificate. For a P-256 *ecdsa.PrivateKey it builds the key's table and
// signs with checked comb signing; for RSA, ECDSA P-384 and P-521, Ed25519
// and opaque crypto.Signers (e.g. hardware keys) it keeps the standard
// signer and counts its signatures as fallbacks. So it does for P-256 when
// the process runs with GODEBUG=fips140=only (fips140.Enforced() when the
// identity is made), where signatures must come from the Go Cryptographic
// Module.
//
// OCSPStaple, SignedCertificateTimestamps and SupportedSignatureAlgorithms
// are carried over. cert is not modified.
func NewIdentity(cert tls.Certificate) (*Identity, error) {
	if len(cert.Certificate) == 0 {
		return nil, fmt.Errorf("provider: %w in the tls.Certificate", ErrNoCertificate)
	}
	leaf := cert.Leaf
	if leaf == nil || !bytes.Equal(leaf.Raw, cert.Certificate[0]) {
		var err error
		leaf, err = x509.ParseCertificate(cert.Certificate[0])
		if err != nil {
			return nil, fmt.Errorf("provider: parsing the leaf certificate: %w", err)
		}
	}
	if cert.PrivateKey == nil {
		return nil, fmt.Errorf("provider: %w in the tls.Certificate", ErrNoPrivateKey)
	}
	signer, ok := cert.PrivateKey.(crypto.Signer)
	if !ok {
		return nil, fmt.Errorf("provider: %w: %T does not implement crypto.Signer", ErrUnsupportedKey, cert.PrivateKey)
	}
	algorithm, err := keyAlgorithm(signer.Public())
	if err != nil {
		return nil, err
	}
	if !publicKeysEqual(signer.Public(), leaf.PublicKey) {
		leafAlg, _ := keyAlgorithm(leaf.PublicKey)
		if leafAlg == "" {
			leafAlg = fmt.Sprintf("%T", leaf.PublicKey)
		}
		return nil, fmt.Errorf("provider: %w (%s key, %s certificate for %s)", ErrKeyMismatch, algorithm, leafAlg, describe(leaf))
	}

	var k *key
	switch priv := signer.(type) {
	case *key:
		// Already a provider key (for example a Certificate() fed back in):
		// share it, with its table and counters.
		k = priv
	case *ecdsa.PrivateKey:
		if priv.Curve == elliptic.P256() && combAllowed() {
			k, err = newCombKey(priv, describe(leaf))
			if err != nil {
				return nil, err
			}
			break
		}
		k = newFallbackKey(priv, describe(leaf), algorithm)
	default:
		k = newFallbackKey(signer, describe(leaf), algorithm)
	}

	id := &Identity{Leaf: leaf, k: k, algorithm: algorithm}
	id.cert = cert
	id.cert.Certificate = append([][]byte(nil), cert.Certificate...)
	id.cert.PrivateKey = k
	id.cert.Leaf = leaf
	return id, nil
}

// Certificate returns the identity as a tls.Certificate whose PrivateKey is
// the provider's signer. Use it in tls.Config.Certificates, return it from
// GetCertificate, or from a client's GetClientCertificate for mutual TLS.
// Each call returns a new copy; the signer (and its table) is shared.
func (id *Identity) Certificate() *tls.Certificate {
	c := id.cert
	return &c
}

// Checked reports whether the identity signs with the checked comb signer
// (true for P-256 ECDSA keys, unless made under GODEBUG=fips140=only) rather
// than the standard signer.
func (id *Identity) Checked() bool { return id.k.comb != nil }

// Algorithm names the key: "P-256", "P-384", "P-521", "RSA-2048",
// "Ed25519", ...
func (id *Identity) Algorithm() string { return id.algorithm }

// Stats returns the counters of the identity's key. Identities that share a
// key (see NewIdentity) share counters.
func (id *Identity) Stats() Stats { return id.k.c.snapshot() }

// String describes the identity for logs, e.g. "example.com (P-256)".
func (id *Identity) String() string { return describe(id.Leaf) + " (" + id.algorithm + ")" }

// keyAlgorithm names a public key usable in TLS, or refuses it.
func keyAlgorithm(pub crypto.PublicKey) (string, error) {
	switch pub := pub.(type) {
	case *ecdsa.PublicKey:
		switch pub.Curve {
		case elliptic.P256(), elliptic.P384(), elliptic.P521():
			return pub.Curve.Params().Name, nil
		}
		name := "unknown curve"
		if pub.Curve != nil && pub.Curve.Params() != nil {
			name = pub.Curve.Params().Name
		}
		return "", fmt.Errorf("provider: %w: ECDSA on %s cannot sign TLS handshakes (use P-256, P-384 or P-521)", ErrUnsupportedKey, name)
	case *rsa.PublicKey:
		if pub.N == nil || pub.N.BitLen() < 1024 {
			return "", fmt.Errorf("provider: %w: RSA keys shorter than 1024 bits are refused by crypto/tls", ErrUnsupportedKey)
		}
		return fmt.Sprintf("RSA-%d", pub.N.BitLen()), nil
	case ed25519.PublicKey:
		return "Ed25519", nil
	default:
		return "", fmt.Errorf("provider: %w: %T keys cannot sign TLS handshakes", ErrUnsupportedKey, pub)
	}
}

func publicKeysEqual(a, b crypto.PublicKey) bool {
	e, ok := a.(interface{ Equal(crypto.PublicKey) bool })
	return ok && e.Equal(b)
}

// describe names a certificate for errors, logs and expvar.
func describe(leaf *x509.Certificate) string {
	switch {
	case len(leaf.DNSNames) > 0:
		return leaf.DNSNames[0]
	case leaf.Subject.CommonName != "":
		return leaf.Subject.CommonName
	case len(leaf.IPAddresses) > 0:
		return leaf.IPAddresses[0].String()
	case len(leaf.EmailAddresses) > 0:
		return leaf.EmailAddresses[0]
	case len(leaf.URIs) > 0 && leaf.URIs[0] != nil:
		return leaf.URIs[0].String() // a SPIFFE ID
	}
	return "serial " + leaf.SerialNumber.String()
}

func errHashUnavailable(h crypto.Hash) error {
	return fmt.Errorf("provider: hash function %v is not linked into the binary", h)
}

func signerPublic(priv any) any {
	if s, ok := priv.(interface{ Public() crypto.PublicKey }); ok {
		return s.Public()
	}
	return nil
}
