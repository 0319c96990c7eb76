//go:build amd64 && !purego

package comb

import (
	"crypto/rand"
	"math/big"
	"testing"

	"github.com/p256tls/p256tls/internal/p256/point"
)

// Benchmarks of each amd64 kernel on its own, whichever ScalarBaseMult
// picks: the serial comb (combStepADX per position), the eight-lane comb
// (comb8AVX512 and its scalar tree), and their additions.

func benchScalar(b *testing.B) [4]uint64 {
	k, err := rand.Int(rand.Reader, bigN)
	if err != nil {
		b.Fatal(err)
	}
	return limbsOf(k)
}

func BenchmarkScalarBaseMultSerial(b *testing.B) {
	if !useStep {
		b.Skip("no AVX2 and ADX")
	}
	l := benchScalar(b)
	for b.Loop() {
		scalarBaseMultSerial(&sink, &l)
	}
}

func BenchmarkScalarBaseMultWide(b *testing.B) {
	if !useWide {
		b.Skip("no AVX-512 IFMA")
	}
	l := benchScalar(b)
	for b.Loop() {
		scalarBaseMultWide(&sink, &l)
	}
}

func BenchmarkStepKernel(b *testing.B) {
	if !useStep {
		b.Skip("no AVX2 and ADX")
	}
	var acc point.Projective
	acc.SetAffine(&table[0][0])
	for b.Loop() {
		combStepADX(projectiveWords(&acc), tableWords(&table[1]), 7, 1, 0)
	}
	sink = acc
}

func BenchmarkAddFullKernel(b *testing.B) {
	if !useADX {
		b.Skip("no ADX")
	}
	var p, q point.Projective
	p.SetAffine(&table[0][0])
	q.SetAffine(&table[1][3])
	for b.Loop() {
		addFull(&p, &p, &q)
	}
	sink = p
}

func BenchmarkVecAddFullKernel(b *testing.B) {
	if !useWide {
		b.Skip("no AVX-512 IFMA")
	}
	var sc [scratch8Words]uint64
	for s := 0; s < 6; s++ {
		for l := 0; l < 8; l++ {
			vecSet(&sc, s, l, big.NewInt(int64(1000*s+l+1)))
		}
	}
	for b.Loop() {
		vecAddFullAVX512(&sc)
	}
}
