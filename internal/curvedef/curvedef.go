// Package curvedef is the one home of the NIST curves' defining constants
// (SEC 2 / FIPS 186-5) as math/big values, with the textbook affine group
// law over them. It serves the generators that write precomputed tables and
// constants as Go source, and the tests that check arithmetic against
// math/big; nothing on a hot path uses it.
//
// Every function returns fresh values: callers may modify what they get.
// Nothing here is constant time.
package curvedef

import (
	"fmt"
	"math/big"
)

// Curve is a short Weierstrass curve y² = x³ − 3x + b over GF(P) with a
// base point (Gx, Gy) of prime order N.
type Curve struct {
	Name   string // "P-256" or "P-384"
	Limbs  int    // 64-bit limbs of a field element (4 or 6)
	P, N   *big.Int
	B      *big.Int
	Gx, Gy *big.Int
}

// P256 returns P-256's constants.
func P256() *Curve {
	return &Curve{
		Name:  "P-256",
		Limbs: 4,
		P:     hexInt("ffffffff00000001000000000000000000000000ffffffffffffffffffffffff"),
		N:     hexInt("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551"),
		B:     hexInt("5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604b"),
		Gx:    hexInt("6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296"),
		Gy:    hexInt("4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5"),
	}
}

// P384 returns P-384's constants.
func P384() *Curve {
	return &Curve{
		Name:  "P-384",
		Limbs: 6,
		P: hexInt("fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe" +
			"ffffffff0000000000000000ffffffff"),
		N: hexInt("ffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf" +
			"581a0db248b0a77aecec196accc52973"),
		B: hexInt("b3312fa7e23ee7e4988e056be3f82d19181d9c6efe8141120314088f5013875a" +
			"c656398d8a2ed19d2a85c8edd3ec2aef"),
		Gx: hexInt("aa87ca22be8b05378eb1c71ef320ad746e1d3b628ba79b9859f741e082542a38" +
			"5502f25dbf55296c3a545e3872760ab7"),
		Gy: hexInt("3617de4a96262c6f5d9e98bf9292dc29f8f41dbd289a147ce9da3113b5f0b8c0" +
			"0a60b1ce1d7e819d7a431d7c90ea0e5f"),
	}
}

func hexInt(s string) *big.Int {
	v, ok := new(big.Int).SetString(s, 16)
	if !ok {
		panic("curvedef: bad constant " + s) // unreachable: the literals above
	}
	return v
}

// Bits returns the bit length of field elements, 64·Limbs.
func (c *Curve) Bits() int { return 64 * c.Limbs }

// Limbs64 returns x as c.Limbs little-endian 64-bit limbs. x must be
// non-negative and below 2^(64·Limbs), else it returns an error.
func (c *Curve) Limbs64(x *big.Int) ([]uint64, error) {
	if x.Sign() < 0 || x.BitLen() > c.Bits() {
		return nil, fmt.Errorf("curvedef: %v does not fit %d limbs", x, c.Limbs)
	}
	l := make([]uint64, c.Limbs)
	t := new(big.Int).Set(x)
	mask := new(big.Int).SetUint64(^uint64(0))
	for i := range l {
		l[i] = new(big.Int).And(t, mask).Uint64()
		t.Rsh(t, 64)
	}
	return l, nil
}

// Montgomery returns x·2^(64·Limbs) mod P, x reduced mod P first, as
// little-endian limbs: the form field elements are stored in.
func (c *Curve) Montgomery(x *big.Int) []uint64 {
	m := new(big.Int).Mod(x, c.P)
	m.Lsh(m, uint(c.Bits())).Mod(m, c.P)
	l, _ := c.Limbs64(m) // m < P < 2^Bits
	return l
}

// Point is an affine point of the curve as math/big coordinates; Inf marks
// the point at infinity (X and Y are then nil).
type Point struct {
	X, Y *big.Int
	Inf  bool
}

// G returns the base point.
func (c *Curve) G() Point { return Point{X: c.Gx, Y: c.Gy} }

// IsOnCurve reports whether a is the point at infinity or satisfies
// y² = x³ − 3x + b with coordinates in [0, P).
func (c *Curve) IsOnCurve(a Point) bool {
	if a.Inf {
		return true
	}
	if a.X.Sign() < 0 || a.Y.Sign() < 0 || a.X.Cmp(c.P) >= 0 || a.Y.Cmp(c.P) >= 0 {
		return false
	}
	lhs := new(big.Int).Mul(a.Y, a.Y)
	lhs.Mod(lhs, c.P)
	rhs := new(big.Int).Mul(a.X, a.X)
	rhs.Sub(rhs, big.NewInt(3)).Mul(rhs, a.X).Add(rhs, c.B).Mod(rhs, c.P)
	return lhs.Cmp(rhs) == 0
}

// Add returns a + b by the textbook chord-and-tangent law (a = −3); any
// inputs, infinity and opposite points included. a and b must be on the
// curve.
func (c *Curve) Add(a, b Point) Point {
	p := c.P
	switch {
	case a.Inf:
		return b
	case b.Inf:
		return a
	}
	var l *big.Int
	if a.X.Cmp(b.X) == 0 {
		sum := new(big.Int).Add(a.Y, b.Y)
		if sum.Mod(sum, p).Sign() == 0 {
			return Point{Inf: true} // opposite points (or y = 0, which neither curve has)
		}
		// λ = (3x² − 3) / 2y
		num := new(big.Int).Mul(a.X, a.X)
		num.Sub(num, big.NewInt(1)).Mul(num, big.NewInt(3))
		den := new(big.Int).Lsh(a.Y, 1)
		l = num.Mul(num, den.ModInverse(den.Mod(den, p), p))
	} else {
		num := new(big.Int).Sub(b.Y, a.Y)
		den := new(big.Int).Sub(b.X, a.X)
		l = num.Mul(num, den.ModInverse(den.Mod(den, p), p))
	}
	l.Mod(l, p)
	x := new(big.Int).Mul(l, l)
	x.Sub(x, a.X).Sub(x, b.X).Mod(x, p)
	y := new(big.Int).Sub(a.X, x)
	y.Mul(y, l).Sub(y, a.Y).Mod(y, p)
	return Point{X: x, Y: y}
}

// Double returns 2a.
func (c *Curve) Double(a Point) Point { return c.Add(a, a) }

// ScalarMult returns k·a by double-and-add (k ≥ 0; any size).
func (c *Curve) ScalarMult(a Point, k *big.Int) Point {
	r := Point{Inf: true}
	for i := k.BitLen() - 1; i >= 0; i-- {
		r = c.Double(r)
		if k.Bit(i) == 1 {
			r = c.Add(r, a)
		}
	}
	return r
}
