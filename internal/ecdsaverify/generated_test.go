package ecdsaverify

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/p256tls/p256tls/internal/ecdsaverify/chaingen"
)

// TestGenerated regenerates chains.go from the shared template and compares
// it byte for byte with the committed file, and checks the go:generate
// directive.
func TestGenerated(t *testing.T) {
	got, err := os.ReadFile("chains.go")
	if err != nil {
		t.Fatal(err)
	}
	want, err := chaingen.Source("P-256")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("chains.go differs from the template's output: run go generate ./internal/ecdsaverify")
	}
	src, err := os.ReadFile("ecdsaverify.go")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), "//go:generate "+chaingen.Command("P-256")+"\n") {
		t.Fatal("the go:generate directive does not match the generator's command")
	}
}
