// Package ct holds the constant-time primitives that the arithmetic
// packages share: zero tests, masks and the range check of a secret scalar.
// Each is branch-free and touches no memory that depends on its inputs.
// Results that are conditions are ints that are exactly 0 or 1, as in
// crypto/subtle.
package ct

import "math/bits"

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
