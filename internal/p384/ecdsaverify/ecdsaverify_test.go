package ecdsaverify

import (
	"bytes"
	"crypto/elliptic"
	"math/big"
	mrand "math/rand"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/p256tls/p256tls/internal/ecdsaverify/chaingen"
	"github.com/p256tls/p256tls/internal/ecdsaverify/ecdsatest"
	"github.com/p256tls/p256tls/internal/gentest"
	"github.com/p256tls/p256tls/internal/p384/field"
	"github.com/p256tls/p256tls/internal/p384/point"
	"github.com/p256tls/p256tls/internal/p384/scalar"
)

var (
	curve = elliptic.P384()
	pBig  = curve.Params().P
	nBig  = curve.Params().N
)

type randSource struct{ r *rand.Rand }

func (s randSource) Int63() int64 { return int64(s.r.Uint64() >> 1) }
func (s randSource) Seed(int64)   {}

// mr adapts a math/rand/v2 generator for big.Int.Rand.
func mr(r *rand.Rand) *mrand.Rand { return mrand.New(randSource{r}) }

func limbs(x *big.Int) [6]uint64 {
	var l [6]uint64
	for i := range l {
		l[i] = new(big.Int).Rsh(x, uint(64*i)).Uint64()
	}
	return l
}

// TestGenerated regenerates chains.go from the template shared with
// internal/ecdsaverify and compares it byte for byte with the committed
// file, and checks the go:generate directive.
func TestGenerated(t *testing.T) {
	files, err := chaingen.Files("P-384")
	if err != nil {
		t.Fatal(err)
	}
	gentest.Check(t, ".", files, chaingen.Marker)
	src, err := os.ReadFile("ecdsaverify.go")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), "//go:generate "+chaingen.Command("P-384")+"\n") {
		t.Fatal("the go:generate directive does not match the generator's command")
	}
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
	b := make([]byte, 97)
	b[0] = 4
	x.FillBytes(b[1:49])
	y.FillBytes(b[49:])
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
	return bytes.Equal(ax[:], x.FillBytes(make([]byte, 48))) && bytes.Equal(ay[:], y.FillBytes(make([]byte, 48)))
}

// structured returns scalars that put digits at the run boundaries of the
// shipped split (RunLen·k − 1, RunLen·k) and at the limb boundaries and top.
func structured() []*big.Int {
	var out []*big.Int
	poss := []uint{0, 1, 63, 64, 65, 127, 128, 191, 192, 255, 256, 319, 320, 382, 383}
	for k := uint(1); k < Runs; k++ {
		poss = append(poss, RunLen*k-1, RunLen*k)
	}
	ms := []int64{1, 3, 63, 65, 127}
	if testing.Short() {
		ms = []int64{1, 63}
	}
	for _, pos := range poss {
		for _, m := range ms {
			v := new(big.Int).Lsh(big.NewInt(m), pos)
			out = append(out, v.Mod(v, nBig))
		}
	}
	// n − 1 (all digits negative at the top) and n − 2^k.
	out = append(out, new(big.Int).Sub(nBig, big.NewInt(1)), new(big.Int).Sub(nBig, new(big.Int).Lsh(big.NewInt(1), 200)))
	return out
}

// keys returns the private scalars of the crafted keys: 1, 2, 3, n−1, n−2
// and one arbitrary.
func keys() []*big.Int {
	arb, _ := new(big.Int).SetString("6b9d3dad2e1b8c1c05b19875b6659f4de23c3b667bf297ba9aa47740787137d896d5724e4c70a825f872c9ea60d2edf5", 16)
	return []*big.Int{big.NewInt(1), big.NewInt(2), big.NewInt(3),
		new(big.Int).Sub(nBig, big.NewInt(1)), new(big.Int).Sub(nBig, big.NewInt(2)), arb}
}

// TestSums compares SplitSum (key widths 4–7) and JointSum with
// crypto/elliptic for scalars whose digits sit at the run boundaries, with
// keys ±G, ±2G, 3G, so that the running sum passes through equal and
// opposite points and the point at infinity; plus u1 = 0, u2 = 0 and random
// scalars.
func TestSums(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	type pair struct{ u1, u2 *big.Int }
	var pairs []pair
	st := structured()
	zero := big.NewInt(0)
	for i, a := range st {
		pairs = append(pairs, pair{a, zero}, pair{zero, a}, pair{a, a})
		if i+5 < len(st) {
			pairs = append(pairs, pair{a, st[i+5]}, pair{st[i+5], a})
		}
		pairs = append(pairs, pair{a, new(big.Int).Sub(nBig, a)})
		pairs = append(pairs, pair{new(big.Int).Add(a, big.NewInt(2)), a})
	}
	pairs = append(pairs, pair{zero, zero})
	for i := 0; i < 20; i++ {
		pairs = append(pairs, pair{new(big.Int).Rand(mr(r), nBig), new(big.Int).Rand(mr(r), nBig)})
	}
	widths := []uint{4, 5, 6, 7}
	if testing.Short() {
		widths = []uint{5, 6}
	}
	for _, d := range keys() {
		//lint:ignore SA1019 the deprecated API is the independent reference here.
		qx, qy := curve.ScalarBaseMult(d.FillBytes(make([]byte, 48)))
		q := affine(t, qx, qy)
		tabs := map[uint][]point.Affine{}
		for _, w := range widths {
			tabs[w] = make([]point.Affine, Runs<<(w-2))
			point.BuildRuns(tabs[w], &q, w, Runs, RunLen)
		}
		for _, p := range pairs {
			if d.Cmp(big.NewInt(1)) != 0 && d.Cmp(big.NewInt(2)) != 0 && p.u1.Cmp(p.u2) != 0 && r.IntN(4) != 0 {
				continue // the full set for the keys that collide most, a sample for the rest
			}
			x, y := ecdsatest.SumOn(curve, qx, qy, p.u1, p.u2)
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

// TestSplitSumPanics checks that a table of the wrong size for its width is
// refused (a programming error, not a wrong answer).
func TestSplitSumPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("no panic")
		}
	}()
	var acc point.Jacobian
	var u [6]uint64
	SplitSum(&acc, &u, &u, make([]point.Affine, Runs*8-1), 5)
}

// TestCheckX exercises the final check directly, including the r + n < p
// branch, with accumulators scaled by random Z.
func TestCheckX(t *testing.T) {
	lx, ly := ecdsatest.LargeXOn(curve)
	big1 := big.NewInt(1)
	r := rand.New(rand.NewPCG(7, 8))
	scaled := func(x, y *big.Int) point.Jacobian {
		a := affine(t, x, y)
		var z field.Element
		z.SetCanonical(limbs(new(big.Int).Add(new(big.Int).Rand(mr(r), new(big.Int).Sub(pBig, big1)), big1)))
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
	for i := 0; i < 20; i++ {
		acc := scaled(lx, ly)
		rr := sc(new(big.Int).Sub(lx, nBig))
		if !checkX(&acc, &rr) {
			t.Fatal("x ≥ n: r = x − n refused")
		}
		rr = sc(new(big.Int).Sub(new(big.Int).Sub(lx, nBig), big1))
		if checkX(&acc, &rr) {
			t.Fatal("x ≥ n: r = x − n − 1 accepted")
		}
		rr = sc(new(big.Int).Add(new(big.Int).Sub(lx, nBig), big1))
		if checkX(&acc, &rr) {
			t.Fatal("x ≥ n: r = x − n + 1 accepted")
		}
		gx, gy := curve.Params().Gx, curve.Params().Gy
		acc = scaled(gx, gy)
		rr = sc(gx)
		if !checkX(&acc, &rr) {
			t.Fatal("r = x(G) refused")
		}
		rr = sc(new(big.Int).Add(gx, big1))
		if checkX(&acc, &rr) {
			t.Fatal("r = x(G) + 1 accepted")
		}
		// r = x + p − n ≥ p − n: r + n ≡ x (mod p), but r + n ≥ p is no
		// x-coordinate, so the second comparison must not be made.
		rr = sc(new(big.Int).Add(gx, new(big.Int).Sub(pBig, nBig)))
		if checkX(&acc, &rr) {
			t.Fatal("r = x(G) + p − n accepted")
		}
	}
	var inf point.Jacobian
	inf.SetInfinity()
	rr := sc(big1)
	if checkX(&inf, &rr) {
		t.Error("infinity accepted")
	}
}

func bigOf(l [6]uint64) *big.Int {
	v := new(big.Int)
	for i := 5; i >= 0; i-- {
		v.Lsh(v, 64).Or(v, new(big.Int).SetUint64(l[i]))
	}
	return v
}

// FuzzSums compares SplitSum (the keytable width) and JointSum with
// crypto/elliptic for arbitrary u1, u2 (reduced mod n) under the key d·G,
// d from the input too (small keys make the chains meet equal and opposite
// points).
func FuzzSums(f *testing.F) {
	f.Add([]byte{1}, []byte{1}, []byte{1})
	f.Add([]byte{}, []byte{2}, []byte{2})
	f.Add(nBig.Bytes(), new(big.Int).Sub(nBig, big.NewInt(1)).Bytes(), []byte{1})
	f.Fuzz(func(t *testing.T, a, b, key []byte) {
		u1 := new(big.Int).Mod(new(big.Int).SetBytes(a), nBig)
		u2 := new(big.Int).Mod(new(big.Int).SetBytes(b), nBig)
		d := new(big.Int).Mod(new(big.Int).SetBytes(key), nBig)
		if d.Sign() == 0 {
			d.SetInt64(1)
		}
		//lint:ignore SA1019 the deprecated API is the independent reference here.
		qx, qy := curve.ScalarBaseMult(d.FillBytes(make([]byte, 48)))
		q := affine(t, qx, qy)
		tab := make([]point.Affine, Runs<<3)
		point.BuildRuns(tab, &q, 5, Runs, RunLen)
		x, y := ecdsatest.SumOn(curve, qx, qy, u1, u2)
		l1, l2 := limbs(u1), limbs(u2)
		var acc point.Jacobian
		SplitSum(&acc, &l1, &l2, tab, 5)
		if !sameAs(&acc, x, y) {
			t.Fatalf("SplitSum d=%x u1=%x u2=%x", d, u1, u2)
		}
		JointSum(&acc, &l1, &l2, &q)
		if !sameAs(&acc, x, y) {
			t.Fatalf("JointSum d=%x u1=%x u2=%x", d, u1, u2)
		}
	})
}
