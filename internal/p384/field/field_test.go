package field

// Differential tests of the P-384 field against math/big. Expected results
// are computed in math/big on the Montgomery limbs, independently of the
// code under test, and compared limb for limb, so a wrong value and an
// unreduced representation of the right value both fail.

import (
	"bytes"
	"errors"
	"math/big"
	"math/rand/v2"
	"testing"
)

var (
	tP    = tHex("fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000ffffffff")
	tR    = new(big.Int).Lsh(big.NewInt(1), 384)
	tRInv = new(big.Int).ModInverse(tR, tP)
	tInv2 = new(big.Int).ModInverse(big.NewInt(2), tP)
	// tSqrtExp is (p+1)/4, the exponent Sqrt is documented to use.
	tSqrtExp = new(big.Int).Rsh(new(big.Int).Add(tP, big.NewInt(1)), 2)
)

func tHex(s string) *big.Int {
	v, ok := new(big.Int).SetString(s, 16)
	if !ok {
		panic("bad hex " + s)
	}
	return v
}

// tBig returns the integer with little-endian limbs l.
func tBig(l [6]uint64) *big.Int {
	v := new(big.Int)
	for i := 5; i >= 0; i-- {
		v.Lsh(v, 64).Or(v, new(big.Int).SetUint64(l[i]))
	}
	return v
}

// tLimbs returns the limbs of 0 ≤ x < 2^384.
func tLimbs(x *big.Int) [6]uint64 {
	if x.Sign() < 0 || x.BitLen() > 384 {
		panic("tLimbs: out of range")
	}
	var l [6]uint64
	w := new(big.Int).Set(x)
	m := new(big.Int).SetUint64(^uint64(0))
	for i := range l {
		l[i] = new(big.Int).And(w, m).Uint64()
		w.Rsh(w, 64)
	}
	return l
}

func tMod(x *big.Int) *big.Int { return new(big.Int).Mod(x, tP) }

// tRaw returns the Element whose Montgomery limbs are x mod p.
func tRaw(x *big.Int) Element { return Element(tLimbs(tMod(x))) }

// tMont returns the Element of value x: limbs x·R mod p.
func tMont(x *big.Int) Element { return tRaw(new(big.Int).Mul(x, tR)) }

// tValue returns the value of e (limbs·R⁻¹ mod p).
func tValue(e *Element) *big.Int { return tMod(new(big.Int).Mul(tBig(*e), tRInv)) }

// tEdgeInts returns edge integers below p, used as raw limbs: small values,
// values just below p, powers of two and their neighbours, R and R² mod p,
// limbs of all ones and limb patterns around p's.
func tEdgeInts() []*big.Int {
	var out []*big.Int
	add := func(x *big.Int) {
		if x.Sign() >= 0 && x.Cmp(tP) < 0 {
			out = append(out, x)
		}
	}
	for k := int64(0); k < 6; k++ {
		add(big.NewInt(k))
		add(new(big.Int).Sub(tP, big.NewInt(k+1)))
	}
	for _, k := range []uint{32, 63, 64, 95, 96, 127, 128, 129, 191, 192, 255, 256, 319, 320, 383} {
		pw := new(big.Int).Lsh(big.NewInt(1), k)
		add(pw)
		add(new(big.Int).Sub(pw, big.NewInt(1)))
		add(new(big.Int).Sub(tP, pw))
	}
	add(tMod(tR))
	add(tMod(new(big.Int).Mul(tR, tR)))
	add(new(big.Int).Sub(tP, tMod(tR)))
	add(tRInv)
	add(new(big.Int).Rsh(tP, 1))
	pats := []uint64{0, 1, ^uint64(0), ^uint64(0) - 1, 1 << 63, 1<<32 - 1, 1 << 32,
		0xffffffff00000000, 0xffffffff00000001, 0xfffffffeffffffff}
	for i, a := range pats {
		for j, b := range pats {
			v := [6]uint64{a, b, ^uint64(0), pats[(i+j)%len(pats)], ^uint64(0), ^uint64(0)}
			add(tBig(v))
			v = [6]uint64{^uint64(0), a, b, ^uint64(0), pats[(i*j)%len(pats)], 0xfffffffffffffffe}
			add(tBig(v))
		}
	}
	return out
}

func tEdges() []Element {
	var out []Element
	for _, x := range tEdgeInts() {
		out = append(out, tRaw(x))
	}
	return out
}

// tRandom returns a uniformly random element or, one time in two, one
// whose limbs are drawn from carry-heavy patterns.
func tRandom(r *rand.Rand) Element {
	pats := []uint64{0, 1, ^uint64(0), ^uint64(0) - 1, 1 << 63, 1<<32 - 1, 1 << 32,
		0xffffffff00000000, 0xffffffff00000001}
	pattern := r.IntN(2) == 0
	for {
		var v [6]uint64
		for i := range v {
			if pattern && r.IntN(4) != 0 {
				v[i] = pats[r.IntN(len(pats))]
			} else {
				v[i] = r.Uint64()
			}
		}
		if tBig(v).Cmp(tP) < 0 {
			return Element(v)
		}
	}
}

// tBinary is a binary operation and its math/big expectation on limbs.
type tBinary struct {
	name string
	op   func(z, a, b *Element) *Element
	want func(a, b *big.Int) *big.Int // on raw limbs, result limbs
}

func tBinaries() []tBinary {
	return []tBinary{
		{"Mul", (*Element).Mul, func(a, b *big.Int) *big.Int {
			return tMod(new(big.Int).Mul(new(big.Int).Mul(a, b), tRInv))
		}},
		{"Add", (*Element).Add, func(a, b *big.Int) *big.Int { return tMod(new(big.Int).Add(a, b)) }},
		{"Sub", (*Element).Sub, func(a, b *big.Int) *big.Int { return tMod(new(big.Int).Sub(a, b)) }},
	}
}

type tUnary struct {
	name string
	op   func(z, a *Element) *Element
	want func(a *big.Int) *big.Int
}

func tUnaries() []tUnary {
	mont := func(f func(x *big.Int) *big.Int) func(a *big.Int) *big.Int {
		// a is limbs; apply f to the value and return the result's limbs.
		return func(a *big.Int) *big.Int {
			x := tMod(new(big.Int).Mul(a, tRInv))
			return tMod(new(big.Int).Mul(f(x), tR))
		}
	}
	inv := mont(func(x *big.Int) *big.Int {
		if x.Sign() == 0 {
			return x
		}
		return new(big.Int).ModInverse(x, tP)
	})
	return []tUnary{
		{"Square", (*Element).Square, mont(func(x *big.Int) *big.Int { return new(big.Int).Mul(x, x) })},
		{"SquareN5", func(z, a *Element) *Element { return z.SquareN(a, 5) },
			mont(func(x *big.Int) *big.Int { return new(big.Int).Exp(x, big.NewInt(32), tP) })},
		{"Neg", (*Element).Neg, func(a *big.Int) *big.Int { return tMod(new(big.Int).Neg(a)) }},
		{"Double", (*Element).Double, func(a *big.Int) *big.Int { return tMod(new(big.Int).Lsh(a, 1)) }},
		{"Half", (*Element).Half, func(a *big.Int) *big.Int { return tMod(new(big.Int).Mul(a, tInv2)) }},
		{"Invert", (*Element).Invert, inv},
		{"InvertVartime", (*Element).InvertVartime, inv},
	}
}

// tCheckBinary checks c on a, b and on every aliasing of the receiver.
func tCheckBinary(t testing.TB, c tBinary, a, b Element) {
	t.Helper()
	want := Element(tLimbs(c.want(tBig(a), tBig(b))))
	var z Element
	if got := *c.op(&z, &a, &b); got != want {
		t.Fatalf("%s(%#x, %#x) = %#x, want %#x", c.name, a, b, got, want)
	}
	z = a
	if c.op(&z, &z, &b); z != want {
		t.Fatalf("%s(z=a) = %#x, want %#x", c.name, z, want)
	}
	z = b
	if c.op(&z, &a, &z); z != want {
		t.Fatalf("%s(z=b) = %#x, want %#x", c.name, z, want)
	}
	wantSelf := Element(tLimbs(c.want(tBig(a), tBig(a))))
	z = a
	if c.op(&z, &z, &z); z != wantSelf {
		t.Fatalf("%s(z=a=b, %#x) = %#x, want %#x", c.name, a, z, wantSelf)
	}
}

func tCheckUnary(t testing.TB, c tUnary, a Element) {
	t.Helper()
	want := Element(tLimbs(c.want(tBig(a))))
	var z Element
	if got := *c.op(&z, &a); got != want {
		t.Fatalf("%s(%#x) = %#x, want %#x", c.name, a, got, want)
	}
	z = a
	if c.op(&z, &z); z != want {
		t.Fatalf("%s(z=a, %#x) = %#x, want %#x", c.name, a, z, want)
	}
}

func TestConstants(t *testing.T) {
	if tBig(prime).Cmp(tP) != 0 {
		t.Fatalf("p limbs %#x", prime)
	}
	if want := tRaw(new(big.Int).Mul(tR, tR)); rr != want {
		t.Fatalf("rr = %#x, want %#x", rr, want)
	}
	if want := tRaw(tR); one != want {
		t.Fatalf("one = %#x, want %#x", one, want)
	}
	// −p⁻¹ mod 2^64 is 2^32 + 1, the quotient digit redc uses.
	w := new(big.Int).Lsh(big.NewInt(1), 64)
	k := new(big.Int).ModInverse(tP, w)
	k.Sub(w, k)
	if k.Uint64() != 1<<32+1 {
		t.Fatalf("-p^-1 mod 2^64 = %#x", k)
	}
	// The exponent comments of Invert and Sqrt.
	if tP.ProbablyPrime(20) != true || tP.Bit(0) != 1 || tP.Bit(1) != 1 {
		t.Fatal("p is not a prime ≡ 3 mod 4")
	}
}

func TestBinaryEdges(t *testing.T) {
	edges := tEdges()
	t.Logf("%d edge values", len(edges))
	for _, c := range tBinaries() {
		for _, a := range edges {
			for _, b := range edges {
				tCheckBinary(t, c, a, b)
			}
		}
	}
}

func TestUnaryEdges(t *testing.T) {
	for _, c := range tUnaries() {
		for _, a := range tEdges() {
			tCheckUnary(t, c, a)
		}
	}
}

func TestRandom(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 300
	}
	r := rand.New(rand.NewChaCha8([32]byte{'p', '3', '8', '4'}))
	for i := 0; i < n; i++ {
		a, b := tRandom(r), tRandom(r)
		for _, c := range tBinaries() {
			tCheckBinary(t, c, a, b)
		}
		for _, c := range tUnaries() {
			if (c.name == "Invert" || c.name == "InvertVartime") && i%10 != 0 {
				continue
			}
			tCheckUnary(t, c, a)
		}
	}
}

func TestSqrt(t *testing.T) {
	r := rand.New(rand.NewChaCha8([32]byte{'s', 'q'}))
	cases := tEdges()
	for i := 0; i < 200; i++ {
		cases = append(cases, tRandom(r))
	}
	for _, a := range cases {
		x := tValue(&a)
		isSquare := big.Jacobi(x, tP) >= 0
		root := new(big.Int).Exp(x, tSqrtExp, tP)
		sentinel := Element{1, 2, 3, 4, 5, 6}
		z := sentinel
		_, ok := z.Sqrt(&a)
		if ok != 0 != isSquare {
			t.Fatalf("Sqrt(%x) ok = %d, want square=%v", x, ok, isSquare)
		}
		if ok == 1 && z != tMont(root) {
			t.Fatalf("Sqrt(%x) = %x, want %x", x, tValue(&z), root)
		}
		if ok == 0 && z != sentinel {
			t.Fatalf("Sqrt(%x) of a non-square changed the receiver", x)
		}
		// Aliased.
		z = a
		if _, ok2 := z.Sqrt(&z); ok2 != ok || (ok == 1 && z != tMont(root)) || (ok == 0 && z != a) {
			t.Fatalf("Sqrt(z=a, %x) = %x, %d", x, tValue(&z), ok2)
		}
	}
}

func TestEqualIsZeroSelect(t *testing.T) {
	r := rand.New(rand.NewChaCha8([32]byte{'e', 'q'}))
	for i := 0; i < 100; i++ {
		a, b := tRandom(r), tRandom(r)
		if a.Equal(&a) != 1 || (a != b && a.Equal(&b) != 0) {
			t.Fatalf("Equal(%#x, %#x)", a, b)
		}
		for l := 0; l < 6; l++ {
			for _, bit := range []uint{0, 31, 32, 63} {
				c := a
				c[l] ^= 1 << bit
				if a.Equal(&c) != 0 {
					t.Fatalf("Equal ignores bit %d of limb %d", bit, l)
				}
				z := Element{}
				z[l] = 1 << bit
				if z.IsZero() != 0 {
					t.Fatalf("IsZero ignores bit %d of limb %d", bit, l)
				}
			}
		}
		var z Element
		if z.IsZero() != 1 {
			t.Fatal("IsZero(0) != 1")
		}
		if z.Select(&a, &b, 1); z != a {
			t.Fatal("Select(a, b, 1) != a")
		}
		if z.Select(&a, &b, 0); z != b {
			t.Fatal("Select(a, b, 0) != b")
		}
		z = a
		if z.Select(&z, &b, 0); z != b {
			t.Fatal("Select(z=a, b, 0) != b")
		}
	}
	var o Element
	if o.One(); tValue(&o).Cmp(big.NewInt(1)) != 0 {
		t.Fatal("One is not 1")
	}
}

func TestBytes(t *testing.T) {
	r := rand.New(rand.NewChaCha8([32]byte{'b', 'y'}))
	ints := tEdgeInts()
	for i := 0; i < 100; i++ {
		e := tRandom(r)
		ints = append(ints, tBig(e))
	}
	for _, x := range ints {
		var b [48]byte
		x.FillBytes(b[:])
		var e Element
		got, err := e.SetBytes(b[:])
		if err != nil || got != &e {
			t.Fatalf("SetBytes(%x) = %v, %v", x, got, err)
		}
		if e != tMont(x) {
			t.Fatalf("SetBytes(%x) = %#x, want %#x", x, e, tMont(x))
		}
		if out := e.Bytes(); out != b {
			t.Fatalf("Bytes() = %x, want %x", out, b)
		}
		var pb [48]byte
		if e.PutBytes(&pb); pb != b {
			t.Fatalf("PutBytes() = %x, want %x", pb, b)
		}
		c := e.Canonical()
		if tBig(c).Cmp(x) != 0 {
			t.Fatalf("Canonical() = %#x, want %#x", c, x)
		}
		var f Element
		if got, err := f.SetCanonical(c); err != nil || got != &f || f != e {
			t.Fatalf("SetCanonical(%#x) = %v, %v; want %#x", c, got, err, e)
		}
	}
}

// TestSetCanonicalRejects checks that values ≥ p, decided in each limb, are
// refused with nil and ErrRange and leave the receiver unchanged, and that
// p − 1 is accepted.
func TestSetCanonicalRejects(t *testing.T) {
	bad := [][6]uint64{prime, tLimbs(new(big.Int).Add(tP, big.NewInt(1))), {^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}}
	for l := 0; l < 6; l++ {
		v := prime
		if v[l]++; v[l] != 0 {
			bad = append(bad, v)
		}
	}
	sentinel := Element{1, 2, 3, 4, 5, 6}
	for _, v := range bad {
		e := sentinel
		if got, err := e.SetCanonical(v); !errors.Is(err, ErrRange) || got != nil || e != sentinel {
			t.Fatalf("SetCanonical(%#x) = %v, %v; receiver %#x", v, got, err, e)
		}
	}
	pm1 := tLimbs(new(big.Int).Sub(tP, big.NewInt(1)))
	var e Element
	if _, err := e.SetCanonical(pm1); err != nil || e != tMont(tBig(pm1)) || e.Canonical() != pm1 {
		t.Fatalf("SetCanonical(p−1) = %#x, %v", e, err)
	}
}

func TestSetBytesRejects(t *testing.T) {
	var bad [][]byte
	for _, x := range []*big.Int{tP, new(big.Int).Add(tP, big.NewInt(1)), new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 384), big.NewInt(1))} {
		b := make([]byte, 48)
		x.FillBytes(b)
		bad = append(bad, b)
	}
	// ≥ p decided in each limb: p with one more in limb l (where that stays
	// below 2^384), and all-ones limbs above p's.
	for l := 0; l < 6; l++ {
		v := prime
		v[l]++
		if v[l] != 0 {
			b := make([]byte, 48)
			tBig(v).FillBytes(b)
			bad = append(bad, b)
		}
	}
	sentinel := Element{1, 2, 3, 4, 5, 6}
	for _, b := range bad {
		e := sentinel
		got, err := e.SetBytes(b)
		if !errors.Is(err, ErrRange) || got != nil || e != sentinel {
			t.Fatalf("SetBytes(%x) = %v, %v; receiver %#x", b, got, err, e)
		}
	}
	for _, n := range []int{0, 1, 47, 49, 96} {
		e := sentinel
		got, err := e.SetBytes(make([]byte, n))
		if !errors.Is(err, ErrLength) || got != nil || e != sentinel {
			t.Fatalf("SetBytes(%d bytes) = %v, %v", n, got, err)
		}
	}
	// p − 1 is accepted.
	b := make([]byte, 48)
	new(big.Int).Sub(tP, big.NewInt(1)).FillBytes(b)
	var e Element
	if _, err := e.SetBytes(b); err != nil {
		t.Fatalf("SetBytes(p-1): %v", err)
	}
	if out := e.Bytes(); !bytes.Equal(out[:], b) {
		t.Fatal("p-1 does not round-trip")
	}
}

func TestAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	r := rand.New(rand.NewChaCha8([32]byte{'a'}))
	a, b := tRandom(r), tRandom(r)
	var z Element
	var buf [48]byte
	var c [6]uint64
	for name, f := range map[string]func(){
		"Mul":           func() { z.Mul(&a, &b) },
		"Square":        func() { z.Square(&a) },
		"Add":           func() { z.Add(&a, &b) },
		"Sub":           func() { z.Sub(&a, &b) },
		"Half":          func() { z.Half(&a) },
		"Invert":        func() { z.Invert(&a) },
		"InvertVartime": func() { z.InvertVartime(&a) },
		"Sqrt":          func() { z.Sqrt(&a) },
		"Bytes":         func() { buf = z.Bytes() },
		"SetBytes":      func() { z.SetBytes(buf[:]) },
		"PutBytes":      func() { z.PutBytes(&buf) },
		"Canonical":     func() { c = z.Canonical() },
		"SetCanonical":  func() { z.SetCanonical(c) },
	} {
		if n := testing.AllocsPerRun(100, f); n != 0 {
			t.Errorf("%s: %v allocations", name, n)
		}
	}
}
