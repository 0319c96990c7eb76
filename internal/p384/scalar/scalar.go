// Package scalar implements arithmetic modulo the order of the P-384 group,
// n = 0xffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf
// 581a0db248b0a77aecec196accc52973.
//
// A Scalar is six little-endian 64-bit limbs holding a value in Montgomery
// form (a·R mod n, R = 2^384). Every method assumes its Scalar arguments are
// fully reduced and produces fully reduced results. Methods store their
// result in the receiver and return it; receiver and arguments may alias
// freely. Nothing allocates.
//
// Everything is constant time with respect to the values of the operands
// unless its name ends in Vartime (public inputs only). The kernels are
// portable Go on math/bits: n has no special form, so the multiplication is
// word-by-word Montgomery multiplication with −n⁻¹ mod 2^64.
package scalar

import (
	"errors"
	"github.com/p256tls/p256tls/internal/ct"

	"github.com/p256tls/p256tls/internal/p384/internal/limbs"
	"github.com/p256tls/p256tls/internal/safegcd"
)

// Scalar is an integer modulo n in Montgomery form, least significant limb
// first. The zero value is 0.
type Scalar [6]uint64

// N is the group order as plain little-endian limbs.
var N = [6]uint64{0xecec196accc52973, 0x581a0db248b0a77a, 0xc7634d81f4372ddf,
	0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff}

// n0inv is −n⁻¹ mod 2^64.
const n0inv = 0x6ed46089e88fdc45

// rr is R² mod n.
var rr = Scalar{0x2d319b2419b409a9, 0xff3d81e5df1aa419, 0xbc3e483afcb82947,
	0xd40d49174aab1cc5, 0x3fb05b7a28266895, 0x0c84ee012b39bf21}

// one is R mod n.
var one = Scalar{0x1313e695333ad68d, 0xa7e5f24db74f5885, 0x389cb27e0bc8d220, 0, 0, 0}

var (
	// ErrRange is returned for an encoding of a value ≥ n.
	ErrRange = errors.New("scalar: value is not less than the group order")
	// ErrLength is returned for an encoding that is not 48 bytes.
	ErrLength = errors.New("scalar: encoding is not 48 bytes")
)

func (s *Scalar) nat() *[6]uint64 { return (*[6]uint64)(s) }

// Zero sets s = 0 and returns s.
func (s *Scalar) Zero() *Scalar { *s = Scalar{}; return s }

// One sets s = 1 and returns s.
func (s *Scalar) One() *Scalar { *s = one; return s }

// Set sets s = a and returns s.
func (s *Scalar) Set(a *Scalar) *Scalar { *s = *a; return s }

// Mul sets s = a·b mod n and returns s. Constant time.
func (s *Scalar) Mul(a, b *Scalar) *Scalar {
	limbs.MontMul(s.nat(), a.nat(), b.nat(), &N, n0inv)
	return s
}

// Square sets s = a² mod n and returns s. Constant time.
func (s *Scalar) Square(a *Scalar) *Scalar { return s.Mul(a, a) }

// Add sets s = a + b mod n and returns s. Constant time.
func (s *Scalar) Add(a, b *Scalar) *Scalar {
	limbs.AddMod(s.nat(), a.nat(), b.nat(), &N)
	return s
}

// Sub sets s = a − b mod n and returns s. Constant time.
func (s *Scalar) Sub(a, b *Scalar) *Scalar {
	limbs.SubMod(s.nat(), a.nat(), b.nat(), &N)
	return s
}

// Neg sets s = −a mod n and returns s. Constant time.
func (s *Scalar) Neg(a *Scalar) *Scalar {
	var z Scalar
	return s.Sub(&z, a)
}

// Equal returns 1 if s == a and 0 otherwise, in constant time.
func (s *Scalar) Equal(a *Scalar) int {
	d := Scalar{s[0] ^ a[0], s[1] ^ a[1], s[2] ^ a[2], s[3] ^ a[3], s[4] ^ a[4], s[5] ^ a[5]}
	return d.IsZero()
}

// IsZero returns 1 if s == 0 and 0 otherwise, in constant time.
func (s *Scalar) IsZero() int { return limbs.IsZero(s.nat()) }

// order holds n and the constants of the safegcd division modulo n.
var order = safegcd.NewModulus384(N)

// InvertVartime sets s = a⁻¹ mod n (0 maps to 0) and returns s. It is not
// constant time: use it only when a is public (signature verification). It
// divides R² by a with the variable-time Bernstein–Yang divsteps of package
// safegcd, which for a = x·R is R/x, the Montgomery form of x⁻¹.
func (s *Scalar) InvertVartime(a *Scalar) *Scalar {
	order.DivVartime(s.nat(), rr.nat(), a.nat())
	return s
}

// SetBytes sets s to the value of the 48-byte big-endian encoding b and
// returns s. If b is not 48 bytes or encodes a value ≥ n, it returns nil
// and an error and leaves s unchanged. 0 is accepted. Constant time in the
// value of b (the range check's outcome is public).
func (s *Scalar) SetBytes(b []byte) (*Scalar, error) {
	if len(b) != 48 {
		return nil, ErrLength
	}
	return s.SetCanonical(ct.Load6((*[48]byte)(b)))
}

// Bytes returns the 48-byte big-endian encoding of s's value (out of
// Montgomery form). Constant time.
func (s *Scalar) Bytes() [48]byte {
	t := s.Canonical()
	var out [48]byte
	ct.Store6(&out, &t)
	return out
}

// SetDigest sets s = bits2int(digest) mod n and returns s, as crypto/ecdsa
// turns a message digest into a scalar: the leftmost 384 bits of the
// digest (the whole digest, as a big-endian integer, when it is shorter),
// reduced mod n. Any length is accepted. Constant time in the digest's
// value.
func (s *Scalar) SetDigest(digest []byte) *Scalar {
	var buf [48]byte
	if len(digest) >= 48 {
		copy(buf[:], digest[:48])
	} else {
		copy(buf[48-len(digest):], digest)
	}
	// v < 2^384 need not be below n: MontMul reduces v·R² mod n fully for
	// any v < 2^384.
	v := ct.Load6(&buf)
	limbs.MontMul(s.nat(), &v, rr.nat(), &N, n0inv)
	return s
}

// SetCanonical sets s to the plain value v (little-endian limbs) and
// returns s. If v ≥ n it returns nil and ErrRange and leaves s unchanged.
// Constant time in v's value (the range check's outcome is public).
func (s *Scalar) SetCanonical(v [6]uint64) (*Scalar, error) {
	if limbs.Less(&v, &N) == 0 {
		return nil, ErrRange
	}
	limbs.MontMul(s.nat(), &v, rr.nat(), &N, n0inv)
	return s, nil
}

// Canonical returns s's value as plain little-endian limbs (out of
// Montgomery form), for recoding into digits. Constant time.
func (s *Scalar) Canonical() [6]uint64 {
	var t [6]uint64
	limbs.MontMul(&t, s.nat(), &[6]uint64{1}, &N, n0inv)
	return t
}
