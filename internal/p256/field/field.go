// Package field implements arithmetic modulo the P-256 base field prime
// p = 2^256 - 2^224 + 2^192 + 2^96 - 1.
//
// An Element is four little-endian 64-bit limbs holding a value in Montgomery
// form (a·R mod p with R = 2^256). Every method assumes its Element arguments
// are fully reduced (limbs value < p) and produces fully reduced results;
// SetBytes is the only way in from outside data and enforces the range.
//
// All operations are constant time with respect to the values of their
// operands unless their name ends in Vartime. Methods store their result in
// the receiver and return it; the receiver and the arguments may alias
// freely.
package field

import (
	"errors"
	"math/bits"

	"github.com/p256tls/p256tls/internal/ct"
)

// Element is a field element in Montgomery form, least significant limb
// first. The zero value is the field element 0. Static tables may be written
// as Element literals of Montgomery-form limbs.
type Element [4]uint64

// p in little-endian limbs.
const (
	p0 = 0xffffffffffffffff
	p1 = 0x00000000ffffffff
	p2 = 0x0000000000000000
	p3 = 0xffffffff00000001
)

// rr is R^2 mod p, used to enter Montgomery form.
var rr = Element{0x0000000000000003, 0xfffffffbffffffff, 0xfffffffffffffffe, 0x00000004fffffffd}

// one is R mod p, the Montgomery form of 1.
var one = Element{0x0000000000000001, 0xffffffff00000000, 0xffffffffffffffff, 0x00000000fffffffe}

// ErrRange is returned by SetBytes for an encoding of a value ≥ p.
var ErrRange = errors.New("field: value is not less than p")

// ErrLength is returned by SetBytes for an input that is not 32 bytes long.
var ErrLength = errors.New("field: encoding is not 32 bytes")

// Half sets e = a/2 mod p and returns e, in constant time. Montgomery form is
// linear, so halving the representation halves the value: the result is
// a/2 when a is even and (a + p)/2 when it is odd, which is below p for
// every a < p. a + p may carry out of 256 bits; the carry becomes the top
// bit of the shifted result.
func (e *Element) Half(a *Element) *Element {
	m := -(a[0] & 1)
	var t Element
	var c uint64
	t[0], c = bits.Add64(a[0], p0&m, 0)
	t[1], c = bits.Add64(a[1], p1&m, c)
	t[2], c = bits.Add64(a[2], p2&m, c)
	t[3], c = bits.Add64(a[3], p3&m, c)
	e[0] = t[0]>>1 | t[1]<<63
	e[1] = t[1]>>1 | t[2]<<63
	e[2] = t[2]>>1 | t[3]<<63
	e[3] = t[3]>>1 | c<<63
	return e
}

// Invert sets e = a^-1 mod p (a^(p-2), so 0 maps to 0) and returns e.
//
//p256tls:secret
func (e *Element) Invert(a *Element) *Element {
	// p - 2 = [32 ones][31 zeros][1][96 zeros][94 ones][0][1], from the top.
	var x30, x32, t Element
	chain(&t, &x32, &x30, a)
	t.SquareN(&t, 128).Mul(&t, &x32)
	t.SquareN(&t, 32).Mul(&t, &x32)
	t.SquareN(&t, 30).Mul(&t, &x30)
	t.SquareN(&t, 2).Mul(&t, a)
	*e = t
	return e
}

// chain sets x30 and x32 to a^(2^k − 1) for k = 30, 32, and t to
// a^(2^64 − 2^32 + 1) ([32 ones][31 zeros][1]): the top 64 bits that the
// exponents of Invert and Sqrt share, and the runs of ones the rest of
// Invert's needs. t, x32 and x30 must be distinct and must not alias a.
//
//p256tls:secret
func chain(t, x32, x30, a *Element) {
	var x2, x3, x6, x12, x15 Element
	x2.Square(a).Mul(&x2, a)
	x3.Square(&x2).Mul(&x3, a)
	x6.SquareN(&x3, 3).Mul(&x6, &x3)
	x12.SquareN(&x6, 6).Mul(&x12, &x6)
	x15.SquareN(&x12, 3).Mul(&x15, &x3)
	x30.SquareN(&x15, 15).Mul(x30, &x15)
	x32.SquareN(x30, 2).Mul(x32, &x2)
	t.SquareN(x32, 32).Mul(t, a)
}

// Sqrt sets e to a square root of a and returns (e, 1) if a is a square mod
// p; otherwise it leaves e unchanged and returns (e, 0). The root returned
// is a^((p+1)/4). Constant time.
func (e *Element) Sqrt(a *Element) (*Element, int) {
	// (p + 1)/4 = [32 ones][31 zeros][1][95 zeros][1][94 zeros], from the top.
	var x30, x32, t, c Element
	chain(&t, &x32, &x30, a)
	t.SquareN(&t, 96).Mul(&t, a)
	t.SquareN(&t, 94)
	c.Square(&t)
	ok := c.Equal(a)
	e.Select(&t, e, ok)
	return e, ok
}

// SetBytes sets e to the value of the 32-byte big-endian encoding b and
// returns e. If b is not 32 bytes or encodes a value ≥ p, it returns an error
// and leaves e unchanged. Constant time in the value of b.
func (e *Element) SetBytes(b []byte) (*Element, error) {
	if len(b) != 32 {
		return e, ErrLength
	}
	t := Element(ct.Load4((*[32]byte)(b)))
	var br uint64
	_, br = bits.Sub64(t[0], p0, 0)
	_, br = bits.Sub64(t[1], p1, br)
	_, br = bits.Sub64(t[2], p2, br)
	_, br = bits.Sub64(t[3], p3, br)
	if br == 0 { // t ≥ p; the range check of an encoding is public.
		return e, ErrRange
	}
	mul(e, &t, &rr)
	return e, nil
}

// Bytes returns the 32-byte big-endian encoding of e's value (out of
// Montgomery form).
func (e *Element) Bytes() [32]byte {
	var out [32]byte
	e.PutBytes(&out)
	return out
}

// PutBytes writes the 32-byte big-endian encoding of e's value to out.
func (e *Element) PutBytes(out *[32]byte) {
	var t Element
	fromMontgomery(&t, e)
	ct.Store4(out, (*[4]uint64)(&t))
}

// Canonical returns the value of e as plain (non-Montgomery) little-endian
// limbs.
func (e *Element) Canonical() [4]uint64 {
	var t Element
	fromMontgomery(&t, e)
	return t
}

// SetCanonical sets e to the value v (plain little-endian limbs, v < p) in
// Montgomery form and returns e. It returns an error and leaves e unchanged
// if v ≥ p.
func (e *Element) SetCanonical(v [4]uint64) (*Element, error) {
	var br uint64
	_, br = bits.Sub64(v[0], p0, 0)
	_, br = bits.Sub64(v[1], p1, br)
	_, br = bits.Sub64(v[2], p2, br)
	_, br = bits.Sub64(v[3], p3, br)
	if br == 0 {
		return e, ErrRange
	}
	t := Element(v)
	mul(e, &t, &rr)
	return e, nil
}

// fromMontgomery sets e = a·R^-1 mod p.
func fromMontgomery(e, a *Element) {
	o := Element{1}
	mul(e, a, &o)
}
