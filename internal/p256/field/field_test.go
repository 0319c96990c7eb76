package field

// Differential tests of the field arithmetic against math/big.
//
// Helpers in this file carry an "ft" prefix so that they cannot collide with
// other test files of the package.
//
// Expected results are computed in math/big and turned into Montgomery limbs
// independently of the code under test (ftMont), and results are compared
// limb for limb: a wrong value and an unreduced representation of the right
// value both fail.

import (
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"
)

var (
	ftP    = ftHex("ffffffff00000001000000000000000000000000ffffffffffffffffffffffff")
	ftR    = new(big.Int).Lsh(big.NewInt(1), 256)
	ftRInv = new(big.Int).ModInverse(ftR, ftP)
	ftInv2 = new(big.Int).ModInverse(big.NewInt(2), ftP)
	// ftSqrtExp is (p+1)/4, the exponent Sqrt is documented to use.
	ftSqrtExp = new(big.Int).Rsh(new(big.Int).Add(ftP, big.NewInt(1)), 2)
)

func ftHex(s string) *big.Int {
	v, ok := new(big.Int).SetString(s, 16)
	if !ok {
		panic("bad hex " + s)
	}
	return v
}

func ftPow2(k uint) *big.Int { return new(big.Int).Lsh(big.NewInt(1), k) }

// ftLimbs returns the little-endian limbs of 0 ≤ x < 2^256.
func ftLimbs(x *big.Int) [4]uint64 {
	if x.Sign() < 0 || x.BitLen() > 256 {
		panic("ftLimbs: out of range")
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

// ftBig returns the integer with little-endian limbs l.
func ftBig(l [4]uint64) *big.Int {
	v := new(big.Int)
	for i := 3; i >= 0; i-- {
		v.Lsh(v, 64).Or(v, new(big.Int).SetUint64(l[i]))
	}
	return v
}

// ftMod returns x mod p in [0, p).
func ftMod(x *big.Int) *big.Int { return new(big.Int).Mod(x, ftP) }

// ftMont returns the Element whose value is x mod p: limbs x·R mod p.
func ftMont(x *big.Int) Element {
	return Element(ftLimbs(ftMod(new(big.Int).Mul(x, ftR))))
}

// ftRaw returns the Element whose Montgomery limbs are x mod p (its value is
// x·R^-1 mod p). Edge limb patterns enter the arithmetic this way.
func ftRaw(x *big.Int) Element { return Element(ftLimbs(ftMod(x))) }

// ftVal returns the value of e. It fails the test if e is not reduced.
func ftVal(t testing.TB, e *Element) *big.Int {
	t.Helper()
	l := ftBig([4]uint64(*e))
	if l.Cmp(ftP) >= 0 {
		t.Fatalf("element %#x is not reduced", [4]uint64(*e))
	}
	return ftMod(l.Mul(l, ftRInv))
}

// ftEdgeInts are interesting integers below p: small values, powers of two at
// limb and prime-structure boundaries, values just below p, Montgomery
// constants, and limb patterns full of ones.
func ftEdgeInts() []*big.Int {
	one := big.NewInt(1)
	sub := func(a, b *big.Int) *big.Int { return new(big.Int).Sub(a, b) }
	add := func(a, b *big.Int) *big.Int { return new(big.Int).Add(a, b) }
	var vs []*big.Int
	for _, v := range []int64{0, 1, 2, 3, 4, 5, 7} {
		vs = append(vs, big.NewInt(v))
	}
	for _, k := range []uint{32, 63, 64, 95, 96, 127, 128, 160, 191, 192, 223, 224, 255} {
		vs = append(vs, ftPow2(k), sub(ftPow2(k), one), add(ftPow2(k), one))
	}
	for _, d := range []int64{1, 2, 3, 4} {
		vs = append(vs, sub(ftP, big.NewInt(d)))
	}
	for _, k := range []uint{32, 64, 96, 128, 192, 224} {
		vs = append(vs, sub(ftP, ftPow2(k)))
	}
	half := new(big.Int).Rsh(ftP, 1)
	vs = append(vs, half, add(half, one),
		ftMod(ftR),                        // R mod p: Montgomery 1
		ftMod(new(big.Int).Mul(ftR, ftR)), // R² mod p
		new(big.Int).Set(ftRInv),
		sub(ftPow2(256), ftP), // 2^256 - p
	)
	const ones = ^uint64(0)
	for _, l := range [][4]uint64{
		{ones, ones, ones, p3 - 1},
		{ones, ones, ones, 0},
		{ones, ones, 0, p3 - 1},
		{ones, p1, 0, p3 - 1},
		{0, p1, 0, p3},
		{ones, p1 - 1, 0, p3},
		{0, 0, 0, p3},
		{1, 0, 0, p3},
		{ones, 0, ones, 0},
		{0, ones, 0, ones >> 1},
		{0x8000000000000000, 0x8000000000000000, 0x8000000000000000, 0x8000000000000000},
		{ones, 0xffffffff00000000, ones, 0xfffffffeffffffff},
	} {
		vs = append(vs, ftBig(l))
	}
	for _, v := range vs {
		if v.Sign() < 0 || v.Cmp(ftP) >= 0 {
			panic(fmt.Sprintf("edge value %#x is not below p", v))
		}
	}
	return vs
}

// ftEdges returns edge Elements: each edge integer both as a value and as a
// raw limb pattern.
func ftEdges() []Element {
	var es []Element
	for _, v := range ftEdgeInts() {
		es = append(es, ftMont(v), ftRaw(v))
	}
	return es
}

// ftSpecialLimbs are limb values that make carry and borrow chains fire.
var ftSpecialLimbs = []uint64{
	0, 1, 2, ^uint64(0), ^uint64(0) - 1, 1 << 63, 1<<63 - 1, 1 << 32, 1<<32 - 1,
	0xffffffff00000000, 0xffffffff00000001, 0xfffffffeffffffff, 0x00000000fffffffe,
}

// ftRandom returns a reduced element: random limbs, or with probability 1/2
// limbs drawn from ftSpecialLimbs.
func ftRandom(r *rand.Rand) Element {
	var l [4]uint64
	special := r.IntN(2) == 0
	for i := range l {
		if special && r.IntN(4) != 0 {
			l[i] = ftSpecialLimbs[r.IntN(len(ftSpecialLimbs))]
		} else {
			l[i] = r.Uint64()
		}
	}
	return ftRaw(ftBig(l))
}

func ftRand(t testing.TB) *rand.Rand {
	return rand.New(rand.NewPCG(0x5eed, uint64(len(t.Name()))))
}

// ftSamples returns the edge elements followed by n random ones.
func ftSamples(t testing.TB, n int) []Element {
	r := ftRand(t)
	es := ftEdges()
	for i := 0; i < n; i++ {
		es = append(es, ftRandom(r))
	}
	return es
}

func ftSampleCount(many, short int) int {
	if testing.Short() {
		return short
	}
	return many
}

// ftSentinel is the receiver's content before an operation: a valid element
// unlikely to be any result.
var ftSentinel = Element{0x0123456789abcdef, 0xfedcba9876543210, 0x0f1e2d3c4b5a6978, 0x1234567812345678}

type ftBinary struct {
	name string
	op   func(z, x, y *Element) *Element
	ref  func(x, y *big.Int) *big.Int
}

type ftUnary struct {
	name string
	op   func(z, x *Element) *Element
	ref  func(x *big.Int) *big.Int
}

func ftBinaries() []ftBinary {
	return []ftBinary{
		{"Mul", (*Element).Mul, func(x, y *big.Int) *big.Int { return new(big.Int).Mul(x, y) }},
		{"Add", (*Element).Add, func(x, y *big.Int) *big.Int { return new(big.Int).Add(x, y) }},
		{"Sub", (*Element).Sub, func(x, y *big.Int) *big.Int { return new(big.Int).Sub(x, y) }},
	}
}

func ftUnaries() []ftUnary {
	return []ftUnary{
		{"Square", (*Element).Square, func(x *big.Int) *big.Int { return new(big.Int).Mul(x, x) }},
		{"Neg", (*Element).Neg, func(x *big.Int) *big.Int { return new(big.Int).Neg(x) }},
		{"Double", (*Element).Double, func(x *big.Int) *big.Int { return new(big.Int).Lsh(x, 1) }},
		{"Half", (*Element).Half, func(x *big.Int) *big.Int { return new(big.Int).Mul(x, ftInv2) }},
		{"Set", (*Element).Set, func(x *big.Int) *big.Int { return x }},
		{"Invert", (*Element).Invert, func(x *big.Int) *big.Int {
			if x.Sign() == 0 {
				return new(big.Int)
			}
			return new(big.Int).ModInverse(x, ftP)
		}},
		{"InvertVartime", (*Element).InvertVartime, func(x *big.Int) *big.Int {
			if x.Sign() == 0 {
				return new(big.Int)
			}
			return new(big.Int).ModInverse(x, ftP)
		}},
		{"SquareN(3)", func(z, x *Element) *Element { return z.SquareN(x, 3) },
			func(x *big.Int) *big.Int { return new(big.Int).Exp(x, big.NewInt(8), ftP) }},
	}
}

// ftCheckBinary checks z = x op y against math/big, with every aliasing of
// the receiver, and that the arguments are not modified.
func ftCheckBinary(t *testing.T, c ftBinary, x, y Element) {
	t.Helper()
	want := ftMont(c.ref(ftVal(t, &x), ftVal(t, &y)))
	x0, y0 := x, y
	z := ftSentinel
	if got := c.op(&z, &x, &y); got != &z {
		t.Fatalf("%s did not return its receiver", c.name)
	}
	if z != want || x != x0 || y != y0 {
		t.Fatalf("%s(%#x, %#x) = %#x, want %#x", c.name, x0, y0, z, want)
	}
	z = x
	c.op(&z, &z, &y)
	if z != want {
		t.Fatalf("%s aliased z=x (%#x, %#x) = %#x, want %#x", c.name, x0, y0, z, want)
	}
	z = y
	c.op(&z, &x, &z)
	if z != want {
		t.Fatalf("%s aliased z=y (%#x, %#x) = %#x, want %#x", c.name, x0, y0, z, want)
	}
	// Both arguments the same variable: compare aliased and non-aliased.
	var sep Element
	xc := x
	c.op(&sep, &x, &xc)
	w2 := ftMont(c.ref(ftVal(t, &x), ftVal(t, &x)))
	if sep != w2 {
		t.Fatalf("%s(%#x, %#x) = %#x, want %#x", c.name, x0, x0, sep, w2)
	}
	c.op(&xc, &xc, &xc)
	if xc != sep {
		t.Fatalf("%s fully aliased (%#x) = %#x, not aliased %#x", c.name, x0, xc, sep)
	}
	c.op(&z, &x, &x)
	if z != sep {
		t.Fatalf("%s(x, x) with one variable (%#x) = %#x, want %#x", c.name, x0, z, sep)
	}
}

func ftCheckUnary(t *testing.T, c ftUnary, x Element) {
	t.Helper()
	want := ftMont(c.ref(ftVal(t, &x)))
	x0 := x
	z := ftSentinel
	if got := c.op(&z, &x); got != &z {
		t.Fatalf("%s did not return its receiver", c.name)
	}
	if z != want || x != x0 {
		t.Fatalf("%s(%#x) = %#x, want %#x", c.name, x0, z, want)
	}
	c.op(&x, &x)
	if x != want {
		t.Fatalf("%s aliased (%#x) = %#x, want %#x", c.name, x0, x, want)
	}
}

// TestFieldBinaryEdgePairs runs every binary operation on every pair of edge
// elements.
func TestFieldBinaryEdgePairs(t *testing.T) {
	edges := ftEdges()
	for _, c := range ftBinaries() {
		t.Run(c.name, func(t *testing.T) {
			for _, x := range edges {
				for _, y := range edges {
					ftCheckBinary(t, c, x, y)
				}
			}
		})
	}
}

func TestFieldBinaryRandom(t *testing.T) {
	for _, c := range ftBinaries() {
		t.Run(c.name, func(t *testing.T) {
			xs := ftSamples(t, ftSampleCount(3000, 500))
			r := ftRand(t)
			for _, x := range xs {
				ftCheckBinary(t, c, x, ftRandom(r))
				ftCheckBinary(t, c, ftRandom(r), x)
			}
		})
	}
}

func TestFieldUnary(t *testing.T) {
	for _, c := range ftUnaries() {
		t.Run(c.name, func(t *testing.T) {
			n := ftSampleCount(3000, 500)
			if c.name == "Invert" || c.name == "InvertVartime" {
				n = ftSampleCount(300, 50)
			}
			for _, x := range ftSamples(t, n) {
				ftCheckUnary(t, c, x)
			}
		})
	}
}

// TestFieldCarryChainProducts checks products and sums chosen so that every carry
// of the multiplication, the reduction and the final subtraction fires.
func TestFieldCarryChainProducts(t *testing.T) {
	pm1 := new(big.Int).Sub(ftP, big.NewInt(1))
	pm2 := new(big.Int).Sub(ftP, big.NewInt(2))
	cases := [][2]*big.Int{
		{pm1, pm1}, {pm1, pm2}, {pm2, pm2},
		{ftPow2(255), ftPow2(255)},
		{ftBig([4]uint64{^uint64(0), ^uint64(0), ^uint64(0), p3 - 1}), ftBig([4]uint64{^uint64(0), ^uint64(0), ^uint64(0), p3 - 1})},
		{new(big.Int).Rsh(ftP, 1), big.NewInt(2)},
		{ftMod(ftR), ftMod(ftR)},
	}
	mul := ftBinaries()[0]
	for _, c := range cases {
		for _, x := range []Element{ftMont(c[0]), ftRaw(c[0])} {
			for _, y := range []Element{ftMont(c[1]), ftRaw(c[1])} {
				ftCheckBinary(t, mul, x, y)
				ftCheckUnary(t, ftUnaries()[0], x)
				for _, k := range ftKernels() {
					var z, w Element
					k.mul(&z, &x, &y)
					k.square(&w, &x)
					if z != ftMont(new(big.Int).Mul(ftVal(t, &x), ftVal(t, &y))) || w != ftMont(new(big.Int).Mul(ftVal(t, &x), ftVal(t, &x))) {
						t.Fatalf("%s kernel: wrong product or square of %#x, %#x", k.name, x, y)
					}
				}
			}
		}
	}
}

// ftKernels lists the Montgomery multiplication and squaring kernels to test
// directly: the dispatched pair the Element methods use, then every kernel
// this CPU can run (kernels(), the portable one first).
func ftKernels() []kernel {
	return append([]kernel{{"dispatched", mul, square}}, kernels()...)
}

// TestFieldKernelsEdges checks each kernel directly on all pairs of edge
// elements.
func TestFieldKernelsEdges(t *testing.T) {
	edges := ftEdges()
	vals := make([]*big.Int, len(edges))
	for i := range edges {
		vals[i] = ftVal(t, &edges[i])
	}
	for _, k := range ftKernels() {
		t.Run(k.name, func(t *testing.T) {
			for i := range edges {
				var z Element
				k.square(&z, &edges[i])
				if want := ftMont(new(big.Int).Mul(vals[i], vals[i])); z != want {
					t.Fatalf("square(%#x) = %#x, want %#x", edges[i], z, want)
				}
				for j := range edges {
					k.mul(&z, &edges[i], &edges[j])
					if want := ftMont(new(big.Int).Mul(vals[i], vals[j])); z != want {
						t.Fatalf("mul(%#x, %#x) = %#x, want %#x", edges[i], edges[j], z, want)
					}
				}
			}
		})
	}
}

func TestFieldSquareN(t *testing.T) {
	for _, x := range ftSamples(t, 50) {
		v := ftVal(t, &x)
		for _, n := range []int{-1, 0, 1, 2, 5, 64, 100} {
			e := big.NewInt(1)
			if n > 0 {
				e = ftPow2(uint(n))
			}
			want := ftMont(new(big.Int).Exp(v, e, ftP))
			z := ftSentinel
			if got := z.SquareN(&x, n); got != &z || z != want {
				t.Fatalf("SquareN(%#x, %d) = %#x, want %#x", x, n, z, want)
			}
			z = x
			if z.SquareN(&z, n); z != want {
				t.Fatalf("SquareN aliased (%#x, %d) = %#x, want %#x", x, n, z, want)
			}
		}
	}
}

func TestFieldZeroOne(t *testing.T) {
	z := ftSentinel
	if got := z.Zero(); got != &z || z != (Element{}) || ftVal(t, &z).Sign() != 0 {
		t.Fatalf("Zero() = %#x", z)
	}
	if got := z.One(); got != &z || z != ftMont(big.NewInt(1)) {
		t.Fatalf("One() = %#x, want R mod p", z)
	}
}

func TestFieldSqrt(t *testing.T) {
	check := func(a Element) {
		t.Helper()
		va := ftVal(t, &a)
		isSquare := va.Sign() == 0 || big.Jacobi(va, ftP) == 1
		z := ftSentinel
		got, ok := z.Sqrt(&a)
		if got != &z {
			t.Fatal("Sqrt did not return its receiver")
		}
		if !isSquare {
			if ok != 0 || z != ftSentinel {
				t.Fatalf("Sqrt(non-square %#x) = %#x, %d; want receiver unchanged, 0", a, z, ok)
			}
			z = a
			if _, ok := z.Sqrt(&z); ok != 0 || z != a {
				t.Fatalf("aliased Sqrt(non-square %#x) = %#x, %d", a, z, ok)
			}
			return
		}
		want := ftMont(new(big.Int).Exp(va, ftSqrtExp, ftP))
		if ok != 1 || z != want {
			t.Fatalf("Sqrt(%#x) = %#x, %d; want %#x, 1", a, z, ok, want)
		}
		if r := ftVal(t, &z); ftMod(new(big.Int).Mul(r, r)).Cmp(va) != 0 {
			t.Fatalf("Sqrt(%#x)² ≠ input", a)
		}
		z = a
		if _, ok := z.Sqrt(&z); ok != 1 || z != want {
			t.Fatalf("aliased Sqrt(%#x) = %#x, %d; want %#x, 1", a, z, ok, want)
		}
	}
	for _, x := range ftSamples(t, ftSampleCount(400, 100)) {
		check(x) // squares and non-squares about equally
		var sq, nsq Element
		sq.Square(&x)
		check(sq)
		nsq.Neg(&sq) // −1 is not a square as p ≡ 3 mod 4
		check(nsq)
	}
}

func TestFieldEqualIsZero(t *testing.T) {
	base := []Element{{}, ftMont(big.NewInt(1)), {1, 2, 3, 4}, ftRaw(new(big.Int).Sub(ftP, big.NewInt(1)))}
	for _, a := range base {
		b := a
		if a.Equal(&b) != 1 || a.Equal(&a) != 1 {
			t.Fatalf("Equal(%#x, itself) ≠ 1", a)
		}
		wantZero := 0
		if a == (Element{}) {
			wantZero = 1
		}
		if a.IsZero() != wantZero {
			t.Fatalf("IsZero(%#x) = %d", a, a.IsZero())
		}
		// Flip each bit of each limb in turn: Equal must see every one.
		for i := 0; i < 4; i++ {
			for k := 0; k < 64; k++ {
				b := a
				b[i] ^= 1 << k
				if ftBig([4]uint64(b)).Cmp(ftP) >= 0 {
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
			var e Element
			e[i] = 1 << k
			if ftBig([4]uint64(e)).Cmp(ftP) >= 0 {
				continue
			}
			if e.IsZero() != 0 {
				t.Fatalf("IsZero(%#x) = 1", e)
			}
		}
	}
	// Equal and IsZero compare representations, which are unique.
	for _, x := range ftSamples(t, 200) {
		if x.IsZero() != ftBool(ftVal(t, &x).Sign() == 0) {
			t.Fatalf("IsZero(%#x) wrong", x)
		}
	}
}

func ftBool(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestFieldSelect(t *testing.T) {
	r := ftRand(t)
	for i := 0; i < 100; i++ {
		a, b := ftRandom(r), ftRandom(r)
		a0, b0 := a, b
		z := ftSentinel
		if got := z.Select(&a, &b, 1); got != &z || z != a {
			t.Fatalf("Select(a, b, 1) = %#x, want %#x", z, a)
		}
		if z.Select(&a, &b, 0); z != b {
			t.Fatalf("Select(a, b, 0) = %#x, want %#x", z, b)
		}
		z = a
		if z.Select(&z, &b, 0); z != b {
			t.Fatal("Select aliased z=a, cond 0")
		}
		z = a
		if z.Select(&z, &b, 1); z != a {
			t.Fatal("Select aliased z=a, cond 1")
		}
		z = b
		if z.Select(&a, &z, 1); z != a {
			t.Fatal("Select aliased z=b, cond 1")
		}
		if a != a0 || b != b0 {
			t.Fatal("Select modified its arguments")
		}
	}
}

// ftOutOfRange are 256-bit integers ≥ p.
func ftOutOfRange() []*big.Int {
	const ones = ^uint64(0)
	return []*big.Int{
		new(big.Int).Set(ftP),
		new(big.Int).Add(ftP, big.NewInt(1)),
		new(big.Int).Add(ftP, ftPow2(64)),
		new(big.Int).Add(ftP, ftPow2(128)),
		new(big.Int).Sub(ftPow2(256), big.NewInt(1)),
		new(big.Int).Sub(ftPow2(256), ftPow2(32)),
		ftBig([4]uint64{0, 0, 1, p3}),            // above p only in limb 2
		ftBig([4]uint64{0, p1 + 1, 0, p3}),       // above p in limb 1
		ftBig([4]uint64{0, 0, 0, p3 + 1}),        // above p in limb 3
		ftBig([4]uint64{ones, ones, ones, ones}), // every limb all ones
		ftBig([4]uint64{0, 0, 0, ones}),
	}
}

func TestFieldSetBytes(t *testing.T) {
	var buf [32]byte
	for _, v := range ftEdgeInts() {
		v.FillBytes(buf[:])
		z := ftSentinel
		got, err := z.SetBytes(buf[:])
		if err != nil || got != &z || z != ftMont(v) {
			t.Fatalf("SetBytes(%x) = %#x, %v; want %#x", buf, z, err, ftMont(v))
		}
		if b := z.Bytes(); b != buf {
			t.Fatalf("Bytes() = %x, want %x", b, buf)
		}
		var out [32]byte
		if z.PutBytes(&out); out != buf {
			t.Fatalf("PutBytes = %x, want %x", out, buf)
		}
		if c := z.Canonical(); c != ftLimbs(v) {
			t.Fatalf("Canonical() = %#x, want %#x", c, ftLimbs(v))
		}
	}
	for _, v := range ftOutOfRange() {
		v.FillBytes(buf[:])
		z := ftSentinel
		got, err := z.SetBytes(buf[:])
		if !errors.Is(err, ErrRange) || got != &z || z != ftSentinel {
			t.Fatalf("SetBytes(%x) = %#x, %v; want ErrRange, receiver unchanged", buf, z, err)
		}
	}
	for _, n := range []int{0, 1, 31, 33, 64} {
		z := ftSentinel
		in := make([]byte, n)
		if _, err := z.SetBytes(in); !errors.Is(err, ErrLength) || z != ftSentinel {
			t.Fatalf("SetBytes(%d bytes) = %v; want ErrLength, receiver unchanged", n, err)
		}
	}
	z := ftSentinel
	if _, err := z.SetBytes(nil); !errors.Is(err, ErrLength) || z != ftSentinel {
		t.Fatalf("SetBytes(nil) = %v", err)
	}
	// Byte order: one byte at each position.
	for i := 0; i < 32; i++ {
		var b [32]byte
		b[i] = 0x5a
		v := new(big.Int).SetBytes(b[:])
		if _, err := z.SetBytes(b[:]); err != nil || z != ftMont(v) {
			t.Fatalf("SetBytes(%x) = %#x, %v", b, z, err)
		}
		if z.Bytes() != b {
			t.Fatalf("Bytes round trip of %x = %x", b, z.Bytes())
		}
	}
}

func TestFieldBytesRoundTrip(t *testing.T) {
	for _, x := range ftSamples(t, 1000) {
		v := ftVal(t, &x)
		var want [32]byte
		v.FillBytes(want[:])
		b := x.Bytes()
		if b != want {
			t.Fatalf("Bytes(%#x) = %x, want %x", x, b, want)
		}
		var y Element
		if _, err := y.SetBytes(b[:]); err != nil || y != x {
			t.Fatalf("SetBytes(Bytes(%#x)) = %#x, %v", x, y, err)
		}
		c := x.Canonical()
		if c != ftLimbs(v) {
			t.Fatalf("Canonical(%#x) = %#x, want %#x", x, c, ftLimbs(v))
		}
		y = ftSentinel
		if got, err := y.SetCanonical(c); err != nil || got != &y || y != x {
			t.Fatalf("SetCanonical(Canonical(%#x)) = %#x, %v", x, y, err)
		}
	}
}

func TestFieldSetCanonical(t *testing.T) {
	for _, v := range ftEdgeInts() {
		z := ftSentinel
		if _, err := z.SetCanonical(ftLimbs(v)); err != nil || z != ftMont(v) {
			t.Fatalf("SetCanonical(%#x) = %#x, %v", ftLimbs(v), z, err)
		}
	}
	for _, v := range ftOutOfRange() {
		z := ftSentinel
		got, err := z.SetCanonical(ftLimbs(v))
		if !errors.Is(err, ErrRange) || got != &z || z != ftSentinel {
			t.Fatalf("SetCanonical(%#x) = %#x, %v; want ErrRange, receiver unchanged", ftLimbs(v), z, err)
		}
	}
}

// TestFieldMontgomeryConstants checks the package's constants against math/big.
func TestFieldMontgomeryConstants(t *testing.T) {
	if got := ftBig([4]uint64{p0, p1, p2, p3}); got.Cmp(ftP) != 0 {
		t.Fatalf("p limbs = %#x", got)
	}
	if one != ftMont(big.NewInt(1)) {
		t.Fatalf("one = %#x", one)
	}
	if rr != ftRaw(new(big.Int).Mul(ftR, ftR)) {
		t.Fatalf("rr = %#x", rr)
	}
	// p ≡ −1 mod 2^64, so −p^-1 ≡ 1 mod 2^64, which redc relies on.
	if lo := uint64(p0); lo+1 != 0 {
		t.Fatal("-p^-1 mod 2^64 ≠ 1")
	}
}

// TestFieldInvertProperties checks a·a^-1 = 1 through the package's own
// multiplication, on top of the math/big comparison in TestUnary.
func TestFieldInvertProperties(t *testing.T) {
	var o Element
	o.One()
	for _, x := range ftSamples(t, 20) {
		var inv, prod Element
		inv.Invert(&x)
		prod.Mul(&inv, &x)
		if x.IsZero() == 1 {
			if inv.IsZero() != 1 {
				t.Fatal("Invert(0) ≠ 0")
			}
			continue
		}
		if prod != o {
			t.Fatalf("x·Invert(x) = %#x for x = %#x", prod, x)
		}
	}
}

func TestFieldReduceOnce(t *testing.T) {
	// reduceOnce takes hi·2^256 + t < 2p.
	one := big.NewInt(1)
	twoP := new(big.Int).Lsh(ftP, 1)
	for _, v := range []*big.Int{
		new(big.Int), one, new(big.Int).Sub(ftP, one), ftP, new(big.Int).Add(ftP, one),
		new(big.Int).Sub(ftR, one), ftR, new(big.Int).Add(ftR, one), new(big.Int).Sub(twoP, one),
	} {
		hi := new(big.Int).Rsh(v, 256).Uint64()
		tt := Element(ftLimbs(new(big.Int).Mod(v, ftR)))
		var z Element
		reduceOnce(&z, &tt, hi)
		if want := ftLimbs(ftMod(v)); [4]uint64(z) != want {
			t.Fatalf("reduceOnce(%#x) = %#x, want %#x", v, z, want)
		}
	}
}

func TestFieldAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	r := ftRand(t)
	a, b := ftRandom(r), ftRandom(r)
	var z Element
	var out [32]byte
	enc := a.Bytes()
	sink := 0
	ops := map[string]func(){
		"Mul":           func() { z.Mul(&a, &b) },
		"Square":        func() { z.Square(&a) },
		"SquareN":       func() { z.SquareN(&a, 4) },
		"Add":           func() { z.Add(&a, &b) },
		"Sub":           func() { z.Sub(&a, &b) },
		"Neg":           func() { z.Neg(&a) },
		"Double":        func() { z.Double(&a) },
		"Invert":        func() { z.Invert(&a) },
		"InvertVartime": func() { z.InvertVartime(&a) },
		"Sqrt":          func() { _, ok := z.Sqrt(&a); sink += ok },
		"Select":        func() { z.Select(&a, &b, 1) },
		"Half":          func() { z.Half(&a) },
		"Equal":         func() { sink += a.Equal(&b) },
		"IsZero":        func() { sink += a.IsZero() },
		"SetBytes":      func() { z.SetBytes(enc[:]) },
		"Bytes":         func() { out = a.Bytes() },
		"PutBytes":      func() { a.PutBytes(&out) },
		"Canonical":     func() { c := a.Canonical(); sink += int(c[0]) },
		"SetCanonical":  func() { z.SetCanonical([4]uint64{1, 2, 3, 4}) },
	}
	for name, f := range ops {
		if n := testing.AllocsPerRun(100, f); n != 0 {
			t.Errorf("%s allocates %v times per call", name, n)
		}
	}
	_ = sink
}

// TestFieldLimbHelpers checks the test's own conversions, which every other test
// trusts.
func TestFieldLimbHelpers(t *testing.T) {
	v := ftHex("0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20")
	l := ftLimbs(v)
	if l != [4]uint64{0x191a1b1c1d1e1f20, 0x1112131415161718, 0x090a0b0c0d0e0f10, 0x0102030405060708} {
		t.Fatalf("ftLimbs = %#x", l)
	}
	if ftBig(l).Cmp(v) != 0 {
		t.Fatal("ftBig")
	}
	x := ftHex("123456789")
	m := ftMont(x)
	if ftVal(t, &m).Cmp(x) != 0 {
		t.Fatal("ftMont/ftVal")
	}
}
