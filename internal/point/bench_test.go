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
		p.Double(&p)
	}
	ptBenchJ = p
}

// BenchmarkPointAddMixed is the Jacobian variable-time mixed addition of
// verification.
func BenchmarkPointAddMixed(b *testing.B) {
	g := Generator()
	var p Jacobian
	p.SetAffine(&g).Double(&p)
	for b.Loop() {
		p.AddMixedVartime(&p, &g)
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
