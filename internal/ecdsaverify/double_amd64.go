//go:build amd64 && !purego

package ecdsaverify

import (
	"unsafe"

	"golang.org/x/sys/cpu"

	"github.com/p256tls/p256tls/internal/point"
)

// useDoubleADX selects the fused doubling kernel, which needs BMI2 and ADX.
var useDoubleADX = cpu.X86.HasBMI2 && cpu.X86.HasADX

// doubleFast sets p = 2p in place, with the same result as double: through
// doubleADX where the CPU has BMI2 and ADX, else through double.
func doubleFast(p *point.Jacobian) {
	if useDoubleADX {
		doubleADX((*[12]uint64)(unsafe.Pointer(p)))
		return
	}
	double(p)
}
