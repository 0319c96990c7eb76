package field

// Fuzz targets comparing the field arithmetic with math/big. Run one with
//
//	go test ./internal/p256/field -run XXX -fuzz FuzzFieldMul -fuzztime 30s
//
// Without -fuzz they run on their seed corpus as ordinary tests.

import (
	"math/big"
	"testing"
)

// ftFuzzElement maps fuzzer bytes to a reduced element: the first 32 bytes
// (zero-padded) as a big-endian integer, reduced mod p, used as Montgomery
// limbs. Seeds reach any limb pattern below p this way.
func ftFuzzElement(b []byte) Element {
	var buf [32]byte
	copy(buf[:], b)
	return ftRaw(new(big.Int).SetBytes(buf[:]))
}

// ftFuzzSeeds adds the edge elements in pairs, as raw limb bytes.
func ftFuzzSeeds(f *testing.F, pairs bool) {
	edges := ftEdgeInts()
	var prev []byte
	for i, v := range edges {
		b := make([]byte, 32)
		v.FillBytes(b)
		if pairs {
			f.Add(b, b)
			if i > 0 {
				f.Add(prev, b)
			}
		} else {
			f.Add(b)
		}
		prev = b
	}
}

func ftFuzzBinary(f *testing.F, c ftBinary) {
	ftFuzzSeeds(f, true)
	f.Fuzz(func(t *testing.T, a, b []byte) {
		ftCheckBinary(t, c, ftFuzzElement(a), ftFuzzElement(b))
	})
}

func ftFuzzUnary(f *testing.F, c ftUnary) {
	ftFuzzSeeds(f, false)
	f.Fuzz(func(t *testing.T, a []byte) {
		ftCheckUnary(t, c, ftFuzzElement(a))
	})
}

func ftBinaryNamed(name string) ftBinary {
	for _, c := range ftBinaries() {
		if c.name == name {
			return c
		}
	}
	panic(name)
}

func ftUnaryNamed(name string) ftUnary {
	for _, c := range ftUnaries() {
		if c.name == name {
			return c
		}
	}
	panic(name)
}

func FuzzFieldMul(f *testing.F)    { ftFuzzBinary(f, ftBinaryNamed("Mul")) }
func FuzzFieldAdd(f *testing.F)    { ftFuzzBinary(f, ftBinaryNamed("Add")) }
func FuzzFieldSub(f *testing.F)    { ftFuzzBinary(f, ftBinaryNamed("Sub")) }
func FuzzFieldSquare(f *testing.F) { ftFuzzUnary(f, ftUnaryNamed("Square")) }
func FuzzFieldInvert(f *testing.F) { ftFuzzUnary(f, ftUnaryNamed("Invert")) }

func FuzzFieldSqrt(f *testing.F) {
	ftFuzzSeeds(f, false)
	f.Fuzz(func(t *testing.T, in []byte) {
		a := ftFuzzElement(in)
		va := ftVal(t, &a)
		square := va.Sign() == 0 || big.Jacobi(va, ftP) == 1
		z := ftSentinel
		_, ok := z.Sqrt(&a)
		if !square {
			if ok != 0 || z != ftSentinel {
				t.Fatalf("Sqrt(non-square %#x) = %#x, %d", a, z, ok)
			}
			return
		}
		want := ftMont(new(big.Int).Exp(va, ftSqrtExp, ftP))
		if ok != 1 || z != want {
			t.Fatalf("Sqrt(%#x) = %#x, %d; want %#x, 1", a, z, ok, want)
		}
	})
}
