package main

// The field arithmetic of the eight-lane kernel: P-384's field in radix
// 2^52, eight limbs (416 bits), one ZMM register or 64-byte row per limb,
// lane l holding the element of lane l.
//
// Representation. A slot holds eight limbs, each below 2^52 ("normalized"),
// so its value v is below 2^416; v stands for v·2^−416 mod p (Montgomery
// form with R = 2^416). Values are kept lazily reduced: the generator
// tracks for each slot a bound B with v < B·p (see vecOps in main.go).
//
// Multiplication is Montgomery's with R = 2^416: the 64 limb products go
// into sixteen column accumulators (VPMADD52LUQ adds the low 52 bits of a
// product, VPMADD52HUQ the high 52 bits), then eight rounds each clear the
// lowest remaining column by adding m·p. −p⁻¹ ≡ 2^32 + 1 (mod 2^52), so
// m = (t + t·2^32) mod 2^52 needs no multiplication, and m·p is written
// with p = 2^384 − 2^128 − 2^96 + 2^32 − 1 in the signed radix-2^52 digits
// 2^32 − 1, −2^44, −2^24 (columns 0, 1, 2) and 2^20 (column 7): m·(2^32 − 1)
// and m·2^20 are pairs of IFMA products by a constant, and each negative
// digit −2^s is written (2^52 − 2^s) − 2^52, an IFMA pair and the
// subtraction of m one column up. Columns are signed 64-bit values
// (|t| < 2^58), and carries move up by arithmetic shifts. The result (x·y + M·p)/2^416 is below x·y/2^416 + p; with
// p < 2^384 that is below 2p whenever Bx·By ≤ 2^32, so a product never
// needs a reduced input, and R = 2^416 leaves 32 bits of headroom for sums.
//
// Constants live in registers: Z28 = 2^52 − 1 (the limb mask), Z29 =
// 2^32 − 1, Z30 = 2^52 − 2^44 and Z31 = 2^52 − 2^24 (the reduction's
// constant factors). Every subroutine takes its operands' addresses in R8
// (x), R9 (y), R11 (the K·p of a subtraction) and the destination's in R10,
// and may use AX, Z0–Z27 and K1 freely; none touches other general-purpose
// registers, K2–K7 or Z28–Z31.

import (
	"math/big"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"

	"github.com/p256tls/p256tls/internal/_asmlib"
	"github.com/p256tls/p256tls/internal/curvedef"
)

const (
	limbs  = 8
	mask52 = 1<<52 - 1
	// pLow is p mod 2^52 = 2^32 − 1.
	pLow = 1<<32 - 1
)

// p is P-384's prime, internal/curvedef's.
var p = curvedef.P384().P

// The operands of the subroutines.
var vx, vy, vdst, vk = asmlib.VecFE{Base: R8}, asmlib.VecFE{Base: R9}, asmlib.VecFE{Base: R10}, asmlib.VecFE{Base: R11}

// The register constants.
var (
	zMask = Z28 // 2^52 − 1 in every lane
	zPLow = Z29 // 2^32 − 1 in every lane
	zP1   = Z30 // 2^52 − 2^44
	zP2   = Z31 // 2^52 − 2^24
)

// vsetup loads the register constants.
func vsetup() {
	asmlib.Broadcast(mask52, zMask)
	asmlib.Broadcast(pLow, zPLow)
	asmlib.Broadcast(1<<52-1<<44, zP1)
	asmlib.Broadcast(1<<52-1<<24, zP2)
}

// vmulBody emits dst = x·y·2^−416 + (a multiple of p), below x·y/2^416 + p.
// dst may be x or y.
func vmulBody(dst, x, y asmlib.VecFE) {
	t := asmlib.Zmms(0, 2*limbs) // columns 0..15
	xs := asmlib.Zmms(16, limbs) // x's limbs
	yj := Z24
	for i := range t {
		VPXORQ(t[i], t[i], t[i])
	}
	asmlib.VLoad(xs, x)
	Comment("Product: column i+j gets lo(x_i·y_j), column i+j+1 gets hi(x_i·y_j).")
	for j := 0; j < limbs; j++ {
		VMOVDQU64(y.Limb(j), yj)
		for i := 0; i < limbs; i++ {
			VPMADD52LUQ(yj, xs[i], t[i+j])
			VPMADD52HUQ(yj, xs[i], t[i+j+1])
		}
	}
	vreduce(dst, t)
}

// vsqrBody emits dst = x·x·2^−416 + (a multiple of p), as vmulBody with
// 36 limb products instead of 64: the 28 products x_i·x_j (i < j) once,
// the columns doubled (by additions: they run beside the products, which
// use the multiplier's port), then the eight squares x_i². dst may be x.
func vsqrBody(dst, x asmlib.VecFE) {
	t := asmlib.Zmms(0, 2*limbs)
	xs := asmlib.Zmms(16, limbs)
	for i := range t {
		VPXORQ(t[i], t[i], t[i])
	}
	asmlib.VLoad(xs, x)
	Comment("Cross products x_i·x_j, i < j, into columns i+j and i+j+1.")
	for i := 0; i < limbs; i++ {
		for j := i + 1; j < limbs; j++ {
			VPMADD52LUQ(xs[j], xs[i], t[i+j])
			VPMADD52HUQ(xs[j], xs[i], t[i+j+1])
		}
	}
	Comment("Doubled, then the squares x_i² into columns 2i and 2i+1.")
	for k := 1; k < 2*limbs; k++ {
		VPADDQ(t[k], t[k], t[k])
	}
	for i := 0; i < limbs; i++ {
		VPMADD52LUQ(xs[i], xs[i], t[2*i])
		VPMADD52HUQ(xs[i], xs[i], t[2*i+1])
	}
	vreduce(dst, t)
}

// vreduce emits the Montgomery reduction of the sixteen columns t (signed,
// |t_k| < 2^58) into dst: eight rounds, then the carries of the top half.
// It uses Z24–Z27.
//
// Round i never adds lo(m·(2^32 − 1)) to column i, whose only use is its
// carry: with t_i = 2^52·q + r (0 ≤ r < 2^52) that low part is 2^52 − r
// if r ≠ 0 and 0 if r = 0, so the carry is q + [r ≠ 0] =
// (t_i + 2^52 − 1) >> 52, computed from t_i beside m. And lo(m·(2^52 − 2^44))
// goes through a register of its own, so that column i + 1, on which the
// next round waits, takes its two products side by side.
func vreduce(dst asmlib.VecFE, t []VecPhysical) {
	m, s0, p7, u := Z25, Z26, Z24, Z27
	Comment("Eight rounds: m = t_i·(2^32 + 1) mod 2^52, then t += m·p·2^(52i).")
	asmlib.Broadcast(1<<20, p7)
	for i := 0; i < limbs; i++ {
		VPSLLQ(U8(32), t[i], m)
		VPADDQ(t[i], m, m)
		VPANDQ(zMask, m, m)
		// The carry of column i once m·(2^32 − 1) clears it.
		VPADDQ(zMask, t[i], s0)
		VPSRAQ(U8(52), s0, s0)
		VPADDQ(s0, t[i+1], t[i+1])
		// hi(m·(2^32 − 1)), and −m·2^96 = m·(2^52 − 2^44)·2^52 − m·2^104.
		VPXORQ(u, u, u)
		VPMADD52LUQ(zP1, m, u)
		VPMADD52HUQ(zPLow, m, t[i+1])
		VPADDQ(u, t[i+1], t[i+1])
		VPMADD52HUQ(zP1, m, t[i+2])
		VPSUBQ(m, t[i+2], t[i+2])
		// −m·2^128 = m·(2^52 − 2^24)·2^104 − m·2^156.
		VPMADD52LUQ(zP2, m, t[i+2])
		VPMADD52HUQ(zP2, m, t[i+3])
		VPSUBQ(m, t[i+3], t[i+3])
		// +m·2^384 = m·2^20·2^364.
		VPMADD52LUQ(p7, m, t[i+7])
		VPMADD52HUQ(p7, m, t[i+8])
	}
	r := t[limbs:]
	asmlib.VNormalize(r, true, zMask, s0)
	asmlib.VStore(dst, r)
}

// vfoldRegs folds the normalized value in v (< 2^416) to below 2p: the
// bits from 2^384 up, h = v[7] >> 20 < 2^32, are replaced by
// h·(2^128 + 2^96 − 2^32 + 1) ≡ h·2^384, for a sum below
// 2^384 + 2^161 < 2p. tmp must hold three registers.
func vfoldRegs(v []VecPhysical, tmp []VecPhysical) {
	h, s, c := tmp[0], tmp[1], tmp[2]
	VPSRLQ(U8(20), v[7], h)
	asmlib.Broadcast(1<<20-1, c)
	VPANDQ(c, v[7], v[7])
	VPADDQ(h, v[0], v[0]) // + h
	// − h·2^32: limb 0 at bit 32.
	VPSLLQ(U8(32), h, s)
	VPANDQ(zMask, s, s)
	VPSUBQ(s, v[0], v[0])
	VPSRLQ(U8(20), h, s)
	VPSUBQ(s, v[1], v[1])
	// + h·2^96: limb 1 at bit 44.
	VPSLLQ(U8(44), h, s)
	VPANDQ(zMask, s, s)
	VPADDQ(s, v[1], v[1])
	VPSRLQ(U8(8), h, s)
	VPADDQ(s, v[2], v[2])
	// + h·2^128: limb 2 at bit 24.
	VPSLLQ(U8(24), h, s)
	VPANDQ(zMask, s, s)
	VPADDQ(s, v[2], v[2])
	VPSRLQ(U8(28), h, s)
	VPADDQ(s, v[3], v[3])
	asmlib.VNormalize(v, true, zMask, s)
}

// vfoldBody emits dst = fold(x), below 2p, the same value mod p.
func vfoldBody(dst, x asmlib.VecFE) {
	v := asmlib.Zmms(0, limbs)
	asmlib.VLoad(v, x)
	vfoldRegs(v, asmlib.Zmms(8, 3))
	asmlib.VStore(dst, v)
}

// vcanonBody emits dst = x mod p, fully reduced, for x < 2p: x − p is
// kept unless it is negative. k = p (R11).
func vcanonBody(dst, x, k asmlib.VecFE) {
	v, s := asmlib.Zmms(0, limbs), asmlib.Zmms(8, limbs)
	asmlib.VLoad(v, x)
	for i := range s {
		VPSUBQ(k.Limb(i), v[i], s[i])
	}
	asmlib.VNormalize(s, true, zMask, Z16)
	VPSRAQ(U8(63), s[limbs-1], Z16)
	VPTESTMQ(Z16, Z16, K1) // lanes where x < p
	for i := range s {
		VMOVDQA64(v[i], K1, s[i])
	}
	asmlib.VStore(dst, s)
}

func pow2(k uint) *big.Int { return new(big.Int).Lsh(big.NewInt(1), k) }

func modP(v *big.Int) *big.Int { return new(big.Int).Mod(v, p) }
