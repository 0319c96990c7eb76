package safegcd

import (
	"math/big"
	"math/rand"
	"testing"
)

// toBig, fromBig and their six-limb forms convert between big.Int and
// little-endian 64-bit limbs.
var (
	toBig    = toBigN[[4]uint64]
	fromBig  = fromBigN[[4]uint64]
	toBig6   = toBigN[[6]uint64]
	fromBig6 = fromBigN[[6]uint64]
)

func toBigN[W [4]uint64 | [6]uint64](x W) *big.Int {
	b := new(big.Int)
	for i := len(x) - 1; i >= 0; i-- {
		b.Lsh(b, 64)
		b.Or(b, new(big.Int).SetUint64(x[i]))
	}
	return b
}

func fromBigN[W [4]uint64 | [6]uint64](b *big.Int) W {
	var x W
	if b.Sign() < 0 || b.BitLen() > 64*len(x) {
		panic("fromBig: out of range")
	}
	var t big.Int
	for i := 0; i < len(x); i++ {
		x[i] = t.Rsh(b, uint(64*i)).Uint64()
	}
	return x
}

func numToBig(a *num) *big.Int {
	b := new(big.Int)
	for i := maxLimbs - 1; i >= 0; i-- {
		b.Lsh(b, limbBits)
		b.Add(b, big.NewInt(a[i]))
	}
	return b
}

func mustHex(s string) *big.Int {
	b, ok := new(big.Int).SetString(s, 16)
	if !ok {
		panic(s)
	}
	return b
}

var (
	orderN = mustHex("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")
	primeP = mustHex("ffffffff00000001000000000000000000000000ffffffffffffffffffffffff")
)

// testModuli are the moduli the differential tests run over: the two P-256
// moduli, extremes of the allowed range and a few random odd ones.
func testModuli(r *rand.Rand) []*big.Int {
	two256 := new(big.Int).Lsh(big.NewInt(1), 256)
	ms := []*big.Int{
		orderN, primeP,
		big.NewInt(3), big.NewInt(65537),
		new(big.Int).Sub(two256, big.NewInt(1)),                                   // all ones
		new(big.Int).Sub(two256, big.NewInt(189)),                                 // largest 256-bit prime
		new(big.Int).Add(new(big.Int).Rsh(two256, 1), big.NewInt(1)),              // 2^255 + 1
		mustHex("ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffed"), // 2^248 − 19
		mustHex("c000000000000000000000000000000000000000000000000000000000000001"),
		new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 62), big.NewInt(1)),
		new(big.Int).Add(new(big.Int).Lsh(big.NewInt(1), 124), big.NewInt(1)),
	}
	for _, bitsLen := range []int{64, 100, 200, 255, 256, 256, 256} {
		m := new(big.Int).Rand(r, new(big.Int).Lsh(big.NewInt(1), uint(bitsLen)))
		m.SetBit(m, 0, 1)
		m.SetBit(m, bitsLen-1, 1)
		ms = append(ms, m)
	}
	return ms
}

// edgeValues returns interesting inputs below m: small values, values next
// to m and to powers of two, and long runs of zero and one bits.
// bits is the size of the words (256 or 384).
func edgeValues(m *big.Int, bits int) []*big.Int {
	var vs []*big.Int
	add := func(v *big.Int) {
		v = new(big.Int).Mod(v, m)
		vs = append(vs, v)
	}
	one := big.NewInt(1)
	for i := int64(0); i < 8; i++ {
		add(big.NewInt(i))
		add(new(big.Int).Sub(m, big.NewInt(i+1)))
	}
	for k := 0; k < bits; k += 7 {
		p := new(big.Int).Lsh(one, uint(k))
		add(p)
		add(new(big.Int).Sub(p, one))
		add(new(big.Int).Sub(m, p))
		add(new(big.Int).Add(new(big.Int).Rsh(m, uint(k)), one))
	}
	add(new(big.Int).Lsh(one, uint(bits-1)))
	add(new(big.Int).Lsh(one, uint(bits)))
	add(new(big.Int).Sub(new(big.Int).Lsh(one, uint(bits)), one))
	// All-ones 64-bit limbs in every position, alone and in pairs.
	allOnes := new(big.Int).SetUint64(^uint64(0))
	for i := 0; i < bits/64; i++ {
		v := new(big.Int).Lsh(allOnes, uint(64*i))
		add(v)
		add(new(big.Int).Or(v, new(big.Int).Lsh(allOnes, uint(64*((i+2)%(bits/64))))))
	}
	// Runs of ones and zeros of various lengths.
	for _, s := range []string{
		"ffffffffffffffffffffffffffffffff00000000000000000000000000000000",
		"00000000000000000000000000000000ffffffffffffffffffffffffffffffff",
		"ffffffff00000000ffffffff00000000ffffffff00000000ffffffff00000000",
		"8000000000000000000000000000000000000000000000000000000000000001",
		"0000000000000000000000000000000000000000000000000000000000000f01",
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
		"5555555555555555555555555555555555555555555555555555555555555555",
		"4000000000000000000000000000000000000000000000000000000000000000",
	} {
		add(mustHex(s))
		if bits > 256 {
			add(mustHex(s[:32] + s)) // the same patterns stretched to 384 bits
		}
	}
	// Half of m, rounded up or down, and its neighbours.
	h := new(big.Int).Rsh(m, 1)
	add(h)
	add(new(big.Int).Add(h, one))
	add(new(big.Int).Add(h, big.NewInt(2)))
	return vs
}

func wantDiv(c, x, m *big.Int) *big.Int {
	inv := new(big.Int).ModInverse(x, m)
	if inv == nil {
		return new(big.Int)
	}
	return inv.Mul(inv, c).Mod(inv, m)
}

func checkDiv(t *testing.T, mod *Modulus, m, c, x *big.Int) {
	t.Helper()
	cw, xw := fromBig(c), fromBig(x)
	// After the fixed number of divsteps g must be 0 and f = ±gcd.
	_, f, g := mod.divConst(&cw, &xw)
	gcd := new(big.Int).GCD(nil, nil, x, m)
	if x.Sign() == 0 {
		gcd.Set(m)
	}
	if fb := numToBig(&f); numToBig(&g).Sign() != 0 || new(big.Int).Abs(fb).Cmp(gcd) != 0 {
		t.Fatalf("x=%x m=%x: after %d divsteps f=%x g=%x", x, m, constSteps, fb, numToBig(&g))
	}
	if x.Sign() != 0 && gcd.Cmp(big.NewInt(1)) != 0 {
		return // no inverse; the result is unspecified
	}
	want := wantDiv(c, x, m)
	var got [4]uint64
	mod.Div(&got, &cw, &xw)
	if toBig(got).Cmp(want) != 0 {
		t.Fatalf("Div(%x / %x mod %x) = %x, want %x", c, x, m, toBig(got), want)
	}
	mod.DivVartime(&got, &cw, &xw)
	if toBig(got).Cmp(want) != 0 {
		t.Fatalf("DivVartime(%x / %x mod %x) = %x, want %x", c, x, m, toBig(got), want)
	}
}

// divSize is one of the two modulus sizes under test: its moduli, the seeds
// of its edge and random tests, and setup, which builds the modulus m and
// returns its core (for the limb checks) and a check of every division of
// that size on (c, x) against math/big.
type divSize struct {
	name               string
	bits, n            int
	edgeSeed, randSeed int64
	moduli             func(*rand.Rand) []*big.Int
	setup              func(m *big.Int) (*core, func(t *testing.T, c, x *big.Int))
}

var divSizes = []divSize{
	{"256", 256, nLimbs256, 1, 2, testModuli, func(m *big.Int) (*core, func(*testing.T, *big.Int, *big.Int)) {
		mod := NewModulus(fromBig(m))
		return &mod.core, func(t *testing.T, c, x *big.Int) { checkDiv(t, mod, m, c, x) }
	}},
	{"384", 384, nLimbs384, 11, 12, testModuli384, func(m *big.Int) (*core, func(*testing.T, *big.Int, *big.Int)) {
		mod := NewModulus384(fromBig6(m))
		return &mod.core, func(t *testing.T, c, x *big.Int) { checkDiv384(t, mod, m, c, x) }
	}},
}

func TestDivEdges(t *testing.T) {
	for _, sz := range divSizes {
		t.Run(sz.name, func(t *testing.T) {
			r := rand.New(rand.NewSource(sz.edgeSeed))
			for _, m := range sz.moduli(r) {
				mod, check := sz.setup(m)
				if numToBig(&mod.m).Cmp(m) != 0 || mod.n != sz.n {
					t.Fatal("modulus limbs")
				}
				if mod.minv*uint64(mod.m[0])&limbMask != 1 {
					t.Fatalf("minv wrong for %x", m)
				}
				edges := edgeValues(m, sz.bits)
				for _, x := range edges {
					check(t, big.NewInt(1), x)
					check(t, new(big.Int).Sub(m, big.NewInt(1)), x)
					check(t, edges[r.Intn(len(edges))], x)
				}
			}
		})
	}
}

func TestDivRandom(t *testing.T) {
	iters := 3000
	if testing.Short() {
		iters = 300
	}
	for _, sz := range divSizes {
		t.Run(sz.name, func(t *testing.T) {
			r := rand.New(rand.NewSource(sz.randSeed))
			for _, m := range sz.moduli(r) {
				_, check := sz.setup(m)
				for i := 0; i < iters; i++ {
					check(t, new(big.Int).Rand(r, m), new(big.Int).Rand(r, m))
				}
			}
		})
	}
}

func TestDivAliasing(t *testing.T) {
	mod := NewModulus(fromBig(orderN))
	r := rand.New(rand.NewSource(3))
	for _, div := range []func(out, c, x *[4]uint64){mod.Div, mod.DivVartime} {
		checkAliasing(t, r, orderN, fromBig, toBig, div)
	}
	mod384 := NewModulus384(fromBig6(orderN384))
	checkAliasing(t, rand.New(rand.NewSource(13)), orderN384, fromBig6, toBig6, mod384.DivVartime)
}

// checkAliasing checks div modulo m with out aliasing x, c, or both, on 100
// random pairs; from and to convert between big.Int and W.
func checkAliasing[W [4]uint64 | [6]uint64](t *testing.T, r *rand.Rand, m *big.Int, from func(*big.Int) W, to func(W) *big.Int, div func(out, c, x *W)) {
	t.Helper()
	for i := 0; i < 100; i++ {
		c, x := new(big.Int).Rand(r, m), new(big.Int).Rand(r, m)
		want := from(wantDiv(c, x, m))
		a, b := from(c), from(x)
		div(&b, &a, &b)
		if b != want {
			t.Fatal("out aliasing x")
		}
		a, b = from(c), from(x)
		div(&a, &a, &b)
		if a != want {
			t.Fatal("out aliasing c")
		}
		a = from(x)
		div(&a, &a, &a)
		if x.Sign() != 0 && to(a).Cmp(big.NewInt(1)) != 0 {
			t.Fatal("x/x != 1")
		}
	}
}

func TestNewModulusPanics(t *testing.T) {
	checkPanics(t, "NewModulus", func(m [4]uint64) { NewModulus(m) },
		[][4]uint64{{0}, {1}, {2}, {4, 1}, {0, 0, 0, 1 << 63}},
		[][4]uint64{{3}, {1, 0, 0, 1}, {1, 1}})
}

// checkPanics checks that newMod (named name) panics on every modulus of bad
// (even or below 3) and on none of good.
func checkPanics[W [4]uint64 | [6]uint64](t *testing.T, name string, newMod func(W), bad, good []W) {
	t.Helper()
	for _, m := range bad {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s(%x) did not panic", name, m)
				}
			}()
			newMod(m)
		}()
	}
	for _, m := range good {
		newMod(m) // must not panic: odd and at least 3
	}
}

// refDivsteps runs n divsteps on big integers, one at a time: the original
// ones (δ form) if half is false, the half-delta ones if half is true, in
// which case delta holds 2δ. It returns the new delta, f and g.
func refDivsteps(delta int64, f, g *big.Int, n int, half bool) (int64, *big.Int, *big.Int) {
	f, g = new(big.Int).Set(f), new(big.Int).Set(g)
	unit := int64(1)
	if half {
		unit = 2
	}
	for i := 0; i < n; i++ {
		if delta > 0 && g.Bit(0) == 1 {
			delta = unit - delta
			f, g = g, new(big.Int).Sub(g, f)
		} else {
			delta += unit
			if g.Bit(0) == 1 {
				g.Add(g, f)
			}
		}
		g.Rsh(g, 1)
	}
	return delta, f, g
}

// checkMatrix verifies 2^62·(f', g') = t·(f, g).
func checkMatrix(t *testing.T, tm matrix, f, g, f2, g2 *big.Int) {
	t.Helper()
	for _, row := range [][3]any{{tm.u, tm.v, f2}, {tm.q, tm.r, g2}} {
		a := new(big.Int).Mul(big.NewInt(row[0].(int64)), f)
		a.Add(a, new(big.Int).Mul(big.NewInt(row[1].(int64)), g))
		want := new(big.Int).Lsh(row[2].(*big.Int), limbBits)
		if a.Cmp(want) != 0 {
			t.Fatalf("matrix %+v wrong for f=%x g=%x", tm, f, g)
		}
	}
	lim := new(big.Int).Lsh(big.NewInt(1), limbBits)
	abs := func(v int64) *big.Int { return new(big.Int).Abs(big.NewInt(v)) }
	if new(big.Int).Add(abs(tm.u), abs(tm.v)).Cmp(lim) > 0 || new(big.Int).Add(abs(tm.q), abs(tm.r)).Cmp(lim) > 0 {
		t.Fatalf("matrix %+v exceeds 2^62", tm)
	}
}

func randDivstepInput(r *rand.Rand, i int) (f, g *big.Int) {
	bl := 64 + r.Intn(200)
	f = new(big.Int).Rand(r, new(big.Int).Lsh(big.NewInt(1), uint(bl)))
	g = new(big.Int).Rand(r, new(big.Int).Lsh(big.NewInt(1), uint(bl)))
	switch i % 4 {
	case 1:
		g.Rsh(g, uint(r.Intn(70))) // long runs of zeros at the top
		g.Lsh(g, uint(r.Intn(70))) // and at the bottom
	case 2:
		g.Neg(g)
	case 3:
		f.Neg(f)
	}
	f.SetBit(f, 0, 1)
	if f.Sign() < 0 {
		f.Sub(f, big.NewInt(2)) // keep it odd
	}
	return f, g
}

func low64(b *big.Int) uint64 {
	m := new(big.Int).And(b, new(big.Int).SetUint64(^uint64(0)))
	return m.Uint64()
}

func TestDivstepsVartime(t *testing.T) {
	r := rand.New(rand.NewSource(4))
	for i := 0; i < 20000; i++ {
		f, g := randDivstepInput(r, i)
		delta := int64(r.Intn(40)) - 20
		if i%5 == 0 {
			delta = int64(r.Intn(1000)) - 500
		}
		eta, tm := divstepsVartime(-delta, low64(f), low64(g))
		d2, f2, g2 := refDivsteps(delta, f, g, limbBits, false)
		if -eta != d2 {
			t.Fatalf("δ=%d f=%x g=%x: got δ %d, want %d", delta, f, g, -eta, d2)
		}
		checkMatrix(t, tm, f, g, f2, g2)
	}
}

func TestDivstepsConst(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	for i := 0; i < 20000; i++ {
		f, g := randDivstepInput(r, i)
		h := int64(r.Intn(40)) - 20
		n := limbBits
		if i%3 == 0 {
			n = r.Intn(limbBits + 1)
		}
		h2, tm := divstepsConst(h, low64(f), low64(g), n)
		// The scaled matrix for n steps is 2^n·(f', g'); bring it to 2^62.
		tm.u <<= limbBits - n
		tm.v <<= limbBits - n
		tm.q <<= limbBits - n
		tm.r <<= limbBits - n
		d2, f2, g2 := refDivsteps(2*h+1, f, g, n, true)
		if 2*h2+1 != d2 {
			t.Fatalf("h=%d f=%x g=%x: got 2δ %d, want %d", h, f, g, 2*h2+1, d2)
		}
		checkMatrix(t, tm, f, g, f2, g2)
	}
}

func TestAllocs(t *testing.T) {
	mod := NewModulus(fromBig(orderN))
	x, c := fromBig(big.NewInt(12345)), fromBig(big.NewInt(1))
	var out [4]uint64
	if n := testing.AllocsPerRun(100, func() { mod.Div(&out, &c, &x) }); n != 0 {
		t.Errorf("Div allocates %v times", n)
	}
	if n := testing.AllocsPerRun(100, func() { mod.DivVartime(&out, &c, &x) }); n != 0 {
		t.Errorf("DivVartime allocates %v times", n)
	}
}

func FuzzDiv(f *testing.F) { fuzzDiv(f, divSizes[0], orderN, primeP) }

// fuzzDiv checks the divisions of size sz modulo n, or p when the fuzzer's
// flag is set, on fuzzed c and x (big-endian, reduced mod the modulus).
func fuzzDiv(f *testing.F, sz divSize, n, p *big.Int) {
	for _, s := range []string{"", "\x01", "\x02", "\xff\xff\xff\xff", "\x80"} {
		f.Add([]byte(s), []byte("\x01"), false)
		f.Add([]byte(s), []byte("\x01"), true)
	}
	f.Add(n.Bytes(), []byte("\x05"), false)
	f.Add(new(big.Int).Sub(n, big.NewInt(1)).Bytes(), p.Bytes(), true)
	f.Add(new(big.Int).Sub(p, big.NewInt(1)).Bytes(), p.Bytes(), true)
	_, checkN := sz.setup(n)
	_, checkP := sz.setup(p)
	f.Fuzz(func(t *testing.T, xb, cb []byte, overP bool) {
		if len(xb) > sz.bits/8 || len(cb) > sz.bits/8 {
			return
		}
		m, check := n, checkN
		if overP {
			m, check = p, checkP
		}
		x := new(big.Int).Mod(new(big.Int).SetBytes(xb), m)
		c := new(big.Int).Mod(new(big.Int).SetBytes(cb), m)
		check(t, c, x)
	})
}

func benchInput() (*Modulus, [4]uint64, [4]uint64) {
	r := rand.New(rand.NewSource(6))
	return NewModulus(fromBig(orderN)), fromBig(new(big.Int).Rand(r, orderN)), fromBig(big.NewInt(1))
}

func BenchmarkDiv(b *testing.B) {
	mod, x, c := benchInput()
	for b.Loop() {
		mod.Div(&x, &c, &x)
	}
}

func BenchmarkDivVartime(b *testing.B) {
	mod, x, c := benchInput()
	for b.Loop() {
		mod.DivVartime(&x, &c, &x)
	}
}

func bigToNum(b *big.Int, n int) num {
	var a num
	t := new(big.Int).Set(b)
	mask := big.NewInt(limbMask)
	for i := 0; i < n-1; i++ {
		a[i] = new(big.Int).And(t, mask).Int64()
		t.Rsh(t, limbBits)
	}
	a[n-1] = t.Int64()
	return a
}

func checkNormalized(t *testing.T, name string, a *num, n int) {
	t.Helper()
	for i := 0; i < n-1; i++ {
		if a[i] < 0 || a[i] > limbMask {
			t.Fatalf("%s: limb %d = %x not normalized", name, i, a[i])
		}
	}
	for i := n; i < maxLimbs; i++ {
		if a[i] != 0 {
			t.Fatalf("%s: unused limb %d = %x", name, i, a[i])
		}
	}
}

// testCores returns the cores of the moduli of both sizes under test.
func testCores(r *rand.Rand) []*core {
	var mods []*core
	for _, m := range testModuli(r) {
		mods = append(mods, &NewModulus(fromBig(m)).core)
	}
	for _, m := range testModuli384(r) {
		mods = append(mods, &NewModulus384(fromBig6(m)).core)
	}
	return mods
}

// TestUpdateDE checks updateDE on extreme matrices and extreme d, e: the
// result must be congruent to (u·d + v·e)/2^62 mod M and stay in (−2M, M).
func TestUpdateDE(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	mods := testCores(r)
	two62 := int64(1) << 62
	for _, mod := range mods {
		m := numToBig(&mod.m)
		twoM := new(big.Int).Lsh(m, 1)
		lo := new(big.Int).Neg(twoM)
		lo.Add(lo, big.NewInt(1)) // −2M + 1
		hi := new(big.Int).Sub(m, big.NewInt(1))
		vals := []*big.Int{lo, hi, big.NewInt(0), big.NewInt(-1), new(big.Int).Neg(m)}
		for i := 0; i < 400; i++ {
			var a, b int64
			switch i % 4 {
			case 0:
				a = r.Int63n(two62+1) * (1 - 2*int64(r.Intn(2)))
				b = (two62 - abs64(a)) * (1 - 2*int64(r.Intn(2)))
			case 1:
				a, b = -two62/2, -two62/2
			case 2:
				a, b = two62, 0
			default:
				a, b = r.Int63n(two62)-two62/2, r.Int63n(two62)-two62/2
			}
			q, rr := b, a
			if i%3 == 0 {
				q, rr = -a, -b
			}
			tm := matrix{a, b, q, rr}
			d0 := vals[r.Intn(len(vals))]
			e0 := vals[r.Intn(len(vals))]
			if i%2 == 0 {
				d0 = new(big.Int).Add(new(big.Int).Rand(r, new(big.Int).Sub(new(big.Int).Add(twoM, m), big.NewInt(1))), lo) // [−2M+1, M)
			}
			d, e := bigToNum(d0, mod.n), bigToNum(e0, mod.n)
			updateDE(&d, &e, &tm, mod)
			checkNormalized(t, "d", &d, mod.n)
			checkNormalized(t, "e", &e, mod.n)
			for _, c := range []struct {
				got  *big.Int
				x, y int64
			}{{numToBig(&d), a, b}, {numToBig(&e), q, rr}} {
				if c.got.Cmp(new(big.Int).Neg(twoM)) <= 0 || c.got.Cmp(m) >= 0 {
					t.Fatalf("m=%x: result %x out of (−2M, M)", m, c.got)
				}
				want := new(big.Int).Mul(big.NewInt(c.x), d0)
				want.Add(want, new(big.Int).Mul(big.NewInt(c.y), e0))
				lhs := new(big.Int).Lsh(c.got, limbBits)
				if lhs.Sub(lhs, want).Mod(lhs, m).Sign() != 0 {
					t.Fatalf("m=%x: result not ≡ (u·d+v·e)/2^62", m)
				}
			}
		}
	}
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// TestConstStepsBound guards the iteration count of Div: random and edge
// inputs need far fewer than the proven worst case (about 530 at most), so
// lowering constSteps would not otherwise make a test fail.
func TestConstStepsBound(t *testing.T) {
	if constSteps < 590 {
		t.Fatalf("constSteps = %d, below the 590 half-delta divsteps 256-bit inputs may need", constSteps)
	}
}
