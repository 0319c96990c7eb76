// Package point implements the P-256 group law on top of internal/field:
// complete projective formulas (Renes–Costello–Batina 2016, a = −3) for
// constant-time code, Jacobian formulas (EFD dbl-2001-b, madd-2007-bl,
// add-2007-bl) for variable-time verification, batch conversion to affine,
// and SEC1 encoding.
//
// Methods store their result in the receiver and return it; the receiver may
// alias any argument. Functions and methods whose names end in Vartime take
// public inputs only; everything else is constant time.
package point

import "github.com/p256tls/p256tls/internal/field"

// Affine is a point (x, y) in affine coordinates, coordinates in Montgomery
// form. It never represents the point at infinity.
type Affine struct {
	X, Y field.Element
}

// Jacobian is a point (X/Z², Y/Z³). Z = 0 represents the point at infinity.
type Jacobian struct {
	X, Y, Z field.Element
}

// Projective is a point (X/Z, Y/Z) in homogeneous projective coordinates,
// the coordinates of the complete formulas. The point at infinity is (0:1:0).
type Projective struct {
	X, Y, Z field.Element
}

// curveB is the curve constant in Montgomery form.
var curveB = field.Element{0xd89cdf6229c4bddf, 0xacf005cd78843090, 0xe5a220abf7212ed6, 0xdc30061d04874834}

// generator is the base point G.
var generator = Affine{
	X: field.Element{0x79e730d418a9143c, 0x75ba95fc5fedb601, 0x79fb732b77622510, 0x18905f76a53755c6},
	Y: field.Element{0xddf25357ce95560a, 0x8b4ab8e4ba19e45c, 0xd2e88688dd21f325, 0x8571ff1825885d85},
}

// Generator returns the base point G.
func Generator() Affine { return generator }

// Neg sets a = -q and returns a.
func (a *Affine) Neg(q *Affine) *Affine {
	a.X = q.X
	a.Y.Neg(&q.Y)
	return a
}

// Select sets a = p if cond == 1 and a = q if cond == 0. cond must be 0 or 1.
func (a *Affine) Select(p, q *Affine, cond int) *Affine {
	a.X.Select(&p.X, &q.X, cond)
	a.Y.Select(&p.Y, &q.Y, cond)
	return a
}

// CondNeg sets a = -a if cond == 1 and leaves it if cond == 0, in constant
// time. cond must be 0 or 1.
//
//p256tls:secret
func (a *Affine) CondNeg(cond int) *Affine {
	var n field.Element
	n.Neg(&a.Y)
	a.Y.Select(&n, &a.Y, cond)
	return a
}

// IsOnCurve returns 1 if y² = x³ − 3x + b, and 0 otherwise.
func (a *Affine) IsOnCurve() int {
	var rhs, t, lhs field.Element
	rhs.Square(&a.X).Mul(&rhs, &a.X)
	t.Double(&a.X).Add(&t, &a.X)
	rhs.Sub(&rhs, &t).Add(&rhs, &curveB)
	lhs.Square(&a.Y)
	return lhs.Equal(&rhs)
}

// Equal returns 1 if a and q are the same point, and 0 otherwise.
func (a *Affine) Equal(q *Affine) int {
	return a.X.Equal(&q.X) & a.Y.Equal(&q.Y)
}
