//go:build amd64 && !purego

package field

import "github.com/p256tls/p256tls/internal/cpufeat"

// gateADX is what the ADX kernels' code uses (TestGates reads it off
// field_amd64.s); the MULQ kernels need nothing beyond the base set.
const gateADX = cpufeat.BMI2 | cpufeat.ADX

// hasADX reports whether the CPU has BMI2 and ADX, which the ADX kernels
// need; without them the MULQ kernels run.
var hasADX = gateADX.Available()

// useADX selects the ADX kernels; it is public (a CPU property), so mul and
// square branch on it. Where the CPU has BMI2 and ADX they are the faster
// pair: on the Intel Xeon VM of docs/arithmetic.md (Sapphire Rapids class)
// mulADX 26.4 ns against mulMULQ 27.7 ns and squareADX 23.4 ns (21.5 ns
// since its rows with the doubled operand) against squareMULQ 26.4 ns
// (chained operations, benchstat medians of 8 or more runs; see
// _asm/main.go).
var useADX = hasADX

func mul(z, x, y *Element) {
	if useADX {
		mulADX((*[6]uint64)(z), (*[6]uint64)(x), (*[6]uint64)(y))
	} else {
		mulMULQ((*[6]uint64)(z), (*[6]uint64)(x), (*[6]uint64)(y))
	}
}

func square(z, x *Element) {
	if useADX {
		squareADX((*[6]uint64)(z), (*[6]uint64)(x))
	} else {
		squareMULQ((*[6]uint64)(z), (*[6]uint64)(x))
	}
}
