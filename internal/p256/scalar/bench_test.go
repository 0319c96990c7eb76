package scalar

// Latency benchmarks: each iteration consumes the previous result.

import "testing"

var stBenchSink Scalar

func stBenchPair() (Scalar, Scalar) {
	return Scalar{0x79e730d418a9143c, 0x75ba95fc5fedb601, 0x79fb732b77622510, 0x18905f76a53755c6},
		Scalar{0xddf25357ce95560a, 0x8b4ab8e4ba19e45c, 0xd2e88688dd21f325, 0x8571ff1825885d85}
}

func BenchmarkScalarMul(b *testing.B) {
	x, y := stBenchPair()
	for b.Loop() {
		x.Mul(&x, &y)
	}
	stBenchSink = x
}

func BenchmarkScalarInvert(b *testing.B) {
	x, _ := stBenchPair()
	for b.Loop() {
		x.Invert(&x)
	}
	stBenchSink = x
}

func BenchmarkScalarInvertVartime(b *testing.B) {
	x, _ := stBenchPair()
	for b.Loop() {
		x.InvertVartime(&x)
	}
	stBenchSink = x
}
