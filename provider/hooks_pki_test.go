package provider

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"testing"
	"time"
)

// The certificate helpers of the hook tests (hooks_*_test.go): a node is a
// certificate and its key; issue signs a template under a parent.

type node struct {
	cert *x509.Certificate
	key  crypto.Signer
}

// hookKey is a fresh P-256 key.
func hookKey(tb testing.TB) crypto.Signer {
	tb.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		tb.Fatal(err)
	}
	return k
}

// caTemplate is a CA certificate template; the caller sets its validity.
func caTemplate(cn string) *x509.Certificate {
	return &x509.Certificate{
		Subject:               pkix.Name{CommonName: cn, Organization: []string{"p256tls test"}},
		BasicConstraintsValid: true,
		IsCA:                  true,
		MaxPathLen:            -1,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign,
	}
}

// leafTemplate is a server (and client) leaf template; the caller sets its
// validity.
func leafTemplate(cn string, dns ...string) *x509.Certificate {
	return &x509.Certificate{
		Subject:     pkix.Name{CommonName: cn},
		KeyUsage:    x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth},
		DNSNames:    dns,
	}
}

// issue signs tmpl with key under parent (self-signed when parent is nil).
func issue(tb testing.TB, tmpl *x509.Certificate, key crypto.Signer, parent *node) *node {
	tb.Helper()
	tmpl.SerialNumber = big.NewInt(serial.Add(1))
	pc, pk := tmpl, key
	if parent != nil {
		pc, pk = parent.cert, parent.key
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, pc, key.Public(), pk)
	if err != nil {
		tb.Fatalf("CreateCertificate(%s): %v", tmpl.Subject.CommonName, err)
	}
	c, err := x509.ParseCertificate(der)
	if err != nil {
		tb.Fatalf("ParseCertificate(%s): %v", tmpl.Subject.CommonName, err)
	}
	return &node{cert: c, key: key}
}

// otherAnchor is a valid root unrelated to any test chain.
func otherAnchor(tb testing.TB) *x509.Certificate {
	tm := caTemplate("unrelated root")
	tm.NotBefore, tm.NotAfter = time.Now().Add(-time.Hour), time.Now().Add(24*time.Hour)
	return issue(tb, tm, hookKey(tb), nil).cert
}
