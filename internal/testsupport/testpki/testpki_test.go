package testpki

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestNewKey(t *testing.T) {
	want := map[string]string{
		P224: "ecdsa P-224", P256: "ecdsa P-256", P384: "ecdsa P-384", P521: "ecdsa P-521",
		Ed25519: "ed25519", RSA2048: "rsa 2048", RSA4096: "rsa 4096",
	}
	if len(want) != len(Algorithms) {
		t.Fatalf("Algorithms has %d names, the test knows %d", len(Algorithms), len(want))
	}
	for _, alg := range Algorithms {
		if alg == RSA4096 && testing.Short() {
			continue
		}
		k, err := NewKey(alg)
		if err != nil {
			t.Fatalf("NewKey(%s): %v", alg, err)
		}
		var got string
		switch k := k.(type) {
		case *ecdsa.PrivateKey:
			got = "ecdsa " + k.Curve.Params().Name
		case ed25519.PrivateKey:
			got = "ed25519"
		case *rsa.PrivateKey:
			got = fmt.Sprintf("rsa %d", k.N.BitLen())
		}
		if got != want[alg] {
			t.Errorf("NewKey(%s) made %q, want %q", alg, got, want[alg])
		}
	}
	if k, err := NewKey("P-257"); err == nil || !strings.HasPrefix(err.Error(), "testpki: ") {
		t.Errorf("NewKey(P-257) = %v, %v; want a testpki error", k, err)
	}
}

func TestPooled(t *testing.T) {
	a0, err := Pooled(P256, 0)
	if err != nil {
		t.Fatal(err)
	}
	a2, err := Pooled(P256, 2)
	if err != nil {
		t.Fatal(err)
	}
	a1, _ := Pooled(P256, 1)
	again, _ := Pooled(P256, 0)
	if again != a0 {
		t.Error("Pooled(P-256, 0) returned a different key the second time")
	}
	if a0.(*ecdsa.PrivateKey).Equal(a1) || a1.(*ecdsa.PrivateKey).Equal(a2) || a0.(*ecdsa.PrivateKey).Equal(a2) {
		t.Error("Pooled returned the same key for distinct indices")
	}
	if e0, _ := Pooled(Ed25519, 0); e0 == nil {
		t.Error("Pooled(Ed25519, 0) = nil")
	} else if _, ok := e0.(ed25519.PrivateKey); !ok {
		t.Errorf("Pooled(Ed25519, 0) is a %T", e0)
	}
	if _, err := Pooled(P256, -1); err == nil {
		t.Error("Pooled(P-256, -1) succeeded")
	}
	if _, err := Pooled("nope", 0); err == nil {
		t.Error("Pooled(nope, 0) succeeded")
	}
}

func TestIssueChain(t *testing.T) {
	now := time.Now()
	nb, na := now.Add(-time.Hour), now.Add(time.Hour)
	root := MustIssue(t, CATemplate("root", nb, na), MustKey(t, P384), nil)
	inter := MustIssue(t, CATemplate("inter", nb, na), MustKey(t, P256), root)
	leaf := MustIssue(t, LeafTemplate("leaf", nb, na, "a.test", "b.test"), MustKey(t, Ed25519), inter)

	if err := root.Cert.CheckSignatureFrom(root.Cert); err != nil {
		t.Errorf("root is not self-signed: %v", err)
	}
	if inter.Cert.Issuer.CommonName != "root" || leaf.Cert.Issuer.CommonName != "inter" {
		t.Errorf("issuers %q, %q; want root, inter", inter.Cert.Issuer.CommonName, leaf.Cert.Issuer.CommonName)
	}
	if !leaf.Key.(ed25519.PrivateKey).Public().(ed25519.PublicKey).Equal(leaf.Cert.PublicKey) {
		t.Error("leaf certificate does not carry the leaf key")
	}
	roots, inters := x509.NewCertPool(), x509.NewCertPool()
	roots.AddCert(root.Cert)
	inters.AddCert(inter.Cert)
	for _, usage := range []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth} {
		if _, err := leaf.Cert.Verify(x509.VerifyOptions{Roots: roots, Intermediates: inters,
			DNSName: "b.test", KeyUsages: []x509.ExtKeyUsage{usage}}); err != nil {
			t.Errorf("chain does not verify for %v: %v", usage, err)
		}
	}
	if _, err := inter.Cert.Verify(x509.VerifyOptions{Roots: roots}); err != nil {
		t.Errorf("CA certificate does not verify as an end entity under its root: %v", err)
	}
	serials := map[string]bool{}
	for _, n := range []*Node{root, inter, leaf} {
		serials[n.Cert.SerialNumber.String()] = true
	}
	if len(serials) != 3 {
		t.Errorf("serials %v are not distinct", serials)
	}
	if !root.Cert.IsCA || leaf.Cert.IsCA || !root.Cert.NotAfter.Equal(na.Truncate(time.Second)) {
		t.Errorf("templates not applied: root CA %v, leaf CA %v, NotAfter %v", root.Cert.IsCA, leaf.Cert.IsCA, root.Cert.NotAfter)
	}
}

func TestIssueErrors(t *testing.T) {
	now := time.Now()
	root := MustIssue(t, CATemplate("root", now, now.Add(time.Hour)), MustKey(t, P256), nil)
	// A parent whose key does not match its certificate: crypto/x509 refuses.
	bad := &Node{Cert: root.Cert, Key: MustKey(t, P256)}
	if n, err := Issue(LeafTemplate("x", now, now.Add(time.Hour)), MustKey(t, P256), bad); err == nil || n != nil ||
		!strings.HasPrefix(err.Error(), "testpki: ") {
		t.Errorf("Issue under a mismatched parent = %v, %v; want nil and a testpki error", n, err)
	}
	if _, err := Issue(LeafTemplate("x", now, now.Add(time.Hour)), nil, root); err == nil {
		t.Error("Issue with a nil key succeeded")
	}
	var ft fakeTB
	if n := MustIssue(&ft, LeafTemplate("x", now, now.Add(time.Hour)), MustKey(t, P256), bad); n != nil || !ft.failed {
		t.Errorf("MustIssue on error: node %v, failed %v", n, ft.failed)
	}
	ft = fakeTB{}
	if MustKey(&ft, "nope"); !ft.failed {
		t.Error("MustKey(nope) did not fail the test")
	}
	ft = fakeTB{}
	if MustPooled(&ft, P256, -1); !ft.failed {
		t.Error("MustPooled(P-256, -1) did not fail the test")
	}
}

type fakeTB struct{ failed bool }

func (*fakeTB) Helper()                 {}
func (f *fakeTB) Fatalf(string, ...any) { f.failed = true }

func TestPEM(t *testing.T) {
	now := time.Now()
	root := MustIssue(t, CATemplate("root", now, now.Add(time.Hour)), MustKey(t, P256), nil)
	leaf := MustIssue(t, LeafTemplate("leaf", now, now.Add(time.Hour)), MustKey(t, P384), root)
	rest := CertsPEM(leaf.Cert.Raw, root.Cert.Raw)
	for i, want := range [][]byte{leaf.Cert.Raw, root.Cert.Raw} {
		var b *pem.Block
		b, rest = pem.Decode(rest)
		if b == nil || b.Type != "CERTIFICATE" || string(b.Bytes) != string(want) {
			t.Fatalf("block %d of CertsPEM is not certificate %d", i, i)
		}
	}
	if len(rest) != 0 {
		t.Errorf("CertsPEM left %d trailing bytes", len(rest))
	}
	kp, err := KeyPEM(leaf.Key)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := pem.Decode(kp)
	if b == nil || b.Type != "PRIVATE KEY" {
		t.Fatalf("KeyPEM wrote %q", kp)
	}
	k, err := x509.ParsePKCS8PrivateKey(b.Bytes)
	if err != nil || !leaf.Key.(*ecdsa.PrivateKey).Equal(k) {
		t.Errorf("KeyPEM does not round-trip: %v", err)
	}
	if _, err := KeyPEM(nil); err == nil {
		t.Error("KeyPEM(nil) succeeded")
	}
}
