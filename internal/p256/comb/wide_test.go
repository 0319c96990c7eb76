//go:build amd64 && !purego

package comb

import (
	"crypto/rand"
	"math/big"
	"testing"

	"github.com/p256tls/p256tls/internal/p256/field"
	"github.com/p256tls/p256tls/internal/p256/point"
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
// math/big, on edge values and random ones: the Montgomery product (R =
// 2^260) is congruent and < 2p, the sum is exact, the difference is exactly
// x − y + K·p, fold is congruent and < 2p for any normalized input, canon is
// the reduced value; every result is normalized.
func TestVecField(t *testing.T) {
	if !useWide {
		t.Skip("no AVX-512 IFMA")
	}
	pm1 := new(big.Int).Sub(bigP, big.NewInt(1))
	two260 := new(big.Int).Lsh(big.NewInt(1), 260)
	edges := []*big.Int{big.NewInt(0), big.NewInt(1), big.NewInt(2), pm1, new(big.Int).Sub(bigP, big.NewInt(2)),
		new(big.Int).Lsh(big.NewInt(1), 255), new(big.Int).Lsh(big.NewInt(1), 52), new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 52), big.NewInt(1)),
		new(big.Int).Rsh(bigP, 1)}
	// Values for fold and canon: anything below 2^260.
	wideEdges := []*big.Int{new(big.Int).Sub(two260, big.NewInt(1)), new(big.Int).Mul(bigP, big.NewInt(15)),
		new(big.Int).Sub(new(big.Int).Mul(bigP, big.NewInt(2)), big.NewInt(1)), bigP, new(big.Int).Lsh(big.NewInt(1), 256),
		new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))}
	rInv := new(big.Int).ModInverse(two260, bigP)
	var vals, wide []*big.Int
	vals = append(vals, edges...)
	wide = append(wide, wideEdges...)
	wide = append(wide, edges...)
	for len(vals) < 8*40 {
		v, _ := rand.Int(rand.Reader, bigP)
		vals = append(vals, v)
		w, _ := rand.Int(rand.Reader, two260)
		wide = append(wide, w)
	}
	// Values below 4p and 8p, for the lazily reduced operands the kernel
	// feeds to products (bound 4) and sums and differences (bound ≤ 8).
	p4 := new(big.Int).Mul(bigP, big.NewInt(4))
	p8 := new(big.Int).Mul(bigP, big.NewInt(8))
	var v4, v8 []*big.Int
	v4 = append(v4, new(big.Int).Sub(p4, big.NewInt(1)), new(big.Int).Sub(p4, bigP), big.NewInt(0), pm1)
	v8 = append(v8, new(big.Int).Sub(p8, big.NewInt(1)), p4, big.NewInt(0), pm1)
	for len(v4) < 8*40 {
		a, _ := rand.Int(rand.Reader, p4)
		b, _ := rand.Int(rand.Reader, p8)
		v4 = append(v4, a)
		v8 = append(v8, b)
	}
	mod := func(v *big.Int) *big.Int { return new(big.Int).Mod(v, bigP) }
	var sc [scratch8Words]uint64
	for round := 0; round < len(vals)*len(edges)/8+50; round++ {
		var xs, ys, ws, as, bs, cs, ds [8]*big.Int
		k := 1 + round%8
		kp := new(big.Int).Mul(bigP, big.NewInt(int64(k)))
		for l := 0; l < 8; l++ {
			i := round*8 + l
			xs[l] = vals[i%len(vals)]
			ys[l] = vals[(i/len(vals)+i*7)%len(vals)]
			ws[l] = wide[i%len(wide)]
			as[l] = v4[i%len(v4)]
			bs[l] = v4[(i/len(v4)+i*5)%len(v4)]
			cs[l] = v8[i%len(v8)]
			ds[l] = new(big.Int).Mod(v8[(i/len(v8)+i*3)%len(v8)], kp) // < K·p
			vecSet(&sc, 3, l, kp)
		}
		for _, op := range []struct {
			name string
			f    func(*[scratch8Words]uint64)
			in   func(l int) (x, y *big.Int)
			// check reports whether got is a correct result for x, y.
			check func(got, x, y *big.Int) bool
		}{
			{"mul", vecMulAVX512, func(l int) (x, y *big.Int) { return xs[l], ys[l] }, func(got, x, y *big.Int) bool {
				want := new(big.Int).Mul(x, y)
				want = mod(want.Mul(want, rInv))
				return mod(got).Cmp(want) == 0 && got.Cmp(new(big.Int).Lsh(bigP, 1)) < 0
			}},
			{"mul<4p", vecMulAVX512, func(l int) (x, y *big.Int) { return as[l], bs[l] }, func(got, x, y *big.Int) bool {
				want := new(big.Int).Mul(x, y)
				want = mod(want.Mul(want, rInv))
				return mod(got).Cmp(want) == 0 && got.Cmp(new(big.Int).Lsh(bigP, 1)) < 0
			}},
			{"add<8p", vecAddAVX512, func(l int) (x, y *big.Int) { return cs[l], v8[(round+l)%len(v8)] }, func(got, x, y *big.Int) bool {
				return got.Cmp(new(big.Int).Add(x, y)) == 0
			}},
			{"sub<8p", vecSubAVX512, func(l int) (x, y *big.Int) { return cs[l], ds[l] }, func(got, x, y *big.Int) bool {
				want := new(big.Int).Sub(x, y)
				return got.Cmp(want.Add(want, kp)) == 0
			}},
			{"add", vecAddAVX512, func(l int) (x, y *big.Int) { return xs[l], ys[l] }, func(got, x, y *big.Int) bool {
				return got.Cmp(new(big.Int).Add(x, y)) == 0
			}},
			{"sub", vecSubAVX512, func(l int) (x, y *big.Int) { return xs[l], ys[l] }, func(got, x, y *big.Int) bool {
				want := new(big.Int).Sub(x, y)
				return got.Cmp(want.Add(want, kp)) == 0
			}},
			{"fold", vecFoldAVX512, func(l int) (x, y *big.Int) { return ws[l], ys[l] }, func(got, x, y *big.Int) bool {
				return mod(got).Cmp(mod(x)) == 0 && got.Cmp(new(big.Int).Lsh(bigP, 1)) < 0
			}},
			{"canon", vecCanonAVX512, func(l int) (x, y *big.Int) { return ws[l], ys[l] }, func(got, x, y *big.Int) bool {
				return got.Cmp(mod(x)) == 0
			}},
		} {
			for l := 0; l < 8; l++ {
				x, y := op.in(l)
				vecSet(&sc, 0, l, x)
				vecSet(&sc, 1, l, y)
			}
			op.f(&sc)
			for l := 0; l < 8; l++ {
				x, y := op.in(l)
				got, norm := vecGet(&sc, 2, l)
				if !norm || !op.check(got, x, y) {
					t.Fatalf("%s(%x, %x) = %x (normalized %v)", op.name, x, y, got, norm)
				}
			}
		}
	}
}

// TestAddFull compares addFullADX with point's complete addition on points
// with random Z, infinity, equal and opposite points.
func TestAddFull(t *testing.T) {
	var pts []point.Projective
	var inf point.Projective
	inf.SetInfinity()
	pts = append(pts, inf)
	for i := 0; i < 12; i++ {
		var q point.Projective
		a := table[(i*5)%positions][(i*3)%entries]
		q.SetAffine(&a)
		pts = append(pts, q)
		var z field.Element
		z.One()
		for j := 0; j <= i; j++ {
			z.Add(&z, &z).Add(&z, &a.Y)
		}
		q.X.Mul(&q.X, &z)
		q.Y.Mul(&q.Y, &z)
		q.Z.Mul(&q.Z, &z)
		pts = append(pts, q)
		var n point.Affine
		n.Neg(&a)
		q.SetAffine(&n)
		pts = append(pts, q)
	}
	for _, p := range pts {
		for _, q := range pts {
			var got, want point.Projective
			addFull(&got, &p, &q)
			want.Add(&p, &q)
			if got != want {
				t.Fatal("addFullADX differs from point.Projective.Add")
			}
			got = p
			addFull(&got, &got, &q)
			if got != want {
				t.Fatal("addFullADX with aliased output differs")
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
