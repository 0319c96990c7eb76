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
)

const (
	mask52 = 1<<52 - 1
	// Radix-2^52 limbs of p.
	vP0 = 1<<52 - 1
	vP1 = 1<<44 - 1
	vP3 = 1 << 36
	vP4 = 1<<48 - 1<<16
)

// vec is a vector field element at off(DI) (five 64-byte limbs).
type vec int

func (v vec) limb(i int) string { return fmt.Sprintf("%d(DI)", int(v)+64*i) }

// vptr is a vector field element at (reg).
type vptr string

func (v vptr) limb(i int) string { return fmt.Sprintf("%d(%s)", 64*i, string(v)) }

type voperand interface{ limb(i int) string }

// The field operations are subroutines (CALL ·vmul52 etc.) taking their
// operands' addresses in R8 (x), R9 (y) and R10 (destination), so that the
// code of the kernel stays small enough for the instruction cache.
var (
	vx, vy, vdst = vptr("R8"), vptr("R9"), vptr("R10")
)

// vcall emits dst = op(x, y) through the subroutine of op.
func (a *asm) vcall(op string, dst, x, y vec) {
	a.ins("LEAQ", x.limb(0), "R8")
	a.ins("LEAQ", y.limb(0), "R9")
	a.ins("LEAQ", dst.limb(0), "R10")
	a.ins("CALL", "·v"+op+"52(SB)")
}

func z(i int) string { return fmt.Sprintf("Z%d", i) }

func zs(from int) []string {
	r := make([]string, 5)
	for i := range r {
		r[i] = z(from + i)
	}
	return r
}

// vnormalize propagates carries through five limbs; arith selects
// arithmetic shifts (signed limbs).
func (a *asm) vnormalize(r []string, arith bool) {
	shift := "VPSRLQ"
	if arith {
		shift = "VPSRAQ"
	}
	for i := 0; i < 4; i++ {
		a.ins(shift, "$52", r[i], "Z27")
		a.ins("VPANDQ", "Z28", r[i], r[i])
		a.ins("VPADDQ", "Z27", r[i+1], r[i+1])
	}
}

// vcondSubP leaves in s the value v − p if v ≥ p and v otherwise, for a
// normalized v < 2p.
func (a *asm) vcondSubP(v, s []string) {
	a.ins("VPSUBQ", "Z28", v[0], s[0])
	a.ins("VPSUBQ", "Z29", v[1], s[1])
	a.ins("VMOVDQA64", v[2], s[2])
	a.ins("VPSUBQ", "Z30", v[3], s[3])
	a.ins("VPSUBQ", "Z31", v[4], s[4])
	a.vnormalize(s, true)
	a.ins("VPSRAQ", "$63", s[4], "Z27")
	a.ins("VPTESTMQ", "Z27", "Z27", "K1") // lanes where v < p
	for i := 0; i < 5; i++ {
		a.ins("VMOVDQA64", v[i], "K1", s[i])
	}
}

func (a *asm) vstore(dst voperand, r []string) {
	for i := 0; i < 5; i++ {
		a.ins("VMOVDQU64", r[i], dst.limb(i))
	}
}

func (a *asm) vload(r []string, src voperand) {
	for i := 0; i < 5; i++ {
		a.ins("VMOVDQU64", src.limb(i), r[i])
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

// vaddBody emits dst = x + y (not reduced).
func (a *asm) vaddBody(dst, x, y voperand) {
	v := zs(0)
	a.vload(v, x)
	for i := 0; i < 5; i++ {
		a.ins("VPADDQ", y.limb(i), v[i], v[i])
	}
	a.vnormalize(v, false)
	a.vstore(dst, v)
}

// vsubBody emits dst = x − y + k, with k = K·p ≥ y (not reduced).
func (a *asm) vsubBody(dst, x, y, k voperand) {
	v := zs(0)
	a.vload(v, x)
	for i := 0; i < 5; i++ {
		a.ins("VPSUBQ", y.limb(i), v[i], v[i])
		a.ins("VPADDQ", k.limb(i), v[i], v[i])
	}
	a.vnormalize(v, true)
	a.vstore(dst, v)
}

// vfoldBody emits dst = fold(x): the bits above 2^256 (h = the top limb
// >> 48) are replaced by h·(2^256 − p) = h·(2^224 − 2^192 − 2^96 + 1).
func (a *asm) vfoldBody(dst, x voperand) {
	v := zs(0)
	a.vload(v, x)
	a.ins("VPSRLQ", "$48", v[4], "Z5") // h
	a.ins("MOVQ", fmt.Sprintf("$%#x", uint64(1<<48-1)), "AX")
	a.ins("VPBROADCASTQ", "AX", "Z6")
	a.ins("VPANDQ", "Z6", v[4], v[4])
	a.ins("VPADDQ", "Z5", v[0], v[0]) // + h
	a.ins("VPSLLQ", "$44", "Z5", "Z7")
	a.ins("VPSUBQ", "Z7", v[1], v[1]) // − h·2^96
	a.ins("VPSLLQ", "$36", "Z5", "Z7")
	a.ins("VPSUBQ", "Z7", v[3], v[3]) // − h·2^192
	a.ins("VPSLLQ", "$16", "Z5", "Z7")
	a.ins("VPADDQ", "Z7", v[4], v[4]) // + h·2^224
	a.vnormalize(v, true)
	a.vstore(dst, v)
}

// vcanonBody emits dst = x mod p, fully reduced.
func (a *asm) vcanonBody(dst, x voperand) {
	a.vfoldBody(dst, x)
	v := zs(0)
	a.vload(v, dst)
	s := zs(5)
	a.vcondSubP(v, s)
	a.vstore(dst, s)
}

// vmulBody emits dst = x·y·2^−260 + m·p for the m that makes it exact
// (Montgomery), < 2p when Bx·By ≤ 16 (not reduced further).
func (a *asm) vmulBody(dst, x, y voperand) {
	t := make([]string, 10)
	for i := range t {
		t[i] = z(i)
		a.ins("VPXORQ", t[i], t[i], t[i])
	}
	xs := zs(10)
	a.vload(xs, x)
	// Product: column i+j gets lo(x_i·y_j), column i+j+1 gets hi(x_i·y_j).
	for j := 0; j < 5; j++ {
		a.ins("VMOVDQU64", y.limb(j), "Z15")
		for i := 0; i < 5; i++ {
			a.ins("VPMADD52LUQ", "Z15", xs[i], t[i+j])
			a.ins("VPMADD52HUQ", "Z15", xs[i], t[i+j+1])
		}
	}
	// Reduction: five rounds clearing columns 0..4. Adding m·p0 =
	// m·2^52 − m to column i clears its low 52 bits without changing its
	// carry t_i >> 52 and adds m to column i+1: that is a plain addition.
	p := []string{"", "Z29", "", "Z30", "Z31"}
	for i := 0; i < 5; i++ {
		if i > 0 {
			a.ins("VPSRLQ", "$52", t[i-1], "Z27")
			a.ins("VPADDQ", "Z27", t[i], t[i])
		}
		a.ins("VPANDQ", "Z28", t[i], "Z16") // m
		a.ins("VPADDQ", "Z16", t[i+1], t[i+1])
		for j, pj := range p {
			if pj == "" {
				continue
			}
			a.ins("VPMADD52LUQ", pj, "Z16", t[i+j])
			a.ins("VPMADD52HUQ", pj, "Z16", t[i+j+1])
		}
	}
	a.ins("VPSRLQ", "$52", t[4], "Z27")
	a.ins("VPADDQ", "Z27", t[5], t[5])
	r := t[5:]
	a.vnormalize(r, false)
	a.vstore(dst, r)
}

// bounds maps each slot to B, with the slot's value < B·p.
type bounds map[vec]int

// maxBound keeps values below 16p < 2^260 (normalized limbs).
const maxBound = 16

// vkp is the slot of the constant K·p.
func vkp(k int) vec { return vKP + vec(320*k) }

// maxK is the largest K·p constant kept in the scratch space.
const maxK = 8

func (a *asm) bound(b bounds, s vec) int {
	v, ok := b[s]
	if !ok {
		panic(fmt.Sprintf("slot %d read before it is written", s))
	}
	return v
}

// vfold folds slot s in place if its bound exceeds max.
func (a *asm) vfold(b bounds, s vec, max int) {
	if a.bound(b, s) > max {
		a.ins("LEAQ", s.limb(0), "R8")
		a.ins("LEAQ", s.limb(0), "R10")
		a.ins("CALL", "·vfold52(SB)")
		b[s] = 2
	}
}

func (a *asm) vmul(b bounds, dst, x, y vec) {
	a.vfold(b, x, 4)
	a.vfold(b, y, 4)
	if bx, by := a.bound(b, x), a.bound(b, y); bx*by > 16 {
		panic("product bound")
	}
	a.vcall("mul", dst, x, y)
	b[dst] = 2
}

func (a *asm) vadd(b bounds, dst, x, y vec) {
	for a.bound(b, x)+a.bound(b, y) > maxBound {
		if a.bound(b, x) >= a.bound(b, y) {
			a.vfold(b, x, 2)
		} else {
			a.vfold(b, y, 2)
		}
	}
	bd := a.bound(b, x) + a.bound(b, y)
	a.vcall("add", dst, x, y)
	b[dst] = bd
}

// vsub emits dst = x − y + K·p with K = By.
func (a *asm) vsub(b bounds, dst, x, y vec) {
	a.vfold(b, y, maxK)
	for a.bound(b, x)+a.bound(b, y) > maxBound {
		if a.bound(b, x) >= a.bound(b, y) {
			a.vfold(b, x, 2)
		} else {
			a.vfold(b, y, 2)
		}
	}
	k := a.bound(b, y)
	bd := a.bound(b, x) + k
	a.ins("LEAQ", vkp(k).limb(0), "R11")
	a.vcall("sub", dst, x, y)
	b[dst] = bd
}

// vconst stores the radix-2^52 limbs of c, broadcast to every lane, at dst.
func (a *asm) vconst(dst vec, c [5]uint64) {
	for i, l := range c {
		a.ins("MOVQ", fmt.Sprintf("$%#x", l), "AX")
		a.ins("VPBROADCASTQ", "AX", "Z0")
		a.ins("VMOVDQU64", "Z0", dst.limb(i))
	}
}

// vsetup loads the constants kept in Z28–Z31.
func (a *asm) vsetup() {
	for _, c := range []struct {
		v   uint64
		reg string
	}{{mask52, "Z28"}, {vP1, "Z29"}, {vP3, "Z30"}, {vP4, "Z31"}} {
		a.ins("MOVQ", fmt.Sprintf("$%#x", c.v), "AX")
		a.ins("VPBROADCASTQ", "AX", c.reg)
	}
}

// vaddFull emits the complete projective addition (RCB algorithm 4, a = −3)
// (X3, Y3, Z3) = (X1, Y1, Z1) + (X2, Y2, Z2).
func (a *asm) vaddFull(X1, Y1, Z1, X2, Y2, Z2, b, t0, t1, t2, t3, t4, X3, Y3, Z3 vec) {
	// Inputs: the sums (bound 2, see below), table entries (1) or the
	// exchanged sums (2), the constant b (1).
	bd := bounds{X1: 2, Y1: 2, Z1: 2, X2: 2, Y2: 2, Z2: 2, b: 1}
	a.comment("Complete addition: t0 = X1·X2, t1 = Y1·Y2, t2 = Z1·Z2")
	a.vmul(bd, t0, X1, X2)
	a.vmul(bd, t1, Y1, Y2)
	a.vmul(bd, t2, Z1, Z2)
	a.comment("t3 = (X1+Y1)(X2+Y2) − t0 − t1")
	a.vadd(bd, t3, X1, Y1)
	a.vadd(bd, t4, X2, Y2)
	a.vmul(bd, t3, t3, t4)
	a.vadd(bd, t4, t0, t1)
	a.vsub(bd, t3, t3, t4)
	a.comment("t4 = (Y1+Z1)(Y2+Z2) − t1 − t2")
	a.vadd(bd, t4, Y1, Z1)
	a.vadd(bd, X3, Y2, Z2)
	a.vmul(bd, t4, t4, X3)
	a.vadd(bd, X3, t1, t2)
	a.vsub(bd, t4, t4, X3)
	a.comment("Y3 = (X1+Z1)(X2+Z2) − t0 − t2")
	a.vadd(bd, X3, X1, Z1)
	a.vadd(bd, Y3, X2, Z2)
	a.vmul(bd, X3, X3, Y3)
	a.vadd(bd, Y3, t0, t2)
	a.vsub(bd, Y3, X3, Y3)
	a.comment("Z3 = b·t2, X3 = 3(Y3 − Z3), Z3 = t1 − X3, X3 = t1 + X3")
	a.vmul(bd, Z3, b, t2)
	a.vsub(bd, X3, Y3, Z3)
	a.vadd(bd, Z3, X3, X3)
	a.vadd(bd, X3, X3, Z3)
	a.vsub(bd, Z3, t1, X3)
	a.vadd(bd, X3, t1, X3)
	a.comment("Y3 = 3(b·Y3 − 3·t2 − t0)")
	a.vmul(bd, Y3, b, Y3)
	a.vadd(bd, t1, t2, t2)
	a.vadd(bd, t2, t1, t2)
	a.vsub(bd, Y3, Y3, t2)
	a.vsub(bd, Y3, Y3, t0)
	a.vadd(bd, t1, Y3, Y3)
	a.vadd(bd, Y3, t1, Y3)
	a.comment("t0 = 3·t0 − t2")
	a.vadd(bd, t1, t0, t0)
	a.vadd(bd, t0, t1, t0)
	a.vsub(bd, t0, t0, t2)
	a.comment("Y3 = X3·Z3 + t0·Y3, X3 = t3·X3 − t4·Y3, Z3 = t4·Z3 + t3·t0")
	a.vmul(bd, t1, t4, Y3)
	a.vmul(bd, t2, t0, Y3)
	a.vmul(bd, Y3, X3, Z3)
	a.vadd(bd, Y3, Y3, t2)
	a.vmul(bd, X3, t3, X3)
	a.vsub(bd, X3, X3, t1)
	a.vmul(bd, Z3, t4, Z3)
	a.vmul(bd, t1, t3, t0)
	a.vadd(bd, Z3, Z3, t1)
	a.comment("Outputs folded to bound 2, as the next addition assumes.")
	a.vfold(bd, X3, 2)
	a.vfold(bd, Y3, 2)
	a.vfold(bd, Z3, 2)
}

// vmask merges src into dst in the lanes of mask register k.
func (a *asm) vmerge(dst, src vec, k string) {
	for i := 0; i < 5; i++ {
		a.ins("VMOVDQU64", dst.limb(i), "Z0")
		a.ins("VMOVDQU64", src.limb(i), "Z1")
		a.ins("VMOVDQA64", "Z1", k, "Z0")
		a.ins("VMOVDQU64", "Z0", dst.limb(i))
	}
}

// radix52 returns the radix-2^52 limbs of v < 2^260.
func radix52(v [4]uint64) [5]uint64 {
	return [5]uint64{
		v[0] & mask52,
		(v[0]>>52 | v[1]<<12) & mask52,
		(v[1]>>40 | v[2]<<24) & mask52,
		(v[2]>>28 | v[3]<<36) & mask52,
		v[3] >> 16,
	}
}

// Scratch layout of the AVX-512 kernel, in bytes from DI. Keep in sync with
// comb_avx512.go (scratch8Size).
const (
	vX1 vec = 320 * iota
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

// Constants of the kernel in the vector domain (R = 2^260).
var (
	bMont = radix52(limbsOf(mulMod(curveB, pow2(260))))
	cVal  = radix52(limbsOf(mulMod(pow2(0), pow2(256)))) // 2^256 mod p: Z of a table entry
	pVal  = radix52(limbsOf(curveP))
)

// vkernelSetup loads the register constants and stores b, C, p and the
// multiples K·p in the scratch space at DI.
func (a *asm) vkernelSetup() {
	a.vsetup()
	a.vconst(vB, bMont)
	a.vconst(vC, cVal)
	a.vconst(vP, pVal)
	for k := 0; k <= maxK; k++ {
		a.vconst(vkp(k), radix52Big(new(big.Int).Mul(curveP, big.NewInt(int64(k)))))
	}
}

func (a *asm) genComb8(rounds, entries int) {

	a.text("comb8AVX512", fmt.Sprintf("func(tabs *[%d]*[%d][8]uint64, digits *[%d][3][8]uint64, scratch *[%d]uint64)", 8*rounds, entries, rounds, vSize/8), 0,
		"comb8AVX512 runs the comb eight positions at a time (tabs: each position's",
		"point.Affine entries; digits: the recoding). The sum is left in scratch's X1,",
		"Y1, Z1: four partial sums, in lanes 0–3. Requires AVX512F, AVX512IFMA; see",
		"_asm/avx512.go.")
	a.ins("MOVQ", "tabs+0(FP)", "BX")
	a.ins("MOVQ", "digits+8(FP)", "SI")
	a.ins("MOVQ", "scratch+16(FP)", "DI")
	a.vkernelSetup()
	a.comment("The offset point T (see table.go) in the vector domain:")
	a.comment("(x_T·2^260, y_T·2^260, 2^260) mod p.")
	tx, ty := offsetPoint()
	a.vconst(vX1, radix52(limbsOf(mulMod(tx, pow2(260)))))
	a.vconst(vY1, radix52(limbsOf(mulMod(ty, pow2(260)))))
	a.vconst(vZ1, radix52(limbsOf(mulMod(pow2(0), pow2(260)))))
	a.vconst(vZ2, cVal)
	a.comment("Round 0 needs no addition: a lane whose digit is not zero starts from the")
	a.comment("selected entry; a lane whose digit is zero keeps T (the caller removes")
	a.comment("z·T for the z such lanes).")
	a.ins("CALL", "·vlookup52(SB)")
	a.ins("VMOVDQU64", "128(SI)", "Z0")
	a.ins("VPTESTNMQ", "Z0", "Z0", "K3") // lanes with a nonzero digit
	a.vmerge(vX1, vX2, "K3")
	a.vmerge(vY1, vY2, "K3")
	a.vmerge(vZ1, vZ2, "K3")
	a.ins("ADDQ", "$64", "BX")
	a.ins("ADDQ", "$192", "SI")
	a.ins("MOVQ", fmt.Sprintf("$%d", rounds-1), "CX")
	Label("round")
	a.ins("CALL", "·vlookup52(SB)")
	a.ins("CALL", "·vaddFull52(SB)")

	a.comment("Keep the old sum in the lanes whose digit is zero.")
	a.ins("VMOVDQU64", "128(SI)", "Z0")
	a.ins("VPTESTNMQ", "Z0", "Z0", "K3") // lanes to update
	a.vmerge(vX1, vX3, "K3")
	a.vmerge(vY1, vY3, "K3")
	a.vmerge(vZ1, vZ3, "K3")

	a.ins("ADDQ", "$64", "BX")
	a.ins("ADDQ", "$192", "SI")
	a.ins("DECQ", "CX")
	a.ins("JNZ", "round")

	// Tree, first step: lanes l and l^4. (The remaining three additions of
	// the four sums in lanes 0–3 are cheaper one at a time: addFullADX.)
	for _, perm := range [][]string{
		{"VSHUFI64X2", "$0x4e"}, // swap the 256-bit halves
	} {
		a.comment("Tree step: add the lanes exchanged by %s %s.", perm[0], perm[1])
		for c, src := range []vec{vX1, vY1, vZ1} {
			dst := []vec{vX2, vY2, vZ2}[c]
			for i := 0; i < 5; i++ {
				a.ins("VMOVDQU64", src.limb(i), "Z0")
				if perm[0] == "VSHUFI64X2" {
					a.ins(perm[0], perm[1], "Z0", "Z0", "Z1")
				} else {
					a.ins(perm[0], perm[1], "Z0", "Z1")
				}
				a.ins("VMOVDQU64", "Z1", dst.limb(i))
			}
		}
		a.ins("CALL", "·vaddFull52(SB)")
	}
	a.comment("Fully reduce the four partial sums for the caller.")
	for c, src := range []vec{vX3, vY3, vZ3} {
		dst := []vec{vX1, vY1, vZ1}[c]
		a.ins("LEAQ", src.limb(0), "R8")
		a.ins("LEAQ", dst.limb(0), "R10")
		a.ins("CALL", "·vcanon52(SB)")
	}
	a.ins("VZEROUPPER")
	a.ins("RET")

	// Subroutines.
	a.text("vlookup52", "func()", 0,
		"vlookup52 is a subroutine of comb8AVX512 (register calling convention): X2,",
		"Y2 = the eight lanes' entries of the round, tables at (BX), digits at (SI), y",
		"negated where the digit is negative. Declared for the assembler's checks only.")
	a.comment("Each lane l reads all %d entries of its position (pointer R8+l).", entries)
	for l := 0; l < 8; l++ {
		a.ins("MOVQ", fmt.Sprintf("%d(BX)", 8*l), fmt.Sprintf("R%d", 8+l))
		a.ins("VPBROADCASTQ", fmt.Sprintf("%d(SI)", 8*l), z(16+l)) // idx of lane l
		a.ins("VPXORQ", z(l), z(l), z(l))
	}
	a.ins("MOVQ", "$1", "AX")
	a.ins("VPBROADCASTQ", "AX", "Z25") // increment
	a.ins("VMOVDQA64", "Z25", "Z24")   // entry counter, from 1
	for e := 0; e < entries; e++ {
		for l := 0; l < 8; l++ {
			k := fmt.Sprintf("K%d", 1+l%7)
			a.ins("VPCMPEQQ", "Z24", z(16+l), k)
			a.ins("VMOVDQU64", fmt.Sprintf("%d(R%d)", 64*e, 8+l), "Z26")
			a.ins("VMOVDQA64", "Z26", k, z(l))
		}
		if e != entries-1 {
			a.ins("VPADDQ", "Z25", "Z24", "Z24")
		}
	}
	a.comment("Transpose the 8×8 qwords in registers: afterwards column q (limb q of")
	a.comment("x, then y) of every lane is in register col[q].")
	// Stage 1: interleave the qwords of lane pairs.
	for pr := 0; pr < 4; pr++ {
		a.ins("VPUNPCKLQDQ", z(2*pr+1), z(2*pr), z(8+2*pr))
		a.ins("VPUNPCKHQDQ", z(2*pr+1), z(2*pr), z(8+2*pr+1))
	}
	// Now T0 = Z8 (even qwords of lanes 0,1), T1 = Z9 (odd), T2 = Z10,
	// T3 = Z11 (lanes 2,3), T4 = Z12, T5 = Z13, T6 = Z14, T7 = Z15.
	// Stage 2: 128-bit blocks. For parity e (0 even, 1 odd):
	// V0 = [T0.b0 T0.b2 T2.b0 T2.b2], V1 = [T0.b1 T0.b3 T2.b1 T2.b3],
	// W0, W1 likewise from T4, T6.
	for e := 0; e < 2; e++ {
		t0, t2, t4, t6 := z(8+e), z(10+e), z(12+e), z(14+e)
		v0, v1, w0, w1 := z(16+4*e), z(17+4*e), z(18+4*e), z(19+4*e)
		a.ins("VSHUFI64X2", "$0x88", t2, t0, v0)
		a.ins("VSHUFI64X2", "$0xdd", t2, t0, v1)
		a.ins("VSHUFI64X2", "$0x88", t6, t4, w0)
		a.ins("VSHUFI64X2", "$0xdd", t6, t4, w1)
	}
	// Stage 3: column e+0 = shuf(V0, W0, 0x88), column e+4 = shuf(V0, W0,
	// 0xdd), column e+2 = shuf(V1, W1, 0x88), column e+6 = shuf(V1, W1, 0xdd).
	col := make([]string, 8)
	for e := 0; e < 2; e++ {
		v0, v1, w0, w1 := z(16+4*e), z(17+4*e), z(18+4*e), z(19+4*e)
		col[e] = z(e)
		col[e+4] = z(e + 4)
		col[e+2] = z(e + 2)
		col[e+6] = z(e + 6)
		a.ins("VSHUFI64X2", "$0x88", w0, v0, col[e])
		a.ins("VSHUFI64X2", "$0xdd", w0, v0, col[e+4])
		a.ins("VSHUFI64X2", "$0x88", w1, v1, col[e+2])
		a.ins("VSHUFI64X2", "$0xdd", w1, v1, col[e+6])
	}
	a.comment("Cut x (columns 0–3) and y (columns 4–7) into 52-bit limbs.")
	for c, dst := range []vec{vX2, vY2} {
		q := func(i int) string { return col[4*c+i] }
		// l0 = q0 & m; l1 = (q0>>52 | q1<<12) & m; l2 = (q1>>40 | q2<<24) & m;
		// l3 = (q2>>28 | q3<<36) & m; l4 = q3>>16.
		a.ins("VPANDQ", "Z28", q(0), "Z8")
		a.ins("VPSRLQ", "$52", q(0), "Z9")
		a.ins("VPSLLQ", "$12", q(1), "Z13")
		a.ins("VPORQ", "Z13", "Z9", "Z9")
		a.ins("VPANDQ", "Z28", "Z9", "Z9")
		a.ins("VPSRLQ", "$40", q(1), "Z10")
		a.ins("VPSLLQ", "$24", q(2), "Z13")
		a.ins("VPORQ", "Z13", "Z10", "Z10")
		a.ins("VPANDQ", "Z28", "Z10", "Z10")
		a.ins("VPSRLQ", "$28", q(2), "Z11")
		a.ins("VPSLLQ", "$36", q(3), "Z13")
		a.ins("VPORQ", "Z13", "Z11", "Z11")
		a.ins("VPANDQ", "Z28", "Z11", "Z11")
		a.ins("VPSRLQ", "$16", q(3), "Z12")
		a.vstore(dst, zs(8))
	}
	a.comment("y = −y in the lanes whose digit is negative.")
	// p − y + 0·p: y < p and y ≠ 0, so the result is in [1, p).
	a.ins("LEAQ", vkp(0).limb(0), "R11")
	a.vcall("sub", vT0, vP, vY2)
	a.ins("VMOVDQU64", "64(SI)", "Z0")
	a.ins("VPTESTMQ", "Z0", "Z0", "K2")
	a.vmerge(vY2, vT0, "K2")

	a.ins("RET")
	a.text("vaddFull52", "func()", 0,
		"vaddFull52 is a subroutine of comb8AVX512: X3, Y3, Z3 = (X1, Y1, Z1) +",
		"(X2, Y2, Z2) on the slots at DI. Declared for the assembler's checks only.")
	a.vaddFull(vX1, vY1, vZ1, vX2, vY2, vZ2, vB, vT0, vT1, vT2, vT3, vT4, vX3, vY3, vZ3)
	a.ins("RET")
	for _, op := range []string{"mul", "add", "sub", "fold", "canon"} {
		a.text("v"+op+"52", "func()", 0,
			fmt.Sprintf("v%s52 is a subroutine: (R10) = %s of (R8), (R9), (R11); constants in", op, op),
			"Z28–Z31. Declared for the assembler's checks only.")
		switch op {
		case "mul":
			a.vmulBody(vdst, vx, vy)
		case "add":
			a.vaddBody(vdst, vx, vy)
		case "sub":
			a.vsubBody(vdst, vx, vy, vptr("R11"))
		case "fold":
			a.vfoldBody(vdst, vx)
		case "canon":
			a.vcanonBody(vdst, vx)
		}
		a.ins("RET")
	}

	a.text("vecAddFullAVX512", fmt.Sprintf("func(s *[%d]uint64)", vSize/8), 0,
		"vecAddFullAVX512 runs one complete addition on the kernel's slots (benchmarks",
		"only).")
	a.ins("MOVQ", "s+0(FP)", "DI")
	a.vkernelSetup()
	a.ins("CALL", "·vaddFull52(SB)")
	a.ins("VZEROUPPER")
	a.ins("RET")

	// Test kernels: one field operation on scratch slots 0 and 1 (and 3 for
	// the K·p of a subtraction) into slot 2.
	for _, op := range []string{"Mul", "Add", "Sub", "Fold", "Canon"} {
		a.text("vec"+op+"AVX512", fmt.Sprintf("func(s *[%d]uint64)", vSize/8), 0,
			fmt.Sprintf("vec%sAVX512 sets slot 2 = %s of slots 0, 1 (and 3) (tests only).", op, op))
		a.ins("MOVQ", "s+0(FP)", "DI")
		a.vsetup()
		a.ins("LEAQ", "960(DI)", "R11")
		a.vcall(strings.ToLower(op), vec(640), vec(0), vec(320))
		a.ins("VZEROUPPER")
		a.ins("RET")
	}
}

// radix52Big returns the radix-2^52 limbs of v < 2^260.
func radix52Big(v *big.Int) [5]uint64 {
	if v.BitLen() > 260 {
		panic("radix52Big: value too large")
	}
	var l [5]uint64
	m := new(big.Int).SetUint64(mask52)
	for i := range l {
		l[i] = new(big.Int).And(new(big.Int).Rsh(v, uint(52*i)), m).Uint64()
	}
	return l
}

func pow2(k uint) *big.Int { return new(big.Int).Lsh(big.NewInt(1), k) }

func mulMod(a, b *big.Int) *big.Int {
	r := new(big.Int).Mul(a, b)
	return r.Mod(r, curveP)
}

// limbsOf returns the little-endian 64-bit limbs of v < 2^256.
func limbsOf(v *big.Int) [4]uint64 {
	if v.BitLen() > 256 {
		panic("limbsOf: value too large")
	}
	var l [4]uint64
	for i := range l {
		l[i] = new(big.Int).Rsh(v, uint(64*i)).Uint64()
	}
	return l
}
