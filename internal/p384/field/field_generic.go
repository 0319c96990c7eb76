package field

import "math/bits"

// This file holds the portable kernels: Montgomery multiplication and
// squaring on math/bits. They are the only kernels on architectures other
// than amd64 and under the purego build tag, and the reference that the
// assembly kernels are tested against bit for bit.

// mulGeneric sets z = x·y·R⁻¹ mod p, in constant time.
func mulGeneric(z, x, y *Element) {
	var t [12]uint64
	product(&t, x, y)
	redc(z, &t)
}

// squareGeneric sets z = x·x·R⁻¹ mod p, in constant time.
func squareGeneric(z, x *Element) {
	var t [12]uint64
	squareProduct(&t, x)
	redc(z, &t)
}

// product sets t = x·y (768 bits) by rows: the low halves of x·y[i] on one
// carry chain, then the high halves on another.
func product(t *[12]uint64, x, y *Element) {
	var c uint64
	{
		y0 := y[0]
		h0, l0 := bits.Mul64(x[0], y0)
		h1, l1 := bits.Mul64(x[1], y0)
		h2, l2 := bits.Mul64(x[2], y0)
		h3, l3 := bits.Mul64(x[3], y0)
		h4, l4 := bits.Mul64(x[4], y0)
		h5, l5 := bits.Mul64(x[5], y0)
		t[0] = l0
		t[1], c = bits.Add64(l1, h0, 0)
		t[2], c = bits.Add64(l2, h1, c)
		t[3], c = bits.Add64(l3, h2, c)
		t[4], c = bits.Add64(l4, h3, c)
		t[5], c = bits.Add64(l5, h4, c)
		t[6] = h5 + c // x·y[0] < 2^448
	}
	// t[i..i+5] + x·y[i] < 2^(64(i+7)), so the carry out of t[i+6] is zero.
	for i := 1; i < 6; i++ {
		yi := y[i]
		h0, l0 := bits.Mul64(x[0], yi)
		h1, l1 := bits.Mul64(x[1], yi)
		h2, l2 := bits.Mul64(x[2], yi)
		h3, l3 := bits.Mul64(x[3], yi)
		h4, l4 := bits.Mul64(x[4], yi)
		h5, l5 := bits.Mul64(x[5], yi)
		r := (*[7]uint64)(t[i : i+7])
		r[0], c = bits.Add64(r[0], l0, 0)
		r[1], c = bits.Add64(r[1], l1, c)
		r[2], c = bits.Add64(r[2], l2, c)
		r[3], c = bits.Add64(r[3], l3, c)
		r[4], c = bits.Add64(r[4], l4, c)
		r[5], c = bits.Add64(r[5], l5, c)
		r[6] = c
		r[1], c = bits.Add64(r[1], h0, 0)
		r[2], c = bits.Add64(r[2], h1, c)
		r[3], c = bits.Add64(r[3], h2, c)
		r[4], c = bits.Add64(r[4], h3, c)
		r[5], c = bits.Add64(r[5], h4, c)
		r[6], _ = bits.Add64(r[6], h5, c)
	}
}

// squareProduct sets t = x² (768 bits): the fifteen products x[i]·x[j],
// i < j, once, doubled by a shift, plus the six squares x[i]².
func squareProduct(t *[12]uint64, x *Element) {
	var c uint64
	// Row i adds x[i]·x[i+1..5] at t[2i+1..i+6]; each row's low halves on one
	// chain, then its high halves on another. Every partial sum is below
	// 2^(64(i+7)), so the carries out of t[i+6] are zero.
	{
		x0 := x[0]
		h1, l1 := bits.Mul64(x0, x[1])
		h2, l2 := bits.Mul64(x0, x[2])
		h3, l3 := bits.Mul64(x0, x[3])
		h4, l4 := bits.Mul64(x0, x[4])
		h5, l5 := bits.Mul64(x0, x[5])
		t[1] = l1
		t[2], c = bits.Add64(l2, h1, 0)
		t[3], c = bits.Add64(l3, h2, c)
		t[4], c = bits.Add64(l4, h3, c)
		t[5], c = bits.Add64(l5, h4, c)
		t[6] = h5 + c
	}
	{
		x1 := x[1]
		h2, l2 := bits.Mul64(x1, x[2])
		h3, l3 := bits.Mul64(x1, x[3])
		h4, l4 := bits.Mul64(x1, x[4])
		h5, l5 := bits.Mul64(x1, x[5])
		t[3], c = bits.Add64(t[3], l2, 0)
		t[4], c = bits.Add64(t[4], l3, c)
		t[5], c = bits.Add64(t[5], l4, c)
		t[6], c = bits.Add64(t[6], l5, c)
		t[7] = c
		t[4], c = bits.Add64(t[4], h2, 0)
		t[5], c = bits.Add64(t[5], h3, c)
		t[6], c = bits.Add64(t[6], h4, c)
		t[7], _ = bits.Add64(t[7], h5, c)
	}
	{
		x2 := x[2]
		h3, l3 := bits.Mul64(x2, x[3])
		h4, l4 := bits.Mul64(x2, x[4])
		h5, l5 := bits.Mul64(x2, x[5])
		t[5], c = bits.Add64(t[5], l3, 0)
		t[6], c = bits.Add64(t[6], l4, c)
		t[7], c = bits.Add64(t[7], l5, c)
		t[8] = c
		t[6], c = bits.Add64(t[6], h3, 0)
		t[7], c = bits.Add64(t[7], h4, c)
		t[8], _ = bits.Add64(t[8], h5, c)
	}
	{
		x3 := x[3]
		h4, l4 := bits.Mul64(x3, x[4])
		h5, l5 := bits.Mul64(x3, x[5])
		t[7], c = bits.Add64(t[7], l4, 0)
		t[8], c = bits.Add64(t[8], l5, c)
		t[9] = c
		t[8], c = bits.Add64(t[8], h4, 0)
		t[9], _ = bits.Add64(t[9], h5, c)
	}
	{
		h5, l5 := bits.Mul64(x[4], x[5])
		t[9], c = bits.Add64(t[9], l5, 0)
		t[10] = h5 + c
	}
	// Double them.
	t[11] = t[10] >> 63
	t[10] = t[10]<<1 | t[9]>>63
	t[9] = t[9]<<1 | t[8]>>63
	t[8] = t[8]<<1 | t[7]>>63
	t[7] = t[7]<<1 | t[6]>>63
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
	t[7], c = bits.Add64(t[7], h, c)
	h, l = bits.Mul64(x[4], x[4])
	t[8], c = bits.Add64(t[8], l, c)
	t[9], c = bits.Add64(t[9], h, c)
	h, l = bits.Mul64(x[5], x[5])
	t[10], c = bits.Add64(t[10], l, c)
	t[11], _ = bits.Add64(t[11], h, c)
}

// redc sets z = t·R⁻¹ mod p for t < p·2^384, in constant time, by six
// rounds of word-by-word Montgomery reduction of t's low half, then the
// addition of its high half and one conditional subtraction.
//
// −p⁻¹ ≡ 2^32 + 1 (mod 2^64), so a round's quotient digit is
// m = u0 + u0<<32, with no multiplication. Writing p = 2^384 − c with
// c = 2^128 + 2^96 − 2^32 + 1, u + m·p = u − m·c + m·2^384, and
//
//	m·c = m + (s − sh)·2^64 + (m + sh)·2^128 − s,  s = m<<32, sh = m>>32,
//
// (m·2^32 is the 128-bit sh:s), three limbs and a carry bit without a
// multiplication. Its low limb equals u0, so (u + m·p)/2^64 is u's limbs
// 1..5 minus m·c's limbs 1..3, with m (less the borrow) as the new top
// limb. For u < 2^384 that is < 2^320 + p < 2^384, so the window stays six
// limbs; after six rounds u ≤ p, and u plus the high half (< p) is < 2p.
func redc(z *Element, t *[12]uint64) {
	u0, u1, u2, u3, u4, u5 := t[0], t[1], t[2], t[3], t[4], t[5]
	for i := 0; i < 6; i++ {
		m := u0 + u0<<32
		s, sh := m<<32, m>>32
		// m·c, limbs 1..3 (limb 0 is u0 and borrows b from limb 1). Limb 2,
		// m + sh mod 2^64, is 0 only for m = 0 and m = 2^64 − 2^32 + 1, and
		// limb 1 borrows in neither case, so limb 2 never borrows from limb
		// 3, which is the carry k of m + sh.
		c2, k := bits.Add64(m, sh, 0)
		_, b := bits.Sub64(m, s, 0)
		c1, b := bits.Sub64(s, sh, b)
		c2 -= b
		c3 := k
		// u − m·c + m·2^384, shifted down one limb.
		v0, b := bits.Sub64(u1, c1, 0)
		v1, b := bits.Sub64(u2, c2, b)
		v2, b := bits.Sub64(u3, c3, b)
		v3, b := bits.Sub64(u4, 0, b)
		v4, b := bits.Sub64(u5, 0, b)
		u0, u1, u2, u3, u4, u5 = v0, v1, v2, v3, v4, m-b
	}
	var r Element
	var c uint64
	r[0], c = bits.Add64(u0, t[6], 0)
	r[1], c = bits.Add64(u1, t[7], c)
	r[2], c = bits.Add64(u2, t[8], c)
	r[3], c = bits.Add64(u3, t[9], c)
	r[4], c = bits.Add64(u4, t[10], c)
	r[5], c = bits.Add64(u5, t[11], c)
	reduceOnce(z, &r, c)
}
