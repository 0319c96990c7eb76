package asmlib

// Helpers of the AVX-512 kernels that keep a field element in radix 2^52,
// one limb per 64-byte row or ZMM register, lane l holding the element of
// lane l (internal/p256/comb's eight-lane comb, five limbs; internal/p384/lanes'
// eight-lane chain, eight limbs), and the interpreter of the formula
// programs both those generators and comb's scalar kernels run. What
// depends on the prime (the reductions, the folds) stays with each
// generator.
//
// All of this is generator code: it runs at `go generate` time on values
// the generators themselves supply, and a malformed formula or an
// out-of-range constant is a bug of the generator, so it panics.

import (
	"fmt"
	"math/big"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"

	"github.com/p256tls/p256tls/internal/_asmlib/formula"
)

// FieldOps emits the three operations of a formula program on elements
// named by slots of type S (a kernel's own handle for an element, e.g. a
// byte offset into its frame): dst = x·y, x + y and x − y (mod p), in
// whatever representation the kernel keeps. dst may equal x or y (or
// both). The emitters may emit further code around the operation (folds,
// bound checks).
type FieldOps[S any] interface {
	Mul(dst, x, y S)
	Add(dst, x, y S)
	Sub(dst, x, y S)
}

// RunFormula emits prog, a program of internal/_asmlib/formula, through
// f: products (a square x·x included), sums and differences, each name one
// of vars. Steps run in order, left to right, line by line; each line is
// first emitted as an assembly comment of itself. It panics on a program
// the parser refuses, a half or a negation (FieldOps has neither), or a
// name missing from vars, having emitted the steps before it.
func RunFormula[S any](f FieldOps[S], prog string, vars map[string]S) {
	get := func(name string) S {
		s, ok := vars[name]
		if !ok {
			panic(fmt.Sprintf("asmlib: formula: no slot for %q", name))
		}
		return s
	}
	for _, line := range formula.MustParse(prog) {
		Comment(line.Text)
		for _, st := range line.Steps {
			d, x := get(st.Dst), get(st.X)
			switch st.Op {
			case formula.Mul:
				f.Mul(d, x, get(st.Y))
			case formula.Sqr:
				f.Mul(d, x, x)
			case formula.Add:
				f.Add(d, x, get(st.Y))
			case formula.Sub:
				f.Sub(d, x, get(st.Y))
			default:
				panic(fmt.Sprintf("asmlib: formula: operation %v of %q not supported", st.Op, line.Text))
			}
		}
	}
}

// zmms are the 32 vector registers, in order.
var zmms = []VecPhysical{Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7, Z8, Z9, Z10, Z11, Z12, Z13, Z14, Z15,
	Z16, Z17, Z18, Z19, Z20, Z21, Z22, Z23, Z24, Z25, Z26, Z27, Z28, Z29, Z30, Z31}

// Zmm returns the register Zi, 0 ≤ i < 32 (it panics otherwise).
func Zmm(i int) VecPhysical { return zmms[i] }

// Zmms returns the n registers Z(from)..Z(from+n−1), in a new slice; it
// panics unless 0 ≤ from and from+n ≤ 32.
func Zmms(from, n int) []VecPhysical {
	return append([]VecPhysical(nil), zmms[from:from+n]...)
}

// Kmask returns the mask register Ki, 0 ≤ i < 8 (it panics otherwise).
func Kmask(i int) OpmaskPhysical {
	return []OpmaskPhysical{K0, K1, K2, K3, K4, K5, K6, K7}[i]
}

// MovImm sets r = v: MOVQ of a sign-extended 32-bit immediate when
// v < 2^31, else of the 64-bit immediate. (Unlike loadConst it never uses
// MOVL; neither touches the flags.)
func MovImm(v uint64, r GPPhysical) {
	if v < 1<<31 {
		MOVQ(I32(int32(v)), r)
	} else {
		MOVQ(U64(v), r)
	}
}

// Broadcast sets every 64-bit lane of z to v, through AX (clobbered).
func Broadcast(v uint64, z VecPhysical) {
	MovImm(v, RAX)
	VPBROADCASTQ(RAX, z)
}

// VecFE is a vector field element in memory: consecutive 64-byte rows from
// Off(Base), row i holding limb i of each of the eight lanes. Nothing
// checks how many rows the memory holds; the generator must.
type VecFE struct {
	Base GPPhysical
	Off  int
}

// Limb returns the memory operand of row i.
func (v VecFE) Limb(i int) Mem { return Mem{Base: v.Base, Disp: v.Off + 64*i} }

// VLoad loads rows 0..len(r)−1 of src into the registers r (VMOVDQU64:
// no alignment needed).
func VLoad(r []VecPhysical, src VecFE) {
	for i := range r {
		VMOVDQU64(src.Limb(i), r[i])
	}
}

// VStore stores the registers r into rows 0..len(r)−1 of dst.
func VStore(dst VecFE, r []VecPhysical) {
	for i := range r {
		VMOVDQU64(r[i], dst.Limb(i))
	}
}

// VConst stores the limbs c, each broadcast to every lane, into rows
// 0..len(c)−1 of dst, through tmp and AX (both clobbered).
func VConst(dst VecFE, c []uint64, tmp VecPhysical) {
	for i, l := range c {
		Broadcast(l, tmp)
		VMOVDQU64(tmp, dst.Limb(i))
	}
}

// VNormalize propagates the carries of the radix-2^52 limbs r[0..len−2]
// one limb up, in order, so that each of them ends in [0, 2^52) and the
// last limb takes the rest (it is neither masked nor carried out of: the
// caller bounds it). arith selects arithmetic shifts, for signed limbs
// (a negative limb borrows from the next); without it the limbs must be
// non-negative. mask must hold 2^52 − 1 in every lane; tmp is clobbered.
// The value is unchanged (as a signed sum of r[i]·2^(52i)) when no limb
// overflows 64 bits on the way.
func VNormalize(r []VecPhysical, arith bool, mask, tmp VecPhysical) {
	for i := 0; i < len(r)-1; i++ {
		if arith {
			VPSRAQ(U8(52), r[i], tmp)
		} else {
			VPSRLQ(U8(52), r[i], tmp)
		}
		VPANDQ(mask, r[i], r[i])
		VPADDQ(tmp, r[i+1], r[i+1])
	}
}

// VAdd emits dst = x + y, not reduced, on the len(v) limbs of the rows:
// x is loaded into the registers v, y's rows are added, and the carries are
// propagated by VNormalize (unsigned; mask, tmp as there). The limbs of x
// and y must be normalized (below 2^52) and the sum must fit in len(v)
// limbs, the top one taking what is above. dst may be x or y.
func VAdd(dst, x, y VecFE, v []VecPhysical, mask, tmp VecPhysical) {
	VLoad(v, x)
	for i := range v {
		VPADDQ(y.Limb(i), v[i], v[i])
	}
	VNormalize(v, false, mask, tmp)
	VStore(dst, v)
}

// VSub emits dst = x − y + k, not reduced, on the len(v) limbs of the rows,
// as VAdd with the limbs of y subtracted and those of k added (signed, so
// the carries are arithmetic). k is a multiple of p chosen by the caller
// with k ≥ y, so that the result is non-negative and congruent to x − y.
// dst may be x, y or k.
func VSub(dst, x, y, k VecFE, v []VecPhysical, mask, tmp VecPhysical) {
	VLoad(v, x)
	for i := range v {
		VPSUBQ(y.Limb(i), v[i], v[i])
		VPADDQ(k.Limb(i), v[i], v[i])
	}
	VNormalize(v, true, mask, tmp)
	VStore(dst, v)
}

// CallFunc emits a direct CALL of the assembly function name of the
// package being generated (avo writes the label reference as it is).
func CallFunc(name string) { CALL(LabelRef("·" + name + "(SB)")) }

// Subroutine starts the assembly function name, of a register calling
// convention of the generator's own (no Go arguments: its Go declaration,
// func(), is for the assembler's checks only), with the doc comment doc.
func Subroutine(name string, doc ...string) {
	TEXT(name, NOSPLIT, "func()")
	Doc(doc...)
}

// Radix52 returns the n radix-2^52 limbs of v, least significant first; it
// panics unless 0 ≤ v < 2^(52n).
func Radix52(v *big.Int, n int) []uint64 {
	if v.Sign() < 0 || v.BitLen() > 52*n {
		panic("asmlib: Radix52: value out of range")
	}
	l := make([]uint64, n)
	m := new(big.Int).SetUint64(1<<52 - 1)
	for i := range l {
		l[i] = new(big.Int).And(new(big.Int).Rsh(v, uint(52*i)), m).Uint64()
	}
	return l
}
