package field

// Latency benchmarks: every iteration consumes the previous result, so the
// numbers are the cost of one operation in a dependency chain, as in the
// point formulas and inversion chains, not its throughput.

import "testing"

var ftBenchSink Element

// benchKernels lists comparison kernels for BenchmarkMul and BenchmarkSquare
// (kernels_test.go) beside the production ones; P-256 has none.
var benchKernels []kernel

func ftBenchPair() (Element, Element) {
	return Element{0x79e730d418a9143c, 0x75ba95fc5fedb601, 0x79fb732b77622510, 0x18905f76a53755c6},
		Element{0xddf25357ce95560a, 0x8b4ab8e4ba19e45c, 0xd2e88688dd21f325, 0x8571ff1825885d85}
}

func BenchmarkFieldMul(b *testing.B) {
	x, y := ftBenchPair()
	for b.Loop() {
		x.Mul(&x, &y)
	}
	ftBenchSink = x
}

func BenchmarkFieldSquare(b *testing.B) {
	x, _ := ftBenchPair()
	for b.Loop() {
		x.Square(&x)
	}
	ftBenchSink = x
}

func BenchmarkFieldAdd(b *testing.B) {
	x, y := ftBenchPair()
	for b.Loop() {
		x.Add(&x, &y)
	}
	ftBenchSink = x
}

func BenchmarkFieldInvert(b *testing.B) {
	x, _ := ftBenchPair()
	for b.Loop() {
		x.Invert(&x)
	}
	ftBenchSink = x
}

func BenchmarkFieldSqrt(b *testing.B) {
	x, _ := ftBenchPair()
	for b.Loop() {
		// Squares and non-squares cost the same; the result depends on x
		// either way.
		x.Sqrt(&x)
	}
	ftBenchSink = x
}
