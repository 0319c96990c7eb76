// Package field implements arithmetic modulo the P-384 base field prime
// p = 2^384 − 2^128 − 2^96 + 2^32 − 1.
//
// An Element is six little-endian 64-bit limbs holding a value in Montgomery
// form (a·R mod p with R = 2^384). Every method assumes its Element arguments
// are fully reduced (limbs value < p) and produces fully reduced results, so
// the representation of a value is unique; SetBytes is the way in from
// outside data and enforces the range.
//
// All operations are constant time with respect to the values of their
// operands unless their name ends in Vartime. Methods store their result in
// the receiver and return it; the receiver and the arguments may alias
// freely. Nothing allocates.
//
// The multiplication and squaring kernels are, on amd64, generated assembly
// (internal/p384/field/_asm, MULX/ADCX/ADOX or MULQ, chosen at start-up);
// field_generic.go holds their portable twin on math/bits, used under the
// purego tag and on other architectures, and the reference the assembly is
// tested against bit for bit. docs/arithmetic.md ("P-384 field") explains
// the reduction.
package field

import (
	"errors"
	"github.com/p256tls/p256tls/internal/ct"

	"github.com/p256tls/p256tls/internal/p384/internal/limbs"
	"github.com/p256tls/p256tls/internal/safegcd"
)

// Element is a field element in Montgomery form, least significant limb
// first. The zero value is the field element 0.
type Element [6]uint64

// p in little-endian limbs.
const (
	p0 = 0x00000000ffffffff
	p1 = 0xffffffff00000000
	p2 = 0xfffffffffffffffe
	p3 = 0xffffffffffffffff
	p4 = 0xffffffffffffffff
	p5 = 0xffffffffffffffff
)

// prime is p as limbs.
var prime = [6]uint64{p0, p1, p2, p3, p4, p5}

// rr is R² mod p, used to enter Montgomery form.
var rr = Element{0xfffffffe00000001, 0x0000000200000000, 0xfffffffe00000000, 0x0000000200000000, 0x0000000000000001, 0}

// one is R mod p, the Montgomery form of 1.
var one = Element{0xffffffff00000001, 0x00000000ffffffff, 0x0000000000000001, 0, 0, 0}

var (
	// ErrRange is returned by SetBytes for an encoding of a value ≥ p.
	ErrRange = errors.New("field: value is not less than p")
	// ErrLength is returned by SetBytes for an input that is not 48 bytes.
	ErrLength = errors.New("field: encoding is not 48 bytes")
)

// Add, Sub and reduceOnce (arith.go, written by genfield) are limbs.AddMod,
// SubMod and ReduceOnce with p's limbs as constants. Calling those instead
// measured Add 5.5 → 7.5 ns and the portable Mul (which ends in reduceOnce)
// 37.8 → 40.1 ns (6 interleaved runs of BenchmarkAdd and BenchmarkMul), so
// the field keeps its own.

// Half sets e = a/2 mod p and returns e, in constant time. Montgomery form
// is linear, so halving the representation halves the value.
func (e *Element) Half(a *Element) *Element {
	limbs.Half((*[6]uint64)(e), (*[6]uint64)(a), &prime)
	return e
}

// Invert sets e = a⁻¹ mod p (a^(p−2), so 0 maps to 0) and returns e, in
// constant time: a fixed addition chain of 383 squarings and 14
// multiplications.
func (e *Element) Invert(a *Element) *Element {
	// p − 2 = [255 ones][0][32 ones][64 zeros][30 ones][0][1], from the top.
	var x32, x30, x255 Element
	chain(&x255, &x32, &x30, a)
	t := x255
	t.SquareN(&t, 33).Mul(&t, &x32)
	t.SquareN(&t, 94).Mul(&t, &x30)
	t.SquareN(&t, 2).Mul(&t, a)
	*e = t
	return e
}

// chain sets x255, x32, x30 to a^(2^k − 1) for k = 255, 32, 30, the runs of
// ones that the exponents of Invert and Sqrt share.
func chain(x255, x32, x30, a *Element) {
	var x2, x3, x6, x12, x15, x60, x120, t Element
	x2.Square(a).Mul(&x2, a)
	x3.Square(&x2).Mul(&x3, a)
	x6.SquareN(&x3, 3).Mul(&x6, &x3)
	x12.SquareN(&x6, 6).Mul(&x12, &x6)
	x15.SquareN(&x12, 3).Mul(&x15, &x3)
	x30.SquareN(&x15, 15).Mul(x30, &x15)
	x60.SquareN(x30, 30).Mul(&x60, x30)
	x120.SquareN(&x60, 60).Mul(&x120, &x60)
	t.SquareN(&x120, 120).Mul(&t, &x120)
	x255.SquareN(&t, 15).Mul(x255, &x15)
	x32.SquareN(x30, 2).Mul(x32, &x2)
}

// Sqrt sets e to a square root of a and returns (e, 1) if a is a square mod
// p; otherwise it leaves e unchanged and returns (e, 0). The root returned
// is a^((p+1)/4) (p ≡ 3 mod 4). Constant time.
func (e *Element) Sqrt(a *Element) (*Element, int) {
	// (p + 1)/4 = [255 ones][0][32 ones][63 zeros][1][30 zeros], from the top.
	var x32, x30, t, c Element
	chain(&t, &x32, &x30, a)
	t.SquareN(&t, 33).Mul(&t, &x32)
	t.SquareN(&t, 64).Mul(&t, a)
	t.SquareN(&t, 30)
	c.Square(&t)
	ok := c.Equal(a)
	e.Select(&t, e, ok)
	return e, ok
}

// primeMod holds p and the constants of the safegcd division modulo p.
var primeMod = safegcd.NewModulus384(prime)

// InvertVartime sets e = a⁻¹ mod p (0 maps to 0) and returns e. It is not
// constant time: use it only when a is public. It divides R² by a with the
// variable-time Bernstein–Yang divsteps of package safegcd: for a = x·R
// that is R/x, the Montgomery form of x⁻¹.
func (e *Element) InvertVartime(a *Element) *Element {
	primeMod.DivVartime((*[6]uint64)(e), (*[6]uint64)(&rr), (*[6]uint64)(a))
	return e
}

// SetBytes sets e to the value of the 48-byte big-endian encoding b and
// returns e. If b is not 48 bytes or encodes a value ≥ p, it returns nil and
// an error and leaves e unchanged. Constant time in the value of b (the
// range check's outcome is public).
func (e *Element) SetBytes(b []byte) (*Element, error) {
	if len(b) != 48 {
		return nil, ErrLength
	}
	t := Element(ct.Load6((*[48]byte)(b)))
	if limbs.Less((*[6]uint64)(&t), &prime) == 0 {
		return nil, ErrRange
	}
	mul(e, &t, &rr)
	return e, nil
}

// Bytes returns the 48-byte big-endian encoding of e's value (out of
// Montgomery form). Constant time.
func (e *Element) Bytes() [48]byte {
	var out [48]byte
	e.PutBytes(&out)
	return out
}

// PutBytes writes the 48-byte big-endian encoding of e's value (out of
// Montgomery form) to out. Constant time.
func (e *Element) PutBytes(out *[48]byte) {
	t := e.Canonical()
	ct.Store6(out, &t)
}

// Canonical returns the value of e as plain (non-Montgomery) little-endian
// limbs, below p. Constant time.
func (e *Element) Canonical() [6]uint64 {
	var t Element
	o := Element{1}
	mul(&t, e, &o)
	return t
}

// SetCanonical sets e to the value v (plain little-endian limbs) in
// Montgomery form and returns e. If v ≥ p it returns nil and ErrRange and
// leaves e unchanged. Constant time in v (the range check's outcome is
// public).
func (e *Element) SetCanonical(v [6]uint64) (*Element, error) {
	if limbs.Less(&v, &prime) == 0 {
		return nil, ErrRange
	}
	t := Element(v)
	mul(e, &t, &rr)
	return e, nil
}
