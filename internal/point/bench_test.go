package point

// Latency benchmarks: each iteration consumes the previous result.

import "testing"

var (
	ptBenchJ Jacobian
	ptBenchP Projective
)

func BenchmarkPointDouble(b *testing.B) {
	g := Generator()
	var p Jacobian
	p.SetAffine(&g)
	for b.Loop() {
		p.Double()
	}
	ptBenchJ = p
}

// BenchmarkPointDouble and BenchmarkPointAddMixed are the in-place
// Jacobian formulas of verification (through the fused kernels where the
// CPU has them).
func BenchmarkPointAddMixed(b *testing.B) {
	g := Generator()
	var p Jacobian
	p.SetAffine(&g).Double()
	for b.Loop() {
		p.AddMixedVartime(&g, false)
	}
	ptBenchJ = p
}

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
