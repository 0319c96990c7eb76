package field

import (
	"crypto/rand"
	"math/big"
	"testing"
)

var pBig, _ = new(big.Int).SetString("ffffffff00000001000000000000000000000000ffffffffffffffffffffffff", 16)

func TestQuickMul(t *testing.T) {
	for i := 0; i < 2000; i++ {
		a, _ := rand.Int(rand.Reader, pBig)
		b, _ := rand.Int(rand.Reader, pBig)
		var ea, eb, ec Element
		var buf [32]byte
		ea.SetBytes(a.FillBytes(buf[:]))
		eb.SetBytes(b.FillBytes(buf[:]))
		want := new(big.Int).Mul(a, b)
		want.Mod(want, pBig)
		got := ec.Mul(&ea, &eb).Bytes()
		if new(big.Int).SetBytes(got[:]).Cmp(want) != 0 {
			t.Fatal("mul")
		}
		got = ec.Square(&ea).Bytes()
		want.Mul(a, a).Mod(want, pBig)
		if new(big.Int).SetBytes(got[:]).Cmp(want) != 0 {
			t.Fatal("sqr")
		}
		got = ec.Invert(&ea).Bytes()
		want.ModInverse(a, pBig)
		if new(big.Int).SetBytes(got[:]).Cmp(want) != 0 {
			t.Fatal("inv")
		}
		var sq Element
		sq.Square(&ea)
		_, ok := ec.Sqrt(&sq)
		var c Element
		if ok != 1 || c.Square(&ec).Equal(&sq) != 1 {
			t.Fatal("sqrt")
		}
		got = ec.Sub(&ea, &eb).Bytes()
		want.Sub(a, b).Mod(want, pBig)
		if new(big.Int).SetBytes(got[:]).Cmp(want) != 0 {
			t.Fatal("sub")
		}
		got = ec.Add(&ea, &eb).Bytes()
		want.Add(a, b).Mod(want, pBig)
		if new(big.Int).SetBytes(got[:]).Cmp(want) != 0 {
			t.Fatal("add")
		}
	}
}
