package nonce

import (
	"encoding/binary"
	"math/bits"
)

// order is n, the order of the P-256 base point, least significant limb first.
var order = [4]uint64{
	0xf3b9cac2fc632551,
	0xbce6faada7179e84,
	0xffffffffffffffff,
	0xffffffff00000000,
}

// load returns the limbs of the big-endian b, least significant first.
//
//p256tls:secret
func load(b *[32]byte) [4]uint64 {
	return [4]uint64{
		binary.BigEndian.Uint64(b[24:]),
		binary.BigEndian.Uint64(b[16:]),
		binary.BigEndian.Uint64(b[8:]),
		binary.BigEndian.Uint64(b[0:]),
	}
}

// store writes the limbs a to b, big-endian.
//
//p256tls:secret
func store(b *[32]byte, a *[4]uint64) {
	binary.BigEndian.PutUint64(b[24:], a[0])
	binary.BigEndian.PutUint64(b[16:], a[1])
	binary.BigEndian.PutUint64(b[8:], a[2])
	binary.BigEndian.PutUint64(b[0:], a[3])
}

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
	a := load(k)
	_, below := sub(&a, bound)
	nz := a[0] | a[1] | a[2] | a[3]
	nonZero := (nz | -nz) >> 63
	return below & nonZero
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
	z1 := load(&t)
	z2, borrow := sub(&z1, &order)
	keep := -borrow // all ones if z1 < n: keep z1; zero: take z1 - n
	var r [4]uint64
	for i := range r {
		r[i] = z2[i] ^ ((z1[i] ^ z2[i]) & keep)
	}
	store(dst, &r)
	clear(t[:])
}
