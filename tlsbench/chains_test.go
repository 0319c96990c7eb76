package main

import (
	"context"
	"crypto/tls"
	"strings"
	"testing"
	"time"

	"github.com/p256tls/p256tls/internal/testsupport/testpki"
)

// TestChainRows: both sides of every chain row verify, cold rows make a new
// leaf per operation, and each side reports a positive time per operation.
func TestChainRows(t *testing.T) {
	rows, err := chainRows(testpki.P384)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || !strings.Contains(rows[0].name, "cold") || !strings.Contains(rows[1].name, "warm") {
		t.Fatalf("rows %q, want cold then warm", []string{rows[0].name, rows[len(rows)-1].name})
	}
	for _, r := range rows {
		if v := r.variants(); len(v) != 2 {
			t.Errorf("%s: variants %v", r.name, v)
		}
		for _, v := range r.variants() {
			s, err := r.run(context.Background(), v, 20*time.Millisecond, false)
			if err != nil || s.n == 0 || !(s.value > 0) {
				t.Errorf("%s (%s): %+v, %v", r.name, v, s, err)
			}
		}
	}
	if note := rows[1].noteText(); !strings.Contains(note, "chains accepted by its fast path") {
		t.Errorf("warm row note %q", note)
	}

	c, err := newChainPKI(testpki.P384)
	if err != nil {
		t.Fatal(err)
	}
	a, err := c.newLeaf()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := c.newLeaf()
	if string(a.Raw) == string(b.Raw) || a.SerialNumber.Cmp(b.SerialNumber) == 0 {
		t.Error("newLeaf returned the same leaf twice")
	}
	if err := b.CheckSignatureFrom(c.inter.Cert); err != nil {
		t.Errorf("leaf not signed by the intermediate: %v", err)
	}
	if err := c.stdVerify(c.warm[:1]); err == nil {
		t.Error("crypto/x509 verified a leaf without its intermediate")
	}
}

// TestChainMaterial: the chain handshake rows' material is the chainPKI's
// fixed chain (one per root algorithm in the process), a standard server
// serves it, and clients of both columns (crypto/x509 with RootCAs, the
// trust store through oursClientHook) complete handshakes when they trust
// its root and fail when they trust the other chain's root only.
func TestChainMaterial(t *testing.T) {
	s := scenario{Transport: "tcp", TLS: "1.3", Key: "p256"}
	mats := map[string]material{}
	for _, alg := range chainRoots {
		c, err := chainPKIFor(alg)
		if err != nil {
			t.Fatal(err)
		}
		if c2, _ := chainPKIFor(alg); c2 != c {
			t.Errorf("%s: chainPKIFor made a second chain", alg)
		}
		m, err := (hsRow{s: s, side: "client", trust: true, chain: alg}).material(nil)
		if err != nil {
			t.Fatal(err)
		}
		cert, err := m.certificate()
		if err != nil {
			t.Fatal(err)
		}
		if len(cert.Certificate) != 2 || string(cert.Certificate[0]) != string(c.warm[0].Raw) || string(cert.Certificate[1]) != string(c.inter.Cert.Raw) {
			t.Errorf("%s: the served chain is not the fixed leaf and the P-384 intermediate", alg)
		}
		if root, err := m.rootCert(); err != nil || !root.Equal(c.root.Cert) {
			t.Errorf("%s: material root %v, %v", alg, root.Subject, err)
		}
		mats[alg] = m
	}
	for i, alg := range chainRoots {
		other := mats[chainRoots[1-i]]
		cert, _ := mats[alg].certificate()
		tl := &tally{}
		srv, err := startServer(s, serverTLSConfig(s, cert, tl, 0), tl)
		if err != nil {
			t.Fatal(err)
		}
		for j, trusted := range []material{mats[alg], other} {
			own := j == 0
			roots, _ := trusted.rootPool()
			root, _ := trusted.rootCert()
			wrap, _, err := oursClientHook(root)
			if err != nil {
				t.Fatal(err)
			}
			for v, w := range map[string]func(*tls.Config) *tls.Config{vStdlib: nil, vOurs: wrap} {
				pool, err := newClientPool(s, roots, 1, w)
				if err != nil {
					t.Fatal(err)
				}
				err = pool.prime(context.Background(), srv.addr)
				pool.close()
				if own != (err == nil) {
					t.Errorf("%s chain, %s client trusting its own root %v: handshake error %v", alg, v, own, err)
				}
			}
		}
		srv.close()
	}
}

func TestFmtRatioSmall(t *testing.T) {
	for _, c := range []struct {
		s    stat
		want string
	}{
		{stat{N: 3, Med: 0.0026, Min: 0.0025, Max: 0.0027}, "0.0026 [0.0025–0.0027]"},
		{stat{N: 3, Med: 0.28, Min: 0.27, Max: 0.29}, "0.28 [0.27–0.29]"},
	} {
		if got := fmtRatio(c.s); got != c.want {
			t.Errorf("fmtRatio(%+v) = %q, want %q", c.s, got, c.want)
		}
	}
}
