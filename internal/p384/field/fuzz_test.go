package field

// Fuzz targets comparing the field with math/big. Run one with
//
//	go test ./internal/p384/field -run '^$' -fuzz '^FuzzMul$' -fuzztime 60s
//
// Without -fuzz they run on their seed corpus (the edge values) as ordinary
// tests.

import (
	"math/big"
	"testing"
)

// fElement maps fuzzer bytes to a reduced element: the first 48 bytes
// (zero-padded) big-endian, reduced mod p, as Montgomery limbs.
func fElement(b []byte) Element {
	var buf [48]byte
	copy(buf[:], b)
	return tRaw(new(big.Int).SetBytes(buf[:]))
}

func fSeeds(f *testing.F, pairs bool) {
	var prev []byte
	for i, v := range tEdgeInts() {
		b := make([]byte, 48)
		v.FillBytes(b)
		switch {
		case !pairs:
			f.Add(b)
		case i > 0:
			f.Add(prev, b)
		default:
			f.Add(b, b)
		}
		prev = b
	}
}

func fBinary(f *testing.F, name string) {
	var c tBinary
	for _, b := range tBinaries() {
		if b.name == name {
			c = b
		}
	}
	fSeeds(f, true)
	f.Fuzz(func(t *testing.T, a, b []byte) {
		x, y := fElement(a), fElement(b)
		tCheckBinary(t, c, x, y)
		if name == "Mul" {
			wm, ws := kExpect(t, x, y, true)
			for _, k := range kernels() {
				kCheck(t, k, x, y, wm, ws)
			}
		}
	})
}

func fUnary(f *testing.F, name string) {
	var c tUnary
	for _, u := range tUnaries() {
		if u.name == name {
			c = u
		}
	}
	fSeeds(f, false)
	f.Fuzz(func(t *testing.T, a []byte) { tCheckUnary(t, c, fElement(a)) })
}

func FuzzMul(f *testing.F)    { fBinary(f, "Mul") }
func FuzzAdd(f *testing.F)    { fBinary(f, "Add") }
func FuzzSub(f *testing.F)    { fBinary(f, "Sub") }
func FuzzSquare(f *testing.F) { fUnary(f, "Square") }
func FuzzInvert(f *testing.F) { fUnary(f, "Invert") }

func FuzzSetBytes(f *testing.F) {
	for _, v := range tEdgeInts() {
		b := make([]byte, 48)
		v.FillBytes(b)
		f.Add(b)
	}
	f.Add(make([]byte, 47))
	f.Add(tP.FillBytes(make([]byte, 48)))
	f.Fuzz(func(t *testing.T, b []byte) {
		sentinel := Element{1, 2, 3, 4, 5, 6}
		e := sentinel
		got, err := e.SetBytes(b)
		x := new(big.Int).SetBytes(b)
		if len(b) != 48 || x.Cmp(tP) >= 0 {
			if err == nil || got != nil || e != sentinel {
				t.Fatalf("SetBytes(%x) accepted or changed the receiver", b)
			}
			return
		}
		if err != nil || e != tMont(x) {
			t.Fatalf("SetBytes(%x) = %#x, %v", b, e, err)
		}
		if out := e.Bytes(); string(out[:]) != string(b) {
			t.Fatalf("Bytes() = %x, want %x", out, b)
		}
	})
}
