package field

import (
	"math/rand/v2"
	"testing"
)

var benchSink Element

// The benchmarks chain each operation on its previous result, so they time
// the latency of one operation. The kernels of cmpKernels use the
// textbook reduction (quotient digit by a multiplication, q·p by six
// products) in place of P-384's multiplication-free round, kept to measure
// that choice: the portable twin's (redc_alt_test.go) and, on amd64, the
// ADX kernel's (mulADXMulxRedc).

// cmpKernels lists the comparison kernels.
var cmpKernels = []kernel{{"generic-mulq-redc", mulGenericMulQ, squareGenericMulQ}}

func benchKernels() []kernel { return append(kernels(), cmpKernels...) }

func BenchmarkMul(b *testing.B) {
	for _, k := range benchKernels() {
		b.Run(k.name, func(b *testing.B) {
			r := rand.New(rand.NewChaCha8([32]byte{'b'}))
			x, y := tRandom(r), tRandom(r)
			mulK := k.mul
			for b.Loop() {
				mulK(&x, &x, &y)
			}
			benchSink = x
		})
	}
}

func BenchmarkSquare(b *testing.B) {
	for _, k := range benchKernels() {
		b.Run(k.name, func(b *testing.B) {
			r := rand.New(rand.NewChaCha8([32]byte{'b'}))
			x := tRandom(r)
			squareK := k.square
			for b.Loop() {
				squareK(&x, &x)
			}
			benchSink = x
		})
	}
}

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
