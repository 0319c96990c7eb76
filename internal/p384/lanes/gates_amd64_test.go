//go:build amd64 && !purego

package lanes

import (
	"testing"

	"github.com/p256tls/p256tls/internal/cpufeat"
	"github.com/p256tls/p256tls/internal/testsupport/asmext"
)

// TestGates checks that the kernel's gate names exactly the extensions its
// generated code uses; the field kernels the tests call run under it.
func TestGates(t *testing.T) {
	asmext.CheckFile(t, "lanes_amd64.s", map[string]cpufeat.Set{"chain8AVX512": gate},
		map[string]cpufeat.Set{
			"vecMulAVX512": gate, "vecSqrAVX512": gate, "vecAddAVX512": gate,
			"vecSubAVX512": gate, "vecFoldAVX512": gate, "vecCanonAVX512": gate,
		})
}
