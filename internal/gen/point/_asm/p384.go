package main

import (
	"fmt"
	"slices"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"

	"github.com/p256tls/p256tls/internal/_asmlib"
)

// p384 is P-384's field for the formulas of main.go: six limbs in the same
// twelve registers, which hold two elements but not two beside a
// subtraction's scratch registers, so the formulas spill (curve.spill) and
// take the second operand of every addition and subtraction from memory.
// The products are internal/_asmlib's Mul384ADX and Square384ADX, the same
// code as internal/p384/field's mulADX and squareADX.
var p384 = &curve{
	name:  "P-384",
	limbs: 6,
	spill: true,
	slots: productSlots384,
	tmp:   func(m fe) { tmp384 = m },
	pool:  func() *pool { return newPool(p384Pool...) },
	mul: func(x, y fe, regs *pool) []GPPhysical {
		return product384(regs, func(r *pool) []GPPhysical { return mul6(x, y, tmp384, r) })
	},
	square: func(x fe, regs *pool) []GPPhysical {
		return product384(regs, func(r *pool) []GPPhysical { return square6(x, tmp384, r) })
	},
	add:  add384,
	sub:  sub384,
	half: half384,
}

// p384Pool is the register pool of the P-384 kernels; DI, the point's
// pointer, is lent to the products (product384).
var p384Pool = []GPPhysical{RAX, RBX, RCX, RSI, R8, R9, R10, R11, R12, R13, R14, R15}

// The P-384 products, the one place that says which multiplication and
// squaring the kernels use: mul6 and square6 return x·y·2^-384 and
// x·x·2^-384 mod p, below p, in six registers of regs, with DI (the
// point's pointer) lent for the end of the product (product384) and
// productSlots384 8-byte frame slots at tmp: asmlib.Mul384ADX and
// Square384ADX, internal/p384/field's mulADX and squareADX.
const productSlots384 = 12

func mul6(x, y, tmp fe, regs *pool) []GPPhysical {
	return asmlib.Mul384ADX(x, y, tmp, regs, RDI)
}

func square6(x, tmp fe, regs *pool) []GPPhysical { return asmlib.Square384ADX(x, tmp, regs, RDI) }

// tmp384 is the products' frame slots in the kernel being generated.
var tmp384 fe

// product384 runs emit, a product that may take every register of p384Pool
// and, once it no longer reads its operands, DI (the emitter's release): its
// six-limb final subtraction needs thirteen registers. regs must be full,
// as it is between the formulas' steps. If the result holds DI, DI's limb
// moves to a free register; then DI is reloaded from the argument p, and
// regs is left with the pool's registers that the result does not hold.
// A result with a register outside the pool and DI (DX, say), or with one
// twice, is a bug of the emitter: the generator panics.
func product384(regs *pool, emit func(*pool) []GPPhysical) []GPPhysical {
	for range p384Pool {
		regs.Get() // panics unless the pool is full
	}
	s := emit(newPool(p384Pool...))
	held := map[GPPhysical]bool{}
	for _, r := range s {
		if r != RDI && !slices.Contains(p384Pool, r) || held[r] {
			panic(fmt.Sprintf("_asm: a P-384 product returned %v", s))
		}
		held[r] = true
	}
	var free []GPPhysical
	for _, r := range p384Pool {
		if !held[r] {
			free = append(free, r)
		}
	}
	for i := range s {
		if s[i] == RDI {
			MOVQ(RDI, free[0])
			s[i], free = free[0], free[1:]
		}
	}
	Load(Param("p"), RDI)
	*regs = *newPool(free...)
	return s
}

// p384C is c = 2^384 − p = 2^128 + 2^96 − 2^32 + 1, least significant limb
// first: adding p to a value known to wrap is subtracting c mod 2^384.
var p384C = [3]uint64{0xffffffff00000001, 0x00000000ffffffff, 1}

// subMaskedC subtracts c & m from a mod 2^384, m 0 or all ones (then it
// adds p, the carry out of 2^384 dropped). It overwrites m and takes two
// registers.
func subMaskedC(a []GPPhysical, m GPPhysical, regs *pool) {
	c0, c1 := regs.Get(), regs.Get()
	MOVQ(U64(p384C[0]), c0)
	ANDQ(m, c0)
	MOVL(m.As32(), c1.As32()) // m & 2^32 − 1
	ANDL(U32(1), m.As32())    // m & 1
	SUBQ(c0, a[0])
	SBBQ(c1, a[1])
	SBBQ(m, a[2])
	for _, l := range a[3:] {
		SBBQ(Imm(0), l)
	}
	regs.Put(c0, c1)
}

// add384 sets a = a + b mod p and returns a. b may be a itself (a
// doubling) or memory. The sum with its carry bit, less p, borrows iff
// a + b < p; then p is added back (subMaskedC). It takes three registers.
func add384(a []GPPhysical, b []Op, regs *pool) []GPPhysical {
	c, pr := regs.Get(), regs.Get()
	XORL(c.As32(), c.As32())
	ADDQ(b[0], a[0])
	for i := 1; i < 6; i++ {
		ADCQ(b[i], a[i])
	}
	ADCQ(Imm(0), c)
	Comment("a + b − p; c = −1 iff that borrows (a + b < p): add p back.")
	for i, l := range asmlib.P384.Limbs {
		op := asmlib.ConstOp(l, pr) // no flags: the borrow chain goes on
		if i == 0 {
			SUBQ(op, a[i])
		} else {
			SBBQ(op, a[i])
		}
	}
	SBBQ(Imm(0), c)
	regs.Put(pr)
	subMaskedC(a, c, regs)
	regs.Put(c)
	return a
}

// sub384 sets a = a − b mod p, b memory: asmlib.SubMod with P-384's limbs
// (four registers).
func sub384(a []GPPhysical, b []Op, regs *pool) {
	asmlib.SubMod(a, b, asmlib.P384.Limbs, regs)
}

// half384 sets a = a/2 mod p: (a + p)/2 if a is odd, else a/2, the sum's
// carry shifted into the top limb. It takes five registers.
func half384(a []GPPhysical, regs *pool) {
	m, p0, p1, p2, c := regs.Get(), regs.Get(), regs.Get(), regs.Get(), regs.Get()
	Comment("m = −(a & 1); a + (p & m) with its carry c, then shifted right.")
	MOVQ(a[0], m)
	ANDQ(Imm(1), m)
	NEGQ(m)
	MOVL(m.As32(), p0.As32()) // p0 = 2^32 − 1
	MOVQ(m, p1)
	XORQ(p0, p1) // p1 = 2^64 − 2^32
	MOVQ(m, p2)
	ANDQ(I32(-2), p2) // p2 = 2^64 − 2
	XORL(c.As32(), c.As32())
	ADDQ(p0, a[0])
	ADCQ(p1, a[1])
	ADCQ(p2, a[2])
	for i := 3; i < 6; i++ {
		ADCQ(m, a[i])
	}
	ADCQ(Imm(0), c)
	for i := 0; i < 5; i++ {
		SHRQ(U8(1), a[i+1], a[i])
	}
	SHRQ(U8(1), c, a[5])
	regs.Put(m, p0, p1, p2, c)
}
