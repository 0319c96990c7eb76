// Command _asm generates lanes_amd64.s and lanes_amd64_stubs.go, the
// AVX-512 IFMA kernel of package lanes, with avo:
//
//	go run -C _asm . -out ../lanes_amd64.s -stubs ../lanes_amd64_stubs.go -pkg lanes
//
// field.go holds the field arithmetic (radix 2^52, Montgomery with
// R = 2^416), this file the kernel: eight Jacobian accumulators side by
// side, one per lane, doubled together and each adding its own affine
// points (see ../lanes.go for the contract).
package main

import (
	"flag"
	"fmt"
	"math/big"
	"strings"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"

	"github.com/p256tls/p256tls/internal/_asmlib"
)

func main() {
	flag.Parse()
	ConstraintExpr("amd64")
	ConstraintExpr("!purego")
	genKernel()
	genTestKernels()
	Generate()
}

// slot is a vector field element of the scratch space, as a byte offset
// from DI (aligned to 64 bytes).
type slot int

const slotSize = 64 * limbs

func (s slot) at() asmlib.VecFE { return asmlib.VecFE{Base: RDI, Off: int(s)} }

// The scratch space: the accumulators, the addition's result and addend,
// temporaries, then constants.
const (
	sX slot = slotSize * iota // the accumulators
	sY
	sZ
	sX3 // the mixed addition's result
	sY3
	sZ3
	sEX // the addend, in the vector domain
	sEY
	sT0 // temporaries
	sT1
	sT2
	sT3
	sT4
	sT5
	sT6
	sT7
	sT8
	sT9
	sX2 // the neighbouring lanes' accumulators, for the pairs' addition
	sY2
	sZ2
	sZero // constants
	sOne  // 2^416 mod p: 1 in the vector domain
	sOut  // 2^384 mod p: multiplying by it maps the vector domain to the table's
	sKP   // K·p for the K of kps, one slot each
)

// The points of the scratch space: the accumulators, the addition's
// result and the neighbouring lanes' accumulators.
var (
	accPoint  = [3]slot{sX, sY, sZ}
	sumPoint  = [3]slot{sX3, sY3, sZ3}
	pairPoint = [3]slot{sX2, sY2, sZ2}
)

// kps are the multiples of p kept for subtractions (x − y + K·p, K the
// smallest of these at least y's bound).
var kps = []int{1, 2, 4, 8, 16, 32}

func kpSlot(k int) slot {
	for i, v := range kps {
		if v == k {
			return sKP + slot(slotSize*i)
		}
	}
	panic(fmt.Sprintf("no slot for %d·p", k))
}

// scratchBytes is the size of the scratch space.
var scratchBytes = int(sKP) + slotSize*len(kps)

// vcall emits dst = op(x, y) through the subroutine of op, k the K·p slot
// of a subtraction.
func vcall(op string, dst, x, y, k slot) {
	LEAQ(x.at().Limb(0), R8)
	LEAQ(y.at().Limb(0), R9)
	LEAQ(dst.at().Limb(0), R10)
	if op == "sub" || op == "canon" {
		LEAQ(k.at().Limb(0), R11)
	}
	asmlib.CallFunc("v" + op)
}

// vecOps emits the field operations of the formulas (an asmlib.FieldOps,
// run by asmlib.RunFormula) and checks their bounds: b maps each slot to a
// B with value < B·p.
type vecOps struct{ b map[slot]int }

// maxSum keeps every sum far below 2^416 ≈ 2^32·p.
const maxSum = 1 << 20

func (v vecOps) bound(s slot) int {
	b, ok := v.b[s]
	if !ok {
		panic(fmt.Sprintf("slot %d read before it is written", s))
	}
	return b
}

// Mul emits dst = x·y, through the squaring when x is y.
func (v vecOps) Mul(dst, x, y slot) {
	if v.bound(x)*v.bound(y) > 1<<32 {
		panic("product bound")
	}
	op := "mul"
	if x == y {
		op = "sqr"
	}
	vcall(op, dst, x, y, 0)
	v.b[dst] = 2
}

func (v vecOps) Add(dst, x, y slot) {
	bd := v.bound(x) + v.bound(y)
	if bd > maxSum {
		panic("sum bound")
	}
	vcall("add", dst, x, y, 0)
	v.b[dst] = bd
}

// Sub emits dst = x − y + K·p for the smallest kept K ≥ By.
func (v vecOps) Sub(dst, x, y slot) {
	k := 0
	for _, c := range kps {
		if c >= v.bound(y) {
			k = c
			break
		}
	}
	if k == 0 {
		panic("no K·p for the subtrahend's bound")
	}
	bd := v.bound(x) + k
	vcall("sub", dst, x, y, kpSlot(k))
	v.b[dst] = bd
}

// accBounds are the bounds the accumulators keep between operations: the
// doubling's outputs, the addition's and the addends' are all within them.
var accBounds = map[slot]int{sX: 18, sY: 18, sZ: 4}

// dbl is the doubling for a = −3 (dbl-2001-b), in place on X, Y, Z:
// δ = Z², γ = Y², β = X·γ, α = 3(X − δ)(X + δ), X' = α² − 8β,
// Z' = 2·Y·Z, Y' = α(4β − X') − 8γ².
const dbl = `
d = Z·Z; g = Y·Y; be = X·g
t0 = X − d; t1 = X + d; t0 = t0·t1; al = t0 + t0; al = al + t0
t0 = al·al; b2 = be + be; b4 = b2 + b2; t1 = b4 + b4; X = t0 − t1
Z = Y·Z; Z = Z + Z
t0 = b4 − X; t0 = al·t0; t1 = g·g; t1 = t1 + t1; t1 = t1 + t1; t1 = t1 + t1; Y = t0 − t1
`

// madd is the mixed addition (X3, Y3, Z3) = (X, Y, Z) + (EX, EY), the
// general case (madd-2004-hmv): U2 = EX·Z², S2 = EY·Z³, H = U2 − X,
// R = S2 − Y, X3 = R² − H³ − 2·X·H², Y3 = R(X·H² − X3) − Y·H³, Z3 = Z·H.
// H = 0 (the addend equal to or the opposite of the accumulator) makes
// Z3 = 0; the caller detects it from the final Z.
const madd = `
zz = Z·Z; u2 = EX·zz; zzz = Z·zz; s2 = EY·zzz
h = u2 − X; r = s2 − Y; hh = h·h; hhh = h·hh; v = X·hh
t = r·r; X3 = t − hhh; t = v + v; X3 = X3 − t
t = v − X3; t = r·t; zzz = Y·hhh; Y3 = t − zzz
Z3 = Z·h
`

func withAcc(extra map[slot]int) vecOps {
	b := map[slot]int{}
	for s, v := range accBounds {
		b[s] = v
	}
	for s, v := range extra {
		b[s] = v
	}
	return vecOps{b}
}

// checkWithin panics unless the slots' bounds are within accBounds (for
// the accumulators) after a formula.
func checkWithin(ops vecOps, out map[slot]slot) {
	for s, acc := range out {
		if ops.bound(s) > accBounds[acc] {
			panic(fmt.Sprintf("slot %d leaves bound %d > %d", s, ops.bound(s), accBounds[acc]))
		}
	}
}

// addendBounds: EX is folded (< 2p), EY folded and possibly negated
// (2p − y ≤ 2p < 3p).
var addendBounds = map[slot]int{sEX: 2, sEY: 3}

// add is the addition (X3, Y3, Z3) = (X, Y, Z) + (X2, Y2, Z2) of two
// Jacobian points, the general case (add-2007-bl without its factors 2):
// U1 = X·Z2², U2 = X2·Z², S1 = Y·Z2³, S2 = Y2·Z³, H = U2 − U1, R = S2 − S1,
// X3 = R² − H³ − 2·U1·H², Y3 = R(U1·H² − X3) − S1·H³, Z3 = Z·Z2·H. H = 0
// makes Z3 = 0, as in madd.
const add = `
z1 = Z·Z; z2 = Z2·Z2; u1 = X·z2; u2 = X2·z1
t = Z2·z2; s1 = Y·t; t = Z·z1; s2 = Y2·t
h = u2 − u1; r = s2 − s1; hh = h·h; hhh = h·hh; v = u1·hh
t = r·r; X3 = t − hhh; t = v + v; X3 = X3 − t
t = v − X3; t = r·t; s1 = s1·hhh; Y3 = t − s1
t = Z·Z2; Z3 = t·h
`

// formulaSub is a subroutine of the kernel that runs one formula: prog on
// the slots of vars, from the accumulators' bounds and those of extra,
// checked to leave each slot of out within the bound of its accumulator.
type formulaSub struct {
	name  string
	doc   []string
	prog  string
	extra map[slot]int
	vars  map[string]slot
	out   map[slot]slot
}

// formulaSubs are the doubling, the mixed addition and the pairs' addition,
// in the order they are emitted.
var formulaSubs = []formulaSub{{
	name: "vdouble",
	doc: []string{"vdouble is a subroutine of chain8AVX512: X, Y, Z = 2·(X, Y, Z) on the",
		"slots at DI, every lane. Declared for the assembler's checks only."},
	prog: dbl,
	vars: map[string]slot{
		"X": sX, "Y": sY, "Z": sZ, "d": sT0, "g": sT1, "be": sT2, "t0": sT3, "t1": sT4,
		"al": sT5, "b2": sT6, "b4": sT7,
	},
	out: map[slot]slot{sX: sX, sY: sY, sZ: sZ},
}, {
	name: "vmadd",
	doc: []string{"vmadd is a subroutine of chain8AVX512: X3, Y3, Z3 = (X, Y, Z) + (EX, EY)",
		"on the slots at DI, every lane. Declared for the assembler's checks only."},
	prog:  madd,
	extra: addendBounds,
	vars: map[string]slot{
		"X": sX, "Y": sY, "Z": sZ, "EX": sEX, "EY": sEY, "X3": sX3, "Y3": sY3, "Z3": sZ3,
		"zz": sT0, "u2": sT1, "zzz": sT2, "s2": sT3, "h": sT4, "r": sT5, "hh": sT6, "hhh": sT7,
		"v": sT0, "t": sT1,
	},
	out: map[slot]slot{sX3: sX, sY3: sY, sZ3: sZ},
}, {
	name: "vadd2",
	doc: []string{"vadd2 is a subroutine of chain8AVX512: X3, Y3, Z3 = (X, Y, Z) + (X2, Y2,",
		"Z2) on the slots at DI, every lane. Declared for the assembler's checks only."},
	prog:  add,
	extra: map[slot]int{sX2: accBounds[sX], sY2: accBounds[sY], sZ2: accBounds[sZ]},
	vars: map[string]slot{
		"X": sX, "Y": sY, "Z": sZ, "X2": sX2, "Y2": sY2, "Z2": sZ2, "X3": sX3, "Y3": sY3, "Z3": sZ3,
		"z1": sT0, "z2": sT1, "u1": sT2, "u2": sT3, "t": sT4, "s1": sT5, "s2": sT6, "h": sT7,
		"r": sT8, "hh": sT9, "hhh": sT0, "v": sT1,
	},
	out: map[slot]slot{sX3: sX, sY3: sY, sZ3: sZ},
}}

func (f formulaSub) gen() {
	asmlib.Subroutine(f.name, f.doc...)
	ops := withAcc(f.extra)
	asmlib.RunFormula(ops, f.prog, f.vars)
	checkWithin(ops, f.out)
	RET()
}

// genPairs emits the addition of each even lane's accumulator and its odd
// neighbour's (the two lanes of a group), left in the even lane; the odd
// lanes are then reported at infinity.
func genPairs() {
	Comment("Lane pairs: X2, Y2, Z2 = the accumulators with lanes 2i and 2i+1 swapped.")
	for c, s := range accPoint {
		for i := 0; i < limbs; i++ {
			VPSHUFD(U8(0x4e), s.at().Limb(i), Z0)
			VMOVDQU64(Z0, pairPoint[c].at().Limb(i))
		}
	}
	asmlib.CallFunc("vadd2")
	Comment("Chain fills a group's lanes in order, so an odd lane holds an addend only",
		"if its even neighbour does: a pair is at infinity when its even lane is, and",
		"the even lane takes the sum where neither lane is (K6 = not K4 | K4 >> 1);",
		"elsewhere it keeps its own accumulator. The odd lanes are then left out.")
	KMOVB(K4, EAX)
	SHRL(U8(1), EAX)
	KMOVB(EAX, K5)
	KORB(K4, K5, K6)
	KNOTB(K6, K6)
	vmergePoint(accPoint, sumPoint, K6)
	MOVL(U32(0xaa), EAX)
	KMOVB(EAX, K5)
	KORB(K4, K5, K4)
}

// vconst stores the radix-2^52 limbs of c, broadcast to every lane, at dst.
func vconst(dst slot, c *big.Int) { asmlib.VConst(dst.at(), asmlib.Radix52(c, limbs), Z0) }

// kernelSetup loads the register constants and stores the slot constants.
func kernelSetup() {
	vsetup()
	vconst(sZero, new(big.Int))
	vconst(sOne, modP(pow2(416)))
	vconst(sOut, modP(pow2(384)))
	for _, k := range kps {
		vconst(kpSlot(k), new(big.Int).Mul(p, big.NewInt(int64(k))))
	}
}

// Round is the layout of lanes.round: the eight addends' addresses, then
// the doublings before the round (uint32), the lanes that add (a byte of
// lane bits) and those whose addend is negated.
const (
	roundEnt  = 0
	roundDbl  = 64
	roundAct  = 68
	roundNeg  = 69
	roundSize = 72
)

// Out is the layout of the kernel's output: X, Y and Z (slot layout, fully
// reduced, in the table's domain R = 2^384), then the lanes still at
// infinity (a byte of lane bits in a word).
const outWords = 3*8*limbs + 1

func genKernel() {
	TEXT("chain8AVX512", 0, fmt.Sprintf("func(rounds *[%d][%d]uint64, n int, tail int, out *[%d]uint64)", maxRounds, roundSize/8, outWords))
	Doc("chain8AVX512 runs the first n rounds of rounds on eight lane accumulators,",
		"then tail doublings, and writes the lanes' sums to out (see lanes.go).",
		"Requires AVX512F and AVX512IFMA; see _asm/main.go.")
	Pragma("noescape")
	frame := AllocLocal(scratchBytes + 64)
	LEAQ(frame, RDI)
	ADDQ(U8(63), RDI)
	ANDQ(I8(-64), RDI)
	Load(Param("rounds"), RBX)
	Load(Param("n"), RSI)
	Load(Param("tail"), R12)
	Load(Param("out"), R13)
	kernelSetup()
	Comment("Every lane starts at infinity (K4 = the lanes at infinity); the",
		"accumulators start at 0 so that no lane computes on stale data.")
	KXNORB(K4, K4, K4)
	for _, s := range accPoint {
		LEAQ(sZero.at().Limb(0), R8)
		LEAQ(s.at().Limb(0), R10)
		asmlib.CallFunc("vcopy")
	}
	TESTQ(RSI, RSI)
	JZ(LabelRef("tail"))
	Label("round")
	MOVL(Mem{Base: RBX, Disp: roundDbl}, ECX)
	TESTL(ECX, ECX)
	JZ(LabelRef("adds"))
	Label("dbl")
	asmlib.CallFunc("vdouble")
	DECL(ECX)
	JNZ(LabelRef("dbl"))
	Label("adds")
	KMOVB(Mem{Base: RBX, Disp: roundAct}, K2)
	KMOVB(Mem{Base: RBX, Disp: roundNeg}, K3)
	asmlib.CallFunc("vlookup")
	asmlib.CallFunc("vmadd")
	Comment("Lanes that add take the sum (K2), then those of them at infinity take",
		"the addend instead, with Z = 1 (K6).")
	KANDB(K2, K4, K6)
	vmergePoint(accPoint, sumPoint, K2)
	vmergePoint(accPoint, [3]slot{sEX, sEY, sOne}, K6)
	KANDNB(K4, K2, K4) // K4 = K4 &^ K2
	ADDQ(U8(roundSize), RBX)
	DECQ(RSI)
	JNZ(LabelRef("round"))

	Label("tail")
	TESTQ(R12, R12)
	JZ(LabelRef("out"))
	Label("tdbl")
	asmlib.CallFunc("vdouble")
	DECQ(R12)
	JNZ(LabelRef("tdbl"))

	Label("out")
	genPairs()
	Comment("Back to the table's domain (·2^384 mod p, then mod p) into out.")
	for c, s := range accPoint {
		vcall("mul", sT0, s, sOut, 0)
		LEAQ(sT0.at().Limb(0), R8)
		LEAQ(kpSlot(1).at().Limb(0), R11)
		MOVQ(R13, R10)
		ADDQ(U32(uint32(c*slotSize)), R10)
		asmlib.CallFunc("vcanon")
	}
	KMOVB(K4, EAX)
	MOVQ(RAX, Mem{Base: R13, Disp: 8 * (outWords - 1)})
	VZEROUPPER()
	RET()

	genLookup()
	for _, f := range formulaSubs {
		f.gen()
	}
	genSubroutines()
}

// maxRounds is lanes.maxRounds.
const maxRounds = 128

// vmergePoint sets the point dst = src in the lanes of k.
func vmergePoint(dst, src [3]slot, k OpmaskPhysical) {
	for c := range dst {
		vmerge(dst[c], src[c], k)
	}
}

// vmerge sets dst = src in the lanes of k.
func vmerge(dst, src slot, k OpmaskPhysical) {
	for i := 0; i < limbs; i++ {
		VMOVDQU64(dst.at().Limb(i), Z0)
		VMOVDQU64(src.at().Limb(i), k, Z0)
		VMOVDQU64(Z0, dst.at().Limb(i))
	}
}

// genLookup emits vlookup: EX, EY = the round's addends (at BX) in the
// vector domain, EY negated in the lanes of K3, for the lanes of K2.
func genLookup() {
	asmlib.Subroutine("vlookup",
		"vlookup is a subroutine of chain8AVX512: EX, EY = the addends of the round at",
		"BX in the lanes of K2, EY negated in those of K3. Declared for the",
		"assembler's checks only.")
	Comment("Gather the twelve words of each lane's point.Affine (X then Y).")
	VMOVDQU64(Mem{Base: RBX, Disp: roundEnt}, Z12)
	XORQ(RAX, RAX)
	w := asmlib.Zmms(0, 12)
	for k := 0; k < 12; k++ {
		VPXORQ(w[k], w[k], w[k])
		KMOVB(K2, K1)
		VPGATHERQQ(Mem{Base: RAX, Index: Z12, Scale: 1, Disp: 8 * k}, K1, w[k])
	}
	Comment("A table value a = x·2^384 mod p (six words) times 2^32 is x·2^416:",
		"the same value in the vector domain, cut into 52-bit limbs, then folded.")
	for c, dst := range []slot{sEX, sEY} {
		a := w[6*c : 6*c+6]
		l := asmlib.Zmms(13, limbs)
		VPSLLQ(U8(44), a[0], l[0])
		VPSRLQ(U8(12), l[0], l[0])
		// l_i = (a[q] >> s | a[q+1] << (64 − s)) & mask, bit 52i − 32 of a.
		for i := 1; i < limbs; i++ {
			bit := 52*i - 32
			q, s := bit/64, bit%64
			VPSRLQ(U8(s), a[q], l[i])
			if s > 12 && q+1 < 6 {
				VPSLLQ(U8(64-s), a[q+1], Z21)
				VPORQ(Z21, l[i], l[i])
			}
			if i < limbs-1 {
				VPANDQ(zMask, l[i], l[i])
			}
		}
		vfoldRegs(l, asmlib.Zmms(21, 3))
		asmlib.VStore(dst.at(), l)
	}
	Comment("EY = 2p − EY in the lanes whose digit is negative.")
	LEAQ(sZero.at().Limb(0), R8)
	LEAQ(sEY.at().Limb(0), R9)
	LEAQ(sT0.at().Limb(0), R10)
	LEAQ(kpSlot(2).at().Limb(0), R11)
	asmlib.CallFunc("vsub")
	vmerge(sEY, sT0, K3)
	RET()
}

// genSubroutines emits the field operations' subroutines.
func genSubroutines() {
	for _, op := range []struct {
		name string
		body func()
	}{
		{"mul", func() { vmulBody(vdst, vx, vy) }},
		{"sqr", func() { vsqrBody(vdst, vx) }},
		{"add", func() { asmlib.VAdd(vdst, vx, vy, asmlib.Zmms(0, limbs), zMask, Z8) }},
		{"sub", func() { asmlib.VSub(vdst, vx, vy, vk, asmlib.Zmms(0, limbs), zMask, Z8) }},
		{"fold", func() { vfoldBody(vdst, vx) }},
		{"canon", func() { vcanonBody(vdst, vx, vk) }},
		{"copy", func() {
			v := asmlib.Zmms(0, limbs)
			asmlib.VLoad(v, vx)
			asmlib.VStore(vdst, v)
		}},
	} {
		asmlib.Subroutine("v"+op.name,
			fmt.Sprintf("v%s is a subroutine: (R10) = %s of (R8), (R9), (R11); constants in", op.name, op.name),
			"Z28–Z31. Declared for the assembler's checks only.")
		op.body()
		RET()
	}
}

// genTestKernels emits one field operation on slots 0 and 1 of s (and 3
// for the K·p of a subtraction or p of canon) into slot 2, for the tests.
func genTestKernels() {
	sig := fmt.Sprintf("func(s *[%d]uint64)", 4*8*limbs)
	for _, op := range []string{"Mul", "Sqr", "Add", "Sub", "Fold", "Canon"} {
		TEXT("vec"+op+"AVX512", NOSPLIT, sig)
		Doc(fmt.Sprintf("vec%sAVX512 sets slot 2 = %s of slots 0, 1 (and 3) of s (tests only).", op, op))
		Pragma("noescape")
		Load(Param("s"), RDI)
		vsetup()
		vcall(strings.ToLower(op), slot(2*slotSize), slot(0), slot(slotSize), slot(3*slotSize))
		VZEROUPPER()
		RET()
	}
}
