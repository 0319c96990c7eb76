package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"

	"github.com/p256tls/p256tls/internal/_asmlib"
)

// p256 is P-256's field for the formulas of main.go: four limbs, twelve
// registers, enough to hold two elements beside a subtraction's scratch
// registers, so nothing is spilled. Its operations are asmlib's P-256
// helpers, the same code as internal/p256/field's mulADX and squareADX; the
// reduction is explained there.
var p256 = &curve{
	name:   "P-256",
	limbs:  4,
	pool:   func() *pool { return newPool(RAX, RBX, RCX, RSI, R8, R9, R10, R11, R12, R13, R14, R15) },
	mul:    mul256,
	square: square256,
	add:    add256,
	sub:    sub256,
	half:   half256,
}

// mul256 returns x·y·2^-256 mod p, below p, in four new registers
// (asmlib.MulADX, the multiplication of internal/p256/field's mulADX; the
// subtraction of p uses DX as scratch).
func mul256(x, y fe, regs *pool) []GPPhysical {
	s, _ := asmlib.MulADX(asmlib.FE(x), asmlib.FE(y), regs, RDX)
	return s[:]
}

// square256 returns x·x·2^-256 mod p, below p, in four new registers: the
// product, its low half reduced in four rounds, and the high half added
// with one conditional subtraction (asmlib.SquareProductADX, ReduceLow and
// FinalADX, as internal/p256/field's squareADX). It needs the twelve registers
// of the pool free.
func square256(x fe, regs *pool) []GPPhysical {
	var t [8]GPPhysical
	for i := range t {
		t[i] = regs.Get()
	}
	lo, h0, b0, b1 := regs.Get(), regs.Get(), regs.Get(), regs.Get()
	asmlib.SquareProductADX(t, asmlib.FE(x), lo, h0, b0, b1)
	regs.Put(lo, h0, b0, b1)
	u := asmlib.ReduceLow(t, regs)
	h := [4]GPPhysical{t[4], t[5], t[6], t[7]}
	d := regs.Get4()
	asmlib.FinalADX(d, u, h, RDX)
	regs.Put4(u)
	regs.Put4(h)
	return d[:]
}

// Additions. Operands are below p and so are the results.

// add256 returns a + b mod p in four new registers and frees a. b may be a
// itself (a doubling) or memory.
func add256(a []GPPhysical, b []Op, regs *pool) []GPPhysical {
	c := regs.Get()
	XORL(c.As32(), c.As32())
	ADDQ(b[0], a[0])
	for i := 1; i < 4; i++ {
		ADCQ(b[i], a[i])
	}
	ADCQ(Imm(0), c)
	s := regs.Get4()
	asmlib.SubP(s, [4]GPPhysical(a), RDX)
	SBBQ(Imm(0), c) // borrows iff a + b < p
	for i := range s {
		CMOVQCS(a[i], s[i])
	}
	regs.Put(a...)
	regs.Put(c)
	return s[:]
}

// sub256 sets a = a - b mod p.
func sub256(a []GPPhysical, b []Op, regs *pool) {
	m, t := regs.Get(), regs.Get()
	SUBQ(b[0], a[0])
	for i := 1; i < 4; i++ {
		SBBQ(b[i], a[i])
	}
	SBBQ(m, m) // m = -borrow: add p back
	MOVL(U32(asmlib.P1), t.As32())
	ANDQ(m, t)
	MOVQ(U64(asmlib.P3), RDX)
	ANDQ(m, RDX)
	ADDQ(m, a[0])
	ADCQ(t, a[1])
	ADCQ(Imm(0), a[2])
	ADCQ(RDX, a[3])
	regs.Put(m, t)
}

// half256 sets a = a/2 mod p: (a + p)/2 if a is odd, else a/2.
func half256(a []GPPhysical, regs *pool) {
	m, t, c := regs.Get(), regs.Get(), regs.Get()
	MOVQ(a[0], m)
	ANDQ(Imm(1), m)
	NEGQ(m)
	MOVL(U32(asmlib.P1), t.As32())
	ANDQ(m, t)
	MOVQ(U64(asmlib.P3), RDX)
	ANDQ(m, RDX)
	MOVL(U32(0), c.As32())
	ADDQ(m, a[0])
	ADCQ(t, a[1])
	ADCQ(Imm(0), a[2])
	ADCQ(RDX, a[3])
	ADCQ(Imm(0), c)
	SHRQ(U8(1), a[1], a[0])
	SHRQ(U8(1), a[2], a[1])
	SHRQ(U8(1), a[3], a[2])
	SHRQ(U8(1), c, a[3])
	regs.Put(m, t, c)
}
