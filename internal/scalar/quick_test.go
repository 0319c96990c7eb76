package scalar

import (
	"crypto/rand"
	"math/big"
	"testing"
)

var nBig, _ = new(big.Int).SetString("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551", 16)

func TestQuick(t *testing.T) {
	for i := 0; i < 2000; i++ {
		a, _ := rand.Int(rand.Reader, nBig)
		b, _ := rand.Int(rand.Reader, nBig)
		var ea, eb, ec Scalar
		var buf [32]byte
		ea.SetBytes(a.FillBytes(buf[:]))
		eb.SetBytes(b.FillBytes(buf[:]))
		chk := func(name string, got [32]byte, want *big.Int) {
			t.Helper()
			if new(big.Int).SetBytes(got[:]).Cmp(want) != 0 {
				t.Fatal(name)
			}
		}
		chk("mul", ec.Mul(&ea, &eb).Bytes(), new(big.Int).Mod(new(big.Int).Mul(a, b), nBig))
		chk("add", ec.Add(&ea, &eb).Bytes(), new(big.Int).Mod(new(big.Int).Add(a, b), nBig))
		chk("sub", ec.Sub(&ea, &eb).Bytes(), new(big.Int).Mod(new(big.Int).Sub(a, b), nBig))
		chk("inv", ec.Invert(&ea).Bytes(), new(big.Int).ModInverse(a, nBig))
		var w [64]byte
		rand.Read(w[:])
		chk("wide", ec.SetWide(&w).Bytes(), new(big.Int).Mod(new(big.Int).SetBytes(w[:]), nBig))
		chk("digest", ec.SetDigest(w[:]).Bytes(), new(big.Int).Mod(new(big.Int).SetBytes(w[:32]), nBig))
	}
}
