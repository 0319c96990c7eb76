// Package limbs holds the six-limb helpers that the P-384 field and scalar
// packages share: comparison with a modulus, the word-by-word Montgomery
// multiplication for a modulus of no special form,
// and halving modulo an odd modulus. (Modular division for public values is
// package safegcd's DivVartime.)
//
// A Nat is six little-endian 64-bit limbs. Nothing here allocates.
package limbs

import (
	"math/bits"

	"github.com/p256tls/p256tls/internal/ct"
)

// Nat is a 384-bit integer, least significant limb first.
type Nat = [6]uint64

// Less returns 1 if a < m and 0 otherwise, in constant time.
func Less(a, m *Nat) uint64 {
	var b uint64
	_, b = bits.Sub64(a[0], m[0], 0)
	_, b = bits.Sub64(a[1], m[1], b)
	_, b = bits.Sub64(a[2], m[2], b)
	_, b = bits.Sub64(a[3], m[3], b)
	_, b = bits.Sub64(a[4], m[4], b)
	_, b = bits.Sub64(a[5], m[5], b)
	return b
}

// ReduceOnce sets z = hi·2^384 + t − m if that is ≥ 0, else t, in constant
// time. It needs hi·2^384 + t < 2m and hi ≤ 1. z may alias t.
func ReduceOnce(z, t, m *Nat, hi uint64) {
	var s Nat
	var b uint64
	s[0], b = bits.Sub64(t[0], m[0], 0)
	s[1], b = bits.Sub64(t[1], m[1], b)
	s[2], b = bits.Sub64(t[2], m[2], b)
	s[3], b = bits.Sub64(t[3], m[3], b)
	s[4], b = bits.Sub64(t[4], m[4], b)
	s[5], b = bits.Sub64(t[5], m[5], b)
	_, b = bits.Sub64(hi, 0, b)
	// b = 1 exactly when hi·2^384 + t < m: keep t.
	keep := -b
	for i := range z {
		z[i] = s[i] ^ (keep & (s[i] ^ t[i]))
	}
}

// AddMod sets z = a + b mod m for a, b < m, in constant time. z may alias
// a or b.
func AddMod(z, a, b, m *Nat) {
	var t Nat
	var c uint64
	t[0], c = bits.Add64(a[0], b[0], 0)
	t[1], c = bits.Add64(a[1], b[1], c)
	t[2], c = bits.Add64(a[2], b[2], c)
	t[3], c = bits.Add64(a[3], b[3], c)
	t[4], c = bits.Add64(a[4], b[4], c)
	t[5], c = bits.Add64(a[5], b[5], c)
	ReduceOnce(z, &t, m, c)
}

// SubMod sets z = a − b mod m for a, b < m, in constant time. z may alias
// a or b.
func SubMod(z, a, b, m *Nat) {
	var t Nat
	var br uint64
	t[0], br = bits.Sub64(a[0], b[0], 0)
	t[1], br = bits.Sub64(a[1], b[1], br)
	t[2], br = bits.Sub64(a[2], b[2], br)
	t[3], br = bits.Sub64(a[3], b[3], br)
	t[4], br = bits.Sub64(a[4], b[4], br)
	t[5], br = bits.Sub64(a[5], b[5], br)
	// On borrow, add m back.
	k := -br
	var c uint64
	z[0], c = bits.Add64(t[0], m[0]&k, 0)
	z[1], c = bits.Add64(t[1], m[1]&k, c)
	z[2], c = bits.Add64(t[2], m[2]&k, c)
	z[3], c = bits.Add64(t[3], m[3]&k, c)
	z[4], c = bits.Add64(t[4], m[4]&k, c)
	z[5], _ = bits.Add64(t[5], m[5]&k, c)
}

// MontMul sets z = x·y·2^-384 mod m for x < 2^384 and y < m, with m odd and
// m0inv = −m⁻¹ mod 2^64, in constant time: word-by-word (CIOS) Montgomery
// multiplication, each row of x·y[i] followed by one reduction round whose
// quotient digit is t[0]·m0inv, then one conditional subtraction. z may
// alias x or y. Any odd m < 2^384 works: the accumulator stays below
// 2^384 + m after each round (below 2m for x < m), the carry out of its
// seventh limb during a row is kept, and the final x·y + Q·m < 2^385·m, so
// the result is below 2m before the conditional subtraction.
func MontMul(z, x, y, m *Nat, m0inv uint64) {
	var t [7]uint64
	for i := 0; i < 6; i++ {
		yi := y[i]
		// t += x·yi, which stays below 2^449.
		var c, hi, lo uint64
		for j := 0; j < 6; j++ {
			hi, lo = bits.Mul64(x[j], yi)
			lo, cc := bits.Add64(lo, c, 0)
			hi += cc
			t[j], cc = bits.Add64(t[j], lo, 0)
			c = hi + cc
		}
		var top uint64
		t[6], top = bits.Add64(t[6], c, 0)
		// Reduction round: t = (t + q·m)/2^64.
		q := t[0] * m0inv
		hi, lo = bits.Mul64(q, m[0])
		_, cc := bits.Add64(t[0], lo, 0)
		c = hi + cc
		for j := 1; j < 6; j++ {
			hi, lo = bits.Mul64(q, m[j])
			lo, cc = bits.Add64(lo, c, 0)
			hi += cc
			t[j-1], cc = bits.Add64(t[j], lo, 0)
			c = hi + cc
		}
		t[5], cc = bits.Add64(t[6], c, 0)
		t[6] = top + cc
	}
	r := Nat{t[0], t[1], t[2], t[3], t[4], t[5]}
	ReduceOnce(z, &r, m, t[6])
}

// IsZero returns 1 if v = 0 and 0 otherwise, in constant time.
func IsZero(v *Nat) int {
	return ct.IsZero(v[0] | v[1] | v[2] | v[3] | v[4] | v[5])
}

// shr1 sets v = v/2.
func shr1(v *Nat) {
	v[0] = v[0]>>1 | v[1]<<63
	v[1] = v[1]>>1 | v[2]<<63
	v[2] = v[2]>>1 | v[3]<<63
	v[3] = v[3]>>1 | v[4]<<63
	v[4] = v[4]>>1 | v[5]<<63
	v[5] >>= 1
}

// half sets x = x/2 mod m for x < m, m odd, in constant time: x + m under
// the mask of x's low bit, shifted right with the carry as the top bit.
func half(x, m *Nat) {
	k := -(x[0] & 1)
	var c uint64
	x[0], c = bits.Add64(x[0], m[0]&k, 0)
	x[1], c = bits.Add64(x[1], m[1]&k, c)
	x[2], c = bits.Add64(x[2], m[2]&k, c)
	x[3], c = bits.Add64(x[3], m[3]&k, c)
	x[4], c = bits.Add64(x[4], m[4]&k, c)
	x[5], c = bits.Add64(x[5], m[5]&k, c)
	shr1(x)
	x[5] |= c << 63
}

// Half sets z = x/2 mod m for x < m and m odd, in constant time. z may alias
// x.
func Half(z, x, m *Nat) {
	*z = *x
	half(z, m)
}
