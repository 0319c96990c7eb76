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
	// The committed table states its width in its first line.
	var w int
	for _, c := range []int{4, 5, 6, 7, 8} {
		if bytes.Contains(committed[:80], []byte("-w "+string(rune('0'+c))+" ")) {
			w = c
		}
	}
	if w == 0 {
		t.Fatal("cannot find the window width in table.go's header")
	}
	got, err := generate(w)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, committed) {
		t.Fatal("table.go is stale: run go generate ./internal/comb")
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
