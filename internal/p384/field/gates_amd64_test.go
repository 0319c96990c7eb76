//go:build amd64 && !purego

package field

import (
	"testing"

	"github.com/p256tls/p256tls/internal/cpufeat"
	"github.com/p256tls/p256tls/internal/testsupport/asmext"
)

// TestGates checks that each kernel's gate names exactly the extensions
// its generated code uses; the comparison kernels of the tests run under
// the same gate as the ADX pair.
func TestGates(t *testing.T) {
	asmext.CheckFile(t, "field_amd64.s", map[string]cpufeat.Set{
		"mulADX": gateADX, "squareADX": gateADX, "mulMULQ": 0, "squareMULQ": 0,
	}, map[string]cpufeat.Set{
		"mulADXMont": gateADX, "mulADXMulxRedc": gateADX, "squareADXMulxRedc": gateADX, "mulMULQMont": 0,
	})
}
