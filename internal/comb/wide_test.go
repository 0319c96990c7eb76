//go:build amd64 && !purego

package comb

import (
	"crypto/rand"
	"math/big"
	"testing"

	"github.com/p256tls/p256tls/internal/point"
)

func init() {
	impls = append(impls, impl{"serial", scalarBaseMultSerial})
	if useWide {
		impls = append(impls, impl{"wide", scalarBaseMultWide})
	}
}

// vecSet writes v (< 2^260) to lane l of vector slot s in radix 2^52.
func vecSet(sc *[scratch8Words]uint64, s, l int, v *big.Int) {
	m := new(big.Int).SetUint64(1<<52 - 1)
	for i := 0; i < 5; i++ {
		sc[40*s+8*i+l] = new(big.Int).And(new(big.Int).Rsh(v, uint(52*i)), m).Uint64()
	}
}

func vecGet(sc *[scratch8Words]uint64, s, l int) (v *big.Int, normalized bool) {
	v = new(big.Int)
	normalized = true
	for i := 4; i >= 0; i-- {
		x := sc[40*s+8*i+l]
		if x >= 1<<52 {
			normalized = false
		}
		v.Lsh(v, 52).Add(v, new(big.Int).SetUint64(x))
	}
	return v, normalized
}

// TestVecField checks the vector field operations lane by lane against
// math/big: Montgomery multiplication with R = 2^260, addition and
// subtraction, on edge values and random ones; results must be fully
// reduced and normalized.
func TestVecField(t *testing.T) {
	if !useWide {
		t.Skip("no AVX-512 IFMA")
	}
	pm1 := new(big.Int).Sub(bigP, big.NewInt(1))
	edges := []*big.Int{big.NewInt(0), big.NewInt(1), big.NewInt(2), pm1, new(big.Int).Sub(bigP, big.NewInt(2)),
		new(big.Int).Lsh(big.NewInt(1), 255), new(big.Int).Lsh(big.NewInt(1), 52), new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 52), big.NewInt(1)),
		new(big.Int).Rsh(bigP, 1)}
	rInv := new(big.Int).ModInverse(new(big.Int).Lsh(big.NewInt(1), 260), bigP)
	var vals []*big.Int
	vals = append(vals, edges...)
	for len(vals) < 8*40 {
		v, _ := rand.Int(rand.Reader, bigP)
		vals = append(vals, v)
	}
	var sc [scratch8Words]uint64
	for round := 0; round < len(vals)*len(edges)/8+50; round++ {
		var xs, ys [8]*big.Int
		for l := 0; l < 8; l++ {
			i := round*8 + l
			xs[l] = vals[i%len(vals)]
			ys[l] = vals[(i/len(vals)+i*7)%len(vals)]
			vecSet(&sc, 0, l, xs[l])
			vecSet(&sc, 1, l, ys[l])
		}
		for _, op := range []struct {
			name string
			f    func(*[scratch8Words]uint64)
			want func(x, y *big.Int) *big.Int
		}{
			{"mul", vecMulAVX512, func(x, y *big.Int) *big.Int {
				r := new(big.Int).Mul(x, y)
				r.Mul(r, rInv)
				return r.Mod(r, bigP)
			}},
			{"add", vecAddAVX512, func(x, y *big.Int) *big.Int { r := new(big.Int).Add(x, y); return r.Mod(r, bigP) }},
			{"sub", vecSubAVX512, func(x, y *big.Int) *big.Int { r := new(big.Int).Sub(x, y); return r.Mod(r, bigP) }},
		} {
			op.f(&sc)
			for l := 0; l < 8; l++ {
				got, norm := vecGet(&sc, 2, l)
				if want := op.want(xs[l], ys[l]); got.Cmp(want) != 0 || !norm {
					t.Fatalf("%s(%x, %x) = %x (normalized %v), want %x", op.name, xs[l], ys[l], got, norm, want)
				}
			}
		}
	}
}

// TestWideMatchesSerial compares the two amd64 implementations on random
// scalars, bit for bit after conversion to affine.
func TestWideMatchesSerial(t *testing.T) {
	if !useWide {
		t.Skip("no AVX-512 IFMA")
	}
	for i := 0; i < 200; i++ {
		var k [4]uint64
		var b [32]byte
		rand.Read(b[:])
		for j := range k {
			for m := 0; m < 8; m++ {
				k[j] |= uint64(b[8*j+m]) << (8 * m)
			}
		}
		if i < 4 {
			k = [4]uint64{uint64(i), 0, 0, 0}
		}
		var a, w point.Projective
		scalarBaseMultSerial(&a, &k)
		scalarBaseMultWide(&w, &k)
		aa, aok := a.Affine()
		wa, wok := w.Affine()
		if aok != wok || (aok == 1 && aa != wa) {
			t.Fatalf("k = %x: wide and serial differ", k)
		}
	}
}
