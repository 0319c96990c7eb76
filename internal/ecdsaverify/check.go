package ecdsaverify

import (
	"math/bits"

	"github.com/p256tls/p256tls/internal/field"
	"github.com/p256tls/p256tls/internal/point"
	"github.com/p256tls/p256tls/internal/scalar"
)

// pMinusN is p − n as plain little-endian limbs (about 2^128.1).
var pMinusN = [4]uint64{0x0c46353d039cdaae, 0x4319055358e8617b, 0, 0}

// nField is n as a field element (Montgomery form), n < p.
var nField = field.Element{0x9ad169483335f568, 0x89b1054463fe9931, 0x9c0166ce652e96b7, 0x98648c200fe30feb}

// checkX reports whether the affine x-coordinate of acc, reduced mod n,
// equals r, without an inversion. x = X/Z² is in [0, p); x mod n = r holds
// when x = r, or when x = r + n, which is possible only if r + n < p.
func checkX(acc *point.Jacobian, r *scalar.Scalar) bool {
	if acc.Z.IsZero() == 1 {
		return false
	}
	rc := r.Canonical()
	var rf, z2, t field.Element
	if _, err := rf.SetCanonical(rc); err != nil {
		return false // unreachable: r < n < p
	}
	z2.Square(&acc.Z)
	t.Mul(&rf, &z2)
	if t.Equal(&acc.X) == 1 {
		return true
	}
	if !less(&rc, &pMinusN) {
		return false
	}
	var nz field.Element
	nz.Mul(&nField, &z2)
	t.Add(&t, &nz)
	return t.Equal(&acc.X) == 1
}

// less reports whether a < b (plain limbs; public values).
func less(a, b *[4]uint64) bool {
	var br uint64
	_, br = bits.Sub64(a[0], b[0], 0)
	_, br = bits.Sub64(a[1], b[1], br)
	_, br = bits.Sub64(a[2], b[2], br)
	_, br = bits.Sub64(a[3], b[3], br)
	return br == 1
}
