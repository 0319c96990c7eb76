package curvedef

import (
	"crypto/elliptic"
	"math/big"
	"testing"
)

// TestAgainstCryptoElliptic checks every constant and the group law against
// crypto/elliptic's parameters and arithmetic.
func TestAgainstCryptoElliptic(t *testing.T) {
	for _, tc := range []struct {
		c   *Curve
		ref elliptic.Curve
	}{{P256(), elliptic.P256()}, {P384(), elliptic.P384()}} {
		c, ps := tc.c, tc.ref.Params()
		if c.Name != ps.Name || c.P.Cmp(ps.P) != 0 || c.N.Cmp(ps.N) != 0 || c.B.Cmp(ps.B) != 0 ||
			c.Gx.Cmp(ps.Gx) != 0 || c.Gy.Cmp(ps.Gy) != 0 || c.Bits() != ps.BitSize {
			t.Fatalf("%s: constants differ from crypto/elliptic's", c.Name)
		}
		if !c.IsOnCurve(c.G()) {
			t.Fatalf("%s: G not on the curve", c.Name)
		}
		if r := c.ScalarMult(c.G(), c.N); !r.Inf {
			t.Fatalf("%s: n·G is not infinity", c.Name)
		}
		for _, k := range []int64{1, 2, 3, 7, 1000003} {
			got := c.ScalarMult(c.G(), big.NewInt(k))
			//lint:ignore SA1019 the deprecated API is the reference here.
			wx, wy := tc.ref.ScalarBaseMult(big.NewInt(k).Bytes())
			if got.X.Cmp(wx) != 0 || got.Y.Cmp(wy) != 0 {
				t.Fatalf("%s: %d·G differs", c.Name, k)
			}
		}
		nm1 := new(big.Int).Sub(c.N, big.NewInt(1))
		if s := c.Add(c.ScalarMult(c.G(), nm1), c.G()); !s.Inf {
			t.Fatalf("%s: (n−1)·G + G is not infinity", c.Name)
		}
		m := c.Montgomery(big.NewInt(1))
		want := new(big.Int).Lsh(big.NewInt(1), uint(c.Bits()))
		want.Mod(want, c.P)
		if l, _ := c.Limbs64(want); len(m) != c.Limbs || !equal(m, l) {
			t.Fatalf("%s: Montgomery(1) = %x", c.Name, m)
		}
		if _, err := c.Limbs64(new(big.Int).Lsh(big.NewInt(1), uint(c.Bits()))); err == nil {
			t.Fatalf("%s: Limbs64 accepted 2^bits", c.Name)
		}
	}
}

func equal(a, b []uint64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
