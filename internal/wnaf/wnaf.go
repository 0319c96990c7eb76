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

import "math/bits"

// Len is the number of digit positions Recode fills, enough for any split
// into runs that the tables use (4×65, 8×33, 16×17). Positions 257 and up
// are always zero.
const Len = 272

// MaxDigits bounds the number of non-zero digits in the NAF of any 256-bit
// scalar for every width w ≥ 2: positions 0 to 256, and never two non-zero
// digits side by side.
const MaxDigits = 129

// A Digit is one non-zero digit of a NAF: Val·2^Pos.
type Digit struct {
	Pos uint16
	Val int8
}

// Sparse is a NAF listed by its non-zero digits only, least significant
// first: D[:N].
type Sparse struct {
	N int
	D [MaxDigits]Digit
}

// Recode writes the width-w NAF of k (plain little-endian limbs) into out,
// least significant digit first, and returns the index of the most
// significant non-zero digit, or −1 when k = 0. w must be in [2, 8].
func Recode(out *[Len]int8, k *[4]uint64, w uint) int {
	var s Sparse
	RecodeSparse(&s, k, w)
	*out = [Len]int8{}
	for _, d := range s.D[:s.N] {
		out[d.Pos] = d.Val
	}
	if s.N == 0 {
		return -1
	}
	return int(s.D[s.N-1].Pos)
}

// RecodeSparse sets s to the non-zero digits of the width-w NAF of k (plain
// little-endian limbs), in increasing position. w must be in [2, 8]. Runs of
// zero digits are skipped a word at a time, so the work is proportional to
// the number of non-zero digits.
func RecodeSparse(s *Sparse, k *[4]uint64, w uint) {
	if w < 2 || w > 8 {
		panic("wnaf: width out of range")
	}
	s.N = 0
	half := uint64(1) << (w - 1)
	carry := uint64(0)
	for i := uint(0); i < 257; {
		// Digits are zero while (bit + carry) is even, that is while the
		// bit equals the carry; find the next bit that differs.
		x := window64(k, i)
		if carry == 1 {
			x = ^x
		}
		if x == 0 {
			i += 64
			continue
		}
		i += uint(bits.TrailingZeros64(x))
		if i >= 257 {
			break
		}
		// Odd here, so at most 2^w − 1. A negative digit needs bit i+w−1
		// of k set, so its carry lands at position ≤ 256.
		v := window64(k, i)&(uint64(1)<<w-1) + carry
		var d int8
		if v >= half {
			d = int8(int64(v) - int64(1)<<w)
			carry = 1
		} else {
			d = int8(v)
			carry = 0
		}
		s.D[s.N] = Digit{Pos: uint16(i), Val: d}
		s.N++
		i += w
	}
}

// window64 returns the 64 bits of k starting at bit i (zero past bit 255).
func window64(k *[4]uint64, i uint) uint64 {
	limb := i >> 6
	if limb >= 4 {
		return 0
	}
	off := i & 63
	v := k[limb] >> off
	if off != 0 && limb+1 < 4 {
		v |= k[limb+1] << (64 - off)
	}
	return v
}
