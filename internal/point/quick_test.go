package point

import (
	"crypto/ecdh"
	"crypto/rand"
	"math/big"
	"testing"
)

// ref is a math/big affine reference (nil = infinity).
type refPt struct{ x, y *big.Int }

var (
	pB, _ = new(big.Int).SetString("ffffffff00000001000000000000000000000000ffffffffffffffffffffffff", 16)
	bB, _ = new(big.Int).SetString("5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604b", 16)
)

func refAdd(a, c *refPt) *refPt {
	if a == nil {
		return c
	}
	if c == nil {
		return a
	}
	var l *big.Int
	if a.x.Cmp(c.x) == 0 {
		if new(big.Int).Add(a.y, c.y).Mod(new(big.Int).Add(a.y, c.y), pB).Sign() == 0 {
			return nil
		}
		num := new(big.Int).Mul(a.x, a.x)
		num.Mul(num, big.NewInt(3)).Sub(num, big.NewInt(3))
		den := new(big.Int).Lsh(a.y, 1)
		l = num.Mul(num, den.ModInverse(den, pB))
	} else {
		num := new(big.Int).Sub(c.y, a.y)
		den := new(big.Int).Sub(c.x, a.x)
		den.Mod(den, pB)
		l = num.Mul(num, den.ModInverse(den, pB))
	}
	l.Mod(l, pB)
	x := new(big.Int).Mul(l, l)
	x.Sub(x, a.x).Sub(x, c.x).Mod(x, pB)
	y := new(big.Int).Sub(a.x, x)
	y.Mul(y, l).Sub(y, a.y).Mod(y, pB)
	return &refPt{x, y}
}

func toRef(a *Affine) *refPt {
	x, y := a.X.Bytes(), a.Y.Bytes()
	return &refPt{new(big.Int).SetBytes(x[:]), new(big.Int).SetBytes(y[:])}
}

func randPoint(t *testing.T) Affine {
	k, _ := ecdh.P256().GenerateKey(rand.Reader)
	var a Affine
	if _, err := a.SetBytes(k.PublicKey().Bytes()); err != nil {
		t.Fatal(err)
	}
	return a
}

func eqRef(a *Affine, ok int, r *refPt) bool {
	if r == nil {
		return ok == 0
	}
	if ok != 1 {
		return false
	}
	g := toRef(a)
	return g.x.Cmp(r.x) == 0 && g.y.Cmp(r.y) == 0
}

func TestQuickFormulas(t *testing.T) {
	for i := 0; i < 200; i++ {
		a, c := randPoint(t), randPoint(t)
		var na Affine
		na.Neg(&a)
		for _, pair := range [][2]*Affine{{&a, &c}, {&a, &a}, {&a, &na}} {
			x, y := pair[0], pair[1]
			want := refAdd(toRef(x), toRef(y))
			var jx, jy, jr Jacobian
			jx.SetAffine(x)
			jx.Double(&jx)
			jx.AddVartime(&jx, jx.negCopy()) // infinity
			jx.SetAffine(x)
			jy.SetAffine(y)
			jr.AddVartime(&jx, &jy)
			got, ok := jr.AffineVartime()
			if !eqRef(&got, ok, want) {
				t.Fatal("AddVartime")
			}
			jr.AddMixedVartime(&jx, y)
			got, ok = jr.AffineVartime()
			if !eqRef(&got, ok, want) {
				t.Fatal("AddMixedVartime")
			}
			var px, py, pr Projective
			px.SetAffine(x)
			py.SetAffine(y)
			pr.Add(&px, &py)
			got, ok = pr.Affine()
			if !eqRef(&got, ok, want) {
				t.Fatal("Add complete")
			}
			pr.AddMixed(&px, y)
			got, ok = pr.Affine()
			if !eqRef(&got, ok, want) {
				t.Fatal("AddMixed complete")
			}
		}
		want := refAdd(toRef(&a), toRef(&a))
		var j Jacobian
		j.SetAffine(&a).Double(&j)
		got, ok := j.AffineVartime()
		if !eqRef(&got, ok, want) {
			t.Fatal("Double jacobian")
		}
		var pp Projective
		pp.SetAffine(&a).Double(&pp)
		got, ok = pp.Affine()
		if !eqRef(&got, ok, want) {
			t.Fatal("Double projective")
		}
		var inf Projective
		inf.SetInfinity()
		pp.AddMixed(&inf, &a)
		got, ok = pp.Affine()
		if !eqRef(&got, ok, toRef(&a)) {
			t.Fatal("O + a")
		}
	}
}

func (p *Jacobian) negCopy() *Jacobian {
	q := *p
	q.Y.Neg(&q.Y)
	return &q
}
