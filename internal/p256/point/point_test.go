package point

// Tests of P-256's own pieces: the complete projective formulas, Affine and
// AffineX, CondNeg and Projective.Select, against math/big (the helpers of
// the generated grouplaw_test.go) and crypto/ecdh.

import (
	"bytes"
	"crypto/ecdh"
	"math/big"
	"testing"

	"github.com/p256tls/p256tls/internal/p256/field"
)

// ptProj returns r as (x·λ : y·λ : λ); infinity as (0 : λ : 0).
func ptProj(r *ptRef, l *big.Int) Projective {
	if r == nil {
		return Projective{field.Element{}, ptFE(l), field.Element{}}
	}
	return Projective{ptFE(new(big.Int).Mul(r.x, l)), ptFE(new(big.Int).Mul(r.y, l)), ptFE(l)}
}

func ptProjRef(t testing.TB, p *Projective) *ptRef {
	t.Helper()
	z := ptInt(&p.Z)
	if z.Sign() == 0 {
		if p.X.IsZero() != 1 || p.Y.IsZero() == 1 {
			t.Fatalf("projective infinity is not (0 : Y : 0) with Y ≠ 0: %#x", *p)
		}
		return nil
	}
	zi := ptInv(z)
	r := &ptRef{ptMod(new(big.Int).Mul(ptInt(&p.X), zi)), ptMod(new(big.Int).Mul(ptInt(&p.Y), zi))}
	if !ptRefOnCurve(r) {
		t.Fatalf("projective result %v is not on the curve", r)
	}
	return r
}

// ptCheckProjectiveAdd checks Add and AddMixed on q + s (grouplaw_test.go's
// harness: several representations, aliasing).
func ptCheckProjectiveAdd(t *testing.T, q, s *ptRef, lambdas []*big.Int) {
	t.Helper()
	ptCheckAddOp(t, "Projective.Add", q, s, lambdas, ptProj, ptProjRef, (*Projective).Add, (*Projective).AddMixed)
}

// ptCheckProjectiveDouble checks Double on q.
func ptCheckProjectiveDouble(t *testing.T, q *ptRef, lambdas []*big.Int) {
	t.Helper()
	ptCheckDoubleOp(t, "Projective.Double", q, lambdas, ptProj, ptProjRef, (*Projective).Double)
}

func TestProjectiveSpecialCases(t *testing.T) {
	r := ptRand(t)
	pts := append(ptEdgePoints(), ptRandPoint(t, r), ptRandPoint(t, r))
	lambdas := ptLambdas(r)
	ptCheckProjectiveAdd(t, nil, nil, lambdas) // O + O
	ptCheckProjectiveDouble(t, nil, lambdas)   // 2·O
	for _, q := range pts {
		for _, s := range []*ptRef{q, ptRefNeg(q), nil, ptRefAdd(q, q)} {
			ptCheckProjectiveAdd(t, q, s, lambdas)
		}
		ptCheckProjectiveAdd(t, nil, q, lambdas) // O + P
		ptCheckProjectiveDouble(t, q, lambdas)
	}
	for _, q := range pts {
		for _, s := range pts {
			ptCheckProjectiveAdd(t, q, s, lambdas[3:4])
		}
	}
}

func TestProjectiveRandom(t *testing.T) {
	r := ptRand(t)
	n := 100
	if testing.Short() {
		n = 25
	}
	for i := 0; i < n; i++ {
		q, s := ptRandPoint(t, r), ptRandPoint(t, r)
		lambdas := []*big.Int{big.NewInt(1), ptRandLambda(r)}
		ptCheckProjectiveAdd(t, q, s, lambdas)
		ptCheckProjectiveDouble(t, q, lambdas)
	}
}

// TestProjectiveSmallMultiples builds k·G for k = 1..32 by repeated
// addition and 2^j·G by repeated doubling, and compares them with
// crypto/ecdh.
func TestProjectiveSmallMultiples(t *testing.T) {
	g := Generator()
	var pg, pAcc, pMixed Projective
	pg.SetAffine(&g)
	pAcc.SetInfinity()
	pMixed.SetInfinity()
	for k := int64(1); k <= 32; k++ {
		want := ptECDH(t, big.NewInt(k))
		pAcc.Add(&pAcc, &pg)
		pMixed.AddMixed(&pMixed, &g)
		if got := ptProjRef(t, &pAcc); !ptEq(got, want) {
			t.Fatalf("%d·G by Add = %v, want %v", k, got, want)
		}
		if got := ptProjRef(t, &pMixed); !ptEq(got, want) {
			t.Fatalf("%d·G by AddMixed = %v, want %v", k, got, want)
		}
		if k%2 == 0 {
			var pd Projective
			half := ptAffine(ptECDH(t, big.NewInt(k/2)))
			pd.SetAffine(&half).Double(&pd)
			if got := ptProjRef(t, &pd); !ptEq(got, want) {
				t.Fatalf("2·(%d·G) by Double = %v, want %v", k/2, got, want)
			}
		}
	}
	var pd Projective
	pd.SetAffine(&g)
	for j := uint(1); j <= 40; j++ {
		pd.Double(&pd)
		if want := ptECDH(t, new(big.Int).Lsh(big.NewInt(1), j)); !ptEq(ptProjRef(t, &pd), want) {
			t.Fatalf("2^%d·G differs from crypto/ecdh", j)
		}
	}
}

// ptMulProjective computes k·a by left-to-right double-and-add with the
// complete formulas.
func ptMulProjective(k *big.Int, a *Affine) Projective {
	var acc, pa Projective
	acc.SetInfinity()
	pa.SetAffine(a)
	for i := k.BitLen() - 1; i >= 0; i-- {
		acc.Double(&acc)
		if k.Bit(i) == 1 {
			acc.Add(&acc, &pa)
		}
	}
	return acc
}

func TestProjectiveRandomMultiples(t *testing.T) {
	r := ptRand(t)
	g := Generator()
	ks := []*big.Int{new(big.Int).Sub(ptN, big.NewInt(1)), new(big.Int).Rsh(ptN, 1)}
	n := 12
	if testing.Short() {
		n = 4
	}
	for i := 0; i < n; i++ {
		ks = append(ks, ptRandScalar(r))
	}
	for _, k := range ks {
		want := ptECDH(t, k)
		pr := ptMulProjective(k, &g)
		a, ok := pr.Affine()
		if ok != 1 || !ptEq(ptAffineRef(&a), want) {
			t.Fatalf("%#x·G by Projective = %v, want %v", k, ptAffineRef(&a), want)
		}
		enc := a.BytesUncompressed()
		var b [32]byte
		priv, _ := ecdh.P256().NewPrivateKey(k.FillBytes(b[:]))
		if !bytes.Equal(enc[:], priv.PublicKey().Bytes()) {
			t.Fatalf("%#x·G encodes as %x, crypto/ecdh %x", k, enc, priv.PublicKey().Bytes())
		}
	}
	// n·G is the point at infinity.
	pr := ptMulProjective(ptN, &g)
	if _, ok := pr.Affine(); ok != 0 || ptProjRef(t, &pr) != nil {
		t.Fatal("n·G is not the point at infinity (Projective)")
	}
}

func TestProjectiveToAffine(t *testing.T) {
	r := ptRand(t)
	for i := 0; i < 20; i++ {
		q := ptRandPoint(t, r)
		p := ptProj(q, ptRandLambda(r))
		a, ok := p.Affine()
		if ok != 1 || !ptEq(ptAffineRef(&a), q) {
			t.Fatalf("Projective.Affine = %v, %d; want %v", ptAffineRef(&a), ok, q)
		}
	}
	p := ptProj(nil, big.NewInt(5))
	if _, ok := p.Affine(); ok != 0 {
		t.Fatal("Projective.Affine(infinity) reports 1")
	}
	x := [4]uint64{1, 2, 3, 4}
	if p.AffineX(&x); x != ([4]uint64{}) {
		t.Fatalf("Projective.AffineX(infinity) = %x, want 0", x)
	}
}

// TestPointAffineX checks AffineX against math/big on edge and random
// points in several representations.
func TestPointAffineX(t *testing.T) {
	r := ptRand(t)
	pts := append(ptEdgePoints(), ptRandPoint(t, r), ptRandPoint(t, r))
	for _, q := range pts {
		for _, l := range ptLambdas(r) {
			p := ptProj(q, l)
			p0 := p
			var x [4]uint64
			p.AffineX(&x)
			if ptBigLimbs(x) != q.x.String() || p != p0 {
				t.Fatalf("AffineX(%v, λ %#x) = %x", q, l, x)
			}
		}
	}
}

// ptBigLimbs returns the decimal value of little-endian limbs.
func ptBigLimbs(l [4]uint64) string {
	v := new(big.Int)
	for i := 3; i >= 0; i-- {
		v.Lsh(v, 64).Or(v, new(big.Int).SetUint64(l[i]))
	}
	return v.String()
}

func TestProjectiveHelpers(t *testing.T) {
	r := ptRand(t)
	q, s := ptRandPoint(t, r), ptRandPoint(t, r)
	a, b := ptAffine(q), ptAffine(s)
	z := a
	if z.CondNeg(0); z != a {
		t.Fatal("CondNeg(0)")
	}
	if z.CondNeg(1); !ptEq(ptAffineRef(&z), ptRefNeg(q)) {
		t.Fatal("CondNeg(1)")
	}
	var pq, ps, pz Projective
	pq.SetAffine(&a)
	ps.SetAffine(&b)
	if pz.Select(&pq, &ps, 1); pz != pq {
		t.Fatal("Projective.Select(1)")
	}
	if pz.Select(&pq, &ps, 0); pz != ps {
		t.Fatal("Projective.Select(0)")
	}
	if got := ptProjRef(t, &pq); !ptEq(got, q) {
		t.Fatal("Projective.SetAffine")
	}
	if pz.SetInfinity(); ptProjRef(t, &pz) != nil {
		t.Fatal("Projective.SetInfinity")
	}
}

func TestProjectiveAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	g := Generator()
	var pg, pp, pr Projective
	pg.SetAffine(&g)
	pp.SetAffine(&g).Double(&pp)
	var ar Affine
	var x [4]uint64
	sink := 0
	ops := map[string]func(){
		"Projective.Add":      func() { pr.Add(&pp, &pg) },
		"Projective.AddMixed": func() { pr.AddMixed(&pp, &g) },
		"Projective.Double":   func() { pr.Double(&pp) },
		"Projective.Affine":   func() { a, ok := pp.Affine(); ar = a; sink += ok },
		"Projective.AffineX":  func() { pp.AffineX(&x) },
		"CondNeg":             func() { ar.CondNeg(1) },
	}
	for name, f := range ops {
		if n := testing.AllocsPerRun(50, f); n != 0 {
			t.Errorf("%s allocates %v times per call", name, n)
		}
	}
	_ = sink
}
