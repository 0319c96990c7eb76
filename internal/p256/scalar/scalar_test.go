package scalar

// Differential tests of the scalar arithmetic against math/big. Helpers carry
// an "st" prefix so that they cannot collide with other test files of the
// package. Expected results are turned into Montgomery limbs by math/big
// (stMont), independently of the code under test, and compared limb for limb.

import (
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"
)

var (
	stN    = stHex("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")
	stR    = new(big.Int).Lsh(big.NewInt(1), 256)
	stRInv = new(big.Int).ModInverse(stR, stN)
)

func stHex(s string) *big.Int {
	v, ok := new(big.Int).SetString(s, 16)
	if !ok {
		panic("bad hex " + s)
	}
	return v
}

func stPow2(k uint) *big.Int { return new(big.Int).Lsh(big.NewInt(1), k) }

func stLimbs(x *big.Int) [4]uint64 {
	if x.Sign() < 0 || x.BitLen() > 256 {
		panic("stLimbs: out of range")
	}
	var b [32]byte
	x.FillBytes(b[:])
	var l [4]uint64
	for i := 0; i < 4; i++ {
		for j := 0; j < 8; j++ {
			l[i] |= uint64(b[31-8*i-j]) << (8 * j)
		}
	}
	return l
}

func stBig(l [4]uint64) *big.Int {
	v := new(big.Int)
	for i := 3; i >= 0; i-- {
		v.Lsh(v, 64).Or(v, new(big.Int).SetUint64(l[i]))
	}
	return v
}

func stMod(x *big.Int) *big.Int { return new(big.Int).Mod(x, stN) }

// stMont returns the Scalar whose value is x mod n.
func stMont(x *big.Int) Scalar { return Scalar(stLimbs(stMod(new(big.Int).Mul(x, stR)))) }

// stRaw returns the Scalar whose Montgomery limbs are x mod n.
func stRaw(x *big.Int) Scalar { return Scalar(stLimbs(stMod(x))) }

// stVal returns the value of s, failing the test if s is not reduced.
func stVal(t testing.TB, s *Scalar) *big.Int {
	t.Helper()
	l := stBig([4]uint64(*s))
	if l.Cmp(stN) >= 0 {
		t.Fatalf("scalar %#x is not reduced", [4]uint64(*s))
	}
	return stMod(l.Mul(l, stRInv))
}

func stEdgeInts() []*big.Int {
	one := big.NewInt(1)
	sub := func(a, b *big.Int) *big.Int { return new(big.Int).Sub(a, b) }
	add := func(a, b *big.Int) *big.Int { return new(big.Int).Add(a, b) }
	var vs []*big.Int
	for _, v := range []int64{0, 1, 2, 3, 5} {
		vs = append(vs, big.NewInt(v))
	}
	for _, k := range []uint{32, 63, 64, 127, 128, 191, 192, 224, 255} {
		vs = append(vs, stPow2(k), sub(stPow2(k), one))
	}
	for _, d := range []int64{1, 2, 3} {
		vs = append(vs, sub(stN, big.NewInt(d)))
	}
	for _, k := range []uint{64, 128, 192} {
		vs = append(vs, sub(stN, stPow2(k)))
	}
	half := new(big.Int).Rsh(stN, 1)
	vs = append(vs, half, add(half, one),
		stMod(stR), stMod(new(big.Int).Mul(stR, stR)), new(big.Int).Set(stRInv),
		sub(stPow2(256), stN))
	const ones = ^uint64(0)
	for _, l := range [][4]uint64{
		{ones, ones, ones, n3 - 1},
		{ones, ones, 0, n3},
		{ones, n1 - 1, n2, n3},
		{0, 0, n2, n3},
		{n0 - 1, n1, n2, n3},
		{ones, ones, ones, 0},
		{ones, 0, ones, 0},
		{1 << 63, 1 << 63, 1 << 63, 1 << 63},
	} {
		vs = append(vs, stBig(l))
	}
	for _, v := range vs {
		if v.Sign() < 0 || v.Cmp(stN) >= 0 {
			panic(fmt.Sprintf("edge value %#x is not below n", v))
		}
	}
	return vs
}

func stEdges() []Scalar {
	var s []Scalar
	for _, v := range stEdgeInts() {
		s = append(s, stMont(v), stRaw(v))
	}
	return s
}

var stSpecialLimbs = []uint64{
	0, 1, ^uint64(0), ^uint64(0) - 1, 1 << 63, 1 << 32, 1<<32 - 1,
	n0, n1, n0 - 1, n1 + 1, n3, 0xffffffff00000001,
}

func stRandom(r *rand.Rand) Scalar {
	var l [4]uint64
	special := r.IntN(2) == 0
	for i := range l {
		if special && r.IntN(4) != 0 {
			l[i] = stSpecialLimbs[r.IntN(len(stSpecialLimbs))]
		} else {
			l[i] = r.Uint64()
		}
	}
	return stRaw(stBig(l))
}

func stRand(t testing.TB) *rand.Rand {
	return rand.New(rand.NewPCG(0x5ca1a4, uint64(len(t.Name()))))
}

func stSamples(t testing.TB, n int) []Scalar {
	r := stRand(t)
	s := stEdges()
	for i := 0; i < n; i++ {
		s = append(s, stRandom(r))
	}
	return s
}

func stCount(many, short int) int {
	if testing.Short() {
		return short
	}
	return many
}

var stSentinel = Scalar{0x0123456789abcdef, 0xfedcba9876543210, 0x0f1e2d3c4b5a6978, 0x1234567812345678}

type stBinary struct {
	name string
	op   func(z, x, y *Scalar) *Scalar
	ref  func(x, y *big.Int) *big.Int
}

type stUnary struct {
	name string
	op   func(z, x *Scalar) *Scalar
	ref  func(x *big.Int) *big.Int
}

func stBinaries() []stBinary {
	return []stBinary{
		{"Mul", (*Scalar).Mul, func(x, y *big.Int) *big.Int { return new(big.Int).Mul(x, y) }},
		{"Add", (*Scalar).Add, func(x, y *big.Int) *big.Int { return new(big.Int).Add(x, y) }},
	}
}

func stInverse(x *big.Int) *big.Int {
	if x.Sign() == 0 {
		return new(big.Int)
	}
	return new(big.Int).ModInverse(x, stN)
}

func stUnaries() []stUnary {
	return []stUnary{
		{"Invert", (*Scalar).Invert, stInverse},
		{"InvertVartime", (*Scalar).InvertVartime, stInverse},
	}
}

func stCheckBinary(t *testing.T, c stBinary, x, y Scalar) {
	t.Helper()
	want := stMont(c.ref(stVal(t, &x), stVal(t, &y)))
	x0, y0 := x, y
	z := stSentinel
	if got := c.op(&z, &x, &y); got != &z {
		t.Fatalf("%s did not return its receiver", c.name)
	}
	if z != want || x != x0 || y != y0 {
		t.Fatalf("%s(%#x, %#x) = %#x, want %#x", c.name, x0, y0, z, want)
	}
	z = x
	if c.op(&z, &z, &y); z != want {
		t.Fatalf("%s aliased z=x (%#x, %#x) = %#x, want %#x", c.name, x0, y0, z, want)
	}
	z = y
	if c.op(&z, &x, &z); z != want {
		t.Fatalf("%s aliased z=y (%#x, %#x) = %#x, want %#x", c.name, x0, y0, z, want)
	}
	var sep Scalar
	xc := x
	c.op(&sep, &x, &xc)
	if w2 := stMont(c.ref(stVal(t, &x), stVal(t, &x))); sep != w2 {
		t.Fatalf("%s(%#x, %#x) = %#x, want %#x", c.name, x0, x0, sep, w2)
	}
	if c.op(&xc, &xc, &xc); xc != sep {
		t.Fatalf("%s fully aliased (%#x) = %#x, not aliased %#x", c.name, x0, xc, sep)
	}
}

func stCheckUnary(t *testing.T, c stUnary, x Scalar) {
	t.Helper()
	want := stMont(c.ref(stVal(t, &x)))
	x0 := x
	z := stSentinel
	if got := c.op(&z, &x); got != &z {
		t.Fatalf("%s did not return its receiver", c.name)
	}
	if z != want || x != x0 {
		t.Fatalf("%s(%#x) = %#x, want %#x", c.name, x0, z, want)
	}
	if c.op(&x, &x); x != want {
		t.Fatalf("%s aliased (%#x) = %#x, want %#x", c.name, x0, x, want)
	}
}

func TestScalarBinaryEdgePairs(t *testing.T) {
	edges := stEdges()
	for _, c := range stBinaries() {
		t.Run(c.name, func(t *testing.T) {
			for _, x := range edges {
				for _, y := range edges {
					stCheckBinary(t, c, x, y)
				}
			}
		})
	}
}

func TestScalarBinaryRandom(t *testing.T) {
	for _, c := range stBinaries() {
		t.Run(c.name, func(t *testing.T) {
			r := stRand(t)
			for _, x := range stSamples(t, stCount(3000, 500)) {
				stCheckBinary(t, c, x, stRandom(r))
				stCheckBinary(t, c, stRandom(r), x)
			}
		})
	}
}

func TestScalarUnary(t *testing.T) {
	for _, c := range stUnaries() {
		t.Run(c.name, func(t *testing.T) {
			n := stCount(3000, 500)
			if c.name == "Invert" || c.name == "InvertVartime" {
				n = stCount(300, 50)
			}
			for _, x := range stSamples(t, n) {
				stCheckUnary(t, c, x)
			}
		})
	}
}

func TestScalarZeroOne(t *testing.T) {
	z := stSentinel
	if got := z.One(); got != &z || z != stMont(big.NewInt(1)) {
		t.Fatalf("One() = %#x", z)
	}
}

func TestScalarConstants(t *testing.T) {
	if stBig(N).Cmp(stN) != 0 {
		t.Fatalf("N = %#x", N)
	}
	if one != stMont(big.NewInt(1)) {
		t.Fatalf("one = %#x", one)
	}
	if rr != stRaw(new(big.Int).Mul(stR, stR)) {
		t.Fatalf("rr = %#x", rr)
	}
	var m uint64 = n0inv
	if m*n0+1 != 0 {
		t.Fatalf("n0inv·n0 ≠ −1 mod 2^64")
	}
}

func TestScalarEqualIsZero(t *testing.T) {
	for _, a := range []Scalar{{}, stMont(big.NewInt(1)), {1, 2, 3, 4}, stRaw(new(big.Int).Sub(stN, big.NewInt(1)))} {
		b := a
		if a.Equal(&b) != 1 || a.Equal(&a) != 1 {
			t.Fatalf("Equal(%#x, itself) ≠ 1", a)
		}
		if want := stBool(a == Scalar{}); a.IsZero() != want {
			t.Fatalf("IsZero(%#x) = %d", a, a.IsZero())
		}
		for i := 0; i < 4; i++ {
			for k := 0; k < 64; k++ {
				b := a
				b[i] ^= 1 << k
				if stBig([4]uint64(b)).Cmp(stN) >= 0 {
					continue
				}
				if a.Equal(&b) != 0 || b.Equal(&a) != 0 {
					t.Fatalf("Equal(%#x, %#x) ≠ 0", a, b)
				}
			}
		}
	}
	for i := 0; i < 4; i++ {
		for k := 0; k < 64; k++ {
			var s Scalar
			s[i] = 1 << k
			if stBig([4]uint64(s)).Cmp(stN) < 0 && s.IsZero() != 0 {
				t.Fatalf("IsZero(%#x) = 1", s)
			}
		}
	}
}

func stBool(b bool) int {
	if b {
		return 1
	}
	return 0
}

// stOutOfRange are 256-bit integers ≥ n.
func stOutOfRange() []*big.Int {
	const ones = ^uint64(0)
	return []*big.Int{
		new(big.Int).Set(stN),
		new(big.Int).Add(stN, big.NewInt(1)),
		new(big.Int).Add(stN, stPow2(64)),
		new(big.Int).Sub(stPow2(256), big.NewInt(1)),
		stBig([4]uint64{n0, n1 + 1, n2, n3}),
		stBig([4]uint64{0, 0, 0, n3 + 1}),
		stBig([4]uint64{n0 + 1, n1, n2, n3}),
		stBig([4]uint64{ones, ones, ones, ones}),
	}
}

func TestScalarSetBytes(t *testing.T) {
	var buf [32]byte
	for _, v := range stEdgeInts() {
		v.FillBytes(buf[:])
		z := stSentinel
		got, err := z.SetBytes(buf[:])
		if err != nil || got != &z || z != stMont(v) {
			t.Fatalf("SetBytes(%x) = %#x, %v; want %#x", buf, z, err, stMont(v))
		}
		if z.Bytes() != buf {
			t.Fatalf("Bytes() = %x, want %x", z.Bytes(), buf)
		}
		if c := z.Canonical(); c != stLimbs(v) {
			t.Fatalf("Canonical() = %#x, want %#x", c, stLimbs(v))
		}
	}
	for _, v := range stOutOfRange() {
		v.FillBytes(buf[:])
		z := stSentinel
		got, err := z.SetBytes(buf[:])
		if !errors.Is(err, ErrRange) || got != &z || z != stSentinel {
			t.Fatalf("SetBytes(%x) = %#x, %v; want ErrRange, receiver unchanged", buf, z, err)
		}
		z = stSentinel
		if _, err := z.SetCanonical(stLimbs(v)); !errors.Is(err, ErrRange) || z != stSentinel {
			t.Fatalf("SetCanonical(%#x) = %#x, %v; want ErrRange, receiver unchanged", stLimbs(v), z, err)
		}
	}
	for _, n := range []int{0, 1, 31, 33, 64} {
		z := stSentinel
		if _, err := z.SetBytes(make([]byte, n)); !errors.Is(err, ErrLength) || z != stSentinel {
			t.Fatalf("SetBytes(%d bytes) = %v; want ErrLength, receiver unchanged", n, err)
		}
	}
	z := stSentinel
	if _, err := z.SetBytes(nil); !errors.Is(err, ErrLength) || z != stSentinel {
		t.Fatalf("SetBytes(nil) = %v", err)
	}
	for i := 0; i < 32; i++ {
		var b [32]byte
		b[i] = 0xa5
		if _, err := z.SetBytes(b[:]); err != nil || z != stMont(new(big.Int).SetBytes(b[:])) {
			t.Fatalf("SetBytes(%x) = %#x, %v", b, z, err)
		}
		if z.Bytes() != b {
			t.Fatalf("Bytes round trip of %x = %x", b, z.Bytes())
		}
	}
}

func TestScalarSetCanonical(t *testing.T) {
	for _, v := range stEdgeInts() {
		z := stSentinel
		if got, err := z.SetCanonical(stLimbs(v)); err != nil || got != &z || z != stMont(v) {
			t.Fatalf("SetCanonical(%#x) = %#x, %v", stLimbs(v), z, err)
		}
	}
}

func TestScalarBytesRoundTrip(t *testing.T) {
	for _, x := range stSamples(t, 1000) {
		v := stVal(t, &x)
		var want [32]byte
		v.FillBytes(want[:])
		b := x.Bytes()
		if b != want {
			t.Fatalf("Bytes(%#x) = %x, want %x", x, b, want)
		}
		var y Scalar
		if _, err := y.SetBytes(b[:]); err != nil || y != x {
			t.Fatalf("SetBytes(Bytes(%#x)) = %#x, %v", x, y, err)
		}
		c := x.Canonical()
		if c != stLimbs(v) {
			t.Fatalf("Canonical(%#x) = %#x", x, c)
		}
		if _, err := y.SetCanonical(c); err != nil || y != x {
			t.Fatalf("SetCanonical(Canonical(%#x)) = %#x, %v", x, y, err)
		}
	}
}

// stBits2Int is bits2int(digest) mod n for qlen = 256: the leftmost 256
// bits of the digest as an integer, or the whole digest when it is shorter.
func stBits2Int(d []byte) *big.Int {
	if len(d) > 32 {
		d = d[:32]
	}
	return stMod(new(big.Int).SetBytes(d))
}

func stDigests(t testing.TB) [][]byte {
	var ds [][]byte
	fill := func(n int, b byte) []byte {
		d := make([]byte, n)
		for i := range d {
			d[i] = b
		}
		return d
	}
	for _, n := range []int{0, 1, 20, 28, 31, 32, 33, 48, 64, 66} {
		ds = append(ds, fill(n, 0), fill(n, 0xff), fill(n, 0x80))
	}
	for _, v := range append(stOutOfRange(), stEdgeInts()...) {
		d := make([]byte, 32)
		v.FillBytes(d)
		ds = append(ds, d)
		// The same value followed by bytes bits2int must drop.
		ds = append(ds, append(append([]byte{}, d...), fill(16, 0xff)...))
		ds = append(ds, append(append([]byte{}, d...), fill(32, 0x01)...))
	}
	r := stRand(t)
	for i := 0; i < 200; i++ {
		d := make([]byte, []int{20, 28, 32, 48, 64}[i%5])
		for j := range d {
			d[j] = byte(r.Uint32())
		}
		ds = append(ds, d)
	}
	return ds
}

func TestScalarSetDigest(t *testing.T) {
	for _, d := range stDigests(t) {
		want := stMont(stBits2Int(d))
		z := stSentinel
		if got := z.SetDigest(d); got != &z || z != want {
			t.Fatalf("SetDigest(%x) = %#x, want %#x (value %#x)", d, z, want, stBits2Int(d))
		}
	}
}

func TestScalarAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	r := stRand(t)
	a, b := stRandom(r), stRandom(r)
	var z Scalar
	enc := a.Bytes()
	digest := make([]byte, 48)
	sink := 0
	ops := map[string]func(){
		"Mul":           func() { z.Mul(&a, &b) },
		"Add":           func() { z.Add(&a, &b) },
		"Equal":         func() { sink += a.Equal(&b) },
		"IsZero":        func() { sink += a.IsZero() },
		"Invert":        func() { z.Invert(&a) },
		"InvertVartime": func() { z.InvertVartime(&a) },
		"SetBytes":      func() { z.SetBytes(enc[:]) },
		"SetCanonical":  func() { z.SetCanonical([4]uint64{1, 2, 3, 4}) },
		"SetDigest":     func() { z.SetDigest(digest) },
		"Bytes":         func() { enc = a.Bytes() },
		"Canonical":     func() { c := a.Canonical(); sink += int(c[0]) },
	}
	for name, f := range ops {
		if n := testing.AllocsPerRun(100, f); n != 0 {
			t.Errorf("%s allocates %v times per call", name, n)
		}
	}
	_ = sink
}

func TestScalarLimbHelpers(t *testing.T) {
	v := stHex("0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20")
	if l := stLimbs(v); l != [4]uint64{0x191a1b1c1d1e1f20, 0x1112131415161718, 0x090a0b0c0d0e0f10, 0x0102030405060708} || stBig(l).Cmp(v) != 0 {
		t.Fatalf("stLimbs = %#x", l)
	}
	x := big.NewInt(12345)
	m := stMont(x)
	if stVal(t, &m).Cmp(x) != 0 {
		t.Fatal("stMont/stVal")
	}
}
