package main

// This file writes comb_amd64.s, the amd64 kernels of package comb:
//
//   - lookupAVX2 reads all 2^(w−1) entries of one table position with
//     256-bit masked loads and keeps the wanted one: every entry is read,
//     no address depends on the digit, and there is no branch at all (the
//     loop is unrolled).
//   - addMixedADX is the complete mixed addition of Renes, Costello and
//     Batina (2016, algorithm 5, a = −3) with every field operation inlined:
//     Montgomery multiplications with MULX and the ADCX/ADOX carry chains,
//     additions and subtractions with a masked correction, all on 32-byte
//     slots of the stack frame. There is no branch at all.
//
// Field arithmetic (p = 2^256 − 2^224 + 2^192 + 2^96 − 1, Montgomery form
// with R = 2^256, every value fully reduced below p):
//
//   - The product x·y is formed in eight limbs t0..t7. Its low half
//     L = t0..t3 is reduced in four rounds u ← (u + m·p)/2^64 with m the low
//     limb of u (−p⁻¹ ≡ 1 mod 2^64, so m needs no multiplication). Since
//     (p + 1)/2^64 = 2^192 − 2^160 + 2^128 + 2^32, a round adds m·2^32 and
//     m·p3·2^128 (p3 = 2^64 − 2^32 + 1) to u >> 64; the result stays below
//     2^192 + p, inside four limbs, and after four rounds is at most p. Adding
//     the high half H = t4..t7 < p gives x·y·2^−256 + (multiple of p) < 2p,
//     which one conditional subtraction of p (CMOV on the borrow) reduces.
//   - a + b: add with carry, subtract p with borrow, keep the sum when the
//     subtraction borrowed (CMOV).
//   - a − b: subtract with borrow, add p masked by the borrow.
//
// Register use: R8–R15 hold the product and the values being reduced, DX is
// MULX's implicit operand, AX/BX/CX are scratch, SI holds p3 and DI holds p1
// for the whole function. No global symbol is referenced (constants are
// immediates), so R15 is free even when dynamically linking.

import "fmt"

const (
	asmP1 = 0x00000000ffffffff
	asmP3 = 0xffffffff00000001
)

// curveBMont is b in Montgomery form (b·2^256 mod p), as little-endian limbs.
func curveBMont() [4]uint64 { return montLimbs(curveB) }

// slot is a field element stored at off(SP).
type slot int

func (s slot) limb(i int) string { return fmt.Sprintf("%d(SP)", int(s)+8*i) }

// mem is a field element at off(reg).
type mem struct {
	reg string
	off int
}

func (m mem) limb(i int) string { return fmt.Sprintf("%d(%s)", m.off+8*i, m.reg) }

type operand interface{ limb(i int) string }

// mul emits dst = x·y·2^−256 mod p.
func (a *asm) mul(dst, x, y operand) {
	t := []string{"R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15"}
	// Row 0.
	a.ins("MOVQ", y.limb(0), "DX")
	a.ins("MULXQ", x.limb(0), t[0], t[1])
	a.ins("MULXQ", x.limb(1), "AX", t[2])
	a.ins("ADDQ", "AX", t[1])
	a.ins("MULXQ", x.limb(2), "AX", t[3])
	a.ins("ADCQ", "AX", t[2])
	a.ins("MULXQ", x.limb(3), "AX", t[4])
	a.ins("ADCQ", "AX", t[3])
	a.ins("ADCQ", "$0", t[4])
	// Rows 1..3: low halves on the CF chain (ADCX), high halves on the OF
	// chain (ADOX).
	for i := 1; i < 4; i++ {
		a.ins("MOVQ", y.limb(i), "DX")
		a.ins("XORQ", "CX", "CX")
		a.ins("MULXQ", x.limb(0), "AX", "BX")
		a.ins("ADCXQ", "AX", t[i])
		a.ins("ADOXQ", "BX", t[i+1])
		a.ins("MULXQ", x.limb(1), "AX", "BX")
		a.ins("ADCXQ", "AX", t[i+1])
		a.ins("ADOXQ", "BX", t[i+2])
		a.ins("MULXQ", x.limb(2), "AX", "BX")
		a.ins("ADCXQ", "AX", t[i+2])
		a.ins("ADOXQ", "BX", t[i+3])
		a.ins("MULXQ", x.limb(3), "AX", t[i+4])
		a.ins("ADCXQ", "AX", t[i+3])
		a.ins("ADOXQ", "CX", t[i+4])
		a.ins("ADCXQ", "CX", t[i+4])
	}
	// Reduce the low half in four rounds; the limbs rotate through the
	// registers, with one spare register taking each round's top limb.
	l := []string{t[0], t[1], t[2], t[3]}
	free := "BX"
	for r := 0; r < 4; r++ {
		m := l[0]
		a.ins("MOVQ", m, "DX")
		a.ins("MULXQ", "SI", "AX", free) // free:AX = m·p3
		a.ins("MOVQ", m, "CX")
		a.ins("SHLQ", "$32", "CX") // m << 32
		a.ins("SHRQ", "$32", m)    // m >> 32
		a.ins("ADDQ", "CX", l[1])
		a.ins("ADCQ", m, l[2])
		a.ins("ADCQ", "AX", l[3])
		a.ins("ADCQ", "$0", free)
		l = []string{l[1], l[2], l[3], free}
		free = m
	}
	// Add the high half, then subtract p once if the sum is ≥ p.
	h := t[4:]
	a.ins("XORQ", "CX", "CX")
	a.ins("ADDQ", h[0], l[0])
	a.ins("ADCQ", h[1], l[1])
	a.ins("ADCQ", h[2], l[2])
	a.ins("ADCQ", h[3], l[3])
	a.ins("ADCQ", "$0", "CX")
	a.condSubP(dst, l, h)
}

// condSubP stores v − p to dst if v (four limbs in v, carry in CX) is ≥ p,
// and v otherwise. It uses the registers of s as scratch.
func (a *asm) condSubP(dst operand, v, s []string) {
	for i := 0; i < 4; i++ {
		a.ins("MOVQ", v[i], s[i])
	}
	a.ins("SUBQ", "$-1", s[0]) // p0 = 2^64 − 1
	a.ins("SBBQ", "DI", s[1])  // p1
	a.ins("SBBQ", "$0", s[2])  // p2 = 0
	a.ins("SBBQ", "SI", s[3])  // p3
	a.ins("SBBQ", "$0", "CX")
	// A borrow means v < p: keep v.
	for i := 0; i < 4; i++ {
		a.ins("CMOVQCS", v[i], s[i])
	}
	for i := 0; i < 4; i++ {
		a.ins("MOVQ", s[i], dst.limb(i))
	}
}

// add emits dst = x + y mod p.
func (a *asm) add(dst, x, y operand) {
	v := []string{"R8", "R9", "R10", "R11"}
	for i := 0; i < 4; i++ {
		a.ins("MOVQ", x.limb(i), v[i])
	}
	a.ins("XORQ", "CX", "CX")
	a.ins("ADDQ", y.limb(0), v[0])
	a.ins("ADCQ", y.limb(1), v[1])
	a.ins("ADCQ", y.limb(2), v[2])
	a.ins("ADCQ", y.limb(3), v[3])
	a.ins("ADCQ", "$0", "CX")
	a.condSubP(dst, v, []string{"R12", "R13", "R14", "R15"})
}

// sub emits dst = x − y mod p.
func (a *asm) sub(dst, x, y operand) {
	v := []string{"R8", "R9", "R10", "R11"}
	for i := 0; i < 4; i++ {
		a.ins("MOVQ", x.limb(i), v[i])
	}
	a.ins("SUBQ", y.limb(0), v[0])
	a.ins("SBBQ", y.limb(1), v[1])
	a.ins("SBBQ", y.limb(2), v[2])
	a.ins("SBBQ", y.limb(3), v[3])
	a.ins("SBBQ", "CX", "CX") // CX = all ones on borrow
	a.ins("MOVQ", "DI", "R12")
	a.ins("ANDQ", "CX", "R12") // p1 & mask
	a.ins("MOVQ", "SI", "R13")
	a.ins("ANDQ", "CX", "R13") // p3 & mask
	a.ins("ADDQ", "CX", v[0])  // p0 & mask = mask
	a.ins("ADCQ", "R12", v[1])
	a.ins("ADCQ", "$0", v[2])
	a.ins("ADCQ", "R13", v[3])
	for i := 0; i < 4; i++ {
		a.ins("MOVQ", v[i], dst.limb(i))
	}
}

// copy32 copies a 32-byte value with two SSE2 moves.
func (a *asm) copy32(dst, src operand) {
	a.ins("MOVOU", src.limb(0), "X0")
	a.ins("MOVOU", src.limb(2), "X1")
	a.ins("MOVOU", "X0", dst.limb(0))
	a.ins("MOVOU", "X1", dst.limb(2))
}

// addMixedBody emits the RCB algorithm 5 sequence on frame slots, reading
// X1, Y1, Z1, x2, y2 and leaving the sum in X3, Y3, Z3.
func (a *asm) addMixedBody(X1, Y1, Z1, x2, y2, b, t0, t1, t2, t3, t4, X3, Y3, Z3 slot) {
	a.comment("t0 = X1·x2, t1 = Y1·y2, t3 = (x2+y2)(X1+Y1) − t0 − t1")
	a.mul(t0, X1, x2)
	a.mul(t1, Y1, y2)
	a.add(t3, x2, y2)
	a.add(t4, X1, Y1)
	a.mul(t3, t3, t4)
	a.add(t4, t0, t1)
	a.sub(t3, t3, t4)
	a.comment("t4 = y2·Z1 + Y1, Y3 = x2·Z1 + X1")
	a.mul(t4, y2, Z1)
	a.add(t4, t4, Y1)
	a.mul(Y3, x2, Z1)
	a.add(Y3, Y3, X1)
	a.comment("Z3 = b·Z1, X3 = Y3 − Z3, X3 = 3·X3, Z3 = t1 − X3, X3 = t1 + X3")
	a.mul(Z3, b, Z1)
	a.sub(X3, Y3, Z3)
	a.add(Z3, X3, X3)
	a.add(X3, X3, Z3)
	a.sub(Z3, t1, X3)
	a.add(X3, t1, X3)
	a.comment("Y3 = b·Y3, t2 = 3·Z1, Y3 = 3·(Y3 − t2 − t0)")
	a.mul(Y3, b, Y3)
	a.add(t1, Z1, Z1)
	a.add(t2, t1, Z1)
	a.sub(Y3, Y3, t2)
	a.sub(Y3, Y3, t0)
	a.add(t1, Y3, Y3)
	a.add(Y3, t1, Y3)
	a.comment("t0 = 3·t0 − t2")
	a.add(t1, t0, t0)
	a.add(t0, t1, t0)
	a.sub(t0, t0, t2)
	a.comment("t1 = t4·Y3, t2 = t0·Y3, Y3 = X3·Z3 + t2")
	a.mul(t1, t4, Y3)
	a.mul(t2, t0, Y3)
	a.mul(Y3, X3, Z3)
	a.add(Y3, Y3, t2)
	a.comment("X3 = t3·X3 − t1, Z3 = t4·Z3 + t3·t0")
	a.mul(X3, t3, X3)
	a.sub(X3, X3, t1)
	a.mul(Z3, t4, Z3)
	a.mul(t1, t3, t0)
	a.add(Z3, Z3, t1)
}

// addFullBody emits the complete projective addition (RCB algorithm 4,
// a = −3) on frame slots: (X3, Y3, Z3) = (X1, Y1, Z1) + (X2, Y2, Z2).
func (a *asm) addFullBody(X1, Y1, Z1, X2, Y2, Z2, b, t0, t1, t2, t3, t4, X3, Y3, Z3 slot) {
	a.comment("t0 = X1·X2, t1 = Y1·Y2, t2 = Z1·Z2, t3 = (X1+Y1)(X2+Y2) − t0 − t1")
	a.mul(t0, X1, X2)
	a.mul(t1, Y1, Y2)
	a.mul(t2, Z1, Z2)
	a.add(t3, X1, Y1)
	a.add(t4, X2, Y2)
	a.mul(t3, t3, t4)
	a.add(t4, t0, t1)
	a.sub(t3, t3, t4)
	a.comment("t4 = (Y1+Z1)(Y2+Z2) − t1 − t2")
	a.add(t4, Y1, Z1)
	a.add(X3, Y2, Z2)
	a.mul(t4, t4, X3)
	a.add(X3, t1, t2)
	a.sub(t4, t4, X3)
	a.comment("Y3 = (X1+Z1)(X2+Z2) − t0 − t2")
	a.add(X3, X1, Z1)
	a.add(Y3, X2, Z2)
	a.mul(X3, X3, Y3)
	a.add(Y3, t0, t2)
	a.sub(Y3, X3, Y3)
	a.comment("Z3 = b·t2, X3 = 3(Y3 − Z3), Z3 = t1 − X3, X3 = t1 + X3")
	a.mul(Z3, b, t2)
	a.sub(X3, Y3, Z3)
	a.add(Z3, X3, X3)
	a.add(X3, X3, Z3)
	a.sub(Z3, t1, X3)
	a.add(X3, t1, X3)
	a.comment("Y3 = 3(b·Y3 − 3·t2 − t0), t0 = 3·t0 − 3·t2")
	a.mul(Y3, b, Y3)
	a.add(t1, t2, t2)
	a.add(t2, t1, t2)
	a.sub(Y3, Y3, t2)
	a.sub(Y3, Y3, t0)
	a.add(t1, Y3, Y3)
	a.add(Y3, t1, Y3)
	a.add(t1, t0, t0)
	a.add(t0, t1, t0)
	a.sub(t0, t0, t2)
	a.comment("Y3 = X3·Z3 + t0·Y3, X3 = t3·X3 − t4·Y3, Z3 = t4·Z3 + t3·t0")
	a.mul(t1, t4, Y3)
	a.mul(t2, t0, Y3)
	a.mul(Y3, X3, Z3)
	a.add(Y3, Y3, t2)
	a.mul(X3, t3, X3)
	a.sub(X3, X3, t1)
	a.mul(Z3, t4, Z3)
	a.mul(t1, t3, t0)
	a.add(Z3, Z3, t1)
}

// setConstants loads p1 and p3 into DI and SI and stores b at slot b.
func (a *asm) setConstants(b slot) {
	a.ins("MOVQ", fmt.Sprintf("$%#016x", uint64(asmP1)), "DI")
	a.ins("MOVQ", fmt.Sprintf("$%#016x", uint64(asmP3)), "SI")
	for i, l := range curveBMont() {
		a.ins("MOVQ", fmt.Sprintf("$%#016x", l), "AX")
		a.ins("MOVQ", "AX", b.limb(i))
	}
}

// lookupBody emits the masked read of all entries of the table at tab
// (a register) into Y0 (x) and Y1 (y); idx is the memory operand of the
// wanted index ∈ [1, entries].
func (a *asm) lookupBody(tab, idx string, entries int) {
	a.ins("VPBROADCASTQ", idx, "Y15") // wanted index
	a.ins("MOVQ", "$1", "AX")
	a.ins("MOVQ", "AX", "X14")
	a.ins("VPBROADCASTQ", "X14", "Y14") // counter j+1, from 1
	a.ins("VMOVDQU", "Y14", "Y13")      // increment
	a.ins("VPXOR", "Y0", "Y0", "Y0")
	a.ins("VPXOR", "Y1", "Y1", "Y1")
	for j := 0; j < entries; j++ {
		a.ins("VPCMPEQQ", "Y14", "Y15", "Y12")
		a.ins("VPAND", fmt.Sprintf("%d(%s)", 64*j, tab), "Y12", "Y10")
		a.ins("VPAND", fmt.Sprintf("%d(%s)", 64*j+32, tab), "Y12", "Y11")
		a.ins("VPOR", "Y10", "Y0", "Y0")
		a.ins("VPOR", "Y11", "Y1", "Y1")
		if j != entries-1 {
			a.ins("VPADDQ", "Y13", "Y14", "Y14")
		}
	}
}

func generateAsm(w int) {
	entries := 1 << (w - 1)
	a := &asm{}

	// lookupAVX2.
	a.text("lookupAVX2", fmt.Sprintf("func(e *[8]uint64, tab *[%d][8]uint64, idx int)", entries), 0,
		"lookupAVX2 sets e to entry idx−1 of tab (a point.Affine each). It reads all",
		fmt.Sprintf("%d entries and keeps the wanted one by mask. Requires AVX2.", entries))
	a.ins("MOVQ", "tab+8(FP)", "SI")
	a.lookupBody("SI", "idx+16(FP)", entries)
	a.ins("MOVQ", "e+0(FP)", "DI")
	a.ins("VMOVDQU", "Y0", "(DI)")
	a.ins("VMOVDQU", "Y1", "32(DI)")
	a.ins("VZEROUPPER")
	a.ins("RET")

	// addMixedADX.
	const (
		X1 slot = 32 * iota
		Y1
		Z1
		x2
		y2
		b
		t0
		t1
		t2
		t3
		t4
		X3
		Y3
		Z3
		frame
	)
	a.text("addMixedADX", "func(out, q *[12]uint64, a *[8]uint64)", int(frame),
		"addMixedADX sets out = q + a (point.Projective, point.Affine), the complete",
		"mixed addition (RCB algorithm 5). Requires ADX, BMI2, CMOV.")
	a.ins("MOVQ", "q+8(FP)", "AX")
	a.ins("MOVQ", "a+16(FP)", "BX")
	a.copy32(X1, mem{"AX", 0})
	a.copy32(Y1, mem{"AX", 32})
	a.copy32(Z1, mem{"AX", 64})
	a.copy32(x2, mem{"BX", 0})
	a.copy32(y2, mem{"BX", 32})
	a.setConstants(b)
	a.addMixedBody(X1, Y1, Z1, x2, y2, b, t0, t1, t2, t3, t4, X3, Y3, Z3)
	a.comment("Store the sum.")
	a.ins("MOVQ", "out+0(FP)", "AX")
	a.copy32(mem{"AX", 0}, X3)
	a.copy32(mem{"AX", 32}, Y3)
	a.copy32(mem{"AX", 64}, Z3)
	a.ins("RET")

	// combStepADX.
	a.text("combStepADX", fmt.Sprintf("func(acc *[12]uint64, tab *[%d][8]uint64, idx, neg, keep int)", entries), int(frame),
		"combStepADX reads e = tab[idx−1], negated if neg = 1, and sets acc = acc if",
		"keep = 1, else acc + e (complete mixed addition). Requires AVX2, ADX, BMI2,",
		"CMOV.")
	a.ins("MOVQ", "tab+8(FP)", "SI")
	a.lookupBody("SI", "idx+16(FP)", entries)
	a.ins("VMOVDQU", "Y0", x2.limb(0))
	a.ins("VMOVDQU", "Y1", y2.limb(0))
	a.ins("VZEROUPPER")
	a.setConstants(b)
	a.comment("y2 = −y2 if neg = 1: p − y2 (y2 ≠ 0 on a prime-order curve), kept by CMOV.")
	a.ins("MOVQ", "$-1", "R8")
	a.ins("MOVQ", "DI", "R9")
	a.ins("XORQ", "R10", "R10")
	a.ins("MOVQ", "SI", "R11")
	a.ins("SUBQ", y2.limb(0), "R8")
	a.ins("SBBQ", y2.limb(1), "R9")
	a.ins("SBBQ", y2.limb(2), "R10")
	a.ins("SBBQ", y2.limb(3), "R11")
	a.ins("MOVQ", "neg+24(FP)", "AX")
	a.ins("TESTQ", "AX", "AX")
	for i := 0; i < 4; i++ {
		r := []string{"R12", "R13", "R14", "R15"}[i]
		a.ins("MOVQ", y2.limb(i), r)
		a.ins("CMOVQNE", []string{"R8", "R9", "R10", "R11"}[i], r)
		a.ins("MOVQ", r, y2.limb(i))
	}
	a.ins("MOVQ", "acc+0(FP)", "AX")
	a.copy32(X1, mem{"AX", 0})
	a.copy32(Y1, mem{"AX", 32})
	a.copy32(Z1, mem{"AX", 64})
	a.addMixedBody(X1, Y1, Z1, x2, y2, b, t0, t1, t2, t3, t4, X3, Y3, Z3)
	a.comment("acc = keep ? acc : sum, by CMOV.")
	a.ins("MOVQ", "acc+0(FP)", "AX")
	a.ins("MOVQ", "keep+32(FP)", "BX")
	a.ins("TESTQ", "BX", "BX")
	for c, src := range []slot{X3, Y3, Z3} {
		old := []slot{X1, Y1, Z1}[c]
		for i := 0; i < 4; i++ {
			a.ins("MOVQ", src.limb(i), "R8")
			a.ins("CMOVQNE", old.limb(i), "R8")
			a.ins("MOVQ", "R8", mem{"AX", 32 * c}.limb(i))
		}
	}
	a.ins("RET")

	// addFullADX.
	{
		const (
			X1 slot = 32 * iota
			Y1
			Z1
			X2
			Y2
			Z2
			b
			t0
			t1
			t2
			t3
			t4
			X3
			Y3
			Z3
			frame
		)
		a.text("addFullADX", "func(out, q, r *[12]uint64)", int(frame),
			"addFullADX sets out = q + r (point.Projective), the complete addition (RCB",
			"algorithm 4). Requires ADX, BMI2, CMOV.")
		a.ins("MOVQ", "q+8(FP)", "AX")
		a.ins("MOVQ", "r+16(FP)", "BX")
		a.copy32(X1, mem{"AX", 0})
		a.copy32(Y1, mem{"AX", 32})
		a.copy32(Z1, mem{"AX", 64})
		a.copy32(X2, mem{"BX", 0})
		a.copy32(Y2, mem{"BX", 32})
		a.copy32(Z2, mem{"BX", 64})
		a.setConstants(b)
		a.addFullBody(X1, Y1, Z1, X2, Y2, Z2, b, t0, t1, t2, t3, t4, X3, Y3, Z3)
		a.comment("Store the sum.")
		a.ins("MOVQ", "out+0(FP)", "AX")
		a.copy32(mem{"AX", 0}, X3)
		a.copy32(mem{"AX", 32}, Y3)
		a.copy32(mem{"AX", 64}, Z3)
		a.ins("RET")
	}

	a.genComb8((positions(w)+7)/8, entries)
}

// positions is the number of comb positions for window width w.
func positions(w int) int { return (257 + w - 1) / w }
