package field

import (
	"math/rand/v2"
	"testing"
)

var benchSink Element

// The benchmarks chain each operation on its previous result, so they time
// the latency of one operation. BenchmarkMul and BenchmarkSquare (in the
// generated kernels_test.go) run every kernel, then those of benchKernels:
// these use the
// textbook reduction (quotient digit by a multiplication, q·p by six
// products) in place of P-384's multiplication-free round, kept to measure
// that choice: the portable twin's (redc_alt_test.go) and, on amd64, the
// ADX kernel's (mulADXMulxRedc).

// benchKernels lists the comparison kernels.
var benchKernels = []kernel{{"generic-mulq-redc", mulGenericMulQ, squareGenericMulQ}}

func BenchmarkAdd(b *testing.B) {
	r := rand.New(rand.NewChaCha8([32]byte{'b'}))
	x, y := tRandom(r), tRandom(r)
	for b.Loop() {
		x.Add(&x, &y)
	}
	benchSink = x
}

func BenchmarkInvert(b *testing.B) {
	r := rand.New(rand.NewChaCha8([32]byte{'b'}))
	x := tRandom(r)
	for b.Loop() {
		x.Invert(&x)
	}
	benchSink = x
}

func BenchmarkInvertVartime(b *testing.B) {
	r := rand.New(rand.NewChaCha8([32]byte{'b'}))
	x := tRandom(r)
	for b.Loop() {
		x.InvertVartime(&x)
	}
	benchSink = x
}
