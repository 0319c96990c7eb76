package ecdsaverify

import (
	"github.com/p256tls/p256tls/internal/field"
	"github.com/p256tls/p256tls/internal/point"
)

// The formulas below work in place on the accumulator and take the sign of
// the wNAF digit as an argument, so that a negative digit costs one field
// negation and no copy of the table entry. They branch on the points
// (infinity, equal, opposite): public data only.

// addMixed sets p = p + a if neg is false, and p = p − a if neg is true
// (EFD madd-2007-bl with Z3 = 2·Z1·H, 7M + 4S).
func addMixed(p *point.Jacobian, a *point.Affine, neg bool) {
	if p.Z.IsZero() == 1 {
		p.SetAffine(a)
		if neg {
			p.Y.Neg(&p.Y)
		}
		return
	}
	var z1z1, u2, s2, h, r, hh, i, j, v, t field.Element
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
			p.Double(p) // p = ±a, the same point: a doubling
			return
		}
		p.SetInfinity() // opposite points
		return
	}
	r.Double(&r)
	hh.Square(&h)
	i.Double(&hh)
	i.Double(&i)
	j.Mul(&h, &i)
	v.Mul(&p.X, &i)
	// Z3 = 2·Z1·H (equal to (Z1 + H)² − Z1Z1 − HH).
	p.Z.Mul(&p.Z, &h)
	p.Z.Double(&p.Z)
	// 2·Y1·J, before Y1 is overwritten.
	var y1j field.Element
	y1j.Mul(&p.Y, &j)
	y1j.Double(&y1j)
	// X3 = r² − J − 2V.
	t.Double(&v)
	p.X.Square(&r)
	p.X.Sub(&p.X, &j)
	p.X.Sub(&p.X, &t)
	// Y3 = r(V − X3) − 2·Y1·J.
	t.Sub(&v, &p.X)
	p.Y.Mul(&r, &t)
	p.Y.Sub(&p.Y, &y1j)
}

// addJacobian sets p = p + q if neg is false and p = p − q if neg is true
// (EFD add-2007-bl with Z3 = 2·Z1·Z2·H, 12M + 4S).
func addJacobian(p, q *point.Jacobian, neg bool) {
	if q.Z.IsZero() == 1 {
		return
	}
	if p.Z.IsZero() == 1 {
		*p = *q
		if neg {
			p.Y.Neg(&p.Y)
		}
		return
	}
	var z1z1, z2z2, u1, u2, s1, s2, h, i, j, r, v, t field.Element
	z1z1.Square(&p.Z)
	z2z2.Square(&q.Z)
	u1.Mul(&p.X, &z2z2)
	u2.Mul(&q.X, &z1z1)
	s1.Mul(&p.Y, &q.Z)
	s1.Mul(&s1, &z2z2)
	s2.Mul(&q.Y, &p.Z)
	s2.Mul(&s2, &z1z1)
	if neg {
		s2.Neg(&s2)
	}
	h.Sub(&u2, &u1)
	r.Sub(&s2, &s1)
	if h.IsZero() == 1 { // q = ±p
		if r.IsZero() == 1 {
			p.Double(p) // p = q
			return
		}
		p.SetInfinity()
		return
	}
	r.Double(&r)
	i.Double(&h)
	i.Square(&i)
	j.Mul(&h, &i)
	v.Mul(&u1, &i)
	// Z3 = 2·Z1·Z2·H.
	p.Z.Mul(&p.Z, &q.Z)
	p.Z.Mul(&p.Z, &h)
	p.Z.Double(&p.Z)
	// X3 = r² − J − 2V.
	t.Double(&v)
	p.X.Square(&r)
	p.X.Sub(&p.X, &j)
	p.X.Sub(&p.X, &t)
	// Y3 = r(V − X3) − 2·S1·J.
	s1.Mul(&s1, &j)
	s1.Double(&s1)
	t.Sub(&v, &p.X)
	p.Y.Mul(&r, &t)
	p.Y.Sub(&p.Y, &s1)
}
