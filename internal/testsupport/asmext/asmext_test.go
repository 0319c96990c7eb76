package asmext

import (
	"strings"
	"testing"

	"github.com/p256tls/p256tls/internal/cpufeat"
)

func TestOf(t *testing.T) {
	for _, c := range []struct {
		mn, ops string
		want    cpufeat.Set
	}{
		{"MOVQ", "AX, BX", 0},
		{"CMOVQCS", "AX, BX", 0},
		{"MULXQ", "(SI), AX, BX", cpufeat.BMI2},
		{"ADOXQ", "AX, BX", cpufeat.ADX},
		{"VPAND", "Y1, Y2, Y3", cpufeat.AVX | cpufeat.AVX2},
		{"VPXOR", "X1, X2, X3", cpufeat.AVX},
		{"VPADDQ", "Z1, Z2, Z3", cpufeat.AVX512F},
		{"VPCMPEQQ", "Y1, Y2, K1", cpufeat.AVX512F | cpufeat.AVX512VL},
		{"VMOVDQU64", "(AX), Z1", cpufeat.AVX512F},
		{"VMOVDQU64", "(AX), Y1", cpufeat.AVX512F | cpufeat.AVX512VL},
		{"VPMADD52LUQ", "Z1, Z2, Z3", cpufeat.AVX512F | cpufeat.AVX512IFMA},
		{"VPMADD52HUQ", "Y1, Y2, Y3", cpufeat.AVX512F | cpufeat.AVX512IFMA | cpufeat.AVX512VL},
		{"KMOVB", "K1, AX", cpufeat.AVX512F | cpufeat.AVX512DQ},
		{"VZEROUPPER", "", cpufeat.AVX},
	} {
		got, err := Of(c.mn, c.ops)
		if err != nil || got != c.want {
			t.Errorf("%s %s: %v, %v; want %v", c.mn, c.ops, got, err, c.want)
		}
	}
	if _, err := Of("VPTERNLOGQ", "$0x96, Z1, Z2, Z3"); err == nil {
		t.Error("an unknown mnemonic passed")
	}
}

const sample = `#include "textflag.h"

// func k(x *uint64)
TEXT ·k(SB), NOSPLIT, $0-8
	MOVQ x+0(FP), AX
	CALL ·sub(SB)
	KMOVB K1, AX
	JMP  ·other(SB)

TEXT ·sub(SB), NOSPLIT, $0
	VPADDQ Z1, Z2, Z3 // a comment
	RET

TEXT ·other(SB), NOSPLIT, $0
	MULXQ (SI), AX, BX
	RET
`

func TestRequired(t *testing.T) {
	req, called, err := Required([]byte(sample))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]cpufeat.Set{
		"k":     cpufeat.AVX512F | cpufeat.AVX512DQ, // with sub, not other
		"sub":   cpufeat.AVX512F,
		"other": cpufeat.BMI2,
	}
	if !called["sub"] || called["other"] || called["k"] {
		t.Errorf("called: %v", called)
	}
	if len(req) != len(want) {
		t.Fatalf("got %v", req)
	}
	for f, w := range want {
		if req[f] != w {
			t.Errorf("%s: %v, want %v", f, req[f], w)
		}
	}
}

func TestCheck(t *testing.T) {
	good := map[string]cpufeat.Set{
		"k": cpufeat.AVX512F | cpufeat.AVX512DQ, "sub": cpufeat.AVX512F, "other": cpufeat.BMI2,
	}
	if errs := Check([]byte(sample), good, nil); len(errs) != 0 {
		t.Fatalf("good gates: %v", errs)
	}
	for name, gates := range map[string]map[string]cpufeat.Set{
		"missing DQ":   {"k": cpufeat.AVX512F, "sub": cpufeat.AVX512F, "other": cpufeat.BMI2},
		"extra ADX":    {"k": cpufeat.AVX512F | cpufeat.AVX512DQ, "sub": cpufeat.AVX512F, "other": cpufeat.BMI2 | cpufeat.ADX},
		"unlisted":     {"k": cpufeat.AVX512F | cpufeat.AVX512DQ, "sub": cpufeat.AVX512F},
		"sub unlisted": {"k": cpufeat.AVX512F | cpufeat.AVX512DQ, "other": cpufeat.BMI2, "gone": 0},
		"stray gate":   {"k": cpufeat.AVX512F | cpufeat.AVX512DQ, "sub": cpufeat.AVX512F, "other": cpufeat.BMI2, "gone": 0},
	} {
		if errs := Check([]byte(sample), gates, nil); len(errs) != 1 {
			t.Errorf("%s: %d errors %v, want 1", name, len(errs), errs)
		}
	}
	if errs := Check([]byte(strings.Replace(sample, "KMOVB", "KFOOB", 1)), good, nil); len(errs) != 1 {
		t.Errorf("unknown instruction: %v", errs)
	}
	// An entry point under a wider gate: a superset passes, a subset fails.
	wide := map[string]cpufeat.Set{"other": cpufeat.BMI2 | cpufeat.ADX}
	exact := map[string]cpufeat.Set{"k": cpufeat.AVX512F | cpufeat.AVX512DQ}
	if errs := Check([]byte(sample), exact, wide); len(errs) != 0 {
		t.Errorf("wider gate: %v", errs)
	}
	if errs := Check([]byte(sample), exact, map[string]cpufeat.Set{"other": cpufeat.ADX}); len(errs) != 1 {
		t.Errorf("narrower gate: %v", errs)
	}
}
