package a64

// The instruction helpers. Each takes the destination first and prints
// the assembler's order. b may be a GP, a shifted register (r.Lsl(n)), or
// an immediate where the instruction takes one (an int, or a uint64
// printed in hex); the assembler rejects what the instruction cannot
// encode.

// MOVD sets d = s: a register, an immediate (the assembler builds any
// 64-bit constant, through R27 if it must) or a memory load.
func (fn *Func) MOVD(d GP, s any) { fn.I("MOVD", s, d) }

// Ldr loads the 64-bit word at m into d; Str stores s at m.
func (fn *Func) Ldr(d GP, m Operand) { fn.I("MOVD", m, d) }
func (fn *Func) Str(s GP, m Operand) { fn.I("MOVD", s, m) }

// LDP loads the two words at m into a and b; STP stores them.
func (fn *Func) LDP(a, b GP, m Operand) { fn.I("LDP", m, Pair(a, b)) }
func (fn *Func) STP(a, b GP, m Operand) { fn.I("STP", Pair(a, b), m) }

// LoadN loads len(rs) consecutive words at off(base) into rs, by pairs;
// StoreN stores them.
func (fn *Func) LoadN(rs []GP, base GP, off int) {
	for i := 0; i < len(rs); i += 2 {
		if i+1 < len(rs) {
			fn.LDP(rs[i], rs[i+1], Mem(base, off+8*i))
		} else {
			fn.Ldr(rs[i], Mem(base, off+8*i))
		}
	}
}

func (fn *Func) StoreN(rs []GP, base GP, off int) {
	for i := 0; i < len(rs); i += 2 {
		if i+1 < len(rs) {
			fn.STP(rs[i], rs[i+1], Mem(base, off+8*i))
		} else {
			fn.Str(rs[i], Mem(base, off+8*i))
		}
	}
}

// MUL sets d = lo(a·b); UMULH sets d = hi(a·b). Neither touches the flags.
func (fn *Func) MUL(d, a, b GP)   { fn.I("MUL", b, a, d) }
func (fn *Func) UMULH(d, a, b GP) { fn.I("UMULH", b, a, d) }

// ADD sets d = a + b without touching the flags; ADDS sets the carry; ADCS
// adds the carry and sets it; ADC adds the carry and leaves the flags.
// ADCS and ADC take registers only (ZR for zero).
func (fn *Func) ADD(d, a GP, b any)  { fn.I("ADD", b, a, d) }
func (fn *Func) ADDS(d, a GP, b any) { fn.I("ADDS", b, a, d) }
func (fn *Func) ADCS(d, a, b GP)     { fn.I("ADCS", b, a, d) }
func (fn *Func) ADC(d, a, b GP)      { fn.I("ADC", b, a, d) }

// SUB sets d = a − b without touching the flags; SUBS sets the carry to
// "no borrow"; SBCS subtracts the borrow (not carry) and sets it; SBC
// subtracts it and leaves the flags. SBCS and SBC take registers only.
func (fn *Func) SUB(d, a GP, b any)  { fn.I("SUB", b, a, d) }
func (fn *Func) SUBS(d, a GP, b any) { fn.I("SUBS", b, a, d) }
func (fn *Func) SBCS(d, a, b GP)     { fn.I("SBCS", b, a, d) }
func (fn *Func) SBC(d, a, b GP)      { fn.I("SBC", b, a, d) }

// CMP sets the flags of a − b; CMN those of a + b.
func (fn *Func) CMP(a GP, b any) { fn.I("CMP", b, a) }
func (fn *Func) CMN(a GP, b any) { fn.I("CMN", b, a) }

// AND, ORR, EOR and BIC (a AND NOT b) are the bitwise operations; ANDS
// also sets N and Z.
func (fn *Func) AND(d, a GP, b any)  { fn.I("AND", b, a, d) }
func (fn *Func) ANDS(d, a GP, b any) { fn.I("ANDS", b, a, d) }
func (fn *Func) ORR(d, a GP, b any)  { fn.I("ORR", b, a, d) }
func (fn *Func) EOR(d, a GP, b any)  { fn.I("EOR", b, a, d) }
func (fn *Func) BIC(d, a GP, b any)  { fn.I("BIC", b, a, d) }

// LSL, LSR and ASR shift a by n (an immediate or a register).
func (fn *Func) LSL(d, a GP, n any) { fn.I("LSL", n, a, d) }
func (fn *Func) LSR(d, a GP, n any) { fn.I("LSR", n, a, d) }
func (fn *Func) ASR(d, a GP, n any) { fn.I("ASR", n, a, d) }

// EXTR sets d = lo64((hi:lo) >> n), 0 ≤ n < 64: the funnel shift that
// moves a bit run across two limbs.
func (fn *Func) EXTR(d, hi, lo GP, n int) { fn.I("EXTR", n, lo, hi, d) }

// NEG sets d = −a.
func (fn *Func) NEG(d, a GP) { fn.I("NEG", a, d) }

// SMULH sets d = hi(a·b) of the signed 128-bit product; MADD sets
// d = c + lo(a·b). Neither touches the flags.
func (fn *Func) SMULH(d, a, b GP)   { fn.I("SMULH", b, a, d) }
func (fn *Func) MADD(d, a, b, c GP) { fn.I("MADD", b, c, a, d) }

// SBFX sets d to the width bits of a from bit lsb up, sign-extended.
func (fn *Func) SBFX(d, a GP, lsb, width int) { fn.I("SBFX", lsb, a, width, d) }

// TST sets N and Z from a AND b.
func (fn *Func) TST(a GP, b any) { fn.I("TST", b, a) }

// CCMP sets the flags of a − b if c holds, and to nzcv (the four flag bits,
// N = 8, Z = 4, C = 2, V = 1) otherwise: the conjunction of two conditions
// without a branch. b is a register or an immediate 0–31.
func (fn *Func) CCMP(c Cond, a GP, b any, nzcv int) { fn.I("CCMP", c, a, b, Imm(int64(nzcv))) }

// CSEL sets d = a if c holds, b otherwise; CSET sets d to 1 if c holds,
// zero otherwise; CSETM sets d to all ones if c holds, zero otherwise. None
// branches: the constant-time selections.
func (fn *Func) CSEL(c Cond, d, a, b GP) { fn.I("CSEL", c, a, b, d) }
func (fn *Func) CSET(c Cond, d GP)       { fn.I("CSET", c, d) }
func (fn *Func) CSETM(c Cond, d GP)      { fn.I("CSETM", c, d) }

// CSNEG sets d = a if c holds, −b otherwise; it does not branch either.
func (fn *Func) CSNEG(c Cond, d, a, b GP) { fn.I("CSNEG", c, a, b, d) }

// Branches, on public conditions only: B to a label, BCond on a
// condition, CBZ/CBNZ on a register being zero or not.
func (fn *Func) B(label string)             { fn.I("B", Operand(label)) }
func (fn *Func) BCond(c Cond, label string) { fn.I("B"+string(c), Operand(label)) }
func (fn *Func) CBZ(r GP, label string)     { fn.I("CBZ", r, Operand(label)) }
func (fn *Func) CBNZ(r GP, label string)    { fn.I("CBNZ", r, Operand(label)) }

// Vector instructions on whole registers. VAND, VORR, VEOR: bitwise on
// B16; VBIT inserts into d the bits of a where m is set (d = d&^m | a&m);
// VCMEQ sets each 64-bit lane of d to all ones where a and b are equal;
// VADD adds 64-bit lanes; VDUP copies r into both 64-bit lanes.
func (fn *Func) VAND(d, a, b V)  { fn.I("VAND", b.B16(), a.B16(), d.B16()) }
func (fn *Func) VORR(d, a, b V)  { fn.I("VORR", b.B16(), a.B16(), d.B16()) }
func (fn *Func) VEOR(d, a, b V)  { fn.I("VEOR", b.B16(), a.B16(), d.B16()) }
func (fn *Func) VBIT(d, a, m V)  { fn.I("VBIT", m.B16(), a.B16(), d.B16()) }
func (fn *Func) VCMEQ(d, a, b V) { fn.I("VCMEQ", b.D2(), a.D2(), d.D2()) }
func (fn *Func) VADD(d, a, b V)  { fn.I("VADD", b.D2(), a.D2(), d.D2()) }
func (fn *Func) VDUP(d V, r GP)  { fn.I("VDUP", r, d.D2()) }

// VMOVQ sets both lanes of d: lane 0 = lo, lane 1 = hi.
func (fn *Func) VMOVQ(d V, lo, hi uint64) { fn.I("VMOVQ", lo, hi, Operand(d.String())) }

// VLD1 loads consecutive 16-byte registers from (base); with post it adds
// 16·len(vs) to base afterwards (VLD1.P). VST1 stores them.
func (fn *Func) VLD1(base GP, post bool, vs ...V) {
	if post {
		fn.I("VLD1.P", Mem(base, 16*len(vs)), List("B16", vs...))
		return
	}
	fn.I("VLD1", Mem(base, 0), List("B16", vs...))
}

func (fn *Func) VST1(base GP, post bool, vs ...V) {
	if post {
		fn.I("VST1.P", List("B16", vs...), Mem(base, 16*len(vs)))
		return
	}
	fn.I("VST1", List("B16", vs...), Mem(base, 0))
}

// VMOVToGP copies 64-bit lane i of v into r.
func (fn *Func) VMOVToGP(r GP, v V, i int) { fn.I("VMOV", v.D(i), r) }

// String returns "Vn".
func (v V) String() string { return "V" + itoa(int(v)) }

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return string(rune('0'+i/10)) + string(rune('0'+i%10))
}
