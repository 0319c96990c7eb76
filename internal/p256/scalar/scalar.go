// Package scalar implements arithmetic modulo the order of the P-256 group,
// n = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551.
//
// A Scalar is four little-endian 64-bit limbs holding a value in Montgomery
// form (a·R mod n, R = 2^256). Every method assumes its Scalar arguments are
// fully reduced and produces fully reduced results. Methods store their result
// in the receiver and return it; receiver and arguments may alias freely.
//
// Everything is constant time with respect to the values of the operands
// unless its name ends in Vartime (public inputs only).
//
// The kernels are portable Go on math/bits, except the Montgomery
// multiplication on arm64, a generated kernel (scalar_arm64.s, from
// _asm/arm64) with montMulGeneric as its twin. amd64 has no kernel for n:
// ECDSA performs a handful of scalar multiplications per signature and one
// inversion, and there the portable code costs little next to the rest;
// on arm64 the compiler's code for the twin costs about three times the
// kernel's instructions.
package scalar

import (
	"errors"
	"math/bits"

	"github.com/p256tls/p256tls/internal/ct"
)

// Scalar is an integer modulo n in Montgomery form, least significant limb
// first. The zero value is 0.
type Scalar [4]uint64

const (
	n0 = 0xf3b9cac2fc632551
	n1 = 0xbce6faada7179e84
	n2 = 0xffffffffffffffff
	n3 = 0xffffffff00000000
	// n0inv is -n^-1 mod 2^64.
	n0inv = 0xccd1c8aaee00bc4f
)

// N is the group order as plain little-endian limbs.
var N = [4]uint64{n0, n1, n2, n3}

// rr is R^2 mod n.
var rr = Scalar{0x83244c95be79eea2, 0x4699799c49bd6fa6, 0x2845b2392b6bec59, 0x66e12d94f3d95620}

// one is R mod n.
var one = Scalar{0x0c46353d039cdaaf, 0x4319055258e8617b, 0x0000000000000000, 0x00000000ffffffff}

var (
	// ErrRange is returned for an encoding of a value ≥ n.
	ErrRange = errors.New("scalar: value is not less than the group order")
	// ErrLength is returned for an encoding of the wrong length.
	ErrLength = errors.New("scalar: encoding has the wrong length")
)

// One sets s = 1 and returns s.
func (s *Scalar) One() *Scalar { *s = one; return s }

// Mul sets s = a·b mod n and returns s.
//
//p256tls:secret
func (s *Scalar) Mul(a, b *Scalar) *Scalar { montMul(s, a, b); return s }

// Add sets s = a + b mod n and returns s.
//
//p256tls:secret
func (s *Scalar) Add(a, b *Scalar) *Scalar {
	var t Scalar
	var c uint64
	t[0], c = bits.Add64(a[0], b[0], 0)
	t[1], c = bits.Add64(a[1], b[1], c)
	t[2], c = bits.Add64(a[2], b[2], c)
	t[3], c = bits.Add64(a[3], b[3], c)
	reduceOnce(s, &t, c)
	return s
}

// Equal returns 1 if s == a and 0 otherwise.
func (s *Scalar) Equal(a *Scalar) int {
	return ct.IsZero((s[0] ^ a[0]) | (s[1] ^ a[1]) | (s[2] ^ a[2]) | (s[3] ^ a[3]))
}

// IsZero returns 1 if s == 0 and 0 otherwise.
func (s *Scalar) IsZero() int {
	return ct.IsZero(s[0] | s[1] | s[2] | s[3])
}

// reduceOnce sets s = hi·2^256 + t - n if that is ≥ 0, else t. It needs
// hi·2^256 + t < 2n.
//
//p256tls:secret
func reduceOnce(s, t *Scalar, hi uint64) {
	var u Scalar
	var b uint64
	u[0], b = bits.Sub64(t[0], n0, 0)
	u[1], b = bits.Sub64(t[1], n1, b)
	u[2], b = bits.Sub64(t[2], n2, b)
	u[3], b = bits.Sub64(t[3], n3, b)
	_, b = bits.Sub64(hi, 0, b)
	keep := -b
	for i := range s {
		s[i] = u[i] ^ (keep & (u[i] ^ t[i]))
	}
}

// lessThanN returns 1 if the plain value v < n, else 0. Constant time.
func lessThanN(v *[4]uint64) uint64 {
	var b uint64
	_, b = bits.Sub64(v[0], n0, 0)
	_, b = bits.Sub64(v[1], n1, b)
	_, b = bits.Sub64(v[2], n2, b)
	_, b = bits.Sub64(v[3], n3, b)
	return b
}

// SetCanonical sets s to the plain value v (little-endian limbs), which must
// be < n; otherwise it returns ErrRange and leaves s unchanged. The range
// check's outcome is treated as public.
func (s *Scalar) SetCanonical(v [4]uint64) (*Scalar, error) {
	if lessThanN(&v) == 0 {
		return s, ErrRange
	}
	t := Scalar(v)
	montMul(s, &t, &rr)
	return s, nil
}

// SetBytes sets s to the value of the 32-byte big-endian encoding b and
// returns s. It returns an error and leaves s unchanged if b is not 32 bytes
// long or its value is ≥ n. Zero is accepted (check IsZero where it is not
// allowed).
func (s *Scalar) SetBytes(b []byte) (*Scalar, error) {
	if len(b) != 32 {
		return s, ErrLength
	}
	return s.SetCanonical(ct.Load4((*[32]byte)(b)))
}

// SetDigest sets s = bits2int(digest) mod n as ECDSA does it (FIPS 186-5
// §6.4, RFC 6979 §2.3.2): the leftmost 256 bits of the digest, as an
// integer, reduced modulo n. A digest shorter than 32 bytes is taken as a
// big-endian integer. Constant time in the digest's value.
//
//p256tls:secret
func (s *Scalar) SetDigest(digest []byte) *Scalar {
	var buf [32]byte
	if len(digest) >= 32 {
		copy(buf[:], digest[:32])
	} else {
		copy(buf[32-len(digest):], digest)
	}
	v := ct.Load4(&buf)
	// v < 2^256 < 2n: one conditional subtraction reduces it.
	t := Scalar(v)
	var r Scalar
	reduceOnce(&r, &t, 0)
	montMul(s, &r, &rr)
	return s
}

// Bytes returns the 32-byte big-endian encoding of s's value.
//
//p256tls:secret
func (s *Scalar) Bytes() [32]byte {
	v := s.Canonical()
	var out [32]byte
	ct.Store4(&out, &v)
	return out
}

// Canonical returns s's value as plain little-endian limbs (out of
// Montgomery form), for recoding into digits.
//
//p256tls:secret
func (s *Scalar) Canonical() [4]uint64 {
	var t Scalar
	o := Scalar{1}
	montMul(&t, s, &o)
	return t
}

// montMulGeneric sets z = x·y·R^-1 mod n (CIOS): montMul's portable twin.
//
//p256tls:secret
func montMulGeneric(z, x, y *Scalar) {
	var t0, t1, t2, t3, t4 uint64
	for i := 0; i < 4; i++ {
		yi := y[i]
		var c, t5 uint64
		c, t0 = madd(x[0], yi, t0, 0)
		c, t1 = madd(x[1], yi, t1, c)
		c, t2 = madd(x[2], yi, t2, c)
		c, t3 = madd(x[3], yi, t3, c)
		t4, t5 = bits.Add64(t4, c, 0)
		m := t0 * n0inv
		c, _ = madd(m, n0, t0, 0)
		c, t0 = madd(m, n1, t1, c)
		c, t1 = madd(m, n2, t2, c)
		c, t2 = madd(m, n3, t3, c)
		t3, c = bits.Add64(t4, c, 0)
		t4 = t5 + c
	}
	t := Scalar{t0, t1, t2, t3}
	reduceOnce(z, &t, t4)
}

// madd returns a·b + c + d as (hi, lo).
//
//p256tls:secret
func madd(a, b, c, d uint64) (hi, lo uint64) {
	hi, lo = bits.Mul64(a, b)
	var cc uint64
	lo, cc = bits.Add64(lo, c, 0)
	hi += cc
	lo, cc = bits.Add64(lo, d, 0)
	hi += cc
	return
}
