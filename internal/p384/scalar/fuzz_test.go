package scalar

// Fuzz targets comparing the scalar field with math/big. Run one with
//
//	go test ./internal/p384/scalar -run '^$' -fuzz '^FuzzMul$' -fuzztime 60s

import (
	"math/big"
	"testing"
)

func fScalar(b []byte) (*big.Int, Scalar) {
	x := tMod(new(big.Int).SetBytes(b))
	return x, tMont(x)
}

func FuzzMul(f *testing.F) {
	e := tEdges()
	for i := range e {
		f.Add(e[i].Bytes(), e[(i*7+3)%len(e)].Bytes())
	}
	f.Fuzz(func(t *testing.T, a, b []byte) {
		x, s := fScalar(a)
		y, u := fScalar(b)
		var z Scalar
		if z.Mul(&s, &u); z != tMont(new(big.Int).Mul(x, y)) {
			t.Fatalf("Mul(%x, %x)", x, y)
		}
		if z.Add(&s, &u); z != tMont(new(big.Int).Add(x, y)) {
			t.Fatalf("Add(%x, %x)", x, y)
		}
		if z.Sub(&s, &u); z != tMont(tMod(new(big.Int).Sub(x, y))) {
			t.Fatalf("Sub(%x, %x)", x, y)
		}
		want := Scalar{}
		if x.Sign() != 0 {
			want = tMont(new(big.Int).ModInverse(x, tN))
		}
		if z.InvertVartime(&s); z != want {
			t.Fatalf("InvertVartime(%x)", x)
		}
	})
}

func FuzzSetDigest(f *testing.F) {
	for _, n := range []int{0, 1, 32, 47, 48, 49, 64} {
		f.Add(make([]byte, n))
		d := make([]byte, n)
		for i := range d {
			d[i] = 0xff
		}
		f.Add(d)
	}
	f.Fuzz(func(t *testing.T, d []byte) {
		var s Scalar
		if s.SetDigest(d); s != tMont(bits2int(d)) {
			t.Fatalf("SetDigest(%x)", d)
		}
	})
}
