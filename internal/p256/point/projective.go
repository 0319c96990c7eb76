package point

import (
	"github.com/p256tls/p256tls/internal/p256/field"
)

// This file holds the complete formulas of Renes, Costello and Batina,
// "Complete addition formulas for prime order elliptic curves" (2016),
// algorithms 4 (addition), 5 (mixed addition) and 6 (doubling) for a = −3.
// They are correct for every pair of inputs, so constant-time code never
// needs to test for special cases. Add, Double and SetInfinity have no
// production caller: they are the Go reference that internal/p256/comb's tests
// check the comb's complete-addition kernels against, which a _test.go file
// here could not serve.

// SetInfinity sets p to the point at infinity (0:1:0) and returns p.
func (p *Projective) SetInfinity() *Projective {
	p.X.Zero()
	p.Y.One()
	p.Z.Zero()
	return p
}

// SetAffine sets p = a and returns p.
//
//p256tls:secret
func (p *Projective) SetAffine(a *Affine) *Projective {
	p.X = a.X
	p.Y = a.Y
	p.Z.One()
	return p
}

// Select sets p = q if cond == 1 and p = r if cond == 0. cond must be 0 or 1.
//
//p256tls:secret
func (p *Projective) Select(q, r *Projective, cond int) *Projective {
	p.X.Select(&q.X, &r.X, cond)
	p.Y.Select(&q.Y, &r.Y, cond)
	p.Z.Select(&q.Z, &r.Z, cond)
	return p
}

// Add sets p = q + r and returns p (RCB algorithm 4, 12M + 2m_b + 29a).
func (p *Projective) Add(q, r *Projective) *Projective {
	var t0, t1, t2, t3, t4, x3, y3, z3 field.Element
	t0.Mul(&q.X, &r.X)
	t1.Mul(&q.Y, &r.Y)
	t2.Mul(&q.Z, &r.Z)
	t3.Add(&q.X, &q.Y)
	t4.Add(&r.X, &r.Y)
	t3.Mul(&t3, &t4)
	t4.Add(&t0, &t1)
	t3.Sub(&t3, &t4)
	t4.Add(&q.Y, &q.Z)
	x3.Add(&r.Y, &r.Z)
	t4.Mul(&t4, &x3)
	x3.Add(&t1, &t2)
	t4.Sub(&t4, &x3)
	x3.Add(&q.X, &q.Z)
	y3.Add(&r.X, &r.Z)
	x3.Mul(&x3, &y3)
	y3.Add(&t0, &t2)
	y3.Sub(&x3, &y3)
	z3.Mul(&curveB, &t2)
	x3.Sub(&y3, &z3)
	z3.Add(&x3, &x3)
	x3.Add(&x3, &z3)
	z3.Sub(&t1, &x3)
	x3.Add(&t1, &x3)
	y3.Mul(&curveB, &y3)
	t1.Add(&t2, &t2)
	t2.Add(&t1, &t2)
	y3.Sub(&y3, &t2)
	y3.Sub(&y3, &t0)
	t1.Add(&y3, &y3)
	y3.Add(&t1, &y3)
	t1.Add(&t0, &t0)
	t0.Add(&t1, &t0)
	t0.Sub(&t0, &t2)
	t1.Mul(&t4, &y3)
	t2.Mul(&t0, &y3)
	y3.Mul(&x3, &z3)
	y3.Add(&y3, &t2)
	x3.Mul(&t3, &x3)
	x3.Sub(&x3, &t1)
	z3.Mul(&t4, &z3)
	t1.Mul(&t3, &t0)
	z3.Add(&z3, &t1)
	p.X, p.Y, p.Z = x3, y3, z3
	return p
}

// AddMixed sets p = q + a and returns p (RCB algorithm 5, 11M + 2m_b + 23a).
// q may be the point at infinity; a, being Affine, never is.
//
//p256tls:secret
func (p *Projective) AddMixed(q *Projective, a *Affine) *Projective {
	var t0, t1, t2, t3, t4, x3, y3, z3 field.Element
	t0.Mul(&q.X, &a.X)
	t1.Mul(&q.Y, &a.Y)
	t3.Add(&a.X, &a.Y)
	t4.Add(&q.X, &q.Y)
	t3.Mul(&t3, &t4)
	t4.Add(&t0, &t1)
	t3.Sub(&t3, &t4)
	t4.Mul(&a.Y, &q.Z)
	t4.Add(&t4, &q.Y)
	y3.Mul(&a.X, &q.Z)
	y3.Add(&y3, &q.X)
	z3.Mul(&curveB, &q.Z)
	x3.Sub(&y3, &z3)
	z3.Add(&x3, &x3)
	x3.Add(&x3, &z3)
	z3.Sub(&t1, &x3)
	x3.Add(&t1, &x3)
	y3.Mul(&curveB, &y3)
	t1.Add(&q.Z, &q.Z)
	t2.Add(&t1, &q.Z)
	y3.Sub(&y3, &t2)
	y3.Sub(&y3, &t0)
	t1.Add(&y3, &y3)
	y3.Add(&t1, &y3)
	t1.Add(&t0, &t0)
	t0.Add(&t1, &t0)
	t0.Sub(&t0, &t2)
	t1.Mul(&t4, &y3)
	t2.Mul(&t0, &y3)
	y3.Mul(&x3, &z3)
	y3.Add(&y3, &t2)
	x3.Mul(&t3, &x3)
	x3.Sub(&x3, &t1)
	z3.Mul(&t4, &z3)
	t1.Mul(&t3, &t0)
	z3.Add(&z3, &t1)
	p.X, p.Y, p.Z = x3, y3, z3
	return p
}

// Double sets p = 2q and returns p (RCB algorithm 6, 8M + 3S + 2m_b + 21a).
func (p *Projective) Double(q *Projective) *Projective {
	var t0, t1, t2, t3, x3, y3, z3 field.Element
	t0.Square(&q.X)
	t1.Square(&q.Y)
	t2.Square(&q.Z)
	t3.Mul(&q.X, &q.Y)
	t3.Add(&t3, &t3)
	z3.Mul(&q.X, &q.Z)
	z3.Add(&z3, &z3)
	y3.Mul(&curveB, &t2)
	y3.Sub(&y3, &z3)
	x3.Add(&y3, &y3)
	y3.Add(&x3, &y3)
	x3.Sub(&t1, &y3)
	y3.Add(&t1, &y3)
	y3.Mul(&x3, &y3)
	x3.Mul(&x3, &t3)
	t3.Add(&t2, &t2)
	t2.Add(&t2, &t3)
	z3.Mul(&curveB, &z3)
	z3.Sub(&z3, &t2)
	z3.Sub(&z3, &t0)
	t3.Add(&z3, &z3)
	z3.Add(&z3, &t3)
	t3.Add(&t0, &t0)
	t0.Add(&t3, &t0)
	t0.Sub(&t0, &t2)
	t0.Mul(&t0, &z3)
	y3.Add(&y3, &t0)
	t0.Mul(&q.Y, &q.Z)
	t0.Add(&t0, &t0)
	z3.Mul(&t0, &z3)
	x3.Sub(&x3, &z3)
	z3.Mul(&t0, &t1)
	z3.Add(&z3, &z3)
	z3.Add(&z3, &z3)
	p.X, p.Y, p.Z = x3, y3, z3
	return p
}

// Affine returns the affine form of p and 1, or an unspecified Affine and 0
// when p is the point at infinity. Constant time (one field inversion).
func (p *Projective) Affine() (Affine, int) {
	var inv field.Element
	inv.Invert(&p.Z)
	var a Affine
	a.X.Mul(&p.X, &inv)
	a.Y.Mul(&p.Y, &inv)
	return a, 1 ^ p.Z.IsZero()
}

// AffineX sets x to the affine x-coordinate X/Z of p as plain canonical
// limbs (x < p, out of Montgomery form, least significant first), or to 0
// when p is the point at infinity. Constant time: one constant-time safegcd
// division of the Montgomery forms, (X·R)/(Z·R) = x, and nothing else. It
// is the conversion the signer needs for r = x mod n.
//
//p256tls:secret
func (p *Projective) AffineX(x *[4]uint64) {
	field.DivCanonical(x, &p.X, &p.Z)
}
