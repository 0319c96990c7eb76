//go:build amd64 && !purego

package ecdsaverify

import (
	"unsafe"

	"github.com/p256tls/p256tls/internal/point"
)

// addMixedFast sets p = p ± a with the same result as addMixed: the general
// case through the fused kernel addMixedADX where the CPU has BMI2 and ADX
// (useDoubleADX), the special cases (p at infinity, H = 0) through addMixed.
// addMixedADX leaves p untouched when H = 0, so addMixed can redo the case.
func addMixedFast(p *point.Jacobian, a *point.Affine, neg bool) {
	if useDoubleADX && p.Z.IsZero() == 0 {
		var n uint64
		if neg {
			n = 1
		}
		if addMixedADX((*[12]uint64)(unsafe.Pointer(p)), (*[8]uint64)(unsafe.Pointer(a)), n) == 0 {
			return
		}
	}
	addMixed(p, a, neg)
}
