//go:build amd64 && !purego

package lanes

import "testing"

func BenchmarkVecMul(b *testing.B) { benchVec(b, vecMulAVX512, true) }
func BenchmarkVecSqr(b *testing.B) { benchVec(b, vecSqrAVX512, true) }
func BenchmarkVecAdd(b *testing.B) { benchVec(b, vecAddAVX512, false) }

// benchVec runs the test kernel on slots of fixed 51-bit limbs (filled) or
// of zeros.
func benchVec(b *testing.B, kernel func(*[256]uint64), filled bool) {
	needIFMA(b)
	var s vecSlots
	if filled {
		for i := range s {
			s[i] = uint64(i) * 0x9e3779b97f4a7c15 >> 13
		}
	}
	for b.Loop() {
		kernel((*[256]uint64)(&s))
	}
}
