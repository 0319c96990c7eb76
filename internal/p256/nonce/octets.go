package nonce

import (
	"math/bits"

	"github.com/p256tls/p256tls/internal/ct"
	"github.com/p256tls/p256tls/internal/p256/scalar"
)

// order is n, the order of the P-256 base point, least significant limb
// first; its one home is internal/p256/scalar.
var order = scalar.N

// sub returns a - b mod 2^256 and the borrow (1 if a < b, else 0).
//
//p256tls:secret
func sub(a, b *[4]uint64) (d [4]uint64, borrow uint64) {
	d[0], borrow = bits.Sub64(a[0], b[0], 0)
	d[1], borrow = bits.Sub64(a[1], b[1], borrow)
	d[2], borrow = bits.Sub64(a[2], b[2], borrow)
	d[3], borrow = bits.Sub64(a[3], b[3], borrow)
	return d, borrow
}

// inRange returns 1 if 1 <= k < bound and 0 otherwise, in constant time.
//
//p256tls:secret
func inRange(k *[32]byte, bound *[4]uint64) uint64 {
	a := ct.Load4(k)
	return uint64(ct.InRange(&a, bound))
}

// bits2octets sets dst to bits2octets(h1) of RFC 6979 section 2.3.4 for
// qlen = 256: z1 = bits2int(h1) (the leftmost 256 bits of h1, or h1
// zero-extended on the left if shorter), then z1 mod n as 32 bytes. As
// z1 < 2^256 < 2n, one constant-time conditional subtraction reduces it.
// Only len(h1), which is public, selects a branch.
//
//p256tls:secret
func bits2octets(dst *[32]byte, h1 []byte) {
	var t [32]byte
	if len(h1) >= len(t) {
		copy(t[:], h1)
	} else {
		copy(t[len(t)-len(h1):], h1)
	}
	z1 := ct.Load4(&t)
	z2, borrow := sub(&z1, &order)
	keep := -borrow // all ones if z1 < n: keep z1; zero: take z1 - n
	var r [4]uint64
	for i := range r {
		r[i] = z2[i] ^ ((z1[i] ^ z2[i]) & keep)
	}
	ct.Store4(dst, &r)
	clear(t[:])
}
