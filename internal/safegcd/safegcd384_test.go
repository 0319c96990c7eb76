package safegcd

import (
	"math/big"
	"math/rand"
	"testing"
)

var (
	orderN384 = mustHex("ffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973")
	primeP384 = mustHex("fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000ffffffff")
)

// testModuli384 are the moduli of the 384-bit differential tests: the two
// P-384 moduli, extremes of the range, moduli whose top radix-2^62 limb is
// tiny or empty, the P-256 moduli (five significant limbs of seven), and
// random odd ones.
func testModuli384(r *rand.Rand) []*big.Int {
	one := big.NewInt(1)
	two384 := new(big.Int).Lsh(one, 384)
	ms := []*big.Int{
		orderN384, primeP384,
		big.NewInt(3), big.NewInt(65537),
		new(big.Int).Sub(two384, one),                      // all ones
		new(big.Int).Sub(two384, big.NewInt(317)),          // largest 384-bit prime
		new(big.Int).Add(new(big.Int).Rsh(two384, 1), one), // 2^383 + 1
		new(big.Int).Add(new(big.Int).Lsh(one, 372), one),  // top limb exactly 1
		new(big.Int).Sub(new(big.Int).Lsh(one, 372), one),  // top limb empty
		orderN, primeP,
	}
	for _, bitsLen := range []int{64, 200, 300, 373, 383, 384, 384, 384} {
		m := new(big.Int).Rand(r, new(big.Int).Lsh(one, uint(bitsLen)))
		m.SetBit(m, 0, 1)
		m.SetBit(m, bitsLen-1, 1)
		ms = append(ms, m)
	}
	return ms
}

func checkDiv384(t *testing.T, mod *Modulus384, m, c, x *big.Int) {
	t.Helper()
	if x.Sign() != 0 && new(big.Int).GCD(nil, nil, x, m).Cmp(big.NewInt(1)) != 0 {
		return // no inverse; the result is unspecified
	}
	want := wantDiv(c, x, m)
	cw, xw := fromBig6(c), fromBig6(x)
	var got [6]uint64
	mod.DivVartime(&got, &cw, &xw)
	if toBig6(got).Cmp(want) != 0 {
		t.Fatalf("DivVartime(%x / %x mod %x) = %x, want %x", c, x, m, toBig6(got), want)
	}
}

// TestDivZero checks the documented result for x = 0: 0, whatever c.
func TestDivZero(t *testing.T) {
	for _, m := range []*big.Int{orderN, primeP} {
		mod := NewModulus(fromBig(m))
		c, x := fromBig(new(big.Int).Sub(m, big.NewInt(1))), [4]uint64{}
		for _, div := range []func(out, c, x *[4]uint64){mod.Div, mod.DivVartime} {
			out := [4]uint64{1, 2, 3, 4}
			div(&out, &c, &x)
			if out != ([4]uint64{}) {
				t.Fatalf("%x: c/0 = %x, want 0", m, out)
			}
		}
	}
	for _, m := range []*big.Int{orderN384, primeP384} {
		mod := NewModulus384(fromBig6(m))
		c, x := fromBig6(new(big.Int).Sub(m, big.NewInt(1))), [6]uint64{}
		out := [6]uint64{1, 2, 3, 4, 5, 6}
		mod.DivVartime(&out, &c, &x)
		if out != ([6]uint64{}) {
			t.Fatalf("%x: c/0 = %x, want 0", m, out)
		}
	}
}

func TestWords6(t *testing.T) {
	r := rand.New(rand.NewSource(14))
	for i := 0; i < 1000; i++ {
		var w [6]uint64
		for j := range w {
			switch r.Intn(3) {
			case 0:
				w[j] = ^uint64(0)
			case 1:
				w[j] = r.Uint64()
			}
		}
		a := fromWords(&w)
		if numToBig(&a).Cmp(toBig6(w)) != 0 {
			t.Fatalf("fromWords(%x) = %x", w, a)
		}
		checkNormalized(t, "fromWords", &a, nLimbs384)
		if toWords(&a) != w {
			t.Fatalf("toWords(fromWords(%x)) = %x", w, toWords(&a))
		}
	}
}

func TestNewModulus384Panics(t *testing.T) {
	checkPanics(t, "NewModulus384", func(m [6]uint64) { NewModulus384(m) },
		[][6]uint64{{0}, {1}, {2}, {4, 1}, {0, 0, 0, 0, 0, 1 << 63}, {1, 0, 0, 0, 0, 0}},
		[][6]uint64{{3}, {1, 0, 0, 0, 0, 1}, {1, 1}})
}

func TestAllocs384(t *testing.T) {
	mod := NewModulus384(fromBig6(orderN384))
	x, c := fromBig6(big.NewInt(12345)), fromBig6(big.NewInt(1))
	var out [6]uint64
	if n := testing.AllocsPerRun(100, func() { mod.DivVartime(&out, &c, &x) }); n != 0 {
		t.Errorf("DivVartime allocates %v times", n)
	}
}

func FuzzDiv384(f *testing.F) { fuzzDiv(f, divSizes[1], orderN384, primeP384) }

func BenchmarkDivVartime384(b *testing.B) {
	r := rand.New(rand.NewSource(6))
	mod := NewModulus384(fromBig6(orderN384))
	x, c := fromBig6(new(big.Int).Rand(r, orderN384)), fromBig6(big.NewInt(1))
	for b.Loop() {
		mod.DivVartime(&x, &c, &x)
	}
}
