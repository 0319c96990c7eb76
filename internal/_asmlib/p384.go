package asmlib

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// P384 is p = 2^384 − 2^128 − 2^96 + 2^32 − 1 for MontMulN, with its
// multiplication-free reduction round.
//
// −p⁻¹ ≡ 2^32 + 1 (mod 2^64), so the quotient digit of a[k] is
// q = a[k] + a[k]<<32 (mod 2^64). With p = 2^384 − c, c = 2^128 + 2^96 −
// 2^32 + 1, adding q·p is subtracting q·c and adding q·2^384, and
//
//	q·c = q + (s − sh)·2^64 + (q + sh)·2^128 − s,  s = q<<32, sh = q>>32
//
// (q·2^32 is the 128-bit sh:s): three limbs and a carry bit, from two
// shifts, one addition and a three-limb subtraction. Its low limb equals
// a[k] (q·p ≡ −a[k] mod 2^64), so the round subtracts limbs 1..3 of q·c from
// a[k+1..k+3], propagates the borrow to a[k+5], and adds q less that borrow
// at a[k+6], carrying into a[k+7]. Limb 2 of q·c, q + sh mod 2^64, is 0 only for q = 0 and q =
// 2^64 − 2^32 + 1, where limb 1 does not borrow, so limb 2 never borrows
// from limb 3. internal/p384/field/field_generic.go (redc) is the same
// round in Go. internal/p384/field's kernels now use mul384.go's emitters,
// whose rounds subtract the same limbs 1..3 but keep the borrow for the
// next round and add q once at the end; this round serves MontMulN.
var P384 = &Modulus{
	Limbs: []uint64{0x00000000ffffffff, 0xffffffff00000000, 0xfffffffffffffffe,
		0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff},
	Round: p384Round,
}

func p384Round(a []GPPhysical, k int, t [4]GPPhysical) {
	Commentf("Round %d: q = a[%d]·(2^32+1); a[%d..%d] += q·p = q·2^384 − q·c.", k, k, k, k+7)
	q, s, sh, c2, kc := a[k], t[0], t[1], t[2], t[3]
	MOVQ(q, s)
	SHLQ(U8(32), s)
	ADDQ(s, q)
	MOVQ(q, s)
	SHLQ(U8(32), s)
	MOVQ(q, sh)
	SHRQ(U8(32), sh)
	XORL(kc.As32(), kc.As32())
	MOVQ(q, c2)
	ADDQ(sh, c2)
	ADCQ(Imm(0), kc)
	Comment("q·c limbs 1..3 = (s − sh − [q < s], q + sh − borrow, carry).")
	CMPQ(q, s)
	SBBQ(sh, s)
	SBBQ(Imm(0), c2)
	Comment("Subtract them, then add q less the borrow at limb 6.")
	SUBQ(s, a[k+1])
	SBBQ(c2, a[k+2])
	SBBQ(kc, a[k+3])
	SBBQ(Imm(0), a[k+4])
	SBBQ(Imm(0), a[k+5])
	SBBQ(Imm(0), q)
	ADDQ(q, a[k+6])
	ADCQ(Imm(0), a[k+7])
}
