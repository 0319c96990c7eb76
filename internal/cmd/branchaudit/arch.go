package main

import (
	"regexp"
	"strings"
)

// What the audit reads differently on each architecture: which
// instructions are conditional branches, what the prologue's stack-growth
// check looks like, and (arm64) which memory operands take their address
// from a register index.

// Kinds of findings: a conditional branch, or a load or store whose address
// adds a register index (arm64).
const (
	kindBranch = "branch"
	kindIndex  = "index"
)

// condBranch reports whether op (a mnemonic in Go's assembler syntax, as
// `go tool objdump` prints it and as the generated .s files spell it) is a
// conditional branch on goarch.
func condBranch(goarch, op string) bool {
	switch goarch {
	case "arm64":
		return arm64CondBranches[op]
	default: // amd64
		return op[0] == 'J' && op != "JMP"
	}
}

// arm64CondBranches are the arm64 conditional branches: B.cond under Go's
// names (BHS and BLO are the assembler's synonyms of BCS and BCC; the
// disassembler prints the latter), compare-and-branch on zero and
// test-bit-and-branch, in their 64- and 32-bit forms.
var arm64CondBranches = map[string]bool{
	"BEQ": true, "BNE": true, "BCS": true, "BHS": true, "BCC": true, "BLO": true,
	"BMI": true, "BPL": true, "BVS": true, "BVC": true, "BHI": true, "BLS": true,
	"BGE": true, "BLT": true, "BGT": true, "BLE": true,
	"CBZ": true, "CBNZ": true, "CBZW": true, "CBNZW": true,
	"TBZ": true, "TBNZ": true,
}

var (
	// amd64: the prologue compares SP (or, for a large frame, SP − frame
	// in R12) with the stack guard at 0x10(R14) and jumps to morestack if
	// below or equal; a large frame first checks SP − frame did not wrap.
	amd64StackCmp  = regexp.MustCompile(`^CMPQ (SP|R12), 0x10\(R14\)$`)
	amd64BigFrame  = regexp.MustCompile(`^SUBQ \$0x[0-9a-f]+, R12$`)
	arm64StackLoad = regexp.MustCompile(`^MOVD 16\(R28\), R16$`)
	// arm64: R16 = g.stackguard0 (16(R28)), compared with RSP (or, for a
	// frame, RSP − frame in R17), BLS to morestack; a large frame first
	// computes RSP − frame with SUBS and branches on the borrow (BCC/BLO).
	arm64StackCmp = regexp.MustCompile(`^CMP R16, (RSP|R17)$`)
	arm64BigFrame = regexp.MustCompile(`^SUBS \$(0x[0-9a-f]+|[0-9]+), RSP, R17$`)
)

// stackCheck reports whether the conditional branch instr, after the
// instructions before (the nearest last), is the prologue's stack-growth
// check, which depends on the stack pointer only.
func stackCheck(goarch, instr string, before []string) bool {
	op := strings.Fields(instr)[0]
	prev := ""
	if len(before) > 0 {
		prev = before[len(before)-1]
	}
	switch goarch {
	case "arm64":
		switch {
		case op == "BLS" && arm64StackCmp.MatchString(prev):
			// The compared R16 must be the stack guard, loaded at the
			// top of the prologue.
			for i := len(before) - 2; i >= 0 && i >= len(before)-4; i-- {
				if arm64StackLoad.MatchString(before[i]) {
					return true
				}
			}
			return false
		case (op == "BCC" || op == "BLO") && arm64BigFrame.MatchString(prev):
			return true
		}
		return false
	default:
		return op == "JBE" && amd64StackCmp.MatchString(prev) ||
			op == "JB" && amd64BigFrame.MatchString(prev)
	}
}

// arm64Indexed matches a memory operand with a register index, as Go
// prints and writes them: (R1)(R2), (R1)(R2<<3), (R1)(R2.UXTW<<2),
// (RSP)(R3).
var arm64Indexed = regexp.MustCompile(`\((R[0-9]+|RSP)\)\((R[0-9]+)[^)]*\)`)

// indexed reports whether instr addresses memory with a register index on
// goarch (the audit looks for them on arm64 only).
func indexed(goarch, instr string) bool {
	return goarch == "arm64" && arm64Indexed.MatchString(instr)
}

// arm64Mem matches a memory operand of Plan 9 arm64 assembly: an optional
// offset, the base register in parentheses, an optional register index.
var arm64Mem = regexp.MustCompile(`(-?[0-9]*|[A-Za-z_][A-Za-z0-9_]*[+-][0-9]+)\((R[0-9]+|RSP|FP|SB)\)(\((R[0-9]+)[^)]*\))?`)

// asmFinding is one finding in an assembly source: a conditional branch, a
// register-indexed operand, or a memory operand whose base register is not
// known to hold an argument pointer.
type asmFinding struct {
	line        int
	text, kind  string
	unknownBase string // the base register, for kind "base"
}

const kindBase = "base"

// auditARM64Asm reads the body of one arm64 assembly function (its lines
// after TEXT, up to the next TEXT) and returns its findings. A memory
// operand must take its address from the argument frame (x+8(FP)), a
// static symbol (SB), the stack (RSP), or a register loaded with an
// argument (MOVD x+8(FP), R1) or a symbol's address (MOVD $·t(SB), R1),
// moved on only by constants (ADD/SUB $c, post-increment): an address
// computed from data is reported. A register index is reported, and so is
// every conditional branch; the allow-list explains them (a public count,
// a public index).
func auditARM64Asm(lines []string, first int) []asmFinding {
	var out []asmFinding
	ptr := map[string]bool{}
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if k := strings.Index(t, "//"); k >= 0 {
			t = strings.TrimSpace(t[:k])
		}
		if t == "" || strings.HasSuffix(t, ":") {
			continue
		}
		f := strings.Fields(t)
		op := f[0]
		args := splitOperands(strings.TrimSpace(strings.TrimPrefix(t, op)))
		if condBranch("arm64", op) {
			out = append(out, asmFinding{line: first + i, text: t, kind: kindBranch})
		}
		for _, m := range arm64Mem.FindAllStringSubmatch(t, -1) {
			base, index := m[2], m[4]
			if index != "" {
				out = append(out, asmFinding{line: first + i, text: t, kind: kindIndex})
			}
			if base != "RSP" && base != "FP" && base != "SB" && !ptr[base] {
				out = append(out, asmFinding{line: first + i, text: t, kind: kindBase, unknownBase: base})
			}
		}
		// Track which registers hold pointers: set by a load from the
		// argument frame or a symbol's address, kept by constant steps,
		// lost by anything else written to them.
		for _, d := range written(op, args) {
			ptr[d] = pointerResult(op, args, ptr)
		}
	}
	return out
}

// splitOperands splits an operand list at the commas outside parentheses.
func splitOperands(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, c := range s {
		switch c {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	if s = strings.TrimSpace(s[start:]); s != "" {
		out = append(out, s)
	}
	return out
}

var arm64Reg = regexp.MustCompile(`^R[0-9]+$`)

// written returns the registers an instruction writes: its last operand
// when that is a register or a register pair (R1, R2) of a load pair, none
// for a store or a branch.
func written(op string, args []string) []string {
	if len(args) == 0 || op == "CMP" || op == "CMPW" || op == "TST" || op == "TSTW" || condBranch("arm64", op) {
		return nil
	}
	last := args[len(args)-1]
	if arm64Reg.MatchString(last) {
		return []string{last}
	}
	if strings.HasPrefix(last, "(") && !strings.Contains(last, ")(") && strings.Contains(last, ",") {
		var rs []string
		for _, r := range strings.Split(strings.Trim(last, "()"), ",") {
			rs = append(rs, strings.TrimSpace(r))
		}
		return rs
	}
	return nil
}

var (
	argLoad   = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*\+[0-9]+\(FP\)$`)
	symAddr   = regexp.MustCompile(`^\$[^()]*\(SB\)$`)
	constStep = regexp.MustCompile(`^\$(0x[0-9a-fA-F]+|[0-9]+)$`)
)

// pointerResult reports whether the register an instruction writes holds
// a pointer afterwards: an argument loaded from the frame, a symbol's
// address, the stack pointer, or one of them moved by a constant (ADD/SUB
// $c, Rs[, Rd]; a frame's scratch space is ADD $8, RSP, Rd).
func pointerResult(op string, args []string, ptr map[string]bool) bool {
	switch {
	case op == "MOVD" && len(args) == 2 && (argLoad.MatchString(args[0]) || symAddr.MatchString(args[0])):
		return true
	case op == "MOVD" && len(args) == 2 && (ptr[args[0]] || args[0] == "RSP"):
		return true
	case (op == "ADD" || op == "SUB") && len(args) >= 2 && constStep.MatchString(args[0]):
		src := args[len(args)-1]
		if len(args) == 3 {
			src = args[1]
		}
		return ptr[src] || src == "RSP"
	}
	return false
}
