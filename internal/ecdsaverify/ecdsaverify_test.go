package ecdsaverify

import (
	"bytes"
	"crypto/elliptic"
	"math/big"
	mrand "math/rand"
	"math/rand/v2"
	"testing"

	"github.com/p256tls/p256tls/internal/ecdsaverify/ecdsatest"
	"github.com/p256tls/p256tls/internal/field"
	"github.com/p256tls/p256tls/internal/point"
	"github.com/p256tls/p256tls/internal/scalar"
)

var (
	pBig = elliptic.P256().Params().P
	nBig = elliptic.P256().Params().N
)

type randSource struct{ r *rand.Rand }

func (s randSource) Int63() int64 { return int64(s.r.Uint64() >> 1) }
func (s randSource) Seed(int64)   {}

// mr adapts a math/rand/v2 generator for big.Int.Rand.
func mr(r *rand.Rand) *mrand.Rand { return mrand.New(randSource{r}) }

func limbs(x *big.Int) [4]uint64 {
	var l [4]uint64
	for i := range l {
		l[i] = new(big.Int).Rsh(x, uint(64*i)).Uint64()
	}
	return l
}

func TestConstants(t *testing.T) {
	if limbs(new(big.Int).Sub(pBig, nBig)) != pMinusN {
		t.Error("pMinusN is not p − n")
	}
	var nf field.Element
	if _, err := nf.SetCanonical(limbs(nBig)); err != nil || nf != nField {
		t.Error("nField is not n in Montgomery form")
	}
	if limbs(nBig) != scalar.N {
		t.Error("scalar.N")
	}
}

// affine converts a reference point to point.Affine.
func affine(t testing.TB, x, y *big.Int) point.Affine {
	var a point.Affine
	b := make([]byte, 65)
	b[0] = 4
	x.FillBytes(b[1:33])
	y.FillBytes(b[33:])
	if _, err := a.SetBytes(b); err != nil {
		t.Fatal(err)
	}
	return a
}

// sameAs compares a Jacobian result with a reference (0, 0 = infinity).
func sameAs(acc *point.Jacobian, x, y *big.Int) bool {
	var out [1]point.Affine
	var scratch [1]field.Element
	if !point.BatchToAffineVartime(out[:], []point.Jacobian{*acc}, scratch[:]) {
		return x.Sign() == 0 && y.Sign() == 0
	}
	a := out[0]
	ax, ay := a.X.Bytes(), a.Y.Bytes()
	return bytes.Equal(ax[:], x.FillBytes(make([]byte, 32))) && bytes.Equal(ay[:], y.FillBytes(make([]byte, 32)))
}

// structured returns scalars that put digits at the run boundaries.
func structured() []*big.Int {
	var out []*big.Int
	poss := []uint{0, 1, 63, 64, 65, 66, 128, 129, 130, 131, 193, 194, 195, 196, 255, 256}
	for k := uint(1); k < Runs; k++ {
		poss = append(poss, RunLen*k-1, RunLen*k)
	}
	for _, pos := range poss {
		for _, m := range []int64{1, 3, 63, 65} {
			v := new(big.Int).Lsh(big.NewInt(m), pos)
			out = append(out, v.Mod(v, nBig))
		}
	}
	return out
}

// keys returns the private scalars of the crafted keys: 1, 2, 3, n−1, n−2
// and one arbitrary.
func keys() []*big.Int {
	arb, _ := new(big.Int).SetString("c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721", 16)
	return []*big.Int{big.NewInt(1), big.NewInt(2), big.NewInt(3),
		new(big.Int).Sub(nBig, big.NewInt(1)), new(big.Int).Sub(nBig, big.NewInt(2)), arb}
}

// TestSums compares SplitSum (every key width) and JointSum with
// crypto/elliptic for scalars whose digits sit at the run boundaries, with
// keys ±G, ±2G, 3G, so that the running sum passes through equal and
// opposite points and the point at infinity; plus u1 = 0, u2 = 0 and random
// scalars.
func TestSums(t *testing.T) {
	c := elliptic.P256()
	r := rand.New(rand.NewPCG(5, 6))
	type pair struct{ u1, u2 *big.Int }
	var pairs []pair
	st := structured()
	zero := big.NewInt(0)
	for i, a := range st {
		pairs = append(pairs, pair{a, zero}, pair{zero, a}, pair{a, a})
		// Neighbours: positions one apart and the opposite of a.
		if i+4 < len(st) {
			pairs = append(pairs, pair{a, st[i+4]}, pair{st[i+4], a})
		}
		pairs = append(pairs, pair{a, new(big.Int).Sub(nBig, a)})
		pairs = append(pairs, pair{new(big.Int).Add(a, big.NewInt(2)), a})
	}
	pairs = append(pairs, pair{zero, zero})
	for i := 0; i < 20; i++ {
		pairs = append(pairs, pair{new(big.Int).Rand(mr(r), nBig), new(big.Int).Rand(mr(r), nBig)})
	}
	for _, d := range keys() {
		qx, qy := c.ScalarBaseMult(d.FillBytes(make([]byte, 32)))
		q := affine(t, qx, qy)
		tabs := map[uint][]point.Affine{}
		for _, w := range []uint{5, 6, 7, 8} {
			tabs[w] = make([]point.Affine, Runs<<(w-2))
			point.BuildRuns(tabs[w], &q, w, Runs, RunLen)
		}
		for _, p := range pairs {
			if d.Cmp(big.NewInt(1)) != 0 && d.Cmp(big.NewInt(2)) != 0 && p.u1.Cmp(p.u2) != 0 && r.IntN(4) != 0 {
				continue // the full set for the keys that collide most, a sample for the rest
			}
			x, y := ecdsatest.Sum(qx, qy, p.u1, p.u2)
			u1, u2 := limbs(p.u1), limbs(p.u2)
			var acc point.Jacobian
			for w, tab := range tabs {
				SplitSum(&acc, &u1, &u2, tab, w)
				if !sameAs(&acc, x, y) {
					t.Fatalf("SplitSum w=%d d=%x u1=%x u2=%x: wrong result", w, d, p.u1, p.u2)
				}
			}
			JointSum(&acc, &u1, &u2, &q)
			if !sameAs(&acc, x, y) {
				t.Fatalf("JointSum d=%x u1=%x u2=%x: wrong result", d, p.u1, p.u2)
			}
		}
	}
}

// TestBuildRuns checks every entry of a key table with crypto/elliptic.
func TestBuildRuns(t *testing.T) {
	c := elliptic.P256()
	for _, d := range keys() {
		qx, qy := c.ScalarBaseMult(d.FillBytes(make([]byte, 32)))
		q := affine(t, qx, qy)
		for _, w := range []uint{2, 3, 4, 5, 6, 7} {
			per := 1 << (w - 2)
			tab := make([]point.Affine, Runs*per)
			point.BuildRuns(tab, &q, w, Runs, RunLen)
			for j := 0; j < Runs; j++ {
				for i := 0; i < per; i++ {
					k := new(big.Int).Lsh(big.NewInt(int64(2*i+1)), uint(RunLen*j))
					k.Mul(k, d).Mod(k, nBig)
					x, y := c.ScalarBaseMult(k.FillBytes(make([]byte, 32)))
					var acc point.Jacobian
					acc.SetAffine(&tab[j*per+i])
					if !sameAs(&acc, x, y) {
						t.Fatalf("d=%x w=%d entry [%d][%d] is not %d·2^%d·Q", d, w, j, i, 2*i+1, RunLen*j)
					}
				}
			}
		}
	}
}

// TestCheckX exercises the final check directly, including the r + n < p
// branch, with accumulators scaled by random Z.
func TestCheckX(t *testing.T) {
	lx, ly := ecdsatest.LargeX()
	big1 := big.NewInt(1)
	r := rand.New(rand.NewPCG(7, 8))
	scaled := func(x, y *big.Int) point.Jacobian {
		a := affine(t, x, y)
		var z field.Element
		z.SetCanonical(limbs(new(big.Int).Rand(mr(r), pBig)))
		var z2, z3 field.Element
		z2.Square(&z)
		z3.Mul(&z2, &z)
		var j point.Jacobian
		j.X.Mul(&a.X, &z2)
		j.Y.Mul(&a.Y, &z3)
		j.Z = z
		return j
	}
	sc := func(v *big.Int) scalar.Scalar {
		var s scalar.Scalar
		if _, err := s.SetCanonical(limbs(v)); err != nil {
			t.Fatal(err)
		}
		return s
	}
	acc := scaled(lx, ly)
	rr := sc(new(big.Int).Sub(lx, nBig))
	if !checkX(&acc, &rr) {
		t.Error("x ≥ n: r = x − n refused")
	}
	rr = sc(new(big.Int).Sub(new(big.Int).Sub(lx, nBig), big1))
	if checkX(&acc, &rr) {
		t.Error("x ≥ n: r = x − n − 1 accepted")
	}
	gx, gy := elliptic.P256().Params().Gx, elliptic.P256().Params().Gy
	acc = scaled(gx, gy)
	rr = sc(gx)
	if !checkX(&acc, &rr) {
		t.Error("r = x(G) refused")
	}
	var inf point.Jacobian
	inf.SetInfinity()
	if checkX(&inf, &rr) {
		t.Error("infinity accepted")
	}
}
