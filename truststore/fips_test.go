package truststore

import (
	"crypto/fips140"
	"crypto/x509"
	"os"
	"os/exec"
	"testing"
)

// TestFIPS re-runs itself with GODEBUG=fips140=on: chains with a key
// crypto/tls refuses in FIPS 140-3 mode must fail, on the fast path and on
// the slow one, although crypto/x509 accepts them.
func TestFIPS(t *testing.T) {
	if puregoBuild {
		t.Skip("FIPS 140-3 mode cannot start with the purego build tag; the default build runs this test")
	}
	if os.Getenv("TRUSTSTORE_FIPS_CHILD") != "1" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestFIPS$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), "TRUSTSTORE_FIPS_CHILD=1", "GODEBUG=fips140=on")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("FIPS child: %v\n%s", err, out)
		}
		t.Logf("%s", out)
		return
	}
	if !fips140.Enabled() {
		t.Fatal("fips140 not enabled in the child")
	}
	f := newFixture(t)
	// A P-224 leaf key under a P-256 chain: the fast path would accept.
	inter := issue(t, caTemplate("FIPS intermediate"), poolKey(kP256, 20), f.good)
	leaf := issue(t, leafTemplate("fips leaf", "www.example.com"), poolKey(kP224, 1), inter)
	chain := []*x509.Certificate{leaf.Cert, inter.Cert}
	opts := VerifyOptions{DNSName: "www.example.com", CurrentTime: t0}
	if _, r := f.store.fastPath(chain, &opts, t0); r != reasonFIPS {
		t.Errorf("fast path: %v, want %v", r, reasonFIPS)
	}
	if _, err := f.store.Verify(chain, opts); err == nil {
		t.Error("a P-224 leaf passed in FIPS mode")
	}
	// A P-224 anchor: the slow path's answer is filtered too.
	inter2 := issue(t, caTemplate("FIPS intermediate 2"), poolKey(kP256, 20), f.p224)
	leaf2 := issue(t, leafTemplate("fips leaf 2", "www.example.com"), poolKey(kP256, 21), inter2)
	chain2 := []*x509.Certificate{leaf2.Cert, inter2.Cert}
	pool := x509.NewCertPool()
	pool.AddCert(inter2.Cert)
	if _, err := leaf2.Cert.Verify(x509.VerifyOptions{Roots: f.store.pool, Intermediates: pool, DNSName: "www.example.com", CurrentTime: t0}); err != nil {
		t.Fatalf("crypto/x509 refuses the P-224 chain: %v", err)
	}
	if _, err := f.store.Verify(chain2, opts); err == nil {
		t.Error("a P-224 anchor passed in FIPS mode")
	}
	// An allowed chain still passes on the fast path.
	leaf3 := issue(t, leafTemplate("fips leaf 3", "www.example.com"), poolKey(kP256, 22), inter)
	if _, r := f.store.fastPath([]*x509.Certificate{leaf3.Cert, inter.Cert}, &opts, t0); r != accepted {
		t.Errorf("allowed chain: %v", r)
	}
}
