package scalar

// Fuzz targets comparing the scalar arithmetic with math/big. Run one with
//
//	go test ./internal/p256/scalar -run XXX -fuzz FuzzScalarMul -fuzztime 30s
//
// Without -fuzz they run on their seed corpus as ordinary tests.

import (
	"math/big"
	"testing"
)

// stFuzzScalar maps fuzzer bytes to a reduced scalar: the first 32 bytes
// (zero-padded), reduced mod n, as Montgomery limbs.
func stFuzzScalar(b []byte) Scalar {
	var buf [32]byte
	copy(buf[:], b)
	return stRaw(new(big.Int).SetBytes(buf[:]))
}

func stFuzzSeeds(f *testing.F, pairs bool) {
	var prev []byte
	for i, v := range stEdgeInts() {
		b := make([]byte, 32)
		v.FillBytes(b)
		if !pairs {
			f.Add(b)
		} else {
			f.Add(b, b)
			if i > 0 {
				f.Add(prev, b)
			}
		}
		prev = b
	}
}

func FuzzScalarMul(f *testing.F) {
	stFuzzSeeds(f, true)
	mul := stBinaries()[0]
	f.Fuzz(func(t *testing.T, a, b []byte) {
		x, y := stFuzzScalar(a), stFuzzScalar(b)
		stCheckBinary(t, mul, x, y)
	})
}

func FuzzScalarAdd(f *testing.F) {
	stFuzzSeeds(f, true)
	f.Fuzz(func(t *testing.T, a, b []byte) {
		x, y := stFuzzScalar(a), stFuzzScalar(b)
		stCheckBinary(t, stBinaries()[1], x, y) // Add
	})
}

func FuzzScalarInvert(f *testing.F) {
	stFuzzSeeds(f, false)
	f.Fuzz(func(t *testing.T, a []byte) {
		x := stFuzzScalar(a)
		for _, c := range stUnaries() {
			if c.name == "Invert" || c.name == "InvertVartime" {
				stCheckUnary(t, c, x)
			}
		}
	})
}

func FuzzScalarSetDigest(f *testing.F) {
	for _, d := range stDigests(f) {
		f.Add(d)
	}
	f.Fuzz(func(t *testing.T, d []byte) {
		want := stMont(stBits2Int(d))
		z := stSentinel
		if z.SetDigest(d); z != want {
			t.Fatalf("SetDigest(%x) = %#x, want %#x", d, z, want)
		}
	})
}
