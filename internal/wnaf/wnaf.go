// Package wnaf recodes 256-bit scalars into width-w non-adjacent form
// (Hankerson–Menezes–Vanstone, Guide to ECC, alg. 3.35) without allocating.
//
// A width-w NAF writes k = Σ d_i·2^i with every non-zero digit odd and
// |d_i| < 2^(w−1), and at most one non-zero digit in any w consecutive
// positions. A 256-bit k needs at most 257 positions.
//
// The recoding branches on the scalar's bits: it is for public scalars
// (signature verification) only.
package wnaf

// Len is the number of digit positions Recode fills, enough for any split
// into runs that the tables use (4×65, 8×33, 16×17). Positions 257 and up
// are always zero.
const Len = 272

// Recode writes the width-w NAF of k (plain little-endian limbs) into out,
// least significant digit first, and returns the index of the most
// significant non-zero digit, or −1 when k = 0. w must be in [2, 8].
func Recode(out *[Len]int8, k *[4]uint64, w uint) int {
	if w < 2 || w > 8 {
		panic("wnaf: width out of range")
	}
	*out = [Len]int8{}
	half := uint64(1) << (w - 1)
	top := -1
	carry := uint64(0)
	for i := uint(0); i < 257; {
		if window(k, i, 1) == carry {
			// (bit + carry) is even: digit 0, and the carry moves on.
			i++
			continue
		}
		// Odd here, so at most 2^w − 1. A negative digit needs bit i+w−1
		// of k set, so its carry lands at position ≤ 256.
		v := window(k, i, w) + carry
		if v >= half {
			out[i] = int8(int64(v) - int64(1)<<w)
			carry = 1
		} else {
			out[i] = int8(v)
			carry = 0
		}
		top = int(i)
		i += w
	}
	return top
}

// window returns the w bits of k starting at bit i (zero past bit 255).
func window(k *[4]uint64, i, w uint) uint64 {
	limb := i >> 6
	if limb >= 4 {
		return 0
	}
	off := i & 63
	v := k[limb] >> off
	if off+w > 64 && limb+1 < 4 {
		v |= k[limb+1] << (64 - off)
	}
	return v & (uint64(1)<<w - 1)
}
