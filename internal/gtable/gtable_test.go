package gtable

import (
	"bytes"
	"crypto/elliptic"
	"math/big"
	"os"
	"strings"
	"testing"

	"github.com/p256tls/p256tls/internal/gtable/gentab"
)

// TestGenerated regenerates table.go in memory and compares it byte for byte
// with the committed file, and checks that the go:generate directive asks
// for the width the file was made with.
func TestGenerated(t *testing.T) {
	got, err := os.ReadFile("table.go")
	if err != nil {
		t.Fatal(err)
	}
	tg, err := gentab.Lookup("P-256")
	if err != nil {
		t.Fatal(err)
	}
	want, err := gentab.Source(tg, Width, Runs)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("table.go differs from the generator's output: run go generate ./internal/gtable")
	}
	src, err := os.ReadFile("gtable.go")
	if err != nil {
		t.Fatal(err)
	}
	if Runs*RunLen < 257 || (Runs-1)*RunLen >= 257 {
		t.Fatalf("%d runs of %d positions do not fit a 257-digit wNAF tightly", Runs, RunLen)
	}
	if !strings.Contains(string(src), "//go:generate "+gentab.Command(tg, Width, Runs)+"\n") {
		t.Fatal("the go:generate directive does not name the committed width")
	}
}

// TestEntries recomputes every entry with crypto/elliptic (independent of
// both the generator and this module's arithmetic).
func TestEntries(t *testing.T) {
	c := elliptic.P256()
	n := c.Params().N
	for j := 0; j < Runs; j++ {
		for i := 0; i < PerRun; i++ {
			k := new(big.Int).Lsh(big.NewInt(int64(2*i+1)), uint(RunLen*j))
			k.Mod(k, n)
			x, y := c.ScalarBaseMult(k.FillBytes(make([]byte, 32)))
			e := &Table[j][i]
			gx, gy := e.X.Bytes(), e.Y.Bytes()
			if !bytes.Equal(gx[:], x.FillBytes(make([]byte, 32))) || !bytes.Equal(gy[:], y.FillBytes(make([]byte, 32))) {
				t.Fatalf("entry [%d][%d] is not %d·2^%d·G", j, i, 2*i+1, RunLen*j)
			}
		}
	}
}
