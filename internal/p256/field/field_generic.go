package field

import "math/bits"

// This file holds the portable kernels: Montgomery multiplication and
// squaring on math/bits. They are the only kernels on architectures other
// than amd64 and under the purego build tag, and the reference that the
// assembly kernels are tested against bit for bit.

// mulGeneric sets z = x·y·R^-1 mod p.
//
//p256tls:secret
func mulGeneric(z, x, y *Element) {
	var t [8]uint64
	var c uint64
	// Row 0: x·y[0], one carry chain.
	{
		h0, l0 := bits.Mul64(x[0], y[0])
		h1, l1 := bits.Mul64(x[1], y[0])
		h2, l2 := bits.Mul64(x[2], y[0])
		h3, l3 := bits.Mul64(x[3], y[0])
		t[0] = l0
		t[1], c = bits.Add64(l1, h0, 0)
		t[2], c = bits.Add64(l2, h1, c)
		t[3], c = bits.Add64(l3, h2, c)
		t[4] = h3 + c // x·y[0] < 2^320
	}
	// Rows 1..3: the low halves of x·y[i] on one carry chain, then the high
	// halves on another. t[i..i+3] + x·y[i] < 2^(64(i+5)), so the last carry
	// out of t[i+4] is zero.
	for i := 1; i < 4; i++ {
		yi := y[i]
		h0, l0 := bits.Mul64(x[0], yi)
		h1, l1 := bits.Mul64(x[1], yi)
		h2, l2 := bits.Mul64(x[2], yi)
		h3, l3 := bits.Mul64(x[3], yi)
		t[i], c = bits.Add64(t[i], l0, 0)
		t[i+1], c = bits.Add64(t[i+1], l1, c)
		t[i+2], c = bits.Add64(t[i+2], l2, c)
		t[i+3], c = bits.Add64(t[i+3], l3, c)
		t[i+4] = c
		t[i+1], c = bits.Add64(t[i+1], h0, 0)
		t[i+2], c = bits.Add64(t[i+2], h1, c)
		t[i+3], c = bits.Add64(t[i+3], h2, c)
		t[i+4], _ = bits.Add64(t[i+4], h3, c)
	}
	redc(z, &t)
}

// squareGeneric sets z = x·x·R^-1 mod p.
//
//p256tls:secret
func squareGeneric(z, x *Element) {
	var t [8]uint64
	var c uint64
	// Off-diagonal products x[i]·x[j], i < j, each row's low halves then
	// high halves on carry chains; the partial sums stay below 2^(64·7).
	h01, l01 := bits.Mul64(x[0], x[1])
	h02, l02 := bits.Mul64(x[0], x[2])
	h03, l03 := bits.Mul64(x[0], x[3])
	t[1] = l01
	t[2], c = bits.Add64(l02, h01, 0)
	t[3], c = bits.Add64(l03, h02, c)
	t[4] = h03 + c
	h12, l12 := bits.Mul64(x[1], x[2])
	h13, l13 := bits.Mul64(x[1], x[3])
	t[3], c = bits.Add64(t[3], l12, 0)
	t[4], c = bits.Add64(t[4], l13, c)
	t[5] = c
	t[4], c = bits.Add64(t[4], h12, 0)
	t[5] += h13 + c
	h23, l23 := bits.Mul64(x[2], x[3])
	t[5], c = bits.Add64(t[5], l23, 0)
	t[6] = h23 + c
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

// redc sets z = t·R^-1 mod p for t < p·2^256.
//
// Since p ≡ -1 mod 2^64, the Montgomery quotient digit of each round is the
// low limb itself, and m·p0 + m = m·2^64 clears that limb with carry m. The
// rest of m·p needs no multiplication: that carry plus m·p1 is
// m·(p1 + 1) = m·2^32, and m·p3 = m·2^64 + m − m·2^32 = (m:m) − (m>>32 :
// m<<32), one 128-bit subtraction.
//
//p256tls:secret
func redc(z *Element, t *[8]uint64) {
	u0, u1, u2, u3, u4 := t[0], t[1], t[2], t[3], uint64(0)
	for i := 0; i < 4; i++ {
		m := u0
		l3, b := bits.Sub64(m, m<<32, 0)
		h3, _ := bits.Sub64(m, m>>32, b)
		v0, c := bits.Add64(u1, m<<32, 0)
		v1, c := bits.Add64(u2, m>>32, c)
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
