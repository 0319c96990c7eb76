package ecdsaverify

import (
	"github.com/p256tls/p256tls/internal/field"
	"github.com/p256tls/p256tls/internal/point"
)

// The formulas below work in place on the accumulator and take the sign of
// the wNAF digit as an argument, so that a negative digit costs one field
// negation and no copy of the table entry. They branch on the points
// (infinity, equal, opposite): public data only.

// double sets p = 2p in place (a = −3). It is EFD dbl-2001-b scaled by
// λ = 1/2, that is (X3/4, Y3/8, Z3/2), the same point:
//
//	α' = 3(X − Z²)(X + Z²)/2, β = X·Y², X3' = α'² − 2β,
//	Y3' = α'(β − X3') − Y⁴, Z3' = Y·Z,
//
// 4M + 4S and 9 additions (point.Double: 3M + 5S and about 16), which
// matters while field additions cost a third of a multiplication. It is
// correct for the point at infinity (Z stays 0); P-256 has no point of
// order two.
func double(p *point.Jacobian) {
	var delta, gamma, beta, alpha, t field.Element
	delta.Square(&p.Z)
	gamma.Square(&p.Y)
	beta.Mul(&p.X, &gamma)
	t.Sub(&p.X, &delta)
	alpha.Add(&p.X, &delta)
	alpha.Mul(&alpha, &t)
	t.Double(&alpha)
	alpha.Add(&alpha, &t)
	alpha.Half(&alpha) // α'
	p.Z.Mul(&p.Z, &p.Y)
	t.Double(&beta)
	p.X.Square(&alpha)
	p.X.Sub(&p.X, &t)
	t.Sub(&beta, &p.X)
	p.Y.Mul(&alpha, &t)
	gamma.Square(&gamma)
	p.Y.Sub(&p.Y, &gamma)
}

// addMixed sets p = p + a if neg is false, and p = p − a if neg is true:
//
//	H = X2·Z1² − X1, r = Y2·Z1³ − Y1, X3 = r² − H³ − 2·X1·H²,
//	Y3 = r(X1·H² − X3) − Y1·H³, Z3 = Z1·H
//
// (EFD madd-2004-hmv), 8M + 3S and 7 additions; madd-2007-bl saves a
// multiplication for 5 more additions, a loss at the field's current
// costs.
func addMixed(p *point.Jacobian, a *point.Affine, neg bool) {
	if p.Z.IsZero() == 1 {
		p.SetAffine(a)
		if neg {
			p.Y.Neg(&p.Y)
		}
		return
	}
	var z1z1, u2, s2, h, r, hh, hhh, v, t field.Element
	z1z1.Square(&p.Z)
	u2.Mul(&a.X, &z1z1)
	s2.Mul(&a.Y, &p.Z)
	s2.Mul(&s2, &z1z1)
	if neg {
		s2.Neg(&s2)
	}
	h.Sub(&u2, &p.X)
	r.Sub(&s2, &p.Y)
	if h.IsZero() == 1 { // a = ±p
		if r.IsZero() == 1 {
			double(p) // p = ±a, the same point: a doubling
			return
		}
		p.SetInfinity() // opposite points
		return
	}
	hh.Square(&h)
	hhh.Mul(&hh, &h)
	v.Mul(&p.X, &hh)
	p.Z.Mul(&p.Z, &h)
	// X3 = r² − H³ − 2V.
	t.Double(&v)
	p.X.Square(&r)
	p.X.Sub(&p.X, &hhh)
	p.X.Sub(&p.X, &t)
	// Y3 = r(V − X3) − Y1·H³.
	hhh.Mul(&hhh, &p.Y)
	t.Sub(&v, &p.X)
	p.Y.Mul(&r, &t)
	p.Y.Sub(&p.Y, &hhh)
}

// cached is a Jacobian point with Z² and Z³ kept beside it, for a point
// that is added many times (Q's odd multiples in ordinary verification).
type cached struct {
	point.Jacobian
	ZZ, ZZZ field.Element
}

// set sets c = p and computes Z² and Z³.
func (c *cached) set(p *point.Jacobian) {
	c.Jacobian = *p
	c.ZZ.Square(&p.Z)
	c.ZZZ.Mul(&c.ZZ, &p.Z)
}

// addCached sets p = p + q if neg is false and p = p − q if neg is true:
//
//	U1 = X1·Z2², U2 = X2·Z1², S1 = Y1·Z2³, S2 = Y2·Z1³, H = U2 − U1, r = S2 − S1,
//	X3 = r² − H³ − 2·U1·H², Y3 = r(U1·H² − X3) − S1·H³, Z3 = Z1·Z2·H
//
// (EFD add-1998-cmo-2 with Z2² and Z2³ cached), 11M + 3S and 7 additions.
func addCached(p *point.Jacobian, q *cached, neg bool) {
	if q.Z.IsZero() == 1 {
		return
	}
	if p.Z.IsZero() == 1 {
		*p = q.Jacobian
		if neg {
			p.Y.Neg(&p.Y)
		}
		return
	}
	var z1z1, u1, u2, s1, s2, h, r, hh, hhh, v, t field.Element
	z1z1.Square(&p.Z)
	u1.Mul(&p.X, &q.ZZ)
	u2.Mul(&q.X, &z1z1)
	s1.Mul(&p.Y, &q.ZZZ)
	s2.Mul(&q.Y, &p.Z)
	s2.Mul(&s2, &z1z1)
	if neg {
		s2.Neg(&s2)
	}
	h.Sub(&u2, &u1)
	r.Sub(&s2, &s1)
	if h.IsZero() == 1 { // q = ±p
		if r.IsZero() == 1 {
			double(p) // p = q
			return
		}
		p.SetInfinity()
		return
	}
	hh.Square(&h)
	hhh.Mul(&hh, &h)
	v.Mul(&u1, &hh)
	p.Z.Mul(&p.Z, &q.Z)
	p.Z.Mul(&p.Z, &h)
	// X3 = r² − H³ − 2V.
	t.Double(&v)
	p.X.Square(&r)
	p.X.Sub(&p.X, &hhh)
	p.X.Sub(&p.X, &t)
	// Y3 = r(V − X3) − S1·H³.
	s1.Mul(&s1, &hhh)
	t.Sub(&v, &p.X)
	p.Y.Mul(&r, &t)
	p.Y.Sub(&p.Y, &s1)
}

// doubleCoZ sets two = 2p and p1 = p with two's Z (Meloni's DBLU): with
// dbl-2001-b, Z3 = 2·Y·Z, and p rescaled by λ = 2Y is (4β, 8γ², Z3), two
// values the doubling computes anyway. p must not be the point at infinity
// (nor of order two, which P-256 has none of). two and p1 must not alias p.
// 3M + 5S.
func doubleCoZ(two, p1, p *point.Jacobian) {
	var delta, gamma, beta, alpha, t field.Element
	delta.Square(&p.Z)
	gamma.Square(&p.Y)
	beta.Mul(&p.X, &gamma)
	t.Sub(&p.X, &delta)
	alpha.Add(&p.X, &delta)
	alpha.Mul(&alpha, &t)
	t.Double(&alpha)
	alpha.Add(&alpha, &t) // α = 3(X − Z²)(X + Z²)
	two.Z.Add(&p.Y, &p.Z)
	two.Z.Square(&two.Z)
	two.Z.Sub(&two.Z, &gamma)
	two.Z.Sub(&two.Z, &delta) // 2·Y·Z
	p1.Z = two.Z
	beta.Double(&beta)
	beta.Double(&beta) // 4β
	p1.X = beta
	gamma.Square(&gamma)
	gamma.Double(&gamma)
	gamma.Double(&gamma)
	gamma.Double(&gamma) // 8γ²
	p1.Y = gamma
	two.X.Square(&alpha)
	t.Double(&beta)
	two.X.Sub(&two.X, &t) // α² − 8β
	t.Sub(&beta, &two.X)
	two.Y.Mul(&alpha, &t)
	two.Y.Sub(&two.Y, &gamma) // α(4β − X3) − 8γ²
}

// addCoZ sets p = p + q and rescales q to the sum's Z, for two points that
// share their Z (Meloni's ZADDU): with A = (Xp − Xq)², B = Xq·A, C = Xp·A,
// the sum is (D − B − C, (Yp − Yq)(B − X3) − E, Z·(Xp − Xq)) where
// D = (Yp − Yq)² and E = Yq·(C − B), and q becomes (B, E, Z3). 5M + 2S.
// The caller guarantees p ≠ ±q and that neither is the point at infinity
// (the odd multiples of BuildRuns: k·P + 2P with k odd and small).
func addCoZ(p, q *point.Jacobian) {
	var dx, dy, a, b, c, e field.Element
	dx.Sub(&p.X, &q.X)
	dy.Sub(&p.Y, &q.Y)
	a.Square(&dx)
	b.Mul(&q.X, &a)
	c.Mul(&p.X, &a)
	e.Sub(&c, &b)
	e.Mul(&q.Y, &e)
	p.Z.Mul(&p.Z, &dx)
	p.X.Square(&dy)
	p.X.Sub(&p.X, &b)
	p.X.Sub(&p.X, &c)
	c.Sub(&b, &p.X)
	p.Y.Mul(&dy, &c)
	p.Y.Sub(&p.Y, &e)
	q.X, q.Y, q.Z = b, e, p.Z
}
