//go:build arm64 && !purego

package scalar

import "testing"

// TestMontMulKernel compares the arm64 kernel with its portable twin bit
// for bit, on every pair of edge values (in Montgomery and in raw form)
// and on random pairs with carry-heavy limbs; TestScalarBinary* check the
// kernel, through Mul, against math/big and with aliased arguments.
func TestMontMulKernel(t *testing.T) {
	check := func(x, y Scalar) {
		t.Helper()
		var want Scalar
		montMulGeneric(&want, &x, &y)
		got := stSentinel
		montMulAsm((*[4]uint64)(&got), (*[4]uint64)(&x), (*[4]uint64)(&y))
		if got != want {
			t.Fatalf("montMulAsm(%#x, %#x) = %#x, want %#x", x, y, got, want)
		}
	}
	edges := stEdges()
	for _, x := range edges {
		for _, y := range edges {
			check(x, y)
		}
	}
	r := stRand(t)
	for i := 0; i < stCount(200000, 20000); i++ {
		check(stRandom(r), stRandom(r))
	}
}
