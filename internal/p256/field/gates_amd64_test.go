//go:build amd64 && !purego

package field

import (
	"testing"

	"github.com/p256tls/p256tls/internal/cpufeat"
	"github.com/p256tls/p256tls/internal/testsupport/asmext"
)

// TestGates checks that each kernel's gate names exactly the extensions
// its generated code uses (mulAsm and squareAsm are the dispatch: they use
// none and jump to a kernel whose gate they check).
func TestGates(t *testing.T) {
	asmext.CheckFile(t, "field_amd64.s", map[string]cpufeat.Set{
		"mulADX": gateADX, "squareADX": gateADX, "mulMULQ": 0, "squareMULQ": 0, "mulAsm": 0, "squareAsm": 0,
	}, nil)
}
