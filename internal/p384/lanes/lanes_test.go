package lanes

import (
	"math/rand/v2"
	"testing"

	"github.com/p256tls/p256tls/internal/p384/field"
	"github.com/p256tls/p256tls/internal/p384/gtable"
	"github.com/p256tls/p256tls/internal/p384/point"
)

// A step of a test chain: a doubling, or an addition of a (negated if neg)
// to group g.
type step struct {
	double bool
	a      *point.Affine
	neg    bool
	g      int
}

// scalarSum is the chain on two scalar accumulators, the reference.
func scalarSum(steps []step) [Groups]point.Jacobian {
	var acc [Groups]point.Jacobian
	for g := range acc {
		acc[g].SetInfinity()
	}
	for _, s := range steps {
		if s.double {
			for g := range acc {
				if acc[g].Z.IsZero() == 0 {
					acc[g].Double()
				}
			}
			continue
		}
		acc[s.g].AddMixedVartime(s.a, s.neg)
	}
	return acc
}

func build(steps []step) *Chain {
	c := new(Chain)
	for _, s := range steps {
		if s.double {
			c.Double()
		} else {
			c.Add(s.a, s.neg, s.g)
		}
	}
	return c
}

// equal reports whether p and q are the same point (both at infinity, or
// the same affine coordinates).
func equal(p, q *point.Jacobian) bool {
	pi, qi := p.Z.IsZero() == 1, q.Z.IsZero() == 1
	if pi || qi {
		return pi == qi
	}
	var out [2]point.Affine
	var scratch [2]field.Element
	return point.BatchToAffineVartime(out[:], []point.Jacobian{*p, *q}, scratch[:]) && out[0] == out[1]
}

// entry returns a table point of G's runs: distinct for distinct (run, i).
func entry(run, i int) *point.Affine { return &gtable.Table[run%gtable.Runs][i%gtable.PerRun] }

// randomChain is a chain of steps doublings, each followed by up to maxAdds
// additions of random table points.
func randomChain(rng *rand.Rand, steps, maxAdds int) []step {
	var ss []step
	for t := 0; t < steps; t++ {
		ss = append(ss, step{double: true})
		// Distinct entries within a step: the same entry twice in one
		// lane between two doublings is a special case (TestChainRefuses).
		seen := map[*point.Affine]bool{}
		for n := rng.IntN(maxAdds + 1); n > 0; n-- {
			e := entry(rng.IntN(gtable.Runs), rng.IntN(gtable.PerRun))
			if seen[e] {
				continue
			}
			seen[e] = true
			ss = append(ss, step{a: e, neg: rng.IntN(2) == 1, g: rng.IntN(Groups)})
		}
	}
	return ss
}

func checkChain(t *testing.T, name string, ss []step) {
	t.Helper()
	want := scalarSum(ss)
	c := build(ss)
	saved := *c
	j := point.Jacobian{X: field.Element{1}, Y: field.Element{2}, Z: field.Element{3}}
	var got [Groups]point.Jacobian
	for g := range got {
		got[g] = j
	}
	if !c.Sum(&got) {
		t.Fatalf("%s: Sum refused a chain without special cases", name)
	}
	for g := range got {
		if !equal(&got[g], &want[g]) {
			t.Fatalf("%s: group %d's lanes sum differs from the scalar chain", name, g)
		}
	}
	if *c != saved {
		t.Fatalf("%s: Sum changed the chain", name)
	}
}

func TestChainRandom(t *testing.T) {
	if !Available {
		t.Skip("no AVX-512 IFMA")
	}
	rng := rand.New(rand.NewPCG(7, 8))
	n := 300
	if testing.Short() {
		n = 60
	}
	for i := 0; i < n; i++ {
		// The split chain's shape in four groups (5 steps, about 21
		// additions each), and others: long, sparse, dense.
		shapes := [][2]int{{5, 43}, {40, 3}, {5, 30}, {1, 8}, {3, 1}}
		sh := shapes[i%len(shapes)]
		checkChain(t, "random", randomChain(rng, sh[0], sh[1]))
	}
}

func TestChainShapes(t *testing.T) {
	if !Available {
		t.Skip("no AVX-512 IFMA")
	}
	a := func(i int, neg bool) step { return step{a: entry(i, 3*i+1), neg: neg} }
	b := func(i int, neg bool) step { return step{a: entry(i, 3*i+2), neg: neg, g: 1} }
	d := step{double: true}
	cases := map[string][]step{
		"empty":            nil,
		"doublings only":   {d, d, d},
		"one addition":     {a(0, false)},
		"one negated":      {a(0, true)},
		"leading doubles":  {d, d, a(1, false), d, a(2, true)},
		"tail doubles":     {a(1, false), a(2, false), d, d, d, d, d},
		"eight, one round": {a(0, false), a(1, true), a(2, false), a(3, true), a(4, false), a(5, true), a(6, false), a(7, true)},
		"nine, two rounds": {a(0, false), a(1, true), a(2, false), a(3, true), a(4, false), a(5, true), a(6, false), a(7, true), a(8, false)},
		"lanes then more":  {a(0, false), d, a(1, false), a(2, false), d, d, a(3, true)},
		"group 1 only":     {b(0, false), d, b(1, true), b(2, false), b(3, false), b(4, false), b(5, true), d},
		"both groups":      {a(0, false), b(0, true), d, b(1, false), b(2, false), b(3, false), b(4, false), b(5, false), a(1, false), d, a(2, true), b(6, false)},
		// A lane that stays at infinity until late, and one added to at
		// every step.
		"late lane": {a(0, false), d, a(1, false), d, a(2, false), d, a(3, false), a(4, false), a(5, false), a(6, false), a(7, false), a(8, false), a(9, false), a(10, false)},
	}
	for name, ss := range cases {
		checkChain(t, name, ss)
	}
	// The most additions a chain may hold: 128 rounds of eight, 16 steps of
	// 64 distinct entries, 16 for each group.
	var ss []step
	for st := 0; st < 16; st++ {
		ss = append(ss, d)
		for i := 0; i < 64; i++ {
			// A permutation of the 1280 entries, mixing the runs: a lane
			// adding multiples of one B only can meet its own sum.
			e := (st*64 + i) * 797 % (gtable.Runs * gtable.PerRun)
			ss = append(ss, step{a: entry(e/gtable.PerRun, e), neg: e%3 == 0, g: i % Groups})
		}
	}
	checkChain(t, "full", ss)
}

// TestChainRefuses covers the cases Sum hands back: H = 0 in a lane (the
// addend equal to or the opposite of the lane's sum) and too many rounds;
// sums must be left unchanged.
func TestChainRefuses(t *testing.T) {
	if !Available {
		t.Skip("no AVX-512 IFMA")
	}
	full := func(g int) []step {
		var ss []step
		for i := 0; i < perGroup; i++ {
			ss = append(ss, step{a: entry(i, i), g: g})
		}
		return ss
	}
	d := step{double: true}
	cases := map[string][]step{
		// The fifth addition of a group goes to its first lane again, with
		// no doubling between.
		"same point":     append(full(0), step{a: entry(0, 0)}),
		"opposite point": append(full(1), step{a: entry(0, 0), neg: true, g: 1}),
		// The two lanes of a group hold the same point, or opposite ones,
		// when their sums are added at the end.
		"pair equal":    {{a: entry(3, 3), g: 2}, {a: entry(3, 3), g: 2}},
		"pair opposite": {{a: entry(3, 3), g: 3}, {a: entry(3, 3), neg: true, g: 3}},
	}
	// Across a doubling: group 1's first lane gets 3·B, doubles to 6·B,
	// adds 5·B, then −11·B (B = 2^(RunLen·5)·G; entry(5, i) is (2i + 1)·B).
	ss := []step{{a: entry(5, 1), g: 1}}
	for i := 1; i < perGroup; i++ {
		ss = append(ss, step{a: entry(i, 7), g: 1}, step{a: entry(i, 7)})
	}
	ss = append(ss, d, step{a: entry(5, 2), g: 1})
	for i := 1; i < perGroup; i++ {
		ss = append(ss, step{a: entry(i, 9), g: 1})
	}
	cases["after a doubling"] = append(ss, step{a: entry(5, 5), neg: true, g: 1})
	for name, ss := range cases {
		c := build(ss)
		j := point.Jacobian{X: field.Element{1}, Y: field.Element{2}, Z: field.Element{3}}
		var sums [Groups]point.Jacobian
		for g := range sums {
			sums[g] = j
		}
		saved := sums
		if c.Sum(&sums) {
			t.Errorf("%s: Sum accepted a lane with H = 0", name)
		}
		if sums != saved {
			t.Errorf("%s: Sum changed sums when refusing", name)
		}
	}
	var c Chain
	for i := 0; i < 128*perGroup+1; i++ {
		c.Add(entry(i, i), false, 0)
	}
	var sums [Groups]point.Jacobian
	if c.Sum(&sums) {
		t.Error("Sum accepted a chain of more than 128 rounds")
	}
	var n Chain
	n.Add(entry(1, 1), false, 0)
	n.Add(nil, false, 1)
	if n.Sum(&sums) {
		t.Error("Sum accepted a chain with a nil point")
	}
	var dc Chain
	dc.Add(entry(1, 1), false, 0)
	dc.dbl = 1<<32 - 1
	dc.Double()
	if dc.Sum(&sums) {
		t.Error("Sum accepted a chain with 2^32 doublings in a row")
	}
}

func TestSumAllocs(t *testing.T) {
	if !Available {
		t.Skip("no AVX-512 IFMA")
	}
	rng := rand.New(rand.NewPCG(9, 10))
	c := build(randomChain(rng, 20, 11))
	var sums [Groups]point.Jacobian
	if n := testing.AllocsPerRun(20, func() { c.Sum(&sums) }); n != 0 {
		t.Errorf("Sum allocates %.0f times", n)
	}
}

func BenchmarkSum(b *testing.B) {
	if !Available {
		b.Skip("no AVX-512 IFMA")
	}
	rng := rand.New(rand.NewPCG(11, 12))
	// The split chain's shape in four groups: 5 steps, about 107
	// additions.
	ss := randomChain(rng, 5, 43)
	c := build(ss)
	var sums [Groups]point.Jacobian
	b.Run("lanes", func(b *testing.B) {
		for b.Loop() {
			c.Sum(&sums)
		}
	})
	b.Run("scalar", func(b *testing.B) {
		for b.Loop() {
			sums = scalarSum(ss)
		}
	})
}

// laneModel runs a chain the way the kernel does, one scalar accumulator
// per lane with Chain's lane assignment, and reports whether a lane or a
// pair met H = 0 (an addend or neighbour with the same x as the sum): then
// Sum must refuse, and otherwise succeed.
func laneModel(ss []step) (special bool) {
	var acc [8]point.Jacobian
	for l := range acc {
		acc[l].SetInfinity()
	}
	var cnt [Groups]int
	sameX := func(p *point.Jacobian, x *field.Element, z2 *field.Element) bool {
		var a, b, pz2 field.Element
		pz2.Square(&p.Z)
		a.Mul(x, &pz2)
		b.Mul(&p.X, z2)
		return a.Equal(&b) == 1
	}
	var one field.Element
	one.One()
	for _, s := range ss {
		if s.double {
			for l := range acc {
				if acc[l].Z.IsZero() == 0 {
					acc[l].Double()
				}
			}
			cnt = [Groups]int{}
			continue
		}
		l := perGroup*s.g + cnt[s.g]%perGroup
		cnt[s.g]++
		if acc[l].Z.IsZero() == 0 && sameX(&acc[l], &s.a.X, &one) {
			return true
		}
		acc[l].AddMixedVartime(s.a, s.neg)
	}
	for g := 0; g < Groups; g++ {
		p, q := &acc[perGroup*g], &acc[perGroup*g+1]
		if p.Z.IsZero() == 0 && q.Z.IsZero() == 0 {
			var qz2 field.Element
			qz2.Square(&q.Z)
			if sameX(p, &q.X, &qz2) {
				return true
			}
		}
	}
	return false
}

// FuzzChain builds a chain from the input (each zero byte a doubling, any
// other an addition of one of 1280 table points with its sign and group)
// and checks Sum against the scalar chains and the lane model: Sum refuses
// exactly when a lane meets H = 0 (or the chain needs more than 128
// rounds), and otherwise gives the scalar sums.
func FuzzChain(f *testing.F) {
	f.Add([]byte{0x01, 0x02, 0x00, 0x83, 0x44})
	f.Add([]byte{0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70, 0x00, 0x11, 0x21, 0x31})
	f.Add([]byte("000\xf80\xf80000000")) // multiples of one point: a lane meets H = 0
	f.Add([]byte{0x05, 0x05})            // one point twice in a pair
	f.Fuzz(func(t *testing.T, data []byte) {
		if !Available {
			t.Skip("no AVX-512 IFMA")
		}
		if len(data) > 600 {
			data = data[:600]
		}
		var ss []step
		for i, b := range data {
			if b == 0 {
				ss = append(ss, step{double: true})
				continue
			}
			e := entry(int(b)%gtable.Runs, i*7+int(b)>>3)
			ss = append(ss, step{a: e, neg: b&0x40 != 0, g: int(b>>4) % Groups})
		}
		c := build(ss)
		special := laneModel(ss) || c.refuse // past 128 rounds: TestChainRefuses

		var got [Groups]point.Jacobian
		ok := c.Sum(&got)
		if ok == special {
			t.Fatalf("Sum reports %v, the lane model special = %v", ok, special)
		}
		if !ok {
			return
		}
		want := scalarSum(ss)
		for g := range got {
			if !equal(&got[g], &want[g]) {
				t.Fatalf("group %d's sum differs from the scalar chain", g)
			}
		}
	})
}
