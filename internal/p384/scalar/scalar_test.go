package scalar

import (
	"crypto/elliptic"
	"errors"
	"math/big"
	"math/rand/v2"
	"testing"
)

var (
	tN    = elliptic.P384().Params().N
	tR    = new(big.Int).Lsh(big.NewInt(1), 384)
	tRInv = new(big.Int).ModInverse(tR, tN)
)

func tBig(l [6]uint64) *big.Int {
	v := new(big.Int)
	for i := 5; i >= 0; i-- {
		v.Lsh(v, 64).Or(v, new(big.Int).SetUint64(l[i]))
	}
	return v
}

func tLimbs(x *big.Int) [6]uint64 {
	var l [6]uint64
	w := new(big.Int).Set(x)
	m := new(big.Int).SetUint64(^uint64(0))
	for i := range l {
		l[i] = new(big.Int).And(w, m).Uint64()
		w.Rsh(w, 64)
	}
	return l
}

func tMod(x *big.Int) *big.Int { return new(big.Int).Mod(x, tN) }

func tMont(x *big.Int) Scalar { return Scalar(tLimbs(tMod(new(big.Int).Mul(x, tR)))) }

func tValue(s *Scalar) *big.Int { return tMod(new(big.Int).Mul(tBig(*s), tRInv)) }

// tEdges returns edge values (as values, not limbs): small, just below n,
// powers of two and neighbours, all-ones limbs, limb patterns of n.
func tEdges() []*big.Int {
	var out []*big.Int
	add := func(x *big.Int) {
		if x.Sign() >= 0 && x.Cmp(tN) < 0 {
			out = append(out, x)
		}
	}
	for k := int64(0); k < 5; k++ {
		add(big.NewInt(k))
		add(new(big.Int).Sub(tN, big.NewInt(k+1)))
	}
	for _, k := range []uint{63, 64, 127, 128, 189, 190, 191, 192, 255, 256, 320, 383} {
		pw := new(big.Int).Lsh(big.NewInt(1), k)
		add(pw)
		add(new(big.Int).Sub(pw, big.NewInt(1)))
		add(new(big.Int).Sub(tN, pw))
	}
	add(tMod(tR))
	add(tMod(new(big.Int).Mul(tR, tR)))
	add(tRInv)
	all := ^uint64(0)
	for _, v := range [][6]uint64{{all, all, all, all, all, 0}, {all, all, 0, all, all, all >> 1},
		{all, 0, all, 0, all, 0x7fffffffffffffff}, {0, 0, all, all, all, all - 1}} {
		add(tBig(v))
	}
	// Limbs of Montgomery representations full of ones: values whose
	// limbs (x·R mod n) are the patterns.
	for _, v := range [][6]uint64{{all, all, all, all, all, all >> 1}, {all, all, 0xc7634d81f4372dde, all, all, all}} {
		add(tMod(new(big.Int).Mul(tBig(v), tRInv)))
	}
	return out
}

func tRandom(r *rand.Rand) *big.Int {
	var b [48]byte
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	if r.IntN(3) == 0 {
		for i := 0; i < 24; i++ {
			b[r.IntN(48)] = 0xff
		}
	}
	return tMod(new(big.Int).SetBytes(b[:]))
}

func tCases(n int) []*big.Int {
	r := rand.New(rand.NewChaCha8([32]byte{'s', 'c'}))
	c := tEdges()
	for i := 0; i < n; i++ {
		c = append(c, tRandom(r))
	}
	return c
}

func TestConstants(t *testing.T) {
	if tBig(N).Cmp(tN) != 0 {
		t.Fatal("N")
	}
	if rr != Scalar(tLimbs(tMod(new(big.Int).Mul(tR, tR)))) {
		t.Fatal("rr")
	}
	if one != Scalar(tLimbs(tMod(tR))) {
		t.Fatal("one")
	}
	w := new(big.Int).Lsh(big.NewInt(1), 64)
	k := new(big.Int).Sub(w, new(big.Int).ModInverse(tN, w))
	if k.Uint64() != n0inv {
		t.Fatalf("n0inv = %#x, want %#x", uint64(n0inv), k)
	}
}

func TestArithmetic(t *testing.T) {
	n := 60
	if testing.Short() {
		n = 20
	}
	cases := tCases(n)
	for _, x := range cases {
		for _, y := range cases {
			a, b := tMont(x), tMont(y)
			for _, c := range []struct {
				name string
				op   func(z, a, b *Scalar) *Scalar
				want *big.Int
			}{
				{"Mul", (*Scalar).Mul, tMod(new(big.Int).Mul(x, y))},
				{"Add", (*Scalar).Add, tMod(new(big.Int).Add(x, y))},
				{"Sub", (*Scalar).Sub, tMod(new(big.Int).Sub(x, y))},
			} {
				want := tMont(c.want)
				var z Scalar
				if c.op(&z, &a, &b); z != want {
					t.Fatalf("%s(%x, %x) = %x, want %x", c.name, x, y, tValue(&z), c.want)
				}
				z = a
				if c.op(&z, &z, &b); z != want {
					t.Fatalf("%s(z=a) wrong", c.name)
				}
				z = b
				if c.op(&z, &a, &z); z != want {
					t.Fatalf("%s(z=b) wrong", c.name)
				}
			}
		}
		a := tMont(x)
		var z Scalar
		if z.Square(&a); z != tMont(new(big.Int).Mul(x, x)) {
			t.Fatalf("Square(%x) wrong", x)
		}
		z = a
		if z.Square(&z); z != tMont(new(big.Int).Mul(x, x)) {
			t.Fatalf("Square(z=a, %x) wrong", x)
		}
		if z.Neg(&a); z != tMont(tMod(new(big.Int).Neg(x))) {
			t.Fatalf("Neg(%x) wrong", x)
		}
		want := Scalar{}
		if x.Sign() != 0 {
			want = tMont(new(big.Int).ModInverse(x, tN))
		}
		if z.InvertVartime(&a); z != want {
			t.Fatalf("InvertVartime(%x) = %x", x, tValue(&z))
		}
		z = a
		if z.InvertVartime(&z); z != want {
			t.Fatalf("InvertVartime(z=a, %x) wrong", x)
		}
		if a.Equal(&a) != 1 || a.IsZero() != int(1-x.Sign()) {
			t.Fatalf("Equal/IsZero(%x)", x)
		}
	}
}

// TestIsZeroEachLimb checks that IsZero reads every limb: a scalar with
// one bit set anywhere is not zero.
func TestIsZeroEachLimb(t *testing.T) {
	for l := 0; l < 6; l++ {
		for _, bit := range []uint{0, 31, 63} {
			var z Scalar
			z[l] = 1 << bit
			if z.IsZero() != 0 {
				t.Fatalf("IsZero ignores bit %d of limb %d", bit, l)
			}
		}
	}
	if (&Scalar{}).IsZero() != 1 {
		t.Fatal("IsZero(0) != 1")
	}
}

// TestMulRawLimbs multiplies limb patterns (not only Montgomery forms of
// edge values) to reach every carry of the reduction.
func TestMulRawLimbs(t *testing.T) {
	r := rand.New(rand.NewChaCha8([32]byte{'r', 'l'}))
	pats := []uint64{0, 1, ^uint64(0), ^uint64(0) - 1, 1 << 63, 0xc7634d81f4372ddf, 0xecec196accc52973}
	for i := 0; i < 20000; i++ {
		var a, b [6]uint64
		for j := range a {
			a[j], b[j] = pats[r.IntN(len(pats))], pats[r.IntN(len(pats))]
			if r.IntN(4) == 0 {
				a[j] = r.Uint64()
			}
		}
		if tBig(a).Cmp(tN) >= 0 || tBig(b).Cmp(tN) >= 0 {
			continue
		}
		want := Scalar(tLimbs(tMod(new(big.Int).Mul(new(big.Int).Mul(tBig(a), tBig(b)), tRInv))))
		x, y := Scalar(a), Scalar(b)
		var z Scalar
		if z.Mul(&x, &y); z != want {
			t.Fatalf("Mul(%#x, %#x) = %#x, want %#x", a, b, z, want)
		}
	}
}

func TestBytes(t *testing.T) {
	for _, x := range tCases(100) {
		b := x.FillBytes(make([]byte, 48))
		var s Scalar
		got, err := s.SetBytes(b)
		if err != nil || got != &s || s != tMont(x) {
			t.Fatalf("SetBytes(%x) = %v, %v", b, got, err)
		}
		if out := s.Bytes(); string(out[:]) != string(b) {
			t.Fatalf("Bytes() = %x, want %x", out, b)
		}
	}
	sentinel := Scalar{1, 2, 3, 4, 5, 6}
	for _, x := range []*big.Int{tN, new(big.Int).Add(tN, big.NewInt(1)), new(big.Int).Sub(tR, big.NewInt(1))} {
		s := sentinel
		got, err := s.SetBytes(x.FillBytes(make([]byte, 48)))
		if !errors.Is(err, ErrRange) || got != nil || s != sentinel {
			t.Fatalf("SetBytes(%x) = %v, %v", x, got, err)
		}
	}
	// ≥ n decided in each of the low limbs.
	for l := 0; l < 3; l++ {
		v := N
		v[l]++
		s := sentinel
		if got, err := s.SetBytes(tBig(v).FillBytes(make([]byte, 48))); !errors.Is(err, ErrRange) || got != nil || s != sentinel {
			t.Fatalf("SetBytes(n + 2^%d) = %v, %v", 64*l, got, err)
		}
	}
	for _, n := range []int{0, 32, 47, 49, 66} {
		s := sentinel
		if got, err := s.SetBytes(make([]byte, n)); !errors.Is(err, ErrLength) || got != nil || s != sentinel {
			t.Fatalf("SetBytes(%d bytes) = %v, %v", n, got, err)
		}
	}
}

// bits2int is FIPS 186-5's: the leftmost min(8·len, 384) bits, mod n.
func bits2int(d []byte) *big.Int {
	v := new(big.Int).SetBytes(d)
	if excess := 8*len(d) - 384; excess > 0 {
		v.Rsh(v, uint(excess))
	}
	return tMod(v)
}

func TestSetDigest(t *testing.T) {
	r := rand.New(rand.NewChaCha8([32]byte{'d', 'g'}))
	var digests [][]byte
	for _, n := range []int{0, 1, 20, 28, 32, 47, 48, 49, 64, 66} {
		for _, fill := range []int{0x00, 0xff, -1} {
			d := make([]byte, n)
			for i := range d {
				if fill < 0 {
					d[i] = byte(r.Uint32())
				} else {
					d[i] = byte(fill)
				}
			}
			digests = append(digests, d)
		}
	}
	// Values at and around n, with trailing bytes that must be dropped.
	for _, x := range []*big.Int{tN, new(big.Int).Sub(tN, big.NewInt(1)), new(big.Int).Add(tN, big.NewInt(1))} {
		d := x.FillBytes(make([]byte, 48))
		digests = append(digests, d, append(append([]byte{}, d...), 0xff, 0x01))
	}
	for _, d := range digests {
		var s Scalar
		if s.SetDigest(d); s != tMont(bits2int(d)) {
			t.Fatalf("SetDigest(%x) = %x, want %x", d, tValue(&s), bits2int(d))
		}
	}
}

func TestAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	a, b := tMont(big.NewInt(12345)), tMont(tRInv)
	var z Scalar
	d := make([]byte, 64)
	for name, f := range map[string]func(){
		"Mul":           func() { z.Mul(&a, &b) },
		"Square":        func() { z.Square(&a) },
		"Add":           func() { z.Add(&a, &b) },
		"Sub":           func() { z.Sub(&a, &b) },
		"InvertVartime": func() { z.InvertVartime(&a) },
		"SetDigest":     func() { z.SetDigest(d) },
		"Bytes":         func() { _ = z.Bytes() },
	} {
		if n := testing.AllocsPerRun(100, f); n != 0 {
			t.Errorf("%s: %v allocations", name, n)
		}
	}
}

func BenchmarkMul(b *testing.B) {
	x, y := tMont(tRInv), tMont(big.NewInt(3))
	for b.Loop() {
		x.Mul(&x, &y)
	}
}

func BenchmarkInvertVartime(b *testing.B) {
	x := tMont(tRInv)
	for b.Loop() {
		x.InvertVartime(&x)
	}
}

// BenchmarkInvertVartimeRandom inverts random scalars, as verification
// does (the fixed input above, R⁻¹ and its inverse, is unusually cheap for
// some algorithms).
func BenchmarkInvertVartimeRandom(b *testing.B) {
	r := rand.New(rand.NewChaCha8([32]byte{'i', 'v'}))
	var xs [64]Scalar
	for i := range xs {
		xs[i] = tMont(tRandom(r))
	}
	var z Scalar
	i := 0
	for b.Loop() {
		z.InvertVartime(&xs[i&63])
		i++
	}
}

// TestCanonical checks SetCanonical and Canonical against math/big on the
// edges (0, 1, n − 1, n, n + 1, 2^384 − 1) and random values, and that a
// refused value leaves the receiver unchanged.
func TestCanonical(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	one := big.NewInt(1)
	max := new(big.Int).Sub(new(big.Int).Lsh(one, 384), one)
	vals := []*big.Int{big.NewInt(0), one, new(big.Int).Sub(tN, one), tN, new(big.Int).Add(tN, one), max}
	for i := 0; i < 200; i++ {
		var l [6]uint64
		for j := range l {
			l[j] = r.Uint64()
		}
		vals = append(vals, tBig(l))
	}
	for _, v := range vals {
		var s Scalar
		s[0] = 7
		got, err := s.SetCanonical(tLimbs(v))
		if v.Cmp(tN) >= 0 {
			if err != ErrRange || got != nil || s != (Scalar{7}) {
				t.Fatalf("SetCanonical(%x): %v, %v, receiver %x", v, got, err, s)
			}
			continue
		}
		if err != nil || got != &s || tValue(&s).Cmp(v) != 0 {
			t.Fatalf("SetCanonical(%x) = %x, %v", v, tValue(&s), err)
		}
		if c := s.Canonical(); c != tLimbs(v) {
			t.Fatalf("Canonical of %x = %x", v, c)
		}
	}
}
