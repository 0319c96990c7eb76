package scalar

import (
	"math/big"
	"math/rand"
	"testing"
)

// invertFermat is the previous constant-time inversion, a^(n-2) with a 4-bit
// fixed window, kept as a reference and a benchmark baseline.
func invertFermat(s, a *Scalar) *Scalar {
	e := [4]uint64{n0 - 2, n1, n2, n3}
	var tbl [16]Scalar
	tbl[0] = *a
	for i := 1; i < 16; i++ {
		montMul(&tbl[i], &tbl[i-1], a)
	}
	var r Scalar
	r.One()
	for i := 63; i >= 0; i-- {
		if i != 63 {
			for j := 0; j < 4; j++ {
				montMul(&r, &r, &r)
			}
		}
		if w := (e[i/16] >> (uint(i%16) * 4)) & 0xf; w != 0 {
			montMul(&r, &r, &tbl[w-1])
		}
	}
	*s = r
	return s
}

var invOrder, _ = new(big.Int).SetString("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551", 16)

func invFromBig(t testing.TB, b *big.Int) Scalar {
	var v [4]uint64
	var w big.Int
	for i := range v {
		v[i] = w.Rsh(b, uint(64*i)).Uint64()
	}
	var s Scalar
	if _, err := s.SetCanonical(v); err != nil {
		t.Fatalf("SetCanonical(%x): %v", b, err)
	}
	return s
}

func invToBig(s *Scalar) *big.Int {
	v := s.Canonical()
	b := new(big.Int)
	for i := 3; i >= 0; i-- {
		b.Lsh(b, 64).Or(b, new(big.Int).SetUint64(v[i]))
	}
	return b
}

// invEdges returns edge values mod n: small values, n−k, powers of two and
// their neighbours (2^255 mod n among them), and long runs of zero and one
// bits.
func invEdges() []*big.Int {
	var vs []*big.Int
	add := func(v *big.Int) { vs = append(vs, new(big.Int).Mod(v, invOrder)) }
	one := big.NewInt(1)
	for i := int64(0); i < 6; i++ {
		add(big.NewInt(i))
		add(new(big.Int).Sub(invOrder, big.NewInt(i+1))) // n−1, n−2, ...
	}
	for k := 1; k <= 256; k++ {
		p := new(big.Int).Lsh(one, uint(k)) // includes 2^255 and 2^256 mod n
		add(p)
		add(new(big.Int).Sub(p, one))
		add(new(big.Int).Sub(invOrder, p))
	}
	for _, s := range []string{
		"ffffffffffffffffffffffffffffffff00000000000000000000000000000000",
		"00000000000000000000000000000000ffffffffffffffffffffffffffffffff",
		"ffffffff00000000ffffffff00000000ffffffff00000000ffffffff00000000",
		"8000000000000000000000000000000000000000000000000000000000000001",
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
		"7fffffff80000000000000000000000000000000000000000000000000000000",
	} {
		v, _ := new(big.Int).SetString(s, 16)
		add(v)
	}
	add(new(big.Int).Rsh(invOrder, 1))
	add(new(big.Int).Add(new(big.Int).Rsh(invOrder, 1), one))
	return vs
}

func checkInvert(t testing.TB, x *big.Int) {
	t.Helper()
	want := new(big.Int).ModInverse(x, invOrder)
	if want == nil {
		want = new(big.Int) // 0 maps to 0
	}
	a := invFromBig(t, x)
	for _, f := range []struct {
		name string
		inv  func(s, a *Scalar) *Scalar
	}{
		{"Invert", (*Scalar).Invert},
		{"InvertVartime", (*Scalar).InvertVartime},
	} {
		var s Scalar
		if got := invToBig(f.inv(&s, &a)); got.Cmp(want) != 0 {
			t.Fatalf("%s(%x) = %x, want %x", f.name, x, got, want)
		}
		// Aliased receiver and argument.
		s = a
		if got := invToBig(f.inv(&s, &s)); got.Cmp(want) != 0 {
			t.Fatalf("%s(%x) aliased = %x, want %x", f.name, x, got, want)
		}
	}
}

func TestInvertEdges(t *testing.T) {
	for _, x := range invEdges() {
		checkInvert(t, x)
	}
}

func TestInvertRandom(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	n := 5000
	if testing.Short() {
		n = 500
	}
	for i := 0; i < n; i++ {
		x := new(big.Int).Rand(r, invOrder)
		if i%4 == 1 {
			x.Rsh(x, uint(r.Intn(256))) // small values
		}
		checkInvert(t, x)
	}
}

func TestInvertMatchesFermat(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for i := 0; i < 200; i++ {
		a := invFromBig(t, new(big.Int).Rand(r, invOrder))
		var x, y, z Scalar
		x.Invert(&a)
		y.InvertVartime(&a)
		invertFermat(&z, &a)
		if x != z || y != z {
			t.Fatalf("Invert/InvertVartime/Fermat disagree on %x", a)
		}
		// a · a^-1 = 1 in Montgomery arithmetic.
		var p Scalar
		if p.Mul(&a, &x).Equal(new(Scalar).One()) != 1 {
			t.Fatal("a·a^-1 != 1")
		}
	}
}

func TestInvertZero(t *testing.T) {
	var z, s Scalar
	s.One()
	if s.Invert(&z).IsZero() != 1 {
		t.Error("Invert(0) != 0")
	}
	s.One()
	if s.InvertVartime(&z).IsZero() != 1 {
		t.Error("InvertVartime(0) != 0")
	}
}

func TestInvertAllocs(t *testing.T) {
	a := invFromBig(t, big.NewInt(987654321))
	var s Scalar
	if n := testing.AllocsPerRun(100, func() { s.Invert(&a) }); n != 0 {
		t.Errorf("Invert allocates %v times", n)
	}
	if n := testing.AllocsPerRun(100, func() { s.InvertVartime(&a) }); n != 0 {
		t.Errorf("InvertVartime allocates %v times", n)
	}
}

func fuzzSeeds(f *testing.F) {
	for _, x := range invEdges()[:40] {
		f.Add(x.Bytes())
	}
	f.Add(new(big.Int).Lsh(big.NewInt(1), 255).Bytes())
	f.Add(new(big.Int).Sub(invOrder, big.NewInt(2)).Bytes())
}

func fuzzInput(b []byte) (*big.Int, bool) {
	if len(b) > 32 {
		return nil, false
	}
	return new(big.Int).Mod(new(big.Int).SetBytes(b), invOrder), true
}

func FuzzInvert(f *testing.F) { fuzzInverse(f, "Invert", (*Scalar).Invert) }

func FuzzInvertVartime(f *testing.F) { fuzzInverse(f, "InvertVartime", (*Scalar).InvertVartime) }

// fuzzInverse checks inv (named name) against math/big's ModInverse, with 0
// mapping to 0, on fuzzed values below n.
func fuzzInverse(f *testing.F, name string, inv func(s, a *Scalar) *Scalar) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		x, ok := fuzzInput(b)
		if !ok {
			return
		}
		want := new(big.Int).ModInverse(x, invOrder)
		if want == nil {
			want = new(big.Int)
		}
		a := invFromBig(t, x)
		if got := invToBig(inv(new(Scalar), &a)); got.Cmp(want) != 0 {
			t.Fatalf("%s(%x) = %x, want %x", name, x, got, want)
		}
	})
}

func benchScalar(b *testing.B) Scalar {
	return invFromBig(b, new(big.Int).Rand(rand.New(rand.NewSource(3)), invOrder))
}

func BenchmarkInvert(b *testing.B) {
	s := benchScalar(b)
	for b.Loop() {
		s.Invert(&s)
	}
}

func BenchmarkInvertVartime(b *testing.B) {
	s := benchScalar(b)
	for b.Loop() {
		s.InvertVartime(&s)
	}
}

func BenchmarkInvertFermat(b *testing.B) {
	s := benchScalar(b)
	for b.Loop() {
		invertFermat(&s, &s)
	}
}
