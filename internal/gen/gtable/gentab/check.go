package gentab

import (
	"bytes"
	"crypto/elliptic"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strings"
)

// CheckCommitted is the freshness test of a table package in directory
// dir (both table packages' TestGenerated call it): dir/table.go must equal
// Source(tg, w, runs) byte for byte, runs runs of runLen positions must
// cover the Digits(tg.Curve) wNAF positions with no empty run (that bound
// recomputed from crypto/elliptic's order), and dir/gtable.go must carry
// the go:generate directive of Command(tg, w, runs). It returns the first
// failure found, nil if none.
func CheckCommitted(dir string, tg Target, w, runs, runLen int) error {
	want, err := Source(tg, w, runs)
	if err != nil {
		return err
	}
	if err := checkSame(dir, "table.go", want); err != nil {
		return err
	}
	ec, err := ellipticCurve(tg.Curve.Name)
	if err != nil {
		return err
	}
	digits := ec.Params().N.BitLen() + 1
	if runs*runLen < digits || (runs-1)*runLen >= digits {
		return fmt.Errorf("%d runs of %d positions do not fit a %d-digit wNAF tightly", runs, runLen, digits)
	}
	return checkDirective(dir, Command(tg, w, runs), "shape")
}

// CheckOddCommitted is the freshness test of a table package's odd.go
// (both table packages' TestGeneratedOdd call it): dir/odd.go must equal
// OddSource(tg, w) byte for byte, and dir/gtable.go must carry the
// go:generate directive of OddCommand(tg, w). It returns the first failure
// found, nil if none.
func CheckOddCommitted(dir string, tg Target, w int) error {
	want, err := OddSource(tg, w)
	if err != nil {
		return err
	}
	if err := checkSame(dir, "odd.go", want); err != nil {
		return err
	}
	return checkDirective(dir, OddCommand(tg, w), "odd-multiples width")
}

// checkSame reports an error unless the committed dir/name is want byte
// for byte.
func checkSame(dir, name string, want []byte) error {
	got, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		return err
	}
	if !bytes.Equal(got, want) {
		return fmt.Errorf("%s differs from the generator's output: run go generate in %s", name, dir)
	}
	return nil
}

// checkDirective reports an error unless dir/gtable.go carries the line
// "//go:generate " + cmd; what names the table's parameters in the error.
func checkDirective(dir, cmd, what string) error {
	src, err := os.ReadFile(filepath.Join(dir, "gtable.go"))
	if err != nil {
		return err
	}
	if !strings.Contains(string(src), "//go:generate "+cmd+"\n") {
		return fmt.Errorf("the go:generate directive does not name the committed %s", what)
	}
	return nil
}

// CheckEntries recomputes every entry of a committed table with
// crypto/elliptic, independently of this generator and of the module's
// arithmetic: entry(j, i) must return the big-endian affine coordinates of
// (2i+1)·2^(runLen·j)·G for every run j < runs and i < perRun (one run of
// length 0 for the odd multiples of G alone). It returns the first wrong
// entry, nil if none.
func CheckEntries(curve string, runs, runLen, perRun int, entry func(j, i int) (x, y []byte)) error {
	c, err := ellipticCurve(curve)
	if err != nil {
		return err
	}
	n := c.Params().N
	size := (c.Params().BitSize + 7) / 8
	for j := 0; j < runs; j++ {
		for i := 0; i < perRun; i++ {
			k := new(big.Int).Lsh(big.NewInt(int64(2*i+1)), uint(runLen*j))
			k.Mod(k, n)
			//lint:ignore SA1019 the deprecated API is the independent reference here.
			x, y := c.ScalarBaseMult(k.FillBytes(make([]byte, size)))
			gx, gy := entry(j, i)
			if !bytes.Equal(gx, x.FillBytes(make([]byte, size))) || !bytes.Equal(gy, y.FillBytes(make([]byte, size))) {
				return fmt.Errorf("entry [%d][%d] is not %d·2^%d·G", j, i, 2*i+1, runLen*j)
			}
		}
	}
	return nil
}

func ellipticCurve(name string) (elliptic.Curve, error) {
	switch name {
	case "P-256":
		return elliptic.P256(), nil
	case "P-384":
		return elliptic.P384(), nil
	}
	return nil, fmt.Errorf("gentab: no crypto/elliptic curve %q", name)
}
