// Package wnaf recodes 256-bit and 384-bit scalars into width-w non-adjacent
// form (Hankerson–Menezes–Vanstone, Guide to ECC, alg. 3.35) without
// allocating. One code serves both sizes: a scalar is its plain
// little-endian limbs as a slice, four for P-256, six for P-384.
//
// A width-w NAF writes k = Σ d_i·2^i with every non-zero digit odd and
// |d_i| < 2^(w−1), and at most one non-zero digit in any w consecutive
// positions. A b-bit k needs at most b + 1 positions (257 for P-256, 385
// for P-384).
//
// The recoding branches on the scalar's bits: it is for public scalars
// (signature verification) only.
package wnaf

import "math/bits"

// Len and Len384 are the numbers of digit positions of a dense recoding of
// a 256-bit and a 384-bit scalar: enough for any split into runs that the
// tables use (P-256: 4×65, 8×33, 16×17; P-384: up to 64×7). Positions 257
// (385) and up are always zero.
const (
	Len    = 272
	Len384 = 448
)

// MaxWidth is the widest NAF RecodeSparse writes (its digits are int16);
// DenseMaxWidth the widest Recode writes (its digits are int8).
const (
	MaxWidth      = 16
	DenseMaxWidth = 8
)

// MaxDigits bounds the number of non-zero digits in the NAF of any scalar
// of up to 384 bits for every width w ≥ 2: positions 0 to 384, and never two
// non-zero digits side by side. (256-bit scalars have at most 129.)
const MaxDigits = 193

// A Digit is one non-zero digit of a NAF: Val·2^Pos. Val is odd with
// |Val| < 2^(w−1), so int16 holds every width RecodeSparse takes.
type Digit struct {
	Pos uint16
	Val int16
}

// Sparse is a NAF listed by its non-zero digits only, least significant
// first: D[:N].
type Sparse struct {
	N int
	D [MaxDigits]Digit
}

// Recode writes the width-w NAF of k (plain little-endian limbs, 4 or 6 of
// them) into out, least significant digit first, zeroing all of out, and
// returns the index of the most significant non-zero digit, or −1 when
// k = 0. w must be in [2, DenseMaxWidth] and len(out) at least
// 64·len(k) + 1, else it panics (a programming error: callers pass
// constants).
func Recode(out []int8, k []uint64, w uint) int {
	if w > DenseMaxWidth {
		panic("wnaf: width out of range for int8 digits")
	}
	if len(out) < 64*len(k)+1 {
		panic("wnaf: output shorter than the scalar's NAF")
	}
	var s Sparse
	RecodeSparse(&s, k, w)
	clear(out)
	for _, d := range s.D[:s.N] {
		out[d.Pos] = int8(d.Val)
	}
	if s.N == 0 {
		return -1
	}
	return int(s.D[s.N-1].Pos)
}

// RecodeSparse sets s to the non-zero digits of the width-w NAF of k (plain
// little-endian limbs, 4 or 6 of them), in increasing position. w must be
// in [2, MaxWidth] and len(k) at most 6, else it panics (a programming error:
// callers pass constants). Runs of zero digits are skipped a word at a time,
// so the work is proportional to the number of non-zero digits.
func RecodeSparse(s *Sparse, k []uint64, w uint) {
	if w < 2 || w > MaxWidth {
		panic("wnaf: width out of range")
	}
	if len(k) > 6 {
		panic("wnaf: scalar longer than 384 bits")
	}
	s.N = 0
	end := uint(64*len(k)) + 1
	half := uint64(1) << (w - 1)
	carry := uint64(0)
	for i := uint(0); i < end; {
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
		if i >= end {
			break
		}
		// Odd here, so at most 2^w − 1. A negative digit needs bit i+w−1
		// of k set, so its carry lands at position ≤ 64·len(k).
		v := window64(k, i)&(uint64(1)<<w-1) + carry
		var d int16
		if v >= half {
			d = int16(int64(v) - int64(1)<<w)
			carry = 1
		} else {
			d = int16(v)
			carry = 0
		}
		s.D[s.N] = Digit{Pos: uint16(i), Val: d}
		s.N++
		i += w
	}
}

// window64 returns the 64 bits of k starting at bit i (zero past the last
// limb).
func window64(k []uint64, i uint) uint64 {
	limb := i >> 6
	if limb >= uint(len(k)) {
		return 0
	}
	off := i & 63
	v := k[limb] >> off
	if off != 0 && limb+1 < uint(len(k)) {
		v |= k[limb+1] << (64 - off)
	}
	return v
}
