package main

// This file writes the AVX-512 IFMA kernel of package comb: the whole comb
// eight positions at a time, one per 64-bit lane of the ZMM registers.
//
// Field elements live in radix 2^52, five limbs (260 bits), one ZMM register
// per limb, lane l holding the element of lane l. Products use VPMADD52LUQ
// and VPMADD52HUQ (the low and high 52 bits of a 52×52-bit product, added to
// a 64-bit accumulator). Multiplication is Montgomery's with R = 2^260:
// p ≡ −1 (mod 2^52), so each of the five reduction rounds takes m = the low
// 52 bits of the current column, with no multiplication, and adds m·p (p has
// four non-zero radix-2^52 limbs: 2^52 − 1, 2^44 − 1, 0, 2^36, 2^48 − 2^16).
// Every operation ends fully reduced (limbs < 2^52, value < p): the sum or
// the Montgomery result is < 2p, and one subtraction of p is kept or undone
// by a lane mask from the sign of the top limb.
//
// The vector domain is Montgomery with R = 2^260, the table's is R = 2^256.
// The table's Montgomery limbs (x·2^256) read as a vector-domain value stand
// for x·2^−4, so an entry read as it is, with Z = 2^−4 (whose vector-domain
// representation is 2^256 mod p), is the projective point (x : y : 1). The
// kernel therefore adds table entries with the complete projective addition
// (RCB algorithm 4) and Z2 = 2^256 mod p; and the final projective sum, read
// back as R = 2^256 values, is the same point scaled by 2^−4, which
// projective coordinates do not see. No conversion is ever computed.
//
// Per round r (positions 8r..8r+7): each lane reads all 32 entries of its own
// position (public addresses; the entry is kept by a lane mask from its
// digit), the eight selected entries are transposed in registers into
// limb-per-register form and cut into 52-bit limbs, y is negated under the
// lanes' sign mask, the addition runs on all lanes, and a lane mask keeps the
// old sum where the digit is zero. Round 0 needs no addition: a lane starts
// from its selected entry, or, if its first digit is zero, from the offset
// point T rather than infinity, so no sum is ever (0 : y : 0) with its runs
// of zero limbs, whatever the scalar. After the rounds, one complete
// addition of the lanes exchanged by VSHUFI64X2 leaves four partial sums in
// lanes 0–3, which the caller adds with three scalar complete additions
// (addFullADX) before removing z·T.

import (
	"fmt"
	"math/big"
	"strings"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"

	"github.com/p256tls/p256tls/internal/_asmlib"
	"github.com/p256tls/p256tls/internal/_asmlib/formula"
)

const (
	mask52 = 1<<52 - 1
	// Radix-2^52 limbs of p.
	vP0 = 1<<52 - 1
	vP1 = 1<<44 - 1
	vP3 = 1 << 36
	vP4 = 1<<48 - 1<<16
)

// at is the element in slot s of the scratch space at DI.
func (s slot) at() asmlib.VecFE { return asmlib.VecFE{Base: RDI, Off: int(s)} }

// The field operations are subroutines (CALL ·vmul52 etc.) taking their
// operands' addresses in R8 (x), R9 (y) and R10 (destination), and R11 for
// the K·p of a subtraction, so that the code of the kernel stays small
// enough for the instruction cache.
var (
	vx, vy, vdst, vk = asmlib.VecFE{Base: R8}, asmlib.VecFE{Base: R9}, asmlib.VecFE{Base: R10}, asmlib.VecFE{Base: R11}
)

// vcall emits dst = op(x, y) through the subroutine of op.
func vcall(op string, dst, x, y slot) {
	LEAQ(x.at().Limb(0), R8)
	LEAQ(y.at().Limb(0), R9)
	LEAQ(dst.at().Limb(0), R10)
	asmlib.CallFunc("v" + op + "52")
}

// vcondSubP leaves in s the value v − p if v ≥ p and v otherwise, for a
// normalized v < 2p.
func vcondSubP(v, s []VecPhysical) {
	VPSUBQ(Z28, v[0], s[0])
	VPSUBQ(Z29, v[1], s[1])
	VMOVDQA64(v[2], s[2])
	VPSUBQ(Z30, v[3], s[3])
	VPSUBQ(Z31, v[4], s[4])
	asmlib.VNormalize(s, true, Z28, Z27)
	VPSRAQ(U8(63), s[4], Z27)
	VPTESTMQ(Z27, Z27, K1) // lanes where v < p
	for i := 0; i < 5; i++ {
		VMOVDQA64(v[i], K1, s[i])
	}
}

// Lazy reduction. Values are kept normalized (five limbs < 2^52, so below
// 2^260 < 16p) but only bounded, not reduced: the generator tracks for each
// slot an integer B with value < B·p (see bounds) and inserts a fold where an
// operation needs a smaller input. The rules, each checked by the generator:
//
//   - x + y < (Bx + By)·p, which must stay ≤ 16p;
//   - x − y + K·p with K = By is ≥ 0 and < (Bx + By)·p;
//   - the Montgomery product of x and y is < x·y/2^260 + p < 2p when
//     Bx·By ≤ 16 (since 16p < 2^260);
//   - fold(v) = (v mod 2^256) + ⌊v/2^256⌋·(2^256 − p) < 2^256 + 2^228 < 2p
//     for any normalized v;
//   - canon(v) = fold(v), then minus p if that is ≥ p: fully reduced.
//
// Every operation is a subroutine with its operands' addresses in R8, R9
// (and R11 for K·p) and the destination in R10.

// vfoldBody emits dst = fold(x): the bits above 2^256 (h = the top limb
// >> 48) are replaced by h·(2^256 − p) = h·(2^224 − 2^192 − 2^96 + 1).
func vfoldBody(dst, x asmlib.VecFE) {
	v := asmlib.Zmms(0, 5)
	asmlib.VLoad(v, x)
	VPSRLQ(U8(48), v[4], Z5) // h
	asmlib.Broadcast(1<<48-1, Z6)
	VPANDQ(Z6, v[4], v[4])
	VPADDQ(Z5, v[0], v[0]) // + h
	VPSLLQ(U8(44), Z5, Z7)
	VPSUBQ(Z7, v[1], v[1]) // − h·2^96
	VPSLLQ(U8(36), Z5, Z7)
	VPSUBQ(Z7, v[3], v[3]) // − h·2^192
	VPSLLQ(U8(16), Z5, Z7)
	VPADDQ(Z7, v[4], v[4]) // + h·2^224
	asmlib.VNormalize(v, true, Z28, Z27)
	asmlib.VStore(dst, v)
}

// vcanonBody emits dst = x mod p, fully reduced.
func vcanonBody(dst, x asmlib.VecFE) {
	vfoldBody(dst, x)
	v := asmlib.Zmms(0, 5)
	asmlib.VLoad(v, dst)
	s := asmlib.Zmms(5, 5)
	vcondSubP(v, s)
	asmlib.VStore(dst, s)
}

// vmulBody emits dst = x·y·2^−260 + m·p for the m that makes it exact
// (Montgomery), < 2p when Bx·By ≤ 16 (not reduced further).
func vmulBody(dst, x, y asmlib.VecFE) {
	t := make([]VecPhysical, 10)
	for i := range t {
		t[i] = asmlib.Zmm(i)
		VPXORQ(t[i], t[i], t[i])
	}
	xs := asmlib.Zmms(10, 5)
	asmlib.VLoad(xs, x)
	// Product: column i+j gets lo(x_i·y_j), column i+j+1 gets hi(x_i·y_j).
	for j := 0; j < 5; j++ {
		VMOVDQU64(y.Limb(j), Z15)
		for i := 0; i < 5; i++ {
			VPMADD52LUQ(Z15, xs[i], t[i+j])
			VPMADD52HUQ(Z15, xs[i], t[i+j+1])
		}
	}
	// Reduction: five rounds clearing columns 0..4. Adding m·p0 =
	// m·2^52 − m to column i clears its low 52 bits without changing its
	// carry t_i >> 52 and adds m to column i+1: that is a plain addition.
	// The other non-zero limbs of p, p1, p3 and p4, are kept in Z29–Z31.
	p := map[int]VecPhysical{1: Z29, 3: Z30, 4: Z31}
	for i := 0; i < 5; i++ {
		if i > 0 {
			VPSRLQ(U8(52), t[i-1], Z27)
			VPADDQ(Z27, t[i], t[i])
		}
		VPANDQ(Z28, t[i], Z16) // m
		VPADDQ(Z16, t[i+1], t[i+1])
		for _, j := range []int{1, 3, 4} {
			VPMADD52LUQ(p[j], Z16, t[i+j])
			VPMADD52HUQ(p[j], Z16, t[i+j+1])
		}
	}
	VPSRLQ(U8(52), t[4], Z27)
	VPADDQ(Z27, t[5], t[5])
	r := t[5:]
	asmlib.VNormalize(r, false, Z28, Z27)
	asmlib.VStore(dst, r)
}

// bounds maps each slot to B, with the slot's value < B·p.
type bounds map[slot]int

// maxBound keeps values below 16p < 2^260 (normalized limbs).
const maxBound = 16

// vkp is the slot of the constant K·p.
func vkp(k int) slot { return vKP + slot(320*k) }

// maxK is the largest K·p constant kept in the scratch space.
const maxK = 8

// vecOps emits the field operations of the vector kernel (an
// asmlib.FieldOps, run by asmlib.RunFormula): calls of the subroutines,
// with the folds that keep every operand within its bound.
type vecOps struct{ b bounds }

func (v vecOps) bound(s slot) int {
	b, ok := v.b[s]
	if !ok {
		panic(fmt.Sprintf("slot %d read before it is written", s))
	}
	return b
}

// fold folds slot s in place if its bound exceeds max.
func (v vecOps) fold(s slot, max int) {
	if v.bound(s) > max {
		LEAQ(s.at().Limb(0), R8)
		LEAQ(s.at().Limb(0), R10)
		asmlib.CallFunc("vfold52")
		v.b[s] = 2
	}
}

// fit folds the larger of x and y until their bounds add up to at most
// maxBound.
func (v vecOps) fit(x, y slot) {
	for v.bound(x)+v.bound(y) > maxBound {
		if v.bound(x) >= v.bound(y) {
			v.fold(x, 2)
		} else {
			v.fold(y, 2)
		}
	}
}

func (v vecOps) Mul(dst, x, y slot) {
	v.fold(x, 4)
	v.fold(y, 4)
	if v.bound(x)*v.bound(y) > 16 {
		panic("product bound")
	}
	vcall("mul", dst, x, y)
	v.b[dst] = 2
}

func (v vecOps) Add(dst, x, y slot) {
	v.fit(x, y)
	bd := v.bound(x) + v.bound(y)
	vcall("add", dst, x, y)
	v.b[dst] = bd
}

// Sub emits dst = x − y + K·p with K = By.
func (v vecOps) Sub(dst, x, y slot) {
	v.fold(y, maxK)
	v.fit(x, y)
	k := v.bound(y)
	bd := v.bound(x) + k
	LEAQ(vkp(k).at().Limb(0), R11)
	vcall("sub", dst, x, y)
	v.b[dst] = bd
}

// vconst stores the radix-2^52 limbs c, broadcast to every lane, at dst.
func vconst(dst slot, c []uint64) { asmlib.VConst(dst.at(), c, Z0) }

// vsetup loads the constants kept in Z28–Z31.
func vsetup() {
	asmlib.Broadcast(mask52, Z28)
	asmlib.Broadcast(vP1, Z29)
	asmlib.Broadcast(vP3, Z30)
	asmlib.Broadcast(vP4, Z31)
}

// vaddFull emits the complete projective addition (formula.RCBFull) on the slots
// of the scratch space: (X3, Y3, Z3) = (X1, Y1, Z1) + (X2, Y2, Z2).
func vaddFull() {
	// Inputs: the sums (bound 2, see below), table entries (1) or the
	// exchanged sums (2), the constant b (1).
	ops := vecOps{bounds{vX1: 2, vY1: 2, vZ1: 2, vX2: 2, vY2: 2, vZ2: 2, vB: 1}}
	asmlib.RunFormula(ops, formula.RCBFull, map[string]slot{
		"X1": vX1, "Y1": vY1, "Z1": vZ1, "X2": vX2, "Y2": vY2, "Z2": vZ2, "b": vB,
		"t0": vT0, "t1": vT1, "t2": vT2, "t3": vT3, "t4": vT4, "X3": vX3, "Y3": vY3, "Z3": vZ3,
	})
	Comment("Outputs folded to bound 2, as the next addition assumes.")
	ops.fold(vX3, 2)
	ops.fold(vY3, 2)
	ops.fold(vZ3, 2)
}

// vmerge merges the point in the slots src into dst in the lanes of mask
// register k.
func vmerge(dst, src [3]slot, k OpmaskPhysical) {
	for c := range dst {
		vmergeOne(dst[c], src[c], k)
	}
}

// Scratch layout of the AVX-512 kernel, in bytes from DI. Keep in sync with
// comb_avx512.go (scratch8Size).
const (
	vX1 slot = 320 * iota
	vY1
	vZ1
	vX2
	vY2
	vZ2
	vX3
	vY3
	vZ3
	vT0
	vT1
	vT2
	vT3
	vT4
	vB
	vC
	vP
	vKP // K·p for K = 0..maxK, one slot each
)

const (
	vEnd  = vKP + 320*(maxK+1)
	vSize = int(vEnd) // total
)

// The points of the scratch space.
var (
	vP1s = [3]slot{vX1, vY1, vZ1}
	vP2s = [3]slot{vX2, vY2, vZ2}
	vP3s = [3]slot{vX3, vY3, vZ3}
)

// Constants of the kernel in the vector domain (R = 2^260).
var (
	bMont = asmlib.Radix52(mulMod(curve.B, pow2(260)), 5)
	cVal  = asmlib.Radix52(mulMod(pow2(0), pow2(256)), 5) // 2^256 mod p: Z of a table entry
	pVal  = asmlib.Radix52(curve.P, 5)
)

// vkernelSetup loads the register constants and stores b, C, p and the
// multiples K·p in the scratch space at DI.
func vkernelSetup() {
	vsetup()
	vconst(vB, bMont)
	vconst(vC, cVal)
	vconst(vP, pVal)
	for k := 0; k <= maxK; k++ {
		vconst(vkp(k), asmlib.Radix52(new(big.Int).Mul(curve.P, big.NewInt(int64(k))), 5))
	}
}

// keepByDigit sets K3 to the lanes whose digit (the zero flags at 128(SI))
// is not zero.
func keepByDigit() {
	VMOVDQU64(Mem{Base: RSI, Disp: 128}, Z0)
	VPTESTNMQ(Z0, Z0, K3) // lanes to update
}

func genComb8(rounds, entries int) {
	TEXT("comb8AVX512", NOSPLIT, fmt.Sprintf("func(tabs *[%d]*[%d][8]uint64, digits *[%d][3][8]uint64, scratch *[%d]uint64)", 8*rounds, entries, rounds, vSize/8))
	Doc("comb8AVX512 runs the comb eight positions at a time (tabs: each position's",
		"point.Affine entries; digits: the recoding). The sum is left in scratch's X1,",
		"Y1, Z1: four partial sums, in lanes 0–3. Requires AVX512F, AVX512IFMA; see",
		"_asm/avx512.go.")
	Pragma("noescape")
	Load(Param("tabs"), RBX)
	Load(Param("digits"), RSI)
	Load(Param("scratch"), RDI)
	vkernelSetup()
	Comment("The offset point T (see table.go) in the vector domain:",
		"(x_T·2^260, y_T·2^260, 2^260) mod p.")
	tx, ty := offsetPoint()
	vconst(vX1, asmlib.Radix52(mulMod(tx, pow2(260)), 5))
	vconst(vY1, asmlib.Radix52(mulMod(ty, pow2(260)), 5))
	vconst(vZ1, asmlib.Radix52(mulMod(pow2(0), pow2(260)), 5))
	vconst(vZ2, cVal)
	Comment("Round 0 needs no addition: a lane whose digit is not zero starts from the",
		"selected entry; a lane whose digit is zero keeps T (the caller removes",
		"z·T for the z such lanes).")
	asmlib.CallFunc("vlookup52")
	keepByDigit()
	vmerge(vP1s, vP2s, K3)
	ADDQ(U8(64), RBX)
	ADDQ(U8(192), RSI)
	MOVQ(I32(int32(rounds-1)), RCX)
	Label("round")
	asmlib.CallFunc("vlookup52")
	asmlib.CallFunc("vaddFull52")

	Comment("Keep the old sum in the lanes whose digit is zero.")
	keepByDigit()
	vmerge(vP1s, vP3s, K3)

	ADDQ(U8(64), RBX)
	ADDQ(U8(192), RSI)
	DECQ(RCX)
	JNZ(LabelRef("round"))

	// Tree, first step: lanes l and l^4. (The remaining three additions of
	// the four sums in lanes 0–3 are cheaper one at a time: addFullADX.)
	Comment("Tree step: add the lanes exchanged by VSHUFI64X2 $0x4e.")
	for c, src := range vP1s {
		for i := 0; i < 5; i++ {
			VMOVDQU64(src.at().Limb(i), Z0)
			VSHUFI64X2(U8(0x4e), Z0, Z0, Z1) // swap the 256-bit halves
			VMOVDQU64(Z1, vP2s[c].at().Limb(i))
		}
	}
	asmlib.CallFunc("vaddFull52")
	Comment("Fully reduce the four partial sums for the caller.")
	for c, src := range vP3s {
		LEAQ(src.at().Limb(0), R8)
		LEAQ(vP1s[c].at().Limb(0), R10)
		asmlib.CallFunc("vcanon52")
	}
	VZEROUPPER()
	RET()

	genLookup52(entries)
	asmlib.Subroutine("vaddFull52", "vaddFull52 is a subroutine of comb8AVX512: X3, Y3, Z3 = (X1, Y1, Z1) +",
		"(X2, Y2, Z2) on the slots at DI. Declared for the assembler's checks only.")
	vaddFull()
	RET()
	for _, op := range []struct {
		name string
		body func()
	}{
		{"mul", func() { vmulBody(vdst, vx, vy) }},
		{"add", func() { asmlib.VAdd(vdst, vx, vy, asmlib.Zmms(0, 5), Z28, Z27) }},
		{"sub", func() { asmlib.VSub(vdst, vx, vy, vk, asmlib.Zmms(0, 5), Z28, Z27) }},
		{"fold", func() { vfoldBody(vdst, vx) }},
		{"canon", func() { vcanonBody(vdst, vx) }},
	} {
		asmlib.Subroutine("v"+op.name+"52",
			fmt.Sprintf("v%s52 is a subroutine: (R10) = %s of (R8), (R9), (R11); constants in", op.name, op.name),
			"Z28–Z31. Declared for the assembler's checks only.")
		op.body()
		RET()
	}

	scratchSig := fmt.Sprintf("func(s *[%d]uint64)", vSize/8)
	TEXT("vecAddFullAVX512", NOSPLIT, scratchSig)
	Doc("vecAddFullAVX512 runs one complete addition on the kernel's slots (benchmarks",
		"only).")
	Pragma("noescape")
	Load(Param("s"), RDI)
	vkernelSetup()
	asmlib.CallFunc("vaddFull52")
	VZEROUPPER()
	RET()

	// Test kernels: one field operation on scratch slots 0 and 1 (and 3 for
	// the K·p of a subtraction) into slot 2.
	for _, op := range []string{"Mul", "Add", "Sub", "Fold", "Canon"} {
		TEXT("vec"+op+"AVX512", NOSPLIT, scratchSig)
		Doc(fmt.Sprintf("vec%sAVX512 sets slot 2 = %s of slots 0, 1 (and 3) (tests only).", op, op))
		Pragma("noescape")
		Load(Param("s"), RDI)
		vsetup()
		LEAQ(slot(960).at().Limb(0), R11)
		vcall(strings.ToLower(op), slot(640), slot(0), slot(320))
		VZEROUPPER()
		RET()
	}
}

// genLookup52 emits vlookup52, the selection of the eight lanes' entries.
func genLookup52(entries int) {
	asmlib.Subroutine("vlookup52",
		"vlookup52 is a subroutine of comb8AVX512 (register calling convention): X2,",
		"Y2 = the eight lanes' entries of the round, tables at (BX), digits at (SI), y",
		"negated where the digit is negative. Declared for the assembler's checks only.")
	Commentf("Each lane l reads all %d entries of its position (pointer R8+l).", entries)
	ptr := []GPPhysical{R8, R9, R10, R11, R12, R13, R14, R15}
	for l := 0; l < 8; l++ {
		MOVQ(Mem{Base: RBX, Disp: 8 * l}, ptr[l])
		VPBROADCASTQ(Mem{Base: RSI, Disp: 8 * l}, asmlib.Zmm(16+l)) // idx of lane l
		VPXORQ(asmlib.Zmm(l), asmlib.Zmm(l), asmlib.Zmm(l))
	}
	MOVQ(I32(1), RAX)
	VPBROADCASTQ(RAX, Z25) // increment
	VMOVDQA64(Z25, Z24)    // entry counter, from 1
	for e := 0; e < entries; e++ {
		for l := 0; l < 8; l++ {
			k := asmlib.Kmask(1 + l%7)
			VPCMPEQQ(Z24, asmlib.Zmm(16+l), k)
			VMOVDQU64(Mem{Base: ptr[l], Disp: 64 * e}, Z26)
			VMOVDQA64(Z26, k, asmlib.Zmm(l))
		}
		if e != entries-1 {
			VPADDQ(Z25, Z24, Z24)
		}
	}
	Comment("Transpose the 8×8 qwords in registers: afterwards column q (limb q of",
		"x, then y) of every lane is in register col[q].")
	// Stage 1: interleave the qwords of lane pairs.
	for pr := 0; pr < 4; pr++ {
		VPUNPCKLQDQ(asmlib.Zmm(2*pr+1), asmlib.Zmm(2*pr), asmlib.Zmm(8+2*pr))
		VPUNPCKHQDQ(asmlib.Zmm(2*pr+1), asmlib.Zmm(2*pr), asmlib.Zmm(8+2*pr+1))
	}
	// Now T0 = Z8 (even qwords of lanes 0,1), T1 = Z9 (odd), T2 = Z10,
	// T3 = Z11 (lanes 2,3), T4 = Z12, T5 = Z13, T6 = Z14, T7 = Z15.
	// Stage 2: 128-bit blocks. For parity e (0 even, 1 odd):
	// V0 = [T0.b0 T0.b2 T2.b0 T2.b2], V1 = [T0.b1 T0.b3 T2.b1 T2.b3],
	// W0, W1 likewise from T4, T6.
	for e := 0; e < 2; e++ {
		t0, t2, t4, t6 := asmlib.Zmm(8+e), asmlib.Zmm(10+e), asmlib.Zmm(12+e), asmlib.Zmm(14+e)
		v0, v1, w0, w1 := asmlib.Zmm(16+4*e), asmlib.Zmm(17+4*e), asmlib.Zmm(18+4*e), asmlib.Zmm(19+4*e)
		VSHUFI64X2(U8(0x88), t2, t0, v0)
		VSHUFI64X2(U8(0xdd), t2, t0, v1)
		VSHUFI64X2(U8(0x88), t6, t4, w0)
		VSHUFI64X2(U8(0xdd), t6, t4, w1)
	}
	// Stage 3: column e+0 = shuf(V0, W0, 0x88), column e+4 = shuf(V0, W0,
	// 0xdd), column e+2 = shuf(V1, W1, 0x88), column e+6 = shuf(V1, W1, 0xdd).
	col := make([]VecPhysical, 8)
	for e := 0; e < 2; e++ {
		v0, v1, w0, w1 := asmlib.Zmm(16+4*e), asmlib.Zmm(17+4*e), asmlib.Zmm(18+4*e), asmlib.Zmm(19+4*e)
		col[e], col[e+4], col[e+2], col[e+6] = asmlib.Zmm(e), asmlib.Zmm(e+4), asmlib.Zmm(e+2), asmlib.Zmm(e+6)
		VSHUFI64X2(U8(0x88), w0, v0, col[e])
		VSHUFI64X2(U8(0xdd), w0, v0, col[e+4])
		VSHUFI64X2(U8(0x88), w1, v1, col[e+2])
		VSHUFI64X2(U8(0xdd), w1, v1, col[e+6])
	}
	Comment("Cut x (columns 0–3) and y (columns 4–7) into 52-bit limbs.")
	for c, dst := range []slot{vX2, vY2} {
		q := func(i int) VecPhysical { return col[4*c+i] }
		// l0 = q0 & m; l_i = (q_(i−1) >> s | q_i << (64 − s)) & m with
		// s = 52, 40, 28 for i = 1, 2, 3; l4 = q3 >> 16.
		VPANDQ(Z28, q(0), Z8)
		for i, s := range []uint8{52, 40, 28} {
			VPSRLQ(U8(s), q(i), asmlib.Zmm(9+i))
			VPSLLQ(U8(64-s), q(i+1), Z13)
			VPORQ(Z13, asmlib.Zmm(9+i), asmlib.Zmm(9+i))
			VPANDQ(Z28, asmlib.Zmm(9+i), asmlib.Zmm(9+i))
		}
		VPSRLQ(U8(16), q(3), Z12)
		asmlib.VStore(dst.at(), asmlib.Zmms(8, 5))
	}
	Comment("y = −y in the lanes whose digit is negative.")
	// p − y + 0·p: y < p and y ≠ 0, so the result is in [1, p).
	LEAQ(vkp(0).at().Limb(0), R11)
	vcall("sub", vT0, vP, vY2)
	VMOVDQU64(Mem{Base: RSI, Disp: 64}, Z0)
	VPTESTMQ(Z0, Z0, K2)
	vmergeOne(vY2, vT0, K2)
	RET()
}

// vmergeOne merges the element in slot src into dst in the lanes of k.
func vmergeOne(dst, src slot, k OpmaskPhysical) {
	for i := 0; i < 5; i++ {
		VMOVDQU64(dst.at().Limb(i), Z0)
		VMOVDQU64(src.at().Limb(i), Z1)
		VMOVDQA64(Z1, k, Z0)
		VMOVDQU64(Z0, dst.at().Limb(i))
	}
}

func pow2(k uint) *big.Int { return new(big.Int).Lsh(big.NewInt(1), k) }

func mulMod(a, b *big.Int) *big.Int {
	r := new(big.Int).Mul(a, b)
	return r.Mod(r, curve.P)
}
