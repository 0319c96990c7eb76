package point

// Tests of the group law against a math/big affine reference and against
// crypto/ecdh. Helpers carry a "pt" prefix so that they cannot collide with
// other test files of the package.

import (
	"bytes"
	"crypto/ecdh"
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/p256tls/p256tls/internal/field"
)

var (
	ptP  = ptHex("ffffffff00000001000000000000000000000000ffffffffffffffffffffffff")
	ptN  = ptHex("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")
	ptB  = ptHex("5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604b")
	ptGx = ptHex("6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296")
	ptGy = ptHex("4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5")
	ptG  = &ptRef{ptGx, ptGy}
)

func ptHex(s string) *big.Int {
	v, ok := new(big.Int).SetString(s, 16)
	if !ok {
		panic("bad hex " + s)
	}
	return v
}

// ptRef is an affine point in math/big; nil is the point at infinity.
type ptRef struct{ x, y *big.Int }

func (r *ptRef) String() string {
	if r == nil {
		return "O"
	}
	return fmt.Sprintf("(%#x, %#x)", r.x, r.y)
}

func ptMod(x *big.Int) *big.Int { return new(big.Int).Mod(x, ptP) }

func ptInv(x *big.Int) *big.Int { return new(big.Int).ModInverse(x, ptP) }

func ptEq(a, b *ptRef) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.x.Cmp(b.x) == 0 && a.y.Cmp(b.y) == 0
}

func ptRefOnCurve(r *ptRef) bool {
	lhs := ptMod(new(big.Int).Mul(r.y, r.y))
	rhs := new(big.Int).Exp(r.x, big.NewInt(3), ptP)
	rhs.Sub(rhs, new(big.Int).Mul(r.x, big.NewInt(3))).Add(rhs, ptB)
	return lhs.Cmp(ptMod(rhs)) == 0
}

func ptRefNeg(r *ptRef) *ptRef {
	if r == nil {
		return nil
	}
	return &ptRef{r.x, ptMod(new(big.Int).Neg(r.y))}
}

func ptRefAdd(a, b *ptRef) *ptRef {
	if a == nil {
		return b
	}
	if b == nil {
		return a
	}
	var l *big.Int
	if a.x.Cmp(b.x) == 0 {
		if ptMod(new(big.Int).Add(a.y, b.y)).Sign() == 0 {
			return nil
		}
		// λ = (3x² − 3)/(2y).
		num := new(big.Int).Mul(a.x, a.x)
		num.Sub(num, big.NewInt(1)).Mul(num, big.NewInt(3))
		l = num.Mul(num, ptInv(new(big.Int).Lsh(a.y, 1)))
	} else {
		num := new(big.Int).Sub(b.y, a.y)
		l = num.Mul(num, ptInv(ptMod(new(big.Int).Sub(b.x, a.x))))
	}
	l = ptMod(l)
	x := new(big.Int).Mul(l, l)
	x = ptMod(x.Sub(x, a.x).Sub(x, b.x))
	y := new(big.Int).Sub(a.x, x)
	y = ptMod(y.Mul(y, l).Sub(y, a.y))
	return &ptRef{x, y}
}

func ptRefMul(k *big.Int, a *ptRef) *ptRef {
	var acc *ptRef
	for i := k.BitLen() - 1; i >= 0; i-- {
		acc = ptRefAdd(acc, acc)
		if k.Bit(i) == 1 {
			acc = ptRefAdd(acc, a)
		}
	}
	return acc
}

func ptFE(x *big.Int) field.Element {
	var b [32]byte
	var e field.Element
	if _, err := e.SetBytes(ptMod(x).FillBytes(b[:])); err != nil {
		panic(err)
	}
	return e
}

func ptInt(e *field.Element) *big.Int {
	b := e.Bytes()
	return new(big.Int).SetBytes(b[:])
}

func ptAffine(r *ptRef) Affine { return Affine{ptFE(r.x), ptFE(r.y)} }

func ptAffineRef(a *Affine) *ptRef { return &ptRef{ptInt(&a.X), ptInt(&a.Y)} }

// ptJac returns r as (x·λ², y·λ³, λ); infinity as (λ², λ³, 0).
func ptJac(r *ptRef, l *big.Int) Jacobian {
	l2 := ptMod(new(big.Int).Mul(l, l))
	l3 := ptMod(new(big.Int).Mul(l2, l))
	if r == nil {
		return Jacobian{ptFE(l2), ptFE(l3), field.Element{}}
	}
	return Jacobian{ptFE(new(big.Int).Mul(r.x, l2)), ptFE(new(big.Int).Mul(r.y, l3)), ptFE(l)}
}

// ptProj returns r as (x·λ : y·λ : λ); infinity as (0 : λ : 0).
func ptProj(r *ptRef, l *big.Int) Projective {
	if r == nil {
		return Projective{field.Element{}, ptFE(l), field.Element{}}
	}
	return Projective{ptFE(new(big.Int).Mul(r.x, l)), ptFE(new(big.Int).Mul(r.y, l)), ptFE(l)}
}

func ptJacRef(t testing.TB, j *Jacobian) *ptRef {
	t.Helper()
	z := ptInt(&j.Z)
	if z.Sign() == 0 {
		return nil
	}
	zi := ptInv(z)
	zi2 := ptMod(new(big.Int).Mul(zi, zi))
	x := ptMod(new(big.Int).Mul(ptInt(&j.X), zi2))
	y := ptMod(new(big.Int).Mul(ptInt(&j.Y), zi2.Mul(zi2, zi)))
	r := &ptRef{x, y}
	if !ptRefOnCurve(r) {
		t.Fatalf("Jacobian result %v is not on the curve", r)
	}
	return r
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

func ptRand(t testing.TB) *rand.Rand {
	return rand.New(rand.NewPCG(0x9017, uint64(len(t.Name()))))
}

// ptRandScalar returns a uniformly distributed k in [1, n).
func ptRandScalar(r *rand.Rand) *big.Int {
	for {
		var b [32]byte
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		k := new(big.Int).SetBytes(b[:])
		if k.Sign() != 0 && k.Cmp(ptN) < 0 {
			return k
		}
	}
}

// ptECDH returns k·G as computed by crypto/ecdh, for 1 ≤ k < n.
func ptECDH(t testing.TB, k *big.Int) *ptRef {
	t.Helper()
	var b [32]byte
	priv, err := ecdh.P256().NewPrivateKey(k.FillBytes(b[:]))
	if err != nil {
		t.Fatal(err)
	}
	pub := priv.PublicKey().Bytes()
	return &ptRef{new(big.Int).SetBytes(pub[1:33]), new(big.Int).SetBytes(pub[33:])}
}

// ptRandPoint returns a random point (via crypto/ecdh, not the code under
// test).
func ptRandPoint(t testing.TB, r *rand.Rand) *ptRef { return ptECDH(t, ptRandScalar(r)) }

// ptRandLambda returns a random nonzero field element.
func ptRandLambda(r *rand.Rand) *big.Int {
	for {
		var b [32]byte
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		l := ptMod(new(big.Int).SetBytes(b[:]))
		if l.Sign() != 0 {
			return l
		}
	}
}

// ptPointWithX returns the point with the smallest x ≥ x0 (searching upward)
// or, if down, the largest x ≤ x0, on the curve, with even y.
func ptPointWithX(x0 *big.Int, down bool) *ptRef {
	x := new(big.Int).Set(x0)
	step := big.NewInt(1)
	if down {
		step.SetInt64(-1)
	}
	for {
		rhs := new(big.Int).Exp(x, big.NewInt(3), ptP)
		rhs.Sub(rhs, new(big.Int).Mul(x, big.NewInt(3))).Add(rhs, ptB)
		if y := new(big.Int).ModSqrt(ptMod(rhs), ptP); y != nil {
			if y.Bit(0) == 1 {
				y.Sub(ptP, y)
			}
			return &ptRef{new(big.Int).Set(x), y}
		}
		x.Add(x, step)
	}
}

// ptEdgePoints are G, −G, 2G, small multiples, (n−1)G, and points with
// extreme x coordinates.
func ptEdgePoints() []*ptRef {
	pts := []*ptRef{ptG, ptRefNeg(ptG), ptRefAdd(ptG, ptG), ptRefMul(big.NewInt(3), ptG),
		ptRefMul(new(big.Int).Sub(ptN, big.NewInt(1)), ptG),
		ptRefMul(new(big.Int).Sub(ptN, big.NewInt(2)), ptG)}
	for _, q := range []*ptRef{ptPointWithX(big.NewInt(0), false), ptPointWithX(new(big.Int).Sub(ptP, big.NewInt(1)), true)} {
		pts = append(pts, q, ptRefNeg(q))
	}
	return pts
}

// ptLambdas are representation scales: 1, −1, 2 and random ones.
func ptLambdas(r *rand.Rand) []*big.Int {
	return []*big.Int{big.NewInt(1), new(big.Int).Sub(ptP, big.NewInt(1)), big.NewInt(2), ptRandLambda(r), ptRandLambda(r)}
}

func TestPointGenerator(t *testing.T) {
	g := Generator()
	if !ptEq(ptAffineRef(&g), ptG) {
		t.Fatalf("Generator() = %v", ptAffineRef(&g))
	}
	if !ptEq(ptG, ptECDH(t, big.NewInt(1))) {
		t.Fatal("test constants disagree with crypto/ecdh")
	}
	if want := ptFE(ptB); curveB != want {
		t.Fatalf("curveB = %#x, want %#x", curveB, want)
	}
}

func TestPointIsOnCurve(t *testing.T) {
	r := ptRand(t)
	pts := ptEdgePoints()
	for i := 0; i < 20; i++ {
		pts = append(pts, ptRandPoint(t, r))
	}
	for _, q := range pts {
		a := ptAffine(q)
		if a.IsOnCurve() != 1 {
			t.Fatalf("IsOnCurve(%v) = 0", q)
		}
		for _, d := range [][2]int64{{0, 1}, {1, 0}, {0, -1}, {-1, 0}} {
			off := ptAffine(&ptRef{ptMod(new(big.Int).Add(q.x, big.NewInt(d[0]))), ptMod(new(big.Int).Add(q.y, big.NewInt(d[1])))})
			if off.IsOnCurve() != 0 {
				t.Fatalf("IsOnCurve(%v + %v) = 1", q, d)
			}
		}
	}
	var zero Affine
	if zero.IsOnCurve() != 0 {
		t.Fatal("IsOnCurve(0, 0) = 1")
	}
}

// ptCheckAdd checks every addition formula on q + s, with q and s in several
// representations, and with the receiver aliasing each argument.
func ptCheckAdd(t *testing.T, q, s *ptRef, lambdas []*big.Int) {
	t.Helper()
	want := ptRefAdd(q, s)
	for i, l1 := range lambdas {
		l2 := lambdas[(i+1)%len(lambdas)]
		// Jacobian, variable time.
		jq, js := ptJac(q, l1), ptJac(s, l2)
		jq0, js0 := jq, js
		var jr Jacobian
		if got := jr.refAdd(&jq, &js); got != &jr {
			t.Fatal("AddVartime did not return its receiver")
		}
		if got := ptJacRef(t, &jr); !ptEq(got, want) {
			t.Fatalf("Jacobian AddVartime(%v, %v) = %v, want %v (λ %#x, %#x)", q, s, got, want, l1, l2)
		}
		if jq != jq0 || js != js0 {
			t.Fatal("AddVartime modified its arguments")
		}
		ja := jq
		if ja.refAdd(&ja, &js); ja != jr {
			t.Fatalf("AddVartime aliased p=q differs for %v + %v", q, s)
		}
		ja = js
		if ja.refAdd(&jq, &ja); ja != jr {
			t.Fatalf("AddVartime aliased p=r differs for %v + %v", q, s)
		}
		if s != nil {
			as := ptAffine(s)
			if got := jr.refAddMixed(&jq, &as); got != &jr {
				t.Fatal("AddMixedVartime did not return its receiver")
			}
			if got := ptJacRef(t, &jr); !ptEq(got, want) {
				t.Fatalf("Jacobian AddMixedVartime(%v, %v) = %v, want %v (λ %#x)", q, s, got, want, l1)
			}
			ja = jq
			if ja.refAddMixed(&ja, &as); ja != jr {
				t.Fatalf("AddMixedVartime aliased differs for %v + %v", q, s)
			}
		}
		// Projective, complete.
		pq, ps := ptProj(q, l1), ptProj(s, l2)
		pq0, ps0 := pq, ps
		var pr Projective
		if got := pr.Add(&pq, &ps); got != &pr {
			t.Fatal("Add did not return its receiver")
		}
		if got := ptProjRef(t, &pr); !ptEq(got, want) {
			t.Fatalf("Projective Add(%v, %v) = %v, want %v (λ %#x, %#x)", q, s, got, want, l1, l2)
		}
		if pq != pq0 || ps != ps0 {
			t.Fatal("Add modified its arguments")
		}
		pa := pq
		if pa.Add(&pa, &ps); pa != pr {
			t.Fatalf("Add aliased p=q differs for %v + %v", q, s)
		}
		pa = ps
		if pa.Add(&pq, &pa); pa != pr {
			t.Fatalf("Add aliased p=r differs for %v + %v", q, s)
		}
		if s != nil {
			as := ptAffine(s)
			if got := pr.AddMixed(&pq, &as); got != &pr {
				t.Fatal("AddMixed did not return its receiver")
			}
			if got := ptProjRef(t, &pr); !ptEq(got, want) {
				t.Fatalf("Projective AddMixed(%v, %v) = %v, want %v (λ %#x)", q, s, got, want, l1)
			}
			pa = pq
			if pa.AddMixed(&pa, &as); pa != pr {
				t.Fatalf("AddMixed aliased differs for %v + %v", q, s)
			}
		}
	}
}

func ptCheckDouble(t *testing.T, q *ptRef, lambdas []*big.Int) {
	t.Helper()
	want := ptRefAdd(q, q)
	for _, l := range lambdas {
		jq := ptJac(q, l)
		jq0 := jq
		var jr Jacobian
		if got := jr.refDouble(&jq); got != &jr {
			t.Fatal("Jacobian Double did not return its receiver")
		}
		if got := ptJacRef(t, &jr); !ptEq(got, want) || jq != jq0 {
			t.Fatalf("Jacobian Double(%v) = %v, want %v (λ %#x)", q, got, want, l)
		}
		if jq.refDouble(&jq); jq != jr {
			t.Fatalf("Jacobian Double aliased differs for %v", q)
		}
		pq := ptProj(q, l)
		pq0 := pq
		var pr Projective
		if got := pr.Double(&pq); got != &pr {
			t.Fatal("Projective Double did not return its receiver")
		}
		if got := ptProjRef(t, &pr); !ptEq(got, want) || pq != pq0 {
			t.Fatalf("Projective Double(%v) = %v, want %v (λ %#x)", q, got, want, l)
		}
		if pq.Double(&pq); pq != pr {
			t.Fatalf("Projective Double aliased differs for %v", q)
		}
	}
}

func TestPointFormulasSpecialCases(t *testing.T) {
	r := ptRand(t)
	pts := append(ptEdgePoints(), ptRandPoint(t, r), ptRandPoint(t, r))
	lambdas := ptLambdas(r)
	ptCheckAdd(t, nil, nil, lambdas) // O + O
	ptCheckDouble(t, nil, lambdas)   // 2·O
	for _, q := range pts {
		ptCheckAdd(t, q, q, lambdas)              // P + P
		ptCheckAdd(t, q, ptRefNeg(q), lambdas)    // P + (−P)
		ptCheckAdd(t, q, nil, lambdas)            // P + O
		ptCheckAdd(t, nil, q, lambdas)            // O + P
		ptCheckAdd(t, q, ptRefAdd(q, q), lambdas) // P + 2P
		ptCheckDouble(t, q, lambdas)
	}
	for _, q := range pts {
		for _, s := range pts {
			ptCheckAdd(t, q, s, lambdas[3:4])
		}
	}
}

func TestPointFormulasRandom(t *testing.T) {
	r := ptRand(t)
	n := 100
	if testing.Short() {
		n = 25
	}
	for i := 0; i < n; i++ {
		q, s := ptRandPoint(t, r), ptRandPoint(t, r)
		lambdas := []*big.Int{big.NewInt(1), ptRandLambda(r)}
		ptCheckAdd(t, q, s, lambdas)
		ptCheckDouble(t, q, lambdas)
	}
}

// TestPointSmallMultiples builds k·G for k = 1..32 by repeated addition and
// 2^j·G by repeated doubling, and compares them with crypto/ecdh.
func TestPointSmallMultiples(t *testing.T) {
	g := Generator()
	var pg Projective
	pg.SetAffine(&g)
	var pAcc, pMixed Projective
	pAcc.SetInfinity()
	pMixed.SetInfinity()
	var jAcc, jFull, jg Jacobian
	jAcc.SetInfinity()
	jFull.SetInfinity()
	jg.SetAffine(&g)
	for k := int64(1); k <= 32; k++ {
		want := ptECDH(t, big.NewInt(k))
		pAcc.Add(&pAcc, &pg)
		pMixed.AddMixed(&pMixed, &g)
		jAcc.refAddMixed(&jAcc, &g)
		jFull.refAdd(&jFull, &jg)
		for name, got := range map[string]*ptRef{
			"Projective.Add":           ptProjRef(t, &pAcc),
			"Projective.AddMixed":      ptProjRef(t, &pMixed),
			"Jacobian.AddMixedVartime": ptJacRef(t, &jAcc),
			"Jacobian.AddVartime":      ptJacRef(t, &jFull),
		} {
			if !ptEq(got, want) {
				t.Fatalf("%d·G by %s = %v, want %v", k, name, got, want)
			}
		}
		// The same multiple by doubling where k is even.
		if k%2 == 0 {
			var pd Projective
			var jd Jacobian
			half := ptAffine(ptECDH(t, big.NewInt(k/2)))
			pd.SetAffine(&half).Double(&pd)
			jd.SetAffine(&half).refDouble(&jd)
			if got := ptProjRef(t, &pd); !ptEq(got, want) {
				t.Fatalf("2·(%d·G) by Projective.Double = %v, want %v", k/2, got, want)
			}
			if got := ptJacRef(t, &jd); !ptEq(got, want) {
				t.Fatalf("2·(%d·G) by Jacobian.Double = %v, want %v", k/2, got, want)
			}
		}
	}
	// 2^j·G.
	var pd Projective
	var jd Jacobian
	pd.SetAffine(&g)
	jd.SetAffine(&g)
	for j := uint(1); j <= 40; j++ {
		pd.Double(&pd)
		jd.refDouble(&jd)
		want := ptECDH(t, new(big.Int).Lsh(big.NewInt(1), j))
		if !ptEq(ptProjRef(t, &pd), want) || !ptEq(ptJacRef(t, &jd), want) {
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

func ptMulJacobian(k *big.Int, a *Affine) Jacobian {
	var acc Jacobian
	acc.SetInfinity()
	for i := k.BitLen() - 1; i >= 0; i-- {
		acc.refDouble(&acc)
		if k.Bit(i) == 1 {
			acc.refAddMixed(&acc, a)
		}
	}
	return acc
}

func TestPointRandomMultiples(t *testing.T) {
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
		jr := ptMulJacobian(k, &g)
		ja, ok := jr.refAffine()
		if ok != 1 || !ptEq(ptAffineRef(&ja), want) {
			t.Fatalf("%#x·G by Jacobian = %v, want %v", k, ptAffineRef(&ja), want)
		}
	}
	// n·G is the point at infinity.
	pr := ptMulProjective(ptN, &g)
	if _, ok := pr.Affine(); ok != 0 || ptProjRef(t, &pr) != nil {
		t.Fatal("n·G is not the point at infinity (Projective)")
	}
	jr := ptMulJacobian(ptN, &g)
	if _, ok := jr.refAffine(); ok != 0 || jr.IsInfinity() != 1 {
		t.Fatal("n·G is not the point at infinity (Jacobian)")
	}
}

func TestPointToAffine(t *testing.T) {
	r := ptRand(t)
	for i := 0; i < 20; i++ {
		q := ptRandPoint(t, r)
		l := ptRandLambda(r)
		j := ptJac(q, l)
		a, ok := j.refAffine()
		if ok != 1 || !ptEq(ptAffineRef(&a), q) {
			t.Fatalf("AffineVartime = %v, %d; want %v", ptAffineRef(&a), ok, q)
		}
		p := ptProj(q, l)
		a, ok = p.Affine()
		if ok != 1 || !ptEq(ptAffineRef(&a), q) {
			t.Fatalf("Projective.Affine = %v, %d; want %v", ptAffineRef(&a), ok, q)
		}
	}
	j := ptJac(nil, big.NewInt(5))
	if _, ok := j.refAffine(); ok != 0 {
		t.Fatal("AffineVartime(infinity) reports 1")
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

func TestPointBatchToAffine(t *testing.T) {
	r := ptRand(t)
	for _, n := range []int{1, 2, 17, 128} {
		in := make([]Jacobian, n)
		refs := make([]*ptRef, n)
		for i := range in {
			refs[i] = ptRefMul(big.NewInt(int64(i+1)), ptG)
			if i%3 == 2 {
				refs[i] = ptRandPoint(t, r)
			}
			l := big.NewInt(1)
			if i%2 == 1 {
				l = ptRandLambda(r)
			}
			in[i] = ptJac(refs[i], l)
		}
		in0 := append([]Jacobian(nil), in...)
		out := make([]Affine, n)
		scratch := make([]field.Element, n+3)
		if !BatchToAffineVartime(out, in, scratch) {
			t.Fatalf("BatchToAffineVartime(%d points) reported false", n)
		}
		for i := range in {
			single, ok := in[i].refAffine()
			if ok != 1 || out[i] != single || !ptEq(ptAffineRef(&out[i]), refs[i]) {
				t.Fatalf("batch of %d: point %d = %v, want %v", n, i, ptAffineRef(&out[i]), refs[i])
			}
			if in[i] != in0[i] {
				t.Fatalf("batch of %d modified input %d", n, i)
			}
		}
		// An infinity anywhere makes it report false.
		for _, pos := range []int{0, n / 2, n - 1} {
			bad := append([]Jacobian(nil), in...)
			bad[pos].SetInfinity()
			if BatchToAffineVartime(out, bad, scratch) {
				t.Fatalf("batch of %d with infinity at %d reported true", n, pos)
			}
		}
	}
	if !BatchToAffineVartime(nil, nil, nil) {
		t.Fatal("empty batch reported false")
	}
	for _, c := range []struct{ out, scratch int }{{1, 2}, {2, 1}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("BatchToAffineVartime with out %d, scratch %d for 2 points did not panic", c.out, c.scratch)
				}
			}()
			in := []Jacobian{ptJac(ptG, big.NewInt(1)), ptJac(ptG, big.NewInt(2))}
			BatchToAffineVartime(make([]Affine, c.out), in, make([]field.Element, c.scratch))
		}()
	}
}

func TestPointHelpers(t *testing.T) {
	r := ptRand(t)
	q, s := ptRandPoint(t, r), ptRandPoint(t, r)
	a, b := ptAffine(q), ptAffine(s)
	var z Affine
	if got := z.Neg(&a); got != &z || !ptEq(ptAffineRef(&z), ptRefNeg(q)) {
		t.Fatal("Neg")
	}
	z = a
	if z.Neg(&z); !ptEq(ptAffineRef(&z), ptRefNeg(q)) {
		t.Fatal("Neg aliased")
	}
	if z.Select(&a, &b, 1); z != a {
		t.Fatal("Select(a, b, 1)")
	}
	if z.Select(&a, &b, 0); z != b {
		t.Fatal("Select(a, b, 0)")
	}
	z = a
	if z.CondNeg(0); z != a {
		t.Fatal("CondNeg(0)")
	}
	if z.CondNeg(1); !ptEq(ptAffineRef(&z), ptRefNeg(q)) {
		t.Fatal("CondNeg(1)")
	}
	if a.Equal(&a) != 1 || a.Equal(&b) != 0 || a.Equal(&z) != 0 {
		t.Fatal("Equal")
	}
	x := a
	x.X = b.X
	if a.Equal(&x) != 0 {
		t.Fatal("Equal ignores X")
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
	var j Jacobian
	if j.SetAffine(&a); j.IsInfinity() != 0 || !ptEq(ptJacRef(t, &j), q) {
		t.Fatal("Jacobian.SetAffine")
	}
	if j.SetInfinity(); j.IsInfinity() != 1 {
		t.Fatal("Jacobian.SetInfinity")
	}
}

func TestPointAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	g := Generator()
	var a2 Affine
	a2.Neg(&g)
	var pg, pp Projective
	pg.SetAffine(&g)
	pp.SetAffine(&g).Double(&pp)
	var jg, jp Jacobian
	jg.SetAffine(&g)
	jp.SetAffine(&g).Double()
	var cg Cached
	cg.Set(&jg)
	var jq Jacobian
	runs := make([]Affine, 8)
	in := []Jacobian{jp, jp, jp}
	out := make([]Affine, 3)
	scratch := make([]field.Element, 3)
	enc := g.BytesUncompressed()
	cenc := g.BytesCompressed()
	var pr Projective
	var jr Jacobian
	var ar Affine
	sink := 0
	ops := map[string]func(){
		"Projective.Add":            func() { pr.Add(&pp, &pg) },
		"Projective.AddMixed":       func() { pr.AddMixed(&pp, &g) },
		"Projective.Double":         func() { pr.Double(&pp) },
		"Projective.Affine":         func() { a, ok := pp.Affine(); ar = a; sink += ok },
		"Jacobian.Double":           func() { jr = jp; jr.Double() },
		"Jacobian.AddMixedVartime":  func() { jr = jp; jr.AddMixedVartime(&g, true) },
		"Jacobian.AddCachedVartime": func() { jr = jp; jr.AddCachedVartime(&cg, true) },
		"DoubleCoZ":                 func() { DoubleCoZ(&jr, &jq, &jp) },
		"AddCoZ":                    func() { jr, jq = jp, jg; AddCoZ(&jr, &jq) },
		"BatchToAffineVartime":      func() { BatchToAffineVartime(out, in, scratch) },
		"BuildRuns":                 func() { BuildRuns(runs, &g, 4, 2, 3) },
		"IsOnCurve":                 func() { sink += g.IsOnCurve() },
		"SetBytes uncompressed":     func() { ar.SetBytes(enc[:]) },
		"SetBytes compressed":       func() { ar.SetBytes(cenc[:]) },
		"BytesUncompressed":         func() { enc = g.BytesUncompressed() },
		"BytesCompressed":           func() { cenc = g.BytesCompressed() },
	}
	for name, f := range ops {
		if n := testing.AllocsPerRun(50, f); n != 0 {
			t.Errorf("%s allocates %v times per call", name, n)
		}
	}
	_ = sink
}

// ptErr names the reference decoder's verdicts.
var ptErrs = map[string]error{
	"infinity": ErrInfinity, "encoding": ErrEncoding, "curve": ErrNotOnCurve, "coordinate": ErrCoordinate,
}

// ptRefDecode decodes a SEC 1 encoding with math/big, returning the point or
// the error Affine.SetBytes must return.
func ptRefDecode(b []byte) (*ptRef, error) {
	switch {
	case len(b) == 1 && b[0] == 0:
		return nil, ErrInfinity
	case len(b) == 65 && b[0] == 4:
		x, y := new(big.Int).SetBytes(b[1:33]), new(big.Int).SetBytes(b[33:])
		if x.Cmp(ptP) >= 0 || y.Cmp(ptP) >= 0 {
			return nil, ErrCoordinate
		}
		r := &ptRef{x, y}
		if !ptRefOnCurve(r) {
			return nil, ErrNotOnCurve
		}
		return r, nil
	case len(b) == 33 && (b[0] == 2 || b[0] == 3):
		x := new(big.Int).SetBytes(b[1:])
		if x.Cmp(ptP) >= 0 {
			return nil, ErrCoordinate
		}
		rhs := new(big.Int).Exp(x, big.NewInt(3), ptP)
		rhs.Sub(rhs, new(big.Int).Mul(x, big.NewInt(3))).Add(rhs, ptB)
		y := new(big.Int).ModSqrt(ptMod(rhs), ptP)
		if y == nil {
			return nil, ErrNotOnCurve
		}
		if y.Bit(0) != uint(b[0]&1) {
			y.Sub(ptP, y)
		}
		return &ptRef{x, y}, nil
	}
	return nil, ErrEncoding
}

func ptEncode(r *ptRef, compressed bool) []byte {
	if compressed {
		b := make([]byte, 33)
		b[0] = 2 | byte(r.y.Bit(0))
		r.x.FillBytes(b[1:])
		return b
	}
	b := make([]byte, 65)
	b[0] = 4
	r.x.FillBytes(b[1:33])
	r.y.FillBytes(b[33:])
	return b
}

// ptCheckDecode runs SetBytes on b and checks it against the reference:
// same verdict, receiver unchanged on error, on-curve result that re-encodes
// to b on success.
func ptCheckDecode(t *testing.T, b []byte) {
	t.Helper()
	want, wantErr := ptRefDecode(b)
	sentinel := Generator()
	sentinel.Neg(&sentinel)
	a := sentinel
	got, err := a.SetBytes(b)
	if got != &a {
		t.Fatal("SetBytes did not return its receiver")
	}
	if wantErr != nil {
		if !errors.Is(err, wantErr) || a != sentinel {
			t.Fatalf("SetBytes(%x) = %v, %v; want error %v and receiver unchanged", b, ptAffineRef(&a), err, wantErr)
		}
		return
	}
	if err != nil || !ptEq(ptAffineRef(&a), want) {
		t.Fatalf("SetBytes(%x) = %v, %v; want %v", b, ptAffineRef(&a), err, want)
	}
	if a.IsOnCurve() != 1 {
		t.Fatalf("SetBytes(%x) accepted a point off the curve", b)
	}
	var re []byte
	if len(b) == 65 {
		e := a.BytesUncompressed()
		re = e[:]
	} else {
		e := a.BytesCompressed()
		re = e[:]
	}
	if !bytes.Equal(re, b) {
		t.Fatalf("SetBytes(%x) re-encodes as %x", b, re)
	}
}

func TestPointSEC1RoundTrip(t *testing.T) {
	r := ptRand(t)
	pts := ptEdgePoints()
	for i := 0; i < 30; i++ {
		pts = append(pts, ptRandPoint(t, r))
	}
	for _, q := range pts {
		a := ptAffine(q)
		u, c := a.BytesUncompressed(), a.BytesCompressed()
		if !bytes.Equal(u[:], ptEncode(q, false)) || !bytes.Equal(c[:], ptEncode(q, true)) {
			t.Fatalf("encodings of %v = %x, %x", q, u, c)
		}
		ptCheckDecode(t, u[:])
		ptCheckDecode(t, c[:])
		// The other parity decodes to −q.
		c[0] ^= 1
		var n Affine
		if _, err := n.SetBytes(c[:]); err != nil || !ptEq(ptAffineRef(&n), ptRefNeg(q)) {
			t.Fatalf("compressed %x = %v, %v; want %v", c, ptAffineRef(&n), err, ptRefNeg(q))
		}
	}
	// crypto/ecdh public keys decode to the same point.
	for i := 0; i < 10; i++ {
		k := ptRandScalar(r)
		var kb [32]byte
		priv, _ := ecdh.P256().NewPrivateKey(k.FillBytes(kb[:]))
		var a Affine
		if _, err := a.SetBytes(priv.PublicKey().Bytes()); err != nil || !ptEq(ptAffineRef(&a), ptRefMul(k, ptG)) {
			t.Fatalf("SetBytes(crypto/ecdh key) = %v, %v", ptAffineRef(&a), err)
		}
	}
}

func TestPointSEC1Rejections(t *testing.T) {
	g := ptEncode(ptG, false)
	gc := ptEncode(ptG, true)
	pBytes := ptP.FillBytes(make([]byte, 32))
	ones := bytes.Repeat([]byte{0xff}, 32)
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	offCurve := append([]byte(nil), g...)
	offCurve[64] ^= 1
	// An x with no square root of x³ − 3x + b.
	var noRoot []byte
	for x := int64(0); noRoot == nil; x++ {
		enc := cat([]byte{2}, big.NewInt(x).FillBytes(make([]byte, 32)))
		if _, err := ptRefDecode(enc); errors.Is(err, ErrNotOnCurve) {
			noRoot = enc
		}
	}
	cases := []struct {
		name string
		in   []byte
		err  error
	}{
		{"infinity", []byte{0}, ErrInfinity},
		{"off curve", offCurve, ErrNotOnCurve},
		{"x = 0, y = 0", cat([]byte{4}, make([]byte, 64)), ErrNotOnCurve},
		{"x = p", cat([]byte{4}, pBytes, g[33:]), ErrCoordinate},
		{"y = p", cat(g[:33], pBytes), ErrCoordinate},
		{"x = 2^256 − 1", cat([]byte{4}, ones, g[33:]), ErrCoordinate},
		{"y = 2^256 − 1", cat(g[:33], ones), ErrCoordinate},
		{"y = p + 1", cat(g[:33], new(big.Int).Add(ptP, big.NewInt(1)).FillBytes(make([]byte, 32))), ErrCoordinate},
		{"compressed x = p", cat([]byte{2}, pBytes), ErrCoordinate},
		{"compressed x = p, odd", cat([]byte{3}, pBytes), ErrCoordinate},
		{"compressed x = 2^256 − 1", cat([]byte{3}, ones), ErrCoordinate},
		{"compressed, no root", noRoot, ErrNotOnCurve},
		{"compressed, no root, odd", cat([]byte{3}, noRoot[1:]), ErrNotOnCurve},
		{"empty", nil, ErrEncoding},
		{"0x00 0x00", []byte{0, 0}, ErrEncoding},
		{"0x04 alone", []byte{4}, ErrEncoding},
		{"uncompressed, 64 bytes", g[:64], ErrEncoding},
		{"uncompressed, 66 bytes", cat(g, []byte{0}), ErrEncoding},
		{"prefix 0x05", cat([]byte{5}, g[1:]), ErrEncoding},
		{"prefix 0x06 (hybrid)", cat([]byte{6}, g[1:]), ErrEncoding},
		{"prefix 0x07 (hybrid)", cat([]byte{7}, g[1:]), ErrEncoding},
		{"prefix 0x00, 65 bytes", cat([]byte{0}, g[1:]), ErrEncoding},
		{"prefix 0x04, 33 bytes", cat([]byte{4}, gc[1:]), ErrEncoding},
		{"prefix 0x02, 65 bytes", cat([]byte{2}, g[1:]), ErrEncoding},
		{"prefix 0x03, 65 bytes", cat([]byte{3}, g[1:]), ErrEncoding},
		{"prefix 0x01, 33 bytes", cat([]byte{1}, gc[1:]), ErrEncoding},
		{"compressed, 32 bytes", gc[:32], ErrEncoding},
		{"compressed, 34 bytes", cat(gc, []byte{0}), ErrEncoding},
		{"bare x", gc[1:], ErrEncoding},
	}
	for _, c := range cases {
		if _, err := ptRefDecode(c.in); !errors.Is(err, c.err) {
			t.Fatalf("%s: reference decoder says %v, test expects %v", c.name, err, c.err)
		}
		sentinel := Generator()
		a := sentinel
		got, err := a.SetBytes(c.in)
		if got != &a || !errors.Is(err, c.err) || a != sentinel {
			t.Errorf("%s: SetBytes(%x) = %v, %v; want %v and receiver unchanged", c.name, c.in, ptAffineRef(&a), err, c.err)
		}
		ptCheckDecode(t, c.in)
	}
	for name, err := range ptErrs {
		for other, err2 := range ptErrs {
			if name != other && errors.Is(err, err2) {
				t.Fatalf("errors %s and %s are not distinct", name, other)
			}
		}
	}
}
