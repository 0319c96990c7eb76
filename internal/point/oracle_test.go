package point

import "github.com/p256tls/p256tls/internal/field"

// The textbook Jacobian formulas, kept as the test oracle of the formulas
// production runs (jacobian.go, kernels_amd64.go): out of place, with the
// receiver allowed to alias any argument, and written straight from the EFD
// (dbl-2001-b, madd-2007-bl, add-2007-bl). point_test.go checks them
// against math/big (ptCheckAdd, ptCheckDouble, TestPointSmallMultiples),
// and the production formulas against them and against math/big. The
// additions test for P = Q, P = −Q and infinity, so they branch on the
// points.

// refDouble sets p = 2q and returns p (EFD dbl-2001-b, 3M + 5S). It is constant
// time and correct for every input, infinity included: P-256 has no point of
// order two.
func (p *Jacobian) refDouble(q *Jacobian) *Jacobian {
	var delta, gamma, beta, alpha, t, u field.Element
	delta.Square(&q.Z)
	gamma.Square(&q.Y)
	beta.Mul(&q.X, &gamma)
	t.Sub(&q.X, &delta)
	u.Add(&q.X, &delta)
	alpha.Mul(&t, &u)
	t.Double(&alpha)
	alpha.Add(&alpha, &t) // alpha = 3(X−δ)(X+δ)
	// Z3 = (Y+Z)² − γ − δ, computed before X and Y are overwritten.
	t.Add(&q.Y, &q.Z)
	p.Z.Square(&t).Sub(&p.Z, &gamma).Sub(&p.Z, &delta)
	// X3 = α² − 8β.
	beta.Double(&beta).Double(&beta) // 4β
	t.Double(&beta)                  // 8β
	p.X.Square(&alpha).Sub(&p.X, &t)
	// Y3 = α(4β − X3) − 8γ².
	gamma.Square(&gamma)
	gamma.Double(&gamma).Double(&gamma).Double(&gamma)
	t.Sub(&beta, &p.X)
	p.Y.Mul(&alpha, &t).Sub(&p.Y, &gamma)
	return p
}

// refAddMixed sets p = q + a and returns p (EFD madd-2007-bl, 7M + 4S).
// It handles q at infinity, q = a and q = −a by testing for them, so it is
// variable time: public points only.
func (p *Jacobian) refAddMixed(q *Jacobian, a *Affine) *Jacobian {
	if q.Z.IsZero() == 1 {
		return p.SetAffine(a)
	}
	var z1z1, u2, s2, h, hh, i, j, r, v, t field.Element
	z1z1.Square(&q.Z)
	u2.Mul(&a.X, &z1z1)
	s2.Mul(&a.Y, &q.Z).Mul(&s2, &z1z1)
	h.Sub(&u2, &q.X)
	r.Sub(&s2, &q.Y)
	if h.IsZero() == 1 {
		if r.IsZero() == 1 {
			var d Jacobian
			d.SetAffine(a)
			return p.refDouble(&d)
		}
		return p.SetInfinity()
	}
	r.Double(&r)
	hh.Square(&h)
	i.Double(&hh).Double(&i)
	j.Mul(&h, &i)
	v.Mul(&q.X, &i)
	// Z3 = (Z1 + H)² − Z1Z1 − HH.
	t.Add(&q.Z, &h)
	p.Z.Square(&t).Sub(&p.Z, &z1z1).Sub(&p.Z, &hh)
	// Y1·J before Y1 may be overwritten.
	var y1j field.Element
	y1j.Mul(&q.Y, &j).Double(&y1j)
	// X3 = r² − J − 2V.
	t.Double(&v)
	p.X.Square(&r).Sub(&p.X, &j).Sub(&p.X, &t)
	// Y3 = r(V − X3) − 2·Y1·J.
	t.Sub(&v, &p.X)
	p.Y.Mul(&r, &t).Sub(&p.Y, &y1j)
	return p
}

// refAdd sets p = q + r and returns p (EFD add-2007-bl, 11M + 5S). It
// handles infinity, equal and opposite inputs by testing for them: public
// points only.
func (p *Jacobian) refAdd(q, r *Jacobian) *Jacobian {
	if q.Z.IsZero() == 1 {
		*p = *r
		return p
	}
	if r.Z.IsZero() == 1 {
		*p = *q
		return p
	}
	var z1z1, z2z2, u1, u2, s1, s2, h, i, j, rr, v, t field.Element
	z1z1.Square(&q.Z)
	z2z2.Square(&r.Z)
	u1.Mul(&q.X, &z2z2)
	u2.Mul(&r.X, &z1z1)
	s1.Mul(&q.Y, &r.Z).Mul(&s1, &z2z2)
	s2.Mul(&r.Y, &q.Z).Mul(&s2, &z1z1)
	h.Sub(&u2, &u1)
	rr.Sub(&s2, &s1)
	if h.IsZero() == 1 {
		if rr.IsZero() == 1 {
			return p.refDouble(q)
		}
		return p.SetInfinity()
	}
	rr.Double(&rr)
	i.Double(&h).Square(&i)
	j.Mul(&h, &i)
	v.Mul(&u1, &i)
	// Z3 = ((Z1 + Z2)² − Z1Z1 − Z2Z2)·H.
	t.Add(&q.Z, &r.Z)
	t.Square(&t).Sub(&t, &z1z1).Sub(&t, &z2z2)
	p.Z.Mul(&t, &h)
	// X3 = r² − J − 2V.
	t.Double(&v)
	p.X.Square(&rr).Sub(&p.X, &j).Sub(&p.X, &t)
	// Y3 = r(V − X3) − 2·S1·J.
	s1.Mul(&s1, &j).Double(&s1)
	t.Sub(&v, &p.X)
	p.Y.Mul(&rr, &t).Sub(&p.Y, &s1)
	return p
}

// refAffine returns the affine form of p and 1, or the zero Affine and 0
// when p is the point at infinity. Public points only.
func (p *Jacobian) refAffine() (Affine, int) {
	if p.Z.IsZero() == 1 {
		return Affine{}, 0
	}
	var a Affine
	var inv, inv2 field.Element
	inv.InvertVartime(&p.Z)
	inv2.Square(&inv)
	a.X.Mul(&p.X, &inv2)
	inv2.Mul(&inv2, &inv)
	a.Y.Mul(&p.Y, &inv2)
	return a, 1
}
