package a64

import (
	"fmt"
	"slices"
)

// GP is a 64-bit general-purpose register: R0 … R30, or ZR (the zero
// register, printed "ZR"). Kernels take their registers from Usable; R18
// (the platform register), R27 (the assembler's temporary), R28 (g), R29
// (the frame pointer) and R30 (the link register) are never in it.
type GP uint8

// ZR reads as zero and discards what is written to it. RSP is the stack
// pointer, only as the base of a memory operand (locals).
const (
	ZR  GP = 31
	RSP GP = 32
)

// String returns the register as Go's arm64 assembler spells it.
func (r GP) String() string {
	switch r {
	case ZR:
		return "ZR"
	case RSP:
		return "RSP"
	}
	return fmt.Sprintf("R%d", uint8(r))
}

// Num returns the register's number in instruction encodings (31 for ZR).
func (r GP) Num() uint32 { return uint32(r) }

// Lsl, Lsr and Asr are r shifted by n, as the second source of the
// data-processing instructions that take a shifted register (ADD, ADDS,
// ADCS does not, SUB, SUBS, AND, ORR, EOR, ...): "R1<<32", "R1>>32",
// "R1->32".
func (r GP) Lsl(n uint) Operand { return Operand(fmt.Sprintf("%v<<%d", r, n)) }
func (r GP) Lsr(n uint) Operand { return Operand(fmt.Sprintf("%v>>%d", r, n)) }
func (r GP) Asr(n uint) Operand { return Operand(fmt.Sprintf("%v->%d", r, n)) }

// Usable are the general-purpose registers a kernel may use freely, in the
// order a Pool hands them out: R0–R17 and R19–R26.
func Usable() []GP {
	var rs []GP
	for i := GP(0); i <= 26; i++ {
		if i != 18 {
			rs = append(rs, i)
		}
	}
	return rs
}

// Pool hands out registers. A kernel builds one from the registers it has
// not given a fixed role, takes what it needs and gives back what it no
// longer uses; running out is a generator bug, so it panics.
type Pool struct{ free []GP }

// NewPool returns a pool of rs, handed out in that order.
func NewPool(rs ...GP) *Pool { return &Pool{free: slices.Clone(rs)} }

// Get takes one register.
func (p *Pool) Get() GP {
	if len(p.free) == 0 {
		panic("a64: register pool exhausted")
	}
	r := p.free[0]
	p.free = p.free[1:]
	return r
}

// GetN takes n registers.
func (p *Pool) GetN(n int) []GP {
	rs := make([]GP, n)
	for i := range rs {
		rs[i] = p.Get()
	}
	return rs
}

// Put gives registers back; they are handed out again before the others.
// Giving back a register the pool already holds panics.
func (p *Pool) Put(rs ...GP) {
	for _, r := range rs {
		if slices.Contains(p.free, r) {
			panic(fmt.Sprintf("a64: %v put back twice", r))
		}
	}
	p.free = append(slices.Clone(rs), p.free...)
}

// Len returns how many registers are free.
func (p *Pool) Len() int { return len(p.free) }

// V is a 128-bit SIMD register V0 … V31.
type V uint8

// Num returns the register's number in instruction encodings.
func (v V) Num() uint32 { return uint32(v) }

// B16, D2, S4 and S2 are the register with an arrangement: sixteen bytes,
// two 64-bit lanes, four or two 32-bit lanes ("V1.B16", ...).
func (v V) B16() Operand { return Operand(fmt.Sprintf("V%d.B16", uint8(v))) }
func (v V) D2() Operand  { return Operand(fmt.Sprintf("V%d.D2", uint8(v))) }
func (v V) S4() Operand  { return Operand(fmt.Sprintf("V%d.S4", uint8(v))) }
func (v V) S2() Operand  { return Operand(fmt.Sprintf("V%d.S2", uint8(v))) }

// D is lane i of the two 64-bit lanes ("V1.D[0]").
func (v V) D(i int) Operand { return Operand(fmt.Sprintf("V%d.D[%d]", uint8(v), i)) }

// Operand is one operand of an instruction as the assembler reads it:
// a register, a shifted register, an immediate, a memory reference, a
// register list or a condition.
type Operand string

// String returns the operand's text.
func (o Operand) String() string { return string(o) }

// Imm is the immediate $v.
func Imm(v int64) Operand { return Operand(fmt.Sprintf("$%d", v)) }

// Mem is the memory operand off(base).
func Mem(base GP, off int) Operand {
	if off == 0 {
		return Operand(fmt.Sprintf("(%v)", base))
	}
	return Operand(fmt.Sprintf("%d(%v)", off, base))
}

// Pair is the register pair "(a, b)" of LDP and STP.
func Pair(a, b GP) Operand { return Operand(fmt.Sprintf("(%v, %v)", a, b)) }

// List is a SIMD register list "[V0.B16, V1.B16]" of VLD1 and VST1, each
// register with the arrangement arr ("B16", "D2", ...).
func List(arr string, vs ...V) Operand {
	s := "["
	for i, v := range vs {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprintf("V%d.%s", uint8(v), arr)
	}
	return Operand(s + "]")
}

// Cond is a condition of CSEL, CSETM and B.cond.
type Cond string

// The conditions the kernels use. After SUBS/SBCS, CS (carry set) means
// no borrow and CC a borrow; GE and LT are the signed comparisons (N = V,
// N ≠ V).
const (
	EQ Cond = "EQ"
	NE Cond = "NE"
	CS Cond = "CS"
	CC Cond = "CC"
	MI Cond = "MI"
	PL Cond = "PL"
	HI Cond = "HI"
	LS Cond = "LS"
	GE Cond = "GE"
	LT Cond = "LT"
)

// operand turns the things the instruction helpers accept into operands.
func operand(x any) Operand {
	switch x := x.(type) {
	case Operand:
		return x
	case GP:
		return Operand(x.String())
	case Cond:
		return Operand(x)
	case int:
		return Imm(int64(x))
	case int64:
		return Imm(x)
	case uint64:
		return Operand(fmt.Sprintf("$0x%x", x))
	}
	panic(fmt.Sprintf("a64: not an operand: %T %v", x, x))
}
