package point

import (
	"math/big"
	"testing"
)

// Tests of the in-place Jacobian formulas of verification (jacobian.go,
// kernels_*.go) against math/big, on the edge points of ptEdgePoints, the
// point at infinity and random points, each in several representations.

// ptCheckInPlace checks Double, AddMixedVartime and AddCachedVartime on q
// and s (either may be nil, the point at infinity; s must not be nil for the
// mixed addition, an Affine never being infinity).
func ptCheckInPlace(t *testing.T, q, s *ptRef, lambdas []*big.Int) {
	t.Helper()
	for i, l1 := range lambdas {
		l2 := lambdas[(i+1)%len(lambdas)]
		jq, js := ptJac(q, l1), ptJac(s, l2)

		d := jq
		d.Double()
		if got, want := ptJacRef(t, &d), ptRefAdd(q, q); !ptEq(got, want) {
			t.Fatalf("Double(%v) = %v, want %v (λ %#x)", q, got, want, l1)
		}
		g := jq
		double(&g)
		if g != d {
			t.Fatalf("Double and double differ on %v (λ %#x)", q, l1)
		}

		for _, neg := range []bool{false, true} {
			addend := s
			if neg {
				addend = ptRefNeg(s)
			}
			want := ptRefAdd(q, addend)
			var c Cached
			c.Set(&js)
			js0 := js
			r := jq
			r.AddCachedVartime(&c, neg)
			if got := ptJacRef(t, &r); !ptEq(got, want) {
				t.Fatalf("AddCachedVartime(%v, %v, neg %v) = %v, want %v (λ %#x, %#x)", q, s, neg, got, want, l1, l2)
			}
			if c.Jacobian != js0 {
				t.Fatal("AddCachedVartime modified its addend")
			}
			if s == nil {
				continue
			}
			a := ptAffine(s)
			a0 := a
			r = jq
			r.AddMixedVartime(&a, neg)
			if got := ptJacRef(t, &r); !ptEq(got, want) {
				t.Fatalf("AddMixedVartime(%v, %v, neg %v) = %v, want %v (λ %#x)", q, s, neg, got, want, l1)
			}
			m := jq
			addMixed(&m, &a, neg)
			if m != r || a != a0 {
				t.Fatalf("AddMixedVartime and addMixed differ on %v ± %v (or modified a)", q, s)
			}
		}
	}
}

// ptCheckCoZ checks DoubleCoZ on q and then AddCoZ on the pair it returns.
func ptCheckCoZ(t *testing.T, q *ptRef, lambdas []*big.Int) {
	t.Helper()
	for _, l := range lambdas {
		p := ptJac(q, l)
		p0 := p
		var two, p1 Jacobian
		DoubleCoZ(&two, &p1, &p)
		if p != p0 {
			t.Fatal("DoubleCoZ modified its input")
		}
		if two.Z != p1.Z {
			t.Fatalf("DoubleCoZ(%v): Z differ", q)
		}
		if got, want := ptJacRef(t, &two), ptRefAdd(q, q); !ptEq(got, want) {
			t.Fatalf("DoubleCoZ(%v) two = %v, want %v (λ %#x)", q, got, want, l)
		}
		if got := ptJacRef(t, &p1); !ptEq(got, q) {
			t.Fatalf("DoubleCoZ(%v) p1 = %v (λ %#x)", q, got, l)
		}
		// two may alias p.
		a := p
		var b Jacobian
		DoubleCoZ(&a, &b, &a)
		if a != two || b != p1 {
			t.Fatalf("DoubleCoZ with two = p differs for %v", q)
		}
		// p1 may alias p.
		a = p
		DoubleCoZ(&b, &a, &a)
		if b != two || a != p1 {
			t.Fatalf("DoubleCoZ with p1 = p differs for %v", q)
		}
		// 3q = q + 2q, and 2q rescaled to the sum's Z.
		AddCoZ(&p1, &two)
		if p1.Z != two.Z {
			t.Fatalf("AddCoZ(%v, 2·%v): Z differ", q, q)
		}
		q2 := ptRefAdd(q, q)
		if got, want := ptJacRef(t, &p1), ptRefAdd(q, q2); !ptEq(got, want) {
			t.Fatalf("AddCoZ(%v, 2·%v) = %v, want %v", q, q, got, want)
		}
		if got := ptJacRef(t, &two); !ptEq(got, q2) {
			t.Fatalf("AddCoZ(%v, 2·%v) left 2·q as %v", q, q, got)
		}
	}
}

func TestJacobianInPlaceSpecialCases(t *testing.T) {
	r := ptRand(t)
	pts := append(ptEdgePoints(), ptRandPoint(t, r), ptRandPoint(t, r))
	lambdas := ptLambdas(r)
	ptCheckInPlace(t, nil, nil, lambdas) // O + O
	for _, q := range pts {
		ptCheckInPlace(t, q, q, lambdas)              // P ± P
		ptCheckInPlace(t, q, ptRefNeg(q), lambdas)    // P ∓ P
		ptCheckInPlace(t, q, nil, lambdas)            // P + O
		ptCheckInPlace(t, nil, q, lambdas)            // O ± P
		ptCheckInPlace(t, q, ptRefAdd(q, q), lambdas) // P ± 2P
		ptCheckCoZ(t, q, lambdas)
	}
	for _, q := range pts {
		for _, s := range pts {
			ptCheckInPlace(t, q, s, lambdas[3:4])
		}
	}
}

func TestJacobianInPlaceRandom(t *testing.T) {
	r := ptRand(t)
	n := 100
	if testing.Short() {
		n = 25
	}
	for i := 0; i < n; i++ {
		q, s := ptRandPoint(t, r), ptRandPoint(t, r)
		lambdas := []*big.Int{big.NewInt(1), ptRandLambda(r)}
		ptCheckInPlace(t, q, s, lambdas)
		ptCheckCoZ(t, q, lambdas)
	}
}

// TestBuildRuns checks every entry of BuildRuns's tables with math/big, for
// shapes on the stack and on the heap, and that a wrong size panics.
func TestBuildRuns(t *testing.T) {
	r := ptRand(t)
	for _, c := range []struct {
		w            uint
		runs, runLen int
	}{{3, 1, 1}, {4, 3, 5}, {5, 16, 17}, {7, 5, 52}} {
		q := ptRandPoint(t, r)
		qa := ptAffine(q)
		per := 1 << (c.w - 2)
		out := make([]Affine, c.runs*per)
		BuildRuns(out, &qa, c.w, c.runs, c.runLen)
		for j := 0; j < c.runs; j++ {
			base := ptRefMul(new(big.Int).Lsh(big.NewInt(1), uint(c.runLen*j)), q)
			for i := 0; i < per; i++ {
				want := ptRefMul(big.NewInt(int64(2*i+1)), base)
				if got := ptAffineRef(&out[j*per+i]); !ptEq(got, want) {
					t.Fatalf("w %d, %d runs of %d: entry %d of run %d = %v, want %v", c.w, c.runs, c.runLen, i, j, got, want)
				}
			}
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("BuildRuns with a wrong table size did not panic")
		}
	}()
	g := Generator()
	BuildRuns(make([]Affine, 7), &g, 4, 2, 3)
}
