package field

import "math/bits"

// This file holds the portable kernels: Montgomery multiplication and
// squaring on math/bits. They are the only kernels on architectures other
// than amd64 and under the purego build tag, and the reference that the
// assembly kernels are tested against bit for bit.

// mulGeneric sets z = x·y·R^-1 mod p.
func mulGeneric(z, x, y *Element) {
	var t [8]uint64
	var c uint64
	// Row 0.
	c, t[0] = bits.Mul64(x[0], y[0])
	c, t[1] = madd(x[1], y[0], c, 0)
	c, t[2] = madd(x[2], y[0], c, 0)
	c, t[3] = madd(x[3], y[0], c, 0)
	t[4] = c
	// Rows 1..3.
	for i := 1; i < 4; i++ {
		yi := y[i]
		c, t[i] = madd(x[0], yi, t[i], 0)
		c, t[i+1] = madd(x[1], yi, t[i+1], c)
		c, t[i+2] = madd(x[2], yi, t[i+2], c)
		c, t[i+3] = madd(x[3], yi, t[i+3], c)
		t[i+4] = c
	}
	redc(z, &t)
}

// squareGeneric sets z = x·x·R^-1 mod p.
func squareGeneric(z, x *Element) {
	var t [8]uint64
	var c uint64
	// Off-diagonal products x[i]·x[j], i < j.
	c, t[1] = bits.Mul64(x[0], x[1])
	c, t[2] = madd(x[0], x[2], c, 0)
	c, t[3] = madd(x[0], x[3], c, 0)
	t[4] = c
	c, t[3] = madd(x[1], x[2], t[3], 0)
	c, t[4] = madd(x[1], x[3], t[4], c)
	t[5] = c
	c, t[5] = madd(x[2], x[3], t[5], 0)
	t[6] = c
	// Double them.
	t[7] = t[6] >> 63
	t[6] = t[6]<<1 | t[5]>>63
	t[5] = t[5]<<1 | t[4]>>63
	t[4] = t[4]<<1 | t[3]>>63
	t[3] = t[3]<<1 | t[2]>>63
	t[2] = t[2]<<1 | t[1]>>63
	t[1] = t[1] << 1
	// Add the squares x[i]².
	var h, l uint64
	h, t[0] = bits.Mul64(x[0], x[0])
	t[1], c = bits.Add64(t[1], h, 0)
	h, l = bits.Mul64(x[1], x[1])
	t[2], c = bits.Add64(t[2], l, c)
	t[3], c = bits.Add64(t[3], h, c)
	h, l = bits.Mul64(x[2], x[2])
	t[4], c = bits.Add64(t[4], l, c)
	t[5], c = bits.Add64(t[5], h, c)
	h, l = bits.Mul64(x[3], x[3])
	t[6], c = bits.Add64(t[6], l, c)
	t[7], _ = bits.Add64(t[7], h, c)
	redc(z, &t)
}

// madd returns a·b + c + d as (hi, lo); it cannot overflow 128 bits.
func madd(a, b, c, d uint64) (hi, lo uint64) {
	hi, lo = bits.Mul64(a, b)
	var cc uint64
	lo, cc = bits.Add64(lo, c, 0)
	hi += cc
	lo, cc = bits.Add64(lo, d, 0)
	hi += cc
	return
}

// redc sets z = t·R^-1 mod p for t < p·2^256.
//
// Since p ≡ -1 mod 2^64, the Montgomery quotient digit of each round is the
// low limb itself, and m·p0 + m = m·2^64 clears that limb with carry m.
func redc(z *Element, t *[8]uint64) {
	u0, u1, u2, u3, u4 := t[0], t[1], t[2], t[3], uint64(0)
	for i := 0; i < 4; i++ {
		m := u0
		h1, l1 := bits.Mul64(m, p1)
		h3, l3 := bits.Mul64(m, p3)
		var c uint64
		v0, c := bits.Add64(u1, l1, 0)
		h1 += c // h1 < 2^32: no overflow
		v0, c = bits.Add64(v0, m, 0)
		h1 += c
		v1, c := bits.Add64(u2, h1, 0)
		v2, c := bits.Add64(u3, l3, c)
		v3, c := bits.Add64(u4, h3, c)
		u0, u1, u2, u3, u4 = v0, v1, v2, v3, c
	}
	// Now u ≤ p (so u4 = 0) and t's high half is < p: the sum is < 2p.
	var r Element
	var c uint64
	r[0], c = bits.Add64(u0, t[4], 0)
	r[1], c = bits.Add64(u1, t[5], c)
	r[2], c = bits.Add64(u2, t[6], c)
	r[3], c = bits.Add64(u3, t[7], c)
	reduceOnce(z, &r, c)
}
