// Package asmext reads, from a generated amd64 assembly file, the
// instruction-set extensions each function's code uses, so that a test can
// compare them with the gate (a cpufeat.Set) its dispatch checks: a kernel
// gated on fewer extensions than its code uses would die on an illegal
// instruction where a hypervisor hides one.
//
// The extension of an instruction follows from its mnemonic and, for the
// vector instructions that exist in several encodings, from its registers:
// on ZMM registers or with a mask register it is the EVEX form (AVX-512 F,
// and VL where an AVX-512-only instruction runs on XMM or YMM), on YMM the
// VEX form (AVX2 for integer operations, AVX for moves). A mnemonic the
// table does not know is an error, so a new instruction in a generator
// cannot slip past the check.
package asmext

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/p256tls/p256tls/internal/cpufeat"
)

// base are the instructions every amd64 CPU Go supports has (CMOV and
// SSE2 are in GOAMD64=v1), matched by prefix for the CMOV and jump
// families.
var base = []string{
	"MOVQ", "MOVL", "MOVOU", "LEAQ", "ADDQ", "ADCQ", "SUBQ", "SBBQ", "MULQ", "IMULQ", "NEGQ",
	"ANDQ", "ANDL", "ORQ", "XORQ", "XORL", "SHLQ", "SHRQ", "SHRL", "CMPQ", "CMPB", "TESTQ",
	"TESTL", "DECQ", "DECL", "CALL", "RET", "JMP",
}

var baseFamilies = []string{"CMOV", "J"}

// fixed maps mnemonics whose extension does not depend on the registers.
var fixed = map[string]cpufeat.Set{
	"MULXQ":       cpufeat.BMI2,
	"ADCXQ":       cpufeat.ADX,
	"ADOXQ":       cpufeat.ADX,
	"VZEROUPPER":  cpufeat.AVX,
	"KMOVB":       cpufeat.AVX512F | cpufeat.AVX512DQ,
	"KANDB":       cpufeat.AVX512F | cpufeat.AVX512DQ,
	"KANDNB":      cpufeat.AVX512F | cpufeat.AVX512DQ,
	"KORB":        cpufeat.AVX512F | cpufeat.AVX512DQ,
	"KNOTB":       cpufeat.AVX512F | cpufeat.AVX512DQ,
	"KXNORB":      cpufeat.AVX512F | cpufeat.AVX512DQ,
	"KMOVW":       cpufeat.AVX512F,
	"VPMADD52LUQ": cpufeat.AVX512IFMA | cpufeat.AVX512F, // VL added on XMM/YMM below
	"VPMADD52HUQ": cpufeat.AVX512IFMA | cpufeat.AVX512F,
}

// evexOnly are AVX-512 instructions with no VEX form: AVX-512 F, and VL
// when no operand is a ZMM register.
var evexOnly = map[string]bool{
	"VMOVDQA64": true, "VMOVDQU64": true, "VPANDQ": true, "VPORQ": true, "VPXORQ": true,
	"VPSRAQ": true, "VPTESTMQ": true, "VPTESTNMQ": true, "VSHUFI64X2": true,
	"VPMADD52LUQ": true, "VPMADD52HUQ": true,
}

// dual are instructions with a VEX form (AVX2 on YMM, AVX on XMM: integer
// operations) and an EVEX form (AVX-512 F on ZMM or with a mask).
var dual = map[string]bool{
	"VPADDQ": true, "VPSUBQ": true, "VPAND": true, "VPOR": true, "VPXOR": true, "VPCMPEQQ": true,
	"VPBROADCASTQ": true, "VPSHUFD": true, "VPSLLQ": true, "VPSRLQ": true,
	"VPUNPCKLQDQ": true, "VPUNPCKHQDQ": true, "VPGATHERQQ": true,
}

// vexMoves are VEX-only moves: AVX on XMM and YMM alike.
var vexMoves = map[string]bool{"VMOVDQU": true, "VMOVDQA": true}

var (
	zmm  = regexp.MustCompile(`\bZ([0-9]|[12][0-9]|3[01])\b`)
	ymm  = regexp.MustCompile(`\bY([0-9]|1[0-5])\b`)
	mask = regexp.MustCompile(`\bK[0-7]\b`)
)

// Of returns the extensions of one instruction: its mnemonic and operand
// text as an avo-generated file spells them.
func Of(mnemonic, operands string) (cpufeat.Set, error) {
	if s, ok := fixed[mnemonic]; ok {
		if evexOnly[mnemonic] && !zmm.MatchString(operands) {
			s |= cpufeat.AVX512VL
		}
		return s, nil
	}
	isZ, isY, isK := zmm.MatchString(operands), ymm.MatchString(operands), mask.MatchString(operands)
	switch {
	case evexOnly[mnemonic]:
		if isZ {
			return cpufeat.AVX512F, nil
		}
		return cpufeat.AVX512F | cpufeat.AVX512VL, nil
	case dual[mnemonic]:
		switch {
		case isZ:
			return cpufeat.AVX512F, nil
		case isK:
			return cpufeat.AVX512F | cpufeat.AVX512VL, nil
		case isY:
			return cpufeat.AVX | cpufeat.AVX2, nil
		}
		return cpufeat.AVX, nil
	case vexMoves[mnemonic]:
		return cpufeat.AVX, nil
	}
	for _, b := range base {
		if mnemonic == b {
			return 0, nil
		}
	}
	for _, f := range baseFamilies {
		if strings.HasPrefix(mnemonic, f) {
			return 0, nil
		}
	}
	return 0, fmt.Errorf("asmext: unknown instruction %s", mnemonic)
}

var (
	textRE = regexp.MustCompile(`^TEXT\s+·(\w+)\(SB\)`)
	callRE = regexp.MustCompile(`^CALL\s+·?(\w+)(<>)?\(SB\)`)
)

// Required returns, for every function of the assembly file src, the
// extensions its code uses, with those of the functions it CALLs in the
// same file (subroutines run on the caller's gate), and the set of
// functions some function CALLs. A tail JMP to another function is not
// followed: it is a dispatch, which checks its target's gate itself.
func Required(src []byte) (req map[string]cpufeat.Set, called map[string]bool, err error) {
	own := map[string]cpufeat.Set{}
	calls := map[string][]string{}
	called = map[string]bool{}
	var fn string
	sc := bufio.NewScanner(bytes.NewReader(src))
	for sc.Scan() {
		line := sc.Text()
		if m := textRE.FindStringSubmatch(line); m != nil {
			fn = m[1]
			own[fn] |= 0
			continue
		}
		if fn == "" || !strings.HasPrefix(line, "\t") {
			continue
		}
		ins := strings.TrimSpace(line)
		if i := strings.Index(ins, "//"); i >= 0 {
			ins = strings.TrimSpace(ins[:i])
		}
		if ins == "" || strings.HasSuffix(ins, ":") { // a label
			continue
		}
		if m := callRE.FindStringSubmatch(ins); m != nil {
			calls[fn] = append(calls[fn], m[1])
			called[m[1]] = true
		}
		mn, ops, _ := strings.Cut(ins, " ")
		s, err := Of(mn, ops)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %v", fn, err)
		}
		own[fn] |= s
	}
	if err := sc.Err(); err != nil {
		return nil, nil, err
	}
	req = map[string]cpufeat.Set{}
	var visit func(f string, seen map[string]bool) cpufeat.Set
	visit = func(f string, seen map[string]bool) cpufeat.Set {
		if seen[f] {
			return 0
		}
		seen[f] = true
		s := own[f]
		for _, c := range calls[f] {
			s |= visit(c, seen)
		}
		return s
	}
	for f := range own {
		req[f] = visit(f, map[string]bool{})
	}
	return req, called, nil
}

// Check compares the gates of the functions of the assembly file src with
// the extensions their code uses. exact lists the kernels production code
// dispatches to: each gate must be exactly what its code uses (missing an
// extension kills the process where a hypervisor hides it; asking for one
// it does not use turns the kernel off for nothing). atLeast lists entry
// points that run only under a wider gate (a test's kernels, run when the
// production gate holds): each gate must cover its code. A function in
// neither must be a subroutine, CALLed from the file. Check returns one
// line for each violation, and for a gate naming no function of the file.
func Check(src []byte, exact, atLeast map[string]cpufeat.Set) []string {
	req, called, err := Required(src)
	if err != nil {
		return []string{err.Error()}
	}
	var errs []string
	for f, r := range req {
		if g, ok := exact[f]; ok {
			if g != r {
				errs = append(errs, fmt.Sprintf("%s: gate %v, its code uses %v", f, g, r))
			}
		} else if g, ok := atLeast[f]; ok {
			if r&^g != 0 {
				errs = append(errs, fmt.Sprintf("%s: gate %v lacks %v that its code uses", f, g, r&^g))
			}
		} else if !called[f] {
			errs = append(errs, fmt.Sprintf("%s: no gate listed, and no function calls it (its code uses %v)", f, r))
		}
	}
	for _, gates := range []map[string]cpufeat.Set{exact, atLeast} {
		for f := range gates {
			if _, ok := req[f]; !ok {
				errs = append(errs, fmt.Sprintf("%s: a gate for a function the file does not define", f))
			}
		}
	}
	sort.Strings(errs)
	return errs
}

// CheckFile reads the assembly file path and fails t with Check's lines.
func CheckFile(t testing.TB, path string, exact, atLeast map[string]cpufeat.Set) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range Check(src, exact, atLeast) {
		t.Errorf("%s: %s", path, e)
	}
}
