//go:build amd64 && !purego

package lanes

import "testing"

func BenchmarkVecMul(b *testing.B) {
	if !Available {
		b.Skip("no AVX-512 IFMA")
	}
	var s vecSlots
	for i := range s {
		s[i] = uint64(i) * 0x9e3779b97f4a7c15 >> 13
	}
	for b.Loop() {
		vecMulAVX512((*[256]uint64)(&s))
	}
}

func BenchmarkVecSqr(b *testing.B) {
	if !Available {
		b.Skip("no AVX-512 IFMA")
	}
	var s vecSlots
	for i := range s {
		s[i] = uint64(i) * 0x9e3779b97f4a7c15 >> 13
	}
	for b.Loop() {
		vecSqrAVX512((*[256]uint64)(&s))
	}
}

func BenchmarkVecAdd(b *testing.B) {
	if !Available {
		b.Skip("no AVX-512 IFMA")
	}
	var s vecSlots
	for b.Loop() {
		vecAddAVX512((*[256]uint64)(&s))
	}
}
