//go:build boringcrypto

package truststore

import (
	"crypto/boring"
	_ "crypto/tls/fipsonly" // crypto/tls filters chains by BoringCrypto's rule
	"testing"
)

// TestBoringFIPSOnly runs in a Go+BoringCrypto build, with
// crypto/tls/fipsonly imported into the test binary: crypto/tls then
// filters chains by BoringCrypto's rule (RSA of 2048, 3072 or 4096 bits,
// ECDSA on P-256, P-384 or P-521, no Ed25519), and Verify must give its
// answer, on the fast path and on the slow one, for every chain of
// newFIPSMatrix: a P-224 intermediate, RSA-1024, RSA-2056 and RSA-8192
// keys, Ed25519 anchors, intermediates and leaf keys refused; P-256, P-384,
// P-521 and RSA-2048/3072/4096 chains allowed. Malformed leaf key structs
// are refused without a panic.
func TestBoringFIPSOnly(t *testing.T) {
	t.Logf("crypto/boring.Enabled() = %v (the filter applies either way)", boring.Enabled())
	if !fipsRequired() {
		t.Fatal("the FIPS filter is off in a Go+BoringCrypto build")
	}
	newFIPSMatrix(t).run(t, "boringcrypto fipsonly", func(c fipsCase) bool { return c.boring })
	checkMalformedLeafKeys(t)
}
