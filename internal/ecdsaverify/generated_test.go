package ecdsaverify

import (
	"os"
	"strings"
	"testing"

	"github.com/p256tls/p256tls/internal/ecdsaverify/chaingen"
	"github.com/p256tls/p256tls/internal/gentest"
)

// TestGenerated regenerates chains.go from the shared template and compares
// it byte for byte with the committed file, and checks the go:generate
// directive.
func TestGenerated(t *testing.T) {
	files, err := chaingen.Files("P-256")
	if err != nil {
		t.Fatal(err)
	}
	gentest.Check(t, ".", files, chaingen.Marker)
	src, err := os.ReadFile("ecdsaverify.go")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), "//go:generate "+chaingen.Command("P-256")+"\n") {
		t.Fatal("the go:generate directive does not match the generator's command")
	}
}
