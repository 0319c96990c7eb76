package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCondBranchARM64(t *testing.T) {
	for _, op := range []string{"BEQ", "BNE", "BCS", "BHS", "BCC", "BLO", "BMI", "BPL", "BVS", "BVC",
		"BHI", "BLS", "BGE", "BLT", "BGT", "BLE", "CBZ", "CBNZ", "CBZW", "CBNZW", "TBZ", "TBNZ"} {
		if !condBranch("arm64", op) {
			t.Errorf("arm64 %s is not taken for a conditional branch", op)
		}
	}
	for _, op := range []string{"B", "JMP", "BL", "CALL", "RET", "CSEL", "BIC", "BFI", "MOVD"} {
		if condBranch("arm64", op) {
			t.Errorf("arm64 %s is taken for a conditional branch", op)
		}
	}
	if !condBranch("amd64", "JNE") || condBranch("amd64", "JMP") {
		t.Error("amd64 branches")
	}
}

// TestStackCheckARM64: the prologues the compiler emits (read from
// `go tool objdump` of an arm64 binary) are recognised, and the same
// branches after other comparisons are not.
func TestStackCheckARM64(t *testing.T) {
	small := []string{"MOVD 16(R28), R16", "CMP R16, RSP"}
	frame := []string{"MOVD 16(R28), R16", "SUB $80, RSP, R17", "CMP R16, R17"}
	big := []string{"MOVD 16(R28), R16", "SUBS $0x11000, RSP, R17"}
	for _, c := range []struct {
		instr  string
		before []string
		want   bool
	}{
		{"BLS 227(PC)", small, true},
		{"BLS 227(PC)", frame, true},
		{"BCC 12(PC)", big, true},
		{"BLO 12(PC)", big, true},
		{"BHI 227(PC)", small, false},                  // another condition
		{"BLS 3(PC)", []string{"CMP R16, RSP"}, false}, // R16 not the stack guard
		{"BLS 3(PC)", []string{"MOVD 8(R0), R16", "CMP R16, RSP"}, false},
		{"BLS 3(PC)", []string{"MOVD 16(R28), R16", "CMP R2, R3"}, false},
		{"BCC 3(PC)", []string{"SUBS R2, RSP, R17"}, false}, // not a frame size
		{"BEQ 3(PC)", big, false},
	} {
		if got := stackCheck("arm64", c.instr, c.before); got != c.want {
			t.Errorf("%s after %q: stack check = %v, want %v", c.instr, c.before, got, c.want)
		}
	}
	if !stackCheck("amd64", "JBE 0x40", []string{"CMPQ SP, 0x10(R14)"}) || stackCheck("amd64", "JBE 0x40", []string{"CMPQ AX, 0x10(R14)"}) {
		t.Error("amd64 stack check")
	}
}

func TestIndexedARM64(t *testing.T) {
	for _, in := range []string{"MOVD (R7)(R9<<3), R10", "MOVD R8, (R7)(R9<<3)", "MOVB R4, (R5)(R3)",
		"MOVWU (R1)(R2.UXTW<<2), R3", "MOVD (RSP)(R4), R5"} {
		if !indexed("arm64", in) {
			t.Errorf("%q: register index not seen", in)
		}
	}
	for _, in := range []string{"MOVD 16(R28), R16", "LDP 8(RSP), (R1, R2)", "STP (R1, R2), 80(RSP)",
		"MOVD.P 8(R1), R2", "ADD R2<<3, R1, R3"} {
		if indexed("arm64", in) {
			t.Errorf("%q: taken for a register index", in)
		}
	}
	if indexed("amd64", "MOVQ (AX)(BX*8), CX") {
		t.Error("amd64 operands are not audited for indices")
	}
}

const asmBody = `	MOVD	x+8(FP), R1
	MOVD	$·table(SB), R9
	LDP	(R1), (R3, R4)
	LDP.P	16(R1), (R5, R6)
	ADD	$32, R1, R7
	MOVD	(R7), R8
	MOVD	(R3), R10
	MOVD	(R9)(R4<<3), R11
	ADD	R3, R1, R12
	MOVD	8(R12), R13
	MOVD	R3, R1
	MOVD	(R1), R14
	ADD	$8, RSP, R15
	VST1	[V0.B16, V1.B16], (R15)
loop:
	SUBS	$1, R2, R2
	BNE	loop
	MOVD	z+0(FP), R0
	STP	(R13, R14), (R0)
	RET
`

func TestAuditARM64Asm(t *testing.T) {
	var got []string
	for _, f := range auditARM64Asm(strings.Split(asmBody, "\n"), 10) {
		got = append(got, f.kind+" "+strings.Fields(f.text)[0]+" "+f.unknownBase)
	}
	want := []string{
		"base MOVD R3",  // line 7: R3 was loaded from memory, not an argument
		"index MOVD ",   // line 8: (R9)(R4<<3)
		"base MOVD R12", // line 10: R12 = R1 + R3, data
		"base MOVD R1",  // line 12: R1 overwritten with data
		"branch BNE ",   // line 15
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestRepositoryAsmARM64: the arm64 kernels of the secret path have no
// finding (no branch, no index, every base an argument).
func TestRepositoryAsmARM64(t *testing.T) {
	files, _ := filepath.Glob("../../p256/field/field_arm64.s")
	if len(files) == 0 {
		t.Skip("no arm64 kernels")
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, fi := range auditARM64Asm(strings.Split(string(b), "\n"), 1) {
			t.Errorf("%s:%d: %s %s", f, fi.line, fi.kind, fi.text)
		}
	}
}

func TestReadRules(t *testing.T) {
	path := filepath.Join(t.TempDir(), "allow")
	src := "# comment\n" +
		"a/b.go | for i := 0; i < n; i++ { | loop over a public count\n" +
		"index a/b.go | x := t[i] | i | j | i is public\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	rs, err := readRules(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 2 || rs[0].kind != kindBranch || rs[0].text != "for i := 0; i < n; i++ {" ||
		rs[1].kind != kindIndex || rs[1].file != "a/b.go" || rs[1].text != "x := t[i] | i | j" || rs[1].why != "i is public" {
		for _, r := range rs {
			t.Logf("%+v", *r)
		}
		t.Fatal("rules misread")
	}
	j := jump{kind: kindIndex, file: "/x/a/b.go", text: "x := t[i] | i | j", instr: "MOVD (R1)(R2<<3), R3"}
	if explain("arm64", j, rs) != "i is public" {
		t.Error("an index entry does not explain its line's index")
	}
	j.kind = kindBranch
	if explain("arm64", j, rs) != "" {
		t.Error("an index entry explains a branch")
	}
	j.text = "for i := 0; i < n; i++ {"
	j.kind = kindIndex
	if explain("arm64", j, rs) != "" {
		t.Error("a branch entry explains an index")
	}
}

// An excerpt of `go tool objdump` of an arm64 binary: a prologue, a
// register-indexed load, a loop branch, and the padding after a function.
const objdumpARM64 = "TEXT example.com/p.f(SB) /src/p.go\n" +
	"  p.go:3\t\t0x1000\t\tf9400b90\t\tMOVD 16(R28), R16\t\t\n" +
	"  p.go:3\t\t0x1004\t\teb3063ff\t\tCMP R16, RSP\t\t\n" +
	"  p.go:3\t\t0x1008\t\t54000229\t\tBLS 17(PC)\t\t\n" +
	"  p.go:4\t\t0x100c\t\tf86978ea\t\tMOVD (R7)(R9<<3), R10\t\t\n" +
	"  p.go:5\t\t0x1010\t\t54ffff23\t\tBCC -7(PC)\t\t\n" +
	"  p.go:5\t\t0x1014\t\t00000000\t\t?\t\t\n" +
	"TEXT example.com/p.k.abi0(SB) /src/p_arm64.s\n" +
	"  p_arm64.s:8\t\t0x1040\t\tf94007e1\t\tMOVD 8(RSP), R1\t\t\n"

func TestParseObjdumpARM64(t *testing.T) {
	jumps, addrs, funcs, asm := parseObjdump("arm64", objdumpARM64)
	var got []string
	for _, j := range jumps {
		got = append(got, j.kind+" "+j.instr+" "+j.addr)
	}
	want := "branch BLS 17(PC) 0x1008,index MOVD (R7)(R9<<3), R10 0x100c,branch BCC -7(PC) 0x1010"
	if strings.Join(got, ",") != want {
		t.Errorf("findings %q, want %q", strings.Join(got, ","), want)
	}
	if len(addrs) != 5 || len(funcs) != 2 || asm["example.com/p.k.abi0"] != "/src/p_arm64.s" {
		t.Errorf("addrs %v, funcs %v, asm %v", addrs, funcs, asm)
	}
	if !stackCheck("arm64", jumps[0].instr, jumps[0].before) || stackCheck("arm64", jumps[2].instr, jumps[2].before) {
		t.Error("the prologue's BLS is not recognised from the parsed context, or the loop's BCC is")
	}
}
