package point

// Latency benchmarks: each iteration consumes the previous result.

import "testing"

// BenchmarkPointDouble and BenchmarkPointAddMixed (the in-place Jacobian
// formulas) are in the generated grouplaw_test.go.

var ptBenchP Projective

func BenchmarkPointAddComplete(b *testing.B) {
	g := Generator()
	var p, q Projective
	q.SetAffine(&g)
	p.Double(&q)
	for b.Loop() {
		p.Add(&p, &q)
	}
	ptBenchP = p
}

func BenchmarkPointAddMixedComplete(b *testing.B) {
	g := Generator()
	var p Projective
	p.SetAffine(&g).Double(&p)
	for b.Loop() {
		p.AddMixed(&p, &g)
	}
	ptBenchP = p
}

func BenchmarkPointDoubleComplete(b *testing.B) {
	g := Generator()
	var p Projective
	p.SetAffine(&g)
	for b.Loop() {
		p.Double(&p)
	}
	ptBenchP = p
}

// BenchmarkPointAffine is the constant-time conversion of a projective
// point to affine (one division, two multiplications).
func BenchmarkPointAffine(b *testing.B) {
	g := Generator()
	var p Projective
	p.SetAffine(&g).Double(&p)
	for b.Loop() {
		a, _ := p.Affine()
		p.X = a.X
	}
	ptBenchP = p
}
