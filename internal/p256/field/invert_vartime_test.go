package field

import (
	"math/big"
	"math/rand"
	"testing"
)

var ivPrime, _ = new(big.Int).SetString("ffffffff00000001000000000000000000000000ffffffffffffffffffffffff", 16)

func ivFromBig(t testing.TB, b *big.Int) Element {
	var v [4]uint64
	var w big.Int
	for i := range v {
		v[i] = w.Rsh(b, uint(64*i)).Uint64()
	}
	var e Element
	if _, err := e.SetCanonical(v); err != nil {
		t.Fatalf("SetCanonical(%x): %v", b, err)
	}
	return e
}

func ivToBig(e *Element) *big.Int {
	v := e.Canonical()
	b := new(big.Int)
	for i := 3; i >= 0; i-- {
		b.Lsh(b, 64).Or(b, new(big.Int).SetUint64(v[i]))
	}
	return b
}

// ivEdges returns edge values mod p: small values, p−k (p−1 among them),
// powers of two and their neighbours, and long runs of zero and one bits
// (p itself is made of such runs).
func ivEdges() []*big.Int {
	var vs []*big.Int
	add := func(v *big.Int) { vs = append(vs, new(big.Int).Mod(v, ivPrime)) }
	one := big.NewInt(1)
	for i := int64(0); i < 6; i++ {
		add(big.NewInt(i))
		add(new(big.Int).Sub(ivPrime, big.NewInt(i+1)))
	}
	for k := 1; k <= 256; k++ {
		p := new(big.Int).Lsh(one, uint(k))
		add(p)
		add(new(big.Int).Sub(p, one))
		add(new(big.Int).Sub(ivPrime, p))
	}
	for _, s := range []string{
		"ffffffffffffffffffffffffffffffff00000000000000000000000000000000",
		"00000000000000000000000000000000ffffffffffffffffffffffffffffffff",
		"ffffffff00000000ffffffff00000000ffffffff00000000ffffffff00000000",
		"ffffffff00000000000000000000000000000000000000000000000000000000",
		"00000001000000000000000000000000ffffffffffffffffffffffffffffffff",
		"8000000000000000000000000000000000000000000000000000000000000001",
		"5555555555555555555555555555555555555555555555555555555555555555",
	} {
		v, _ := new(big.Int).SetString(s, 16)
		add(v)
	}
	add(new(big.Int).Rsh(ivPrime, 1))
	add(new(big.Int).Add(new(big.Int).Rsh(ivPrime, 1), one))
	return vs
}

func ivCheck(t testing.TB, x *big.Int) {
	t.Helper()
	want := new(big.Int).ModInverse(x, ivPrime)
	if want == nil {
		want = new(big.Int) // 0 maps to 0
	}
	a := ivFromBig(t, x)
	var e Element
	if got := ivToBig(e.InvertVartime(&a)); got.Cmp(want) != 0 {
		t.Fatalf("InvertVartime(%x) = %x, want %x", x, got, want)
	}
	e = a
	if got := ivToBig(e.InvertVartime(&e)); got.Cmp(want) != 0 {
		t.Fatalf("InvertVartime(%x) aliased = %x, want %x", x, got, want)
	}
}

func TestInvertVartimeEdges(t *testing.T) {
	for _, x := range ivEdges() {
		ivCheck(t, x)
	}
}

func TestInvertVartimeRandom(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	n := 5000
	if testing.Short() {
		n = 500
	}
	for i := 0; i < n; i++ {
		x := new(big.Int).Rand(r, ivPrime)
		if i%4 == 1 {
			x.Rsh(x, uint(r.Intn(256)))
		}
		ivCheck(t, x)
	}
}

func TestInvertVartimeMatchesInvert(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for i := 0; i < 200; i++ {
		a := ivFromBig(t, new(big.Int).Rand(r, ivPrime))
		var x, y, p Element
		x.InvertVartime(&a)
		y.Invert(&a)
		if x != y {
			t.Fatalf("InvertVartime and Invert disagree on %x", a)
		}
		if p.Mul(&a, &x).Equal(new(Element).One()) != 1 {
			t.Fatal("a·a^-1 != 1")
		}
	}
}

func TestInvertVartimeZero(t *testing.T) {
	var z, e Element
	e.One()
	if e.InvertVartime(&z).IsZero() != 1 {
		t.Error("InvertVartime(0) != 0")
	}
}

func TestInvertVartimeAllocs(t *testing.T) {
	a := ivFromBig(t, big.NewInt(987654321))
	var e Element
	if n := testing.AllocsPerRun(100, func() { e.InvertVartime(&a) }); n != 0 {
		t.Errorf("InvertVartime allocates %v times", n)
	}
}

func FuzzInvertVartime(f *testing.F) {
	for _, x := range ivEdges()[:40] {
		f.Add(x.Bytes())
	}
	f.Add(new(big.Int).Sub(ivPrime, big.NewInt(1)).Bytes())
	f.Add(new(big.Int).Lsh(big.NewInt(1), 255).Bytes())
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 32 {
			return
		}
		ivCheck(t, new(big.Int).Mod(new(big.Int).SetBytes(b), ivPrime))
	})
}

func ivBenchElement(b *testing.B) Element {
	return ivFromBig(b, new(big.Int).Rand(rand.New(rand.NewSource(3)), ivPrime))
}

// BenchmarkInvert measures the constant-time Fermat inversion, the baseline.
func BenchmarkInvert(b *testing.B) {
	e := ivBenchElement(b)
	for b.Loop() {
		e.Invert(&e)
	}
}

func BenchmarkInvertVartime(b *testing.B) {
	e := ivBenchElement(b)
	for b.Loop() {
		e.InvertVartime(&e)
	}
}
