package ecdsatest

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// recorder is a testing.TB that records how a helper ended the test.
type recorder struct {
	testing.TB
	fatal, skip string
}

func (r *recorder) Helper()                           {}
func (r *recorder) Fatalf(format string, args ...any) { r.fatal = fmt.Sprintf(format, args...) }
func (r *recorder) Skipf(format string, args ...any)  { r.skip = fmt.Sprintf(format, args...) }

// TestUnavailable checks the rule for missing vectors: a failure under
// CI=true, never a silent pass; elsewhere a skip that says how to get them.
func TestUnavailable(t *testing.T) {
	cause := errors.New("proxy unreachable")

	ci := &recorder{TB: t}
	unavailable(ci, true, cause)
	if ci.fatal == "" || ci.skip != "" {
		t.Errorf("with CI=true: fatal %q, skip %q; want a failure", ci.fatal, ci.skip)
	}
	if !strings.Contains(ci.fatal, "proxy unreachable") {
		t.Errorf("the failure does not give the cause: %q", ci.fatal)
	}

	local := &recorder{TB: t}
	unavailable(local, false, cause)
	if local.skip == "" || local.fatal != "" {
		t.Errorf("without CI: fatal %q, skip %q; want a skip", local.fatal, local.skip)
	}
	for _, want := range []string{"go mod download " + WycheproofModule, "proxy unreachable"} {
		if !strings.Contains(local.skip, want) {
			t.Errorf("the skip message %q does not contain %q", local.skip, want)
		}
	}
}

// TestVectorsPresentInCI makes a CI run fail outright when the vectors
// cannot be had, even if no other test asked for them yet.
func TestVectorsPresentInCI(t *testing.T) {
	dir := Dir(t)
	groups := Load(t, "ecdsa_secp256r1_sha256_test.json")
	if len(groups) == 0 {
		t.Fatalf("no test groups in %s", dir)
	}
}
