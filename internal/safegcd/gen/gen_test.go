package main

import (
	"bytes"
	"os"
	"testing"
)

// TestTableUpToDate regenerates ../cancel_table.go and compares it byte for
// byte with the committed file.
func TestTableUpToDate(t *testing.T) {
	committed, err := os.ReadFile("../cancel_table.go")
	if err != nil {
		t.Fatal(err)
	}
	got, err := generate()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, committed) {
		t.Fatal("cancel_table.go is stale: run go generate ./internal/safegcd")
	}
}
