package point

import "github.com/p256tls/p256tls/internal/field"

// This file holds the Jacobian formulas of variable-time verification, the
// ones the verification chains run. They work in place on the accumulator
// and take the sign of a wNAF digit as an argument, so that a negative digit
// costs one field negation and no copy of the table entry. The additions
// branch on the points (infinity, equal, opposite): public data only.
//
// Double and AddMixedVartime go through the fused amd64 kernels of
// jacobian_amd64.s where the CPU has BMI2 and ADX (kernels_amd64.go), with
// the same result limb for limb; double and addMixed below are the portable
// formulas and the kernels' reference.

// SetInfinity sets p to the point at infinity and returns p.
func (p *Jacobian) SetInfinity() *Jacobian {
	p.X.One()
	p.Y.One()
	p.Z.Zero()
	return p
}

// SetAffine sets p = a and returns p.
func (p *Jacobian) SetAffine(a *Affine) *Jacobian {
	p.X = a.X
	p.Y = a.Y
	p.Z.One()
	return p
}

// double sets p = 2p in place (a = −3), the portable form of Double.
func double(p *Jacobian) {
	var beta, y4 field.Element
	doubleKeep(p, &beta, &y4)
}

// doubleKeep sets p = 2p in place and leaves beta = X·Y² and y4 = Y⁴ of the
// input p, which DoubleCoZ needs. It is EFD dbl-2001-b scaled by λ = 1/2,
// that is (X3/4, Y3/8, Z3/2), the same point:
//
//	α' = 3(X − Z²)(X + Z²)/2, β = X·Y², X3' = α'² − 2β,
//	Y3' = α'(β − X3') − Y⁴, Z3' = Y·Z,
//
// 4M + 4S and 9 additions (textbook dbl-2001-b: 3M + 5S and about 16;
// docs/arithmetic.md compares them). It is correct for the point at
// infinity (Z stays 0); P-256 has no point of order two. beta and y4 must
// not alias p.
func doubleKeep(p *Jacobian, beta, y4 *field.Element) {
	var delta, alpha, t field.Element
	delta.Square(&p.Z)
	y4.Square(&p.Y) // Y² for now
	beta.Mul(&p.X, y4)
	t.Sub(&p.X, &delta)
	alpha.Add(&p.X, &delta)
	alpha.Mul(&alpha, &t)
	t.Double(&alpha)
	alpha.Add(&alpha, &t)
	alpha.Half(&alpha) // α'
	p.Z.Mul(&p.Z, &p.Y)
	t.Double(beta)
	p.X.Square(&alpha)
	p.X.Sub(&p.X, &t)
	t.Sub(beta, &p.X)
	p.Y.Mul(&alpha, &t)
	y4.Square(y4)
	p.Y.Sub(&p.Y, y4)
}

// addMixed sets p = p + a if neg is false, and p = p − a if neg is true,
// the portable form of AddMixedVartime:
//
//	H = X2·Z1² − X1, r = Y2·Z1³ − Y1, X3 = r² − H³ − 2·X1·H²,
//	Y3 = r(X1·H² − X3) − Y1·H³, Z3 = Z1·H
//
// (EFD madd-2004-hmv), 8M + 3S and 7 additions (docs/arithmetic.md says
// why not madd-2007-bl, 7M + 4S and 12 additions).
func addMixed(p *Jacobian, a *Affine, neg bool) {
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

// Cached is a Jacobian point with Z² and Z³ kept beside it, for a point
// that is added many times (Q's odd multiples in ordinary verification).
type Cached struct {
	Jacobian
	ZZ, ZZZ field.Element
}

// Set sets c = p and computes Z² and Z³.
func (c *Cached) Set(p *Jacobian) {
	c.Jacobian = *p
	c.ZZ.Square(&p.Z)
	c.ZZZ.Mul(&c.ZZ, &p.Z)
}

// AddCachedVartime sets p = p + q if neg is false and p = p − q if neg is
// true, in place:
//
//	U1 = X1·Z2², U2 = X2·Z1², S1 = Y1·Z2³, S2 = Y2·Z1³, H = U2 − U1, r = S2 − S1,
//	X3 = r² − H³ − 2·U1·H², Y3 = r(U1·H² − X3) − S1·H³, Z3 = Z1·Z2·H
//
// (EFD add-1998-cmo-2 with Z2² and Z2³ cached), 11M + 3S and 7 additions.
// It handles infinity, equal and opposite points by testing for them:
// public points only.
func (p *Jacobian) AddCachedVartime(q *Cached, neg bool) {
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

// DoubleCoZ sets two = 2p and p1 = p with two's Z (Meloni's DBLU). It is
// the doubling of double, which computes on the way β = X·Y² and Y⁴: with
// Z3' = Y·Z, p rescaled by λ = Y is (λ²X, λ³Y, λZ) = (β, Y⁴, Z3'). p must
// not be the point at infinity (nor of order two, which P-256 has none
// of); p1 must not alias two (either may alias p). 4M + 4S and no branches,
// where a doubling of its own would cost 3M + 5S.
func DoubleCoZ(two, p1, p *Jacobian) {
	*two = *p
	doubleKeep(two, &p1.X, &p1.Y)
	p1.Z = two.Z
}

// AddCoZ sets p = p + q and rescales q to the sum's Z, for two points that
// share their Z (Meloni's ZADDU): with A = (Xp − Xq)², B = Xq·A, C = Xp·A,
// the sum is (D − B − C, (Yp − Yq)(B − X3) − E, Z·(Xp − Xq)) where
// D = (Yp − Yq)² and E = Yq·(C − B), and q becomes (B, E, Z3). 5M + 2S, no
// branches. The caller guarantees p ≠ ±q and that neither is the point at
// infinity (for example the odd multiples k·P + 2P, k odd and small, of
// BuildRuns); p and q must not alias.
func AddCoZ(p, q *Jacobian) {
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

// BatchToAffineVartime sets out[i] to the affine form of in[i] with a single
// field inversion (Montgomery's trick). No input may be the point at
// infinity; it reports false (and leaves out unspecified) if one is. scratch
// must have at least len(in) elements; out and in must have equal lengths
// (else it panics: a caller's bug, never input). Public points only.
func BatchToAffineVartime(out []Affine, in []Jacobian, scratch []field.Element) bool {
	n := len(in)
	if n == 0 {
		return true
	}
	if len(out) != n || len(scratch) < n {
		panic("point: BatchToAffineVartime length mismatch")
	}
	// scratch[i] = Z0·Z1·…·Zi.
	scratch[0] = in[0].Z
	for i := 1; i < n; i++ {
		scratch[i].Mul(&scratch[i-1], &in[i].Z)
	}
	if scratch[n-1].IsZero() == 1 {
		return false
	}
	var acc, zi, zi2 field.Element
	acc.InvertVartime(&scratch[n-1])
	for i := n - 1; i >= 0; i-- {
		if i > 0 {
			zi.Mul(&acc, &scratch[i-1])
			acc.Mul(&acc, &in[i].Z)
		} else {
			zi = acc
		}
		zi2.Square(&zi)
		out[i].X.Mul(&in[i].X, &zi2)
		zi2.Mul(&zi2, &zi)
		out[i].Y.Mul(&in[i].Y, &zi2)
	}
	return true
}
