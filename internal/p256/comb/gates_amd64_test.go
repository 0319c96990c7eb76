//go:build amd64 && !purego

package comb

import (
	"testing"

	"github.com/p256tls/p256tls/internal/cpufeat"
	"github.com/p256tls/p256tls/internal/testsupport/asmext"
)

// TestGates checks that each kernel's gate names exactly the extensions
// its generated code uses; the vector kernels the tests call run under the
// wide path's gate.
func TestGates(t *testing.T) {
	asmext.CheckFile(t, "comb_amd64.s", map[string]cpufeat.Set{
		"lookupAVX2": gateLookup, "addMixedADX": gateAdd, "addFullADX": gateAdd,
		"combStepADX": gateStep, "comb8AVX512": gate8,
	}, map[string]cpufeat.Set{
		"vecAddFullAVX512": gateWide, "vecMulAVX512": gateWide, "vecAddAVX512": gateWide,
		"vecSubAVX512": gateWide, "vecFoldAVX512": gateWide, "vecCanonAVX512": gateWide,
	})
	// The wide path adds its four partial sums with addFullADX, from Go.
	if gateWide&gateAdd != gateAdd || gateWide&gate8 != gate8 {
		t.Errorf("gateWide = %v lacks the ADX additions' or the kernel's gate", gateWide)
	}
}
