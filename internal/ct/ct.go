// Package ct holds the constant-time primitives that the arithmetic
// packages share: zero tests, masks, the range check of a secret scalar and
// the conversions between big-endian bytes and little-endian 64-bit limbs.
// Each is branch-free and touches no memory that depends on its inputs.
// Results that are conditions are ints that are exactly 0 or 1, as in
// crypto/subtle.
package ct

import (
	"encoding/binary"
	"math/bits"
)

// IsZero returns 1 if x == 0 and 0 otherwise.
//
//p256tls:secret
func IsZero(x uint64) int {
	return int(1 ^ ((x | -x) >> 63))
}

// Mask returns all ones if c == 1 and 0 if c == 0; c must be 0 or 1.
//
//p256tls:secret
func Mask(c int) uint64 {
	return -uint64(c)
}

// Less returns 1 if a < b and 0 otherwise, for 256-bit values as
// little-endian limbs.
//
//p256tls:secret
func Less(a, b *[4]uint64) int {
	var br uint64
	_, br = bits.Sub64(a[0], b[0], 0)
	_, br = bits.Sub64(a[1], b[1], br)
	_, br = bits.Sub64(a[2], b[2], br)
	_, br = bits.Sub64(a[3], b[3], br)
	return int(br)
}

// InRange returns 1 if 1 ≤ k < bound and 0 otherwise, for 256-bit values
// as little-endian limbs: the check of a private key or a nonce against
// the group order.
//
//p256tls:secret
func InRange(k, bound *[4]uint64) int {
	return Less(k, bound) & (1 ^ IsZero(k[0]|k[1]|k[2]|k[3]))
}

// Load4 returns the value of the 32-byte big-endian b as little-endian
// limbs.
//
//p256tls:secret
func Load4(b *[32]byte) [4]uint64 {
	return [4]uint64{
		binary.BigEndian.Uint64(b[24:]), // the least significant limb
		binary.BigEndian.Uint64(b[16:]),
		binary.BigEndian.Uint64(b[8:]),
		binary.BigEndian.Uint64(b[0:]),
	}
}

// Store4 writes the little-endian limbs v to b, 32 bytes big-endian.
//
//p256tls:secret
func Store4(b *[32]byte, v *[4]uint64) {
	binary.BigEndian.PutUint64(b[24:], v[0])
	binary.BigEndian.PutUint64(b[16:], v[1])
	binary.BigEndian.PutUint64(b[8:], v[2])
	binary.BigEndian.PutUint64(b[0:], v[3])
}

// Load6 returns the value of the 48-byte big-endian b as little-endian
// limbs (P-384).
func Load6(b *[48]byte) [6]uint64 {
	return [6]uint64{
		binary.BigEndian.Uint64(b[40:]),
		binary.BigEndian.Uint64(b[32:]),
		binary.BigEndian.Uint64(b[24:]),
		binary.BigEndian.Uint64(b[16:]),
		binary.BigEndian.Uint64(b[8:]),
		binary.BigEndian.Uint64(b[0:]),
	}
}

// Store6 writes the little-endian limbs v to b, 48 bytes big-endian
// (P-384).
func Store6(b *[48]byte, v *[6]uint64) {
	binary.BigEndian.PutUint64(b[40:], v[0])
	binary.BigEndian.PutUint64(b[32:], v[1])
	binary.BigEndian.PutUint64(b[24:], v[2])
	binary.BigEndian.PutUint64(b[16:], v[3])
	binary.BigEndian.PutUint64(b[8:], v[4])
	binary.BigEndian.PutUint64(b[0:], v[5])
}
