package provider

import (
	"bytes"
	"context"
	"crypto/fips140"
	"errors"
	"os"
	"os/exec"
	"testing"

	"github.com/p256tls/p256tls/internal/testsupport/selfexec"
)

// fipsChild reports whether this process is the child that runs t with
// GODEBUG=fips140=mode. In the parent it re-runs the test binary for t
// alone in that mode, fails t if the child fails or did not run it, logs
// the child's output and returns false (the caller returns). It skips t
// under the purego tag, where FIPS 140-3 mode cannot start, and when the
// test binary cannot be started again. The child starts through
// internal/testsupport/selfexec, so under QEMU (scripts/qemu-exec) it runs
// under the same emulator.
func fipsChild(t *testing.T, mode string) bool {
	t.Helper()
	if puregoBuild {
		t.Skip("FIPS 140-3 mode cannot start with the purego build tag; the default build runs this test")
	}
	const env = "P256TLS_PROVIDER_FIPS_CHILD"
	if os.Getenv(env) == mode {
		return true
	}
	cmd := selfexec.Command("-test.run=^"+t.Name()+"$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), env+"="+mode, "GODEBUG=fips140="+mode)
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	switch {
	case err != nil && !errors.As(err, &exit):
		t.Skipf("cannot re-run the test binary for GODEBUG=fips140=%s: %v", mode, err)
	case err != nil:
		t.Fatalf("child with GODEBUG=fips140=%s: %v\n%s", mode, err, out)
	case !bytes.Contains(out, []byte("--- PASS: "+t.Name())):
		t.Fatalf("the child with GODEBUG=fips140=%s did not run %s:\n%s", mode, t.Name(), out)
	}
	t.Logf("%s", out)
	return false
}

// fipsSigning runs a P-256 identity and the cache in the child's mode:
// comb signs whether the comb is expected to sign (fips140=on) or the
// standard signer must (fips140=only), each signature counted as such.
func fipsSigning(t *testing.T, comb bool) {
	t.Helper()
	cert := ca(t).issue(t, newKey(t, "P-256"), "fips.test")
	id, err := NewIdentity(cert)
	if err != nil {
		t.Fatal(err)
	}
	if id.Checked() != comb || id.Algorithm() != "P-256" {
		t.Fatalf("identity: Checked() = %v, Algorithm() = %q; want %v, P-256", id.Checked(), id.Algorithm(), comb)
	}
	srv := startServer(t, ServerConfig(NewIdentities(id)))
	if _, err := handshake(srv.addr(), clientConfig("fips.test")); err != nil {
		t.Fatalf("handshake: %v", err)
	}
	want := Stats{Fallbacks: 1}
	if comb {
		want = Stats{Signatures: 1, Checks: 1}
	}
	if got := id.Stats(); got != want {
		t.Fatalf("identity stats %+v, want %+v", got, want)
	}

	c := NewCache(4)
	out := c.Certificate(context.Background(), &cert)
	if (out != &cert) == !comb {
		t.Fatalf("cache: certificate converted = %v, want %v", out != &cert, comb)
	}
	st := c.Stats()
	if comb && (st.Builds != 1 || st.Fallbacks != 0) || !comb && (st.Builds != 0 || st.Fallbacks != 1) {
		t.Fatalf("cache stats %+v", st)
	}
}

// TestFIPSOnly: under GODEBUG=fips140=only every signature must come from
// the Go Cryptographic Module, so P-256 identities and the cache sign with
// the standard signer (fallbacks), not with the comb. Inside
// fips140.WithoutEnforcement the comb signs again.
func TestFIPSOnly(t *testing.T) {
	if !fipsChild(t, "only") {
		return
	}
	if !fips140.Enforced() {
		t.Fatal("fips140=only not in force in the child")
	}
	fipsSigning(t, false)
	fips140.WithoutEnforcement(func() { fipsSigning(t, true) })
}

// TestFIPSOn: GODEBUG=fips140=on puts the Go Cryptographic Module in FIPS
// mode without forbidding other implementations; the comb keeps signing
// (docs/provider.md, "FIPS 140-3").
func TestFIPSOn(t *testing.T) {
	if !fipsChild(t, "on") {
		return
	}
	if !fips140.Enabled() || fips140.Enforced() {
		t.Fatal("fips140=on not in force in the child")
	}
	fipsSigning(t, true)
}
