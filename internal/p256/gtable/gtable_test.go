package gtable

import (
	"testing"

	"github.com/p256tls/p256tls/internal/gen/gtable/gentab"
)

// TestGenerated regenerates table.go in memory and compares it byte for byte
// with the committed file, and checks the runs' fit and that the
// go:generate directive asks for the shape the file was made with
// (gentab.CheckCommitted).
func TestGenerated(t *testing.T) {
	tg, err := gentab.Lookup("P-256")
	if err != nil {
		t.Fatal(err)
	}
	if err := gentab.CheckCommitted(".", tg, Width, Runs, RunLen); err != nil {
		t.Fatal(err)
	}
}

// TestGeneratedOdd is TestGenerated for odd.go (gentab.CheckOddCommitted).
func TestGeneratedOdd(t *testing.T) {
	tg, err := gentab.Lookup("P-256")
	if err != nil {
		t.Fatal(err)
	}
	if err := gentab.CheckOddCommitted(".", tg, OddWidth); err != nil {
		t.Fatal(err)
	}
}

// TestEntries recomputes every entry with crypto/elliptic (independent of
// both the generator and this module's arithmetic; gentab.CheckEntries).
func TestEntries(t *testing.T) {
	err := gentab.CheckEntries("P-256", Runs, RunLen, PerRun, func(j, i int) (x, y []byte) {
		gx, gy := Table[j][i].X.Bytes(), Table[j][i].Y.Bytes()
		return gx[:], gy[:]
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestOddEntries recomputes every entry of Odd with crypto/elliptic.
func TestOddEntries(t *testing.T) {
	err := gentab.CheckEntries("P-256", 1, 0, len(Odd), func(_, i int) (x, y []byte) {
		gx, gy := Odd[i].X.Bytes(), Odd[i].Y.Bytes()
		return gx[:], gy[:]
	})
	if err != nil {
		t.Fatal(err)
	}
}
