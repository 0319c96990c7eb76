package main

import (
	"bytes"
	"os"
	"testing"
)

// TestTableUpToDate regenerates ../table.go and compares it byte for byte
// with the committed file.
func TestTableUpToDate(t *testing.T) {
	committed, err := os.ReadFile("../table.go")
	if err != nil {
		t.Fatal(err)
	}
	w := widthOf(t, committed)
	got, err := generate(w)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, committed) {
		t.Fatal("table.go is stale: run go generate ./internal/p256/comb")
	}
}

// TestAsmWidth checks that ../comb_amd64.s was generated for the width of
// the committed table (its freshness is checked by regenerating it: CI runs
// go generate ./... and fails on any difference).
func TestAsmWidth(t *testing.T) {
	asm, err := os.ReadFile("../comb_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	table, err := os.ReadFile("../table.go")
	if err != nil {
		t.Fatal(err)
	}
	if a, b := widthOf(t, asm), widthOf(t, table); a != b {
		t.Fatalf("comb_amd64.s is for width %d, table.go for width %d: run go generate ./internal/p256/comb", a, b)
	}
}

// TestDeterministic checks that two runs give the same output.
func TestDeterministic(t *testing.T) {
	a, err := generate(4)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := generate(4)
	if !bytes.Equal(a, b) {
		t.Fatal("generator output is not deterministic")
	}
}

// widthOf reads the window width from the header line of a generated file.
func widthOf(t *testing.T, src []byte) int {
	t.Helper()
	line, _, _ := bytes.Cut(src, []byte("\n"))
	for c := 2; c <= 8; c++ {
		if bytes.Contains(line, []byte(" -w "+string(rune('0'+c))+" ")) {
			return c
		}
	}
	t.Fatal("cannot find the window width in the generated file's header")
	return 0
}
