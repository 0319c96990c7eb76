package ecdsaverify

// Tests of SplitSum's eight-lane path (laneSum on lanes.Chain): the same
// sums with lanes.Available on and off, with crypto/elliptic as the
// reference; the crafted chains the lanes refuse and the scalar chain then
// sums; the Wycheproof P-384 vectors through VerifySplit both ways; no
// allocation. Every test skips where the lanes cannot run (no AVX-512
// IFMA, or the purego tag).

import (
	"crypto/ecdsa"
	"math/big"
	prand "math/rand/v2"
	"testing"

	"github.com/p256tls/p256tls/internal/ecdsasig"
	"github.com/p256tls/p256tls/internal/ecdsatest"
	"github.com/p256tls/p256tls/internal/p384/field"
	"github.com/p256tls/p256tls/internal/p384/gtable"
	"github.com/p256tls/p256tls/internal/p384/lanes"
	"github.com/p256tls/p256tls/internal/p384/point"
	"github.com/p256tls/p256tls/internal/p384/scalar"
	"github.com/p256tls/p256tls/internal/wnaf"
)

// lanesSwitch skips t where the lanes cannot run, and otherwise returns a
// function that sets lanes.Available; the value t started with is put back
// when t ends.
func lanesSwitch(t testing.TB) func(on bool) {
	t.Helper()
	if !lanes.Available {
		t.Skip("lanes not available (no AVX-512 IFMA, or purego)")
	}
	saved := lanes.Available
	t.Cleanup(func() { lanes.Available = saved })
	return func(on bool) { lanes.Available = on }
}

// bothWays returns SplitSum's sum with the lanes on and with them off
// (set switches them, as lanesSwitch's function does), leaving them on.
func bothWays(set func(bool), u1, u2 *[6]uint64, tab []point.Affine, w uint) (on, off point.Jacobian) {
	set(true)
	SplitSum(&on, u1, u2, tab, w)
	set(false)
	SplitSum(&off, u1, u2, tab, w)
	set(true)
	return on, off
}

// samePoint reports whether p and q are the same point: both at infinity,
// or X₁·Z₂² = X₂·Z₁² and Y₁·Z₂³ = Y₂·Z₁³.
func samePoint(p, q *point.Jacobian) bool {
	pi, qi := p.Z.IsZero() == 1, q.Z.IsZero() == 1
	if pi || qi {
		return pi == qi
	}
	var pz2, qz2, pz3, qz3, a, b field.Element
	pz2.Square(&p.Z)
	qz2.Square(&q.Z)
	pz3.Mul(&pz2, &p.Z)
	qz3.Mul(&qz2, &q.Z)
	a.Mul(&p.X, &qz2)
	b.Mul(&q.X, &pz2)
	if a.Equal(&b) == 0 {
		return false
	}
	a.Mul(&p.Y, &qz3)
	b.Mul(&q.Y, &pz3)
	return a.Equal(&b) == 1
}

// splitPlan builds the plan SplitSum builds for u1, u2 and the key table
// tab of width w, so that a test can call laneSum on it directly.
func splitPlan(u1, u2 *[6]uint64, tab []point.Affine, w uint) *plan {
	var gs, qs wnaf.Sparse
	wnaf.RecodeSparse(&gs, u1[:], gtable.Width)
	wnaf.RecodeSparse(&qs, u2[:], w)
	pl := new(plan)
	pl.add(&gs, nil, 0)
	pl.add(&qs, tab, 1<<(w-2))
	return pl
}

// sentinel is an accumulator value that no sum is: laneSum must leave it
// in place when it refuses.
var sentinel = point.Jacobian{X: field.Element{1}, Y: field.Element{2}, Z: field.Element{3}}

// keyTable returns d·G as a point, its table at width w, and its
// coordinates for crypto/elliptic.
func keyTable(t testing.TB, d *big.Int, w uint) (q point.Affine, tab []point.Affine, qx, qy *big.Int) {
	//lint:ignore SA1019 the deprecated API is the independent reference here.
	qx, qy = curve.ScalarBaseMult(d.FillBytes(make([]byte, byteLen)))
	q = affine(t, qx, qy)
	tab = make([]point.Affine, Runs<<(w-2))
	point.BuildRuns(tab, &q, w, Runs, RunLen)
	return q, tab, qx, qy
}

// laneScalars returns the scalars TestLanesTwin tries: 0, 1, 2, 3, n−1,
// n−2; for every run j, a random value whose digits all fall in run j; the
// small odd multiples 1, 3, 127 at the first and the last position of a
// run (RunLen·j, RunLen·j + RunLen − 1), at laneSum's group boundaries
// next to them (k − 1, k, RunLen − k − 1, RunLen − k, k the steps of a
// group) and in the middle (half − 1, half, half = RunLen/2), for every run (under
// -short, the runs 0, 1, half − 1, half, Runs − 2, Runs − 1); and scalars
// with a digit in every run at one position, all 1 or random odd
// multiples (many additions in one step: several rounds of one group).
func laneScalars(r *prand.Rand) []*big.Int {
	const half = RunLen / 2
	const k = (RunLen + lanes.Groups - 1) / lanes.Groups // laneSum's steps per group
	out := []*big.Int{big.NewInt(0), big.NewInt(1), big.NewInt(2), big.NewInt(3),
		new(big.Int).Sub(nBig, big.NewInt(1)), new(big.Int).Sub(nBig, big.NewInt(2))}
	// top is the bit length a value shifted to run j may have and stay
	// below n with all its NAF digits (at most bits + 1 of them) in run j.
	top := func(j int) int {
		if j == Runs-1 {
			return curveBits - 1 - RunLen*j
		}
		return RunLen - 1
	}
	for j := 0; j < Runs; j++ {
		v := new(big.Int).Rand(mr(r), new(big.Int).Lsh(big.NewInt(1), uint(top(j))))
		out = append(out, v.Lsh(v, uint(RunLen*j)))
	}
	runs := []int{0, 1, half - 1, half, Runs - 2, Runs - 1}
	if !short() {
		runs = runs[:0]
		for j := 0; j < Runs; j++ {
			runs = append(runs, j)
		}
	}
	for _, j := range runs {
		for _, pos := range []int{0, k - 1, k, half - 1, half, RunLen - k - 1, RunLen - k, RunLen - 1} {
			p := RunLen*j + pos
			if p >= curveBits {
				continue
			}
			for _, m := range []int64{1, 3, 127} {
				v := new(big.Int).Lsh(big.NewInt(m), uint(p))
				out = append(out, v.Mod(v, nBig))
			}
		}
	}
	for _, pos := range []int{0, 1, half - 1, half, RunLen - 2, RunLen - 1} {
		ones, odd := new(big.Int), new(big.Int)
		for j := 0; j < Runs; j++ {
			if RunLen*j+pos >= curveBits-7 {
				continue
			}
			p := uint(RunLen*j + pos)
			ones.SetBit(ones, int(p), 1)
			odd.Add(odd, new(big.Int).Lsh(big.NewInt(int64(2*r.IntN(64)+1)), p))
		}
		out = append(out, ones, odd.Mod(odd, nBig))
	}
	return out
}

// TestLanesTwin checks that SplitSum gives the same point with the lanes
// on and off, for keys 1, 2, n−1 (whose tables hold G's table points, so
// that lanes add equal and opposite points, in one lane or across lanes
// and groups) and random keys, at widths 5 (keytable's) and 8 (G's, where
// key 1's table is G's), and 4, 6, 7 unless -short; over laneScalars in
// pairs (a, 0), (0, a), (a, a), (a, n − a), (a, b) and random pairs; with
// crypto/elliptic's u1·G + u2·Q for a sample (TestSums checks the scalar
// chain with it). laneSum, called directly on SplitSum's plan, must agree with the
// scalar chain whenever it sums, and must sum every chain of a random key
// (which meets a special case with probability about 2^−370).
func TestLanesTwin(t *testing.T) {
	set := lanesSwitch(t)
	r := prand.New(prand.NewPCG(41, 42))
	sc := laneScalars(r)
	type pair struct{ u1, u2 *big.Int }
	var pairs []pair
	zero := big.NewInt(0)
	for i, a := range sc {
		pairs = append(pairs, pair{a, zero}, pair{zero, a}, pair{a, a}, pair{a, new(big.Int).Mod(new(big.Int).Sub(nBig, a), nBig)})
		pairs = append(pairs, pair{a, sc[(i*7+3)%len(sc)]})
	}
	for i := 0; i < 20; i++ {
		pairs = append(pairs, pair{new(big.Int).Rand(mr(r), nBig), new(big.Int).Rand(mr(r), nBig)})
	}
	widths := []uint{5, 8, 4, 6, 7}
	if short() {
		widths = widths[:2]
	}
	type key struct {
		d       *big.Int
		crafted bool
	}
	ks := []key{{big.NewInt(1), true}, {big.NewInt(2), true}, {new(big.Int).Sub(nBig, big.NewInt(1)), true}}
	for i := 0; i < 2; i++ {
		ks = append(ks, key{new(big.Int).Add(new(big.Int).Rand(mr(r), new(big.Int).Sub(nBig, big.NewInt(1))), big.NewInt(1)), false})
	}
	var summed, refused, checked int
	for _, k := range ks {
		for _, w := range widths {
			_, tab, qx, qy := keyTable(t, k.d, w)
			per := 1 << (w - 2)
			for pi, p := range pairs {
				u1, u2 := limbs(p.u1), limbs(p.u2)
				on, off := bothWays(set, &u1, &u2, tab, w)
				if !samePoint(&on, &off) {
					t.Fatalf("d=%x w=%d u1=%x u2=%x: SplitSum with lanes differs from the scalar chain", k.d, w, p.u1, p.u2)
				}
				acc := sentinel
				if splitPlan(&u1, &u2, tab, w).laneSum(&acc, tab, per) {
					summed++
					if !samePoint(&acc, &off) {
						t.Fatalf("d=%x w=%d u1=%x u2=%x: laneSum differs from the scalar chain", k.d, w, p.u1, p.u2)
					}
				} else {
					refused++
					if acc != sentinel {
						t.Fatalf("d=%x w=%d u1=%x u2=%x: laneSum refused and changed acc", k.d, w, p.u1, p.u2)
					}
					if !k.crafted {
						t.Fatalf("d=%x w=%d u1=%x u2=%x: laneSum refused a random key's chain", k.d, w, p.u1, p.u2)
					}
				}
				if pi%16 == 0 {
					x, y := ecdsatest.SumOn(curve, qx, qy, p.u1, p.u2)
					if !sameAs(&on, x, y) {
						t.Fatalf("d=%x w=%d u1=%x u2=%x: SplitSum with lanes is not u1·G + u2·Q", k.d, w, p.u1, p.u2)
					}
					checked++
				}
			}
		}
	}
	// Most chains, the crafted keys' included, must have gone through the
	// lanes: a laneSum that refused everything would make the twins equal.
	if summed < 4*refused {
		t.Errorf("laneSum summed %d chains and refused %d", summed, refused)
	}
	t.Logf("%d chains summed by the lanes, %d refused; %d checked with crypto/elliptic", summed, refused, checked)
}

// TestLanesFallback crafts chains in which a lane adds a point equal to or
// opposite of its partial sum (the lane's H = 0). Chain.Add gives group
// g's k-th addition of a step to lane 2g + k%2 (two lanes a group), and
// the plan lists a step's addends G's first, then Q's: with two G digits in
// a step, the key's first addend of that step lands in the same lane as
// G's first. For the key 1 (Q's runs are G's) and u1 = u2 = Σⱼ<2
// 2^(RunLen·j + t), that is the same table point twice; for the key n−1,
// its opposite. The key 2 with u1 = 2^(t+1), u2 = 2^t meets it across a
// doubling (t and t+1 in one group's steps): one lane holds 2^(t+1)·G's
// entry, doubles, and adds Q's entry at t, the same point. laneSum must
// refuse each (acc unchanged), and SplitSum must still give
// crypto/elliptic's u1·G + u2·Q, as the scalar chain does.
func TestLanesFallback(t *testing.T) {
	set := lanesSwitch(t)
	// k is laneSum's steps per group; group g takes steps g·k … g·k + k − 1.
	const k = (RunLen + lanes.Groups - 1) / lanes.Groups
	const last = lanes.Groups - 1
	runs2 := func(pos int) *big.Int {
		v := new(big.Int)
		for j := 0; j < 8/lanes.Groups; j++ {
			v.SetBit(v, RunLen*j+pos, 1)
		}
		return v
	}
	one, two := big.NewInt(1), big.NewInt(2)
	nm1, nm2 := new(big.Int).Sub(nBig, one), new(big.Int).Sub(nBig, two)
	pow := func(e int) *big.Int { return new(big.Int).Lsh(one, uint(e)) }
	cases := []struct {
		name   string
		d      *big.Int
		u1, u2 *big.Int
	}{
		{"same point, last group, first step", one, runs2(RunLen - 1), runs2(RunLen - 1)},
		{"same point, last group, last step", one, runs2(last * k), runs2(last * k)},
		{"same point, group 1, first step", one, runs2(2*k - 1), runs2(2*k - 1)},
		{"same point, group 0, first step", one, runs2(k - 1), runs2(k - 1)},
		{"same point, group 0, last step", one, runs2(0), runs2(0)},
		{"opposite point, last group", nm1, runs2(RunLen - 1), runs2(RunLen - 1)},
		{"opposite point, group 0", nm1, runs2(0), runs2(0)},
		{"same point after a doubling, group 0", two, pow(k - 1), pow(k - 2)},
		{"same point after a doubling, group 2", two, pow(RunLen*2 + 2*k + 1), pow(RunLen*2 + 2*k)},
		{"opposite point after a doubling", nm2, pow(RunLen + 2), pow(RunLen + 1)},
	}
	for _, w := range []uint{5, 8} {
		for _, c := range cases {
			_, tab, qx, qy := keyTable(t, c.d, w)
			u1, u2 := limbs(c.u1), limbs(c.u2)
			acc := sentinel
			if splitPlan(&u1, &u2, tab, w).laneSum(&acc, tab, 1<<(w-2)) {
				t.Errorf("w=%d %s: laneSum summed a chain with H = 0 in a lane", w, c.name)
			} else if acc != sentinel {
				t.Errorf("w=%d %s: laneSum refused and changed acc", w, c.name)
			}
			on, off := bothWays(set, &u1, &u2, tab, w)
			x, y := ecdsatest.SumOn(curve, qx, qy, c.u1, c.u2)
			if !sameAs(&on, x, y) {
				t.Errorf("w=%d %s: SplitSum with lanes on is not u1·G + u2·Q", w, c.name)
			}
			if !sameAs(&off, x, y) {
				t.Errorf("w=%d %s: the scalar chain is not u1·G + u2·Q", w, c.name)
			}
		}
	}
}

// TestLanesWycheproof runs every P-384 vector of the Wycheproof files
// (through ecdsatest's loader, as keytable's TestWycheproofP384) whose key
// crypto/ecdsa accepts and whose signature parses (ecdsasig: DER or P1363,
// r and s in [1, n−1]) through VerifySplit on a width-5 table (keytable's
// Width384) with the lanes on and off: both answers must be crypto/ecdsa's
// (under -short, for every fourth vector; the lanes-on and lanes-off
// answers are compared for all).
func TestLanesWycheproof(t *testing.T) {
	set := lanesSwitch(t)
	files := ecdsatest.P384Files
	const w = 5
	total, valid := 0, 0
	for _, name := range files {
		for _, g := range ecdsatest.Load(t, name) {
			if g.Curve != curve {
				t.Fatalf("%s: not a P-384 group", name)
			}
			if g.Key == nil {
				continue
			}
			var q point.Affine
			if _, err := q.SetBytes(g.SEC1); err != nil {
				t.Fatalf("%s: key %x accepted by crypto/ecdsa, refused by point: %v", name, g.SEC1, err)
			}
			tab := make([]point.Affine, Runs<<(w-2))
			point.BuildRuns(tab, &q, w, Runs, RunLen)
			for _, v := range g.Tests {
				var rb, sb []byte
				var ok bool
				if g.P1363 {
					rb, sb, ok = ecdsatest.SplitP1363(v.Sig, byteLen)
				} else {
					rb, sb, ok = ecdsasig.ParseDER(v.Sig)
				}
				var r, s scalar.Scalar
				if !ok || !ecdsasig.ScalarFromBytes384(&r, rb) || !ecdsasig.ScalarFromBytes384(&s, sb) {
					continue
				}
				digest := g.Digest(v.Msg)
				set(true)
				on := VerifySplit(tab, w, digest, &r, &s)
				set(false)
				off := VerifySplit(tab, w, digest, &r, &s)
				set(true)
				if on != off {
					t.Errorf("%s #%d (%s): VerifySplit %v with lanes, %v without", name, v.ID, v.Comment, on, off)
				}
				if !short() || total%4 == 0 {
					if want := ecdsa.Verify(g.Key, digest, new(big.Int).SetBytes(rb), new(big.Int).SetBytes(sb)); on != want {
						t.Errorf("%s #%d (%s): VerifySplit %v with lanes, crypto/ecdsa %v", name, v.ID, v.Comment, on, want)
					}
				}
				if on {
					valid++
				}
				total++
			}
		}
	}
	if total < 1000 || valid < 100 {
		t.Fatalf("only %d vectors reached VerifySplit (%d valid)", total, valid)
	}
	t.Logf("%d vectors, %d valid", total, valid)
}

// TestLanesAllocs checks that SplitSum allocates nothing on the lanes path
// (and that the chain timed does go through the lanes), nor when the lanes
// refuse and the scalar chain runs.
func TestLanesAllocs(t *testing.T) {
	lanesSwitch(t)
	_, q := randKey(t)
	tab := make([]point.Affine, Runs<<3)
	point.BuildRuns(tab, &q, 5, Runs, RunLen)
	u1, u2 := randLimbs(t), randLimbs(t)
	acc := sentinel
	if !splitPlan(&u1, &u2, tab, 5).laneSum(&acc, tab, 8) {
		t.Fatal("laneSum refused a random chain")
	}
	if n := testing.AllocsPerRun(20, func() { SplitSum(&acc, &u1, &u2, tab, 5) }); n != 0 {
		t.Errorf("SplitSum with lanes allocates %.0f times", n)
	}
	_, gtab, _, _ := keyTable(t, big.NewInt(1), 5)
	var v big.Int
	for j := 0; j < 8/lanes.Groups; j++ {
		v.SetBit(&v, RunLen*j, 1)
	}
	f := limbs(&v)
	if splitPlan(&f, &f, gtab, 5).laneSum(&acc, gtab, 8) {
		t.Fatal("laneSum summed a chain with H = 0 in a lane")
	}
	if n := testing.AllocsPerRun(20, func() { SplitSum(&acc, &f, &f, gtab, 5) }); n != 0 {
		t.Errorf("SplitSum falling back to the scalar chain allocates %.0f times", n)
	}
}
