package field

import (
	"math/big"
	"math/bits"
	"math/rand/v2"
	"testing"
)

// The tests in this file check every kernel of kernels() bit for bit against
// mulGeneric/squareGeneric and against math/big, on edge values, on values
// built from carry-heavy limb patterns and on uniformly random values.

var (
	kpBig    = limbsToBig([4]uint64{p0, p1, p2, p3})
	kRInv    = new(big.Int).ModInverse(new(big.Int).Lsh(big.NewInt(1), 256), kpBig)
	allOnes  = ^uint64(0)
	kernelRN = rand.New(rand.NewChaCha8([32]byte{'p', '2', '5', '6', 'k'}))
)

func limbsToBig(v [4]uint64) *big.Int {
	n := new(big.Int)
	for i := 3; i >= 0; i-- {
		n.Lsh(n, 64)
		n.Or(n, new(big.Int).SetUint64(v[i]))
	}
	return n
}

func bigToElement(t *testing.T, n *big.Int) Element {
	t.Helper()
	if n.Sign() < 0 || n.Cmp(kpBig) >= 0 {
		t.Fatalf("value %x out of range", n)
	}
	var e Element
	words := new(big.Int).Set(n)
	mask := new(big.Int).SetUint64(allOnes)
	for i := range e {
		e[i] = new(big.Int).And(words, mask).Uint64()
		words.Rsh(words, 64)
	}
	return e
}

// lessThanP reports whether the limbs v hold a value < p.
func lessThanP(v [4]uint64) bool {
	_, b := bits.Sub64(v[0], p0, 0)
	_, b = bits.Sub64(v[1], p1, b)
	_, b = bits.Sub64(v[2], p2, b)
	_, b = bits.Sub64(v[3], p3, b)
	return b == 1
}

// edgeElements returns the edge values: small values, values just below p,
// powers of two, R mod p, R² mod p and limb patterns of all-ones limbs and
// carry boundaries that are < p.
func edgeElements(t *testing.T) []Element {
	var out []Element
	add := func(n *big.Int) { out = append(out, bigToElement(t, n)) }
	for k := int64(0); k < 8; k++ {
		add(big.NewInt(k))
		add(new(big.Int).Sub(kpBig, big.NewInt(k+1)))
	}
	for _, k := range []uint{31, 32, 33, 63, 64, 65, 95, 96, 97, 127, 128, 160, 191, 192, 193, 223, 224, 225, 254, 255} {
		pow := new(big.Int).Lsh(big.NewInt(1), k)
		add(pow)
		add(new(big.Int).Sub(pow, big.NewInt(1)))
		add(new(big.Int).Sub(kpBig, pow))
	}
	out = append(out, one, rr)
	// p-1, p-2 and R mod p are in already; also their halves and negations.
	add(new(big.Int).Rsh(kpBig, 1))
	add(new(big.Int).Sub(kpBig, limbsToBig(one)))
	add(new(big.Int).Sub(kpBig, limbsToBig(rr)))
	// Limbs drawn from a set of carry-boundary patterns, kept if < p.
	pats := []uint64{0, 1, 2, 1 << 32, 1<<32 - 1, 1 << 63, allOnes, allOnes - 1,
		0xffffffff00000000, 0xffffffff00000001, 0xfffffffeffffffff, 0x00000000fffffffe}
	for _, a := range pats {
		for _, b := range []uint64{0, allOnes, 1<<32 - 1} {
			for _, d := range []uint64{0, allOnes, 0xffffffff00000000, 0xfffffffeffffffff, 1 << 63} {
				v := [4]uint64{allOnes, a, b, d}
				if lessThanP(v) {
					out = append(out, Element(v))
				}
				v = [4]uint64{a, allOnes, b, d}
				if lessThanP(v) {
					out = append(out, Element(v))
				}
			}
		}
	}
	return out
}

// patternElement returns a value < p whose limbs are drawn from carry-heavy
// patterns, or uniformly, at random.
func patternElement(r *rand.Rand) Element {
	pats := []uint64{0, 1, allOnes, allOnes - 1, 1 << 63, 1<<32 - 1, 1 << 32,
		0xffffffff00000000, 0xffffffff00000001, 0xfffffffeffffffff}
	for {
		var v [4]uint64
		for i := range v {
			if r.IntN(4) == 0 {
				v[i] = r.Uint64()
			} else {
				v[i] = pats[r.IntN(len(pats))]
			}
		}
		if lessThanP(v) {
			return Element(v)
		}
	}
}

// randomElement returns a uniformly random value < p.
func randomElement(r *rand.Rand) Element {
	for {
		v := [4]uint64{r.Uint64(), r.Uint64(), r.Uint64(), r.Uint64()}
		if lessThanP(v) {
			return Element(v)
		}
	}
}

// wantMul returns x·y·R⁻¹ mod p computed with math/big.
func wantMul(x, y *Element) [4]uint64 {
	n := new(big.Int).Mul(limbsToBig(*x), limbsToBig(*y))
	n.Mul(n, kRInv).Mod(n, kpBig)
	var v [4]uint64
	mask := new(big.Int).SetUint64(allOnes)
	for i := range v {
		v[i] = new(big.Int).And(n, mask).Uint64()
		n.Rsh(n, 64)
	}
	return v
}

// checkKernel checks k on x and y against the generic kernels and, when
// withBig, against math/big, in every aliasing pattern.
func checkKernel(t *testing.T, k kernel, x, y Element, withBig bool) {
	t.Helper()
	var wm, ws Element
	mulGeneric(&wm, &x, &y)
	squareGeneric(&ws, &x)
	if withBig {
		if got := [4]uint64(wm); got != wantMul(&x, &y) {
			t.Fatalf("mulGeneric(%#x, %#x) = %#x, math/big %#x", x, y, got, wantMul(&x, &y))
		}
		if got := [4]uint64(ws); got != wantMul(&x, &x) {
			t.Fatalf("squareGeneric(%#x) = %#x, math/big %#x", x, got, wantMul(&x, &x))
		}
	}
	var z Element
	k.mul(&z, &x, &y)
	if z != wm {
		t.Fatalf("%s mul(%#x, %#x) = %#x, want %#x", k.name, x, y, z, wm)
	}
	z = x
	k.mul(&z, &z, &y)
	if z != wm {
		t.Fatalf("%s mul(z=x, %#x, %#x) = %#x, want %#x", k.name, x, y, z, wm)
	}
	z = y
	k.mul(&z, &x, &z)
	if z != wm {
		t.Fatalf("%s mul(z=y, %#x, %#x) = %#x, want %#x", k.name, x, y, z, wm)
	}
	z = x
	k.mul(&z, &z, &z)
	if z != ws {
		t.Fatalf("%s mul(z=x=y, %#x) = %#x, want %#x", k.name, x, z, ws)
	}
	k.square(&z, &x)
	if z != ws {
		t.Fatalf("%s square(%#x) = %#x, want %#x", k.name, x, z, ws)
	}
	z = x
	k.square(&z, &z)
	if z != ws {
		t.Fatalf("%s square(z=x, %#x) = %#x, want %#x", k.name, x, z, ws)
	}
	var sq Element
	k.mul(&sq, &x, &x)
	if sq != ws {
		t.Fatalf("%s mul(%#x, x) = %#x, want %#x", k.name, x, sq, ws)
	}
}

func TestKernelsList(t *testing.T) {
	names := map[string]bool{}
	for _, k := range kernels() {
		if k.mul == nil || k.square == nil || names[k.name] {
			t.Fatalf("bad kernel entry %q", k.name)
		}
		names[k.name] = true
	}
	if !names["generic"] {
		t.Fatal("generic kernel missing")
	}
	t.Logf("kernels: %v", names)
}

func TestKernelsEdge(t *testing.T) {
	edges := edgeElements(t)
	for _, k := range kernels() {
		t.Run(k.name, func(t *testing.T) {
			for _, x := range edges {
				for _, y := range edges {
					checkKernel(t, k, x, y, true)
				}
			}
		})
	}
}

func TestKernelsPatterns(t *testing.T) {
	n := 20000
	if testing.Short() {
		n = 2000
	}
	for _, k := range kernels() {
		t.Run(k.name, func(t *testing.T) {
			r := rand.New(rand.NewChaCha8([32]byte{'p', 'a', 't'}))
			for i := 0; i < n; i++ {
				checkKernel(t, k, patternElement(r), patternElement(r), i%4 == 0)
			}
		})
	}
}

func TestKernelsRandom(t *testing.T) {
	n := 50000
	if testing.Short() {
		n = 5000
	}
	for _, k := range kernels() {
		t.Run(k.name, func(t *testing.T) {
			r := rand.New(rand.NewChaCha8([32]byte{'r', 'n', 'd'}))
			for i := 0; i < n; i++ {
				checkKernel(t, k, randomElement(r), randomElement(r), i%8 == 0)
			}
		})
	}
}

// TestKernelsChain runs a long dependency chain of products and squares
// through each kernel and compares the final values with math/big.
func TestKernelsChain(t *testing.T) {
	r := rand.New(rand.NewChaCha8([32]byte{'c', 'h', 'n'}))
	x0, y := randomElement(r), randomElement(r)
	for _, k := range kernels() {
		x := x0
		want := limbsToBig(x0)
		yb := limbsToBig(y)
		for i := 0; i < 2000; i++ {
			k.mul(&x, &x, &y)
			k.square(&x, &x)
			want.Mul(want, yb).Mul(want, kRInv).Mod(want, kpBig)
			want.Mul(want, want).Mul(want, kRInv).Mod(want, kpBig)
		}
		if limbsToBig(x).Cmp(want) != 0 {
			t.Fatalf("%s: chain = %x, want %x", k.name, limbsToBig(x), want)
		}
	}
}

// TestDispatch checks that mul and square, as used by Element, agree with
// the generic kernels.
func TestDispatch(t *testing.T) {
	r := rand.New(rand.NewChaCha8([32]byte{'d', 's', 'p'}))
	for i := 0; i < 1000; i++ {
		x, y := randomElement(r), patternElement(r)
		var got, want Element
		mul(&got, &x, &y)
		mulGeneric(&want, &x, &y)
		if got != want {
			t.Fatalf("mul(%#x, %#x) = %#x, want %#x", x, y, got, want)
		}
		square(&got, &y)
		squareGeneric(&want, &y)
		if got != want {
			t.Fatalf("square(%#x) = %#x, want %#x", y, got, want)
		}
	}
}

func TestKernelsAllocs(t *testing.T) {
	x, y := randomElement(kernelRN), randomElement(kernelRN)
	var z Element
	for _, k := range kernels() {
		if n := testing.AllocsPerRun(100, func() { k.mul(&z, &x, &y) }); n != 0 {
			t.Errorf("%s mul: %v allocations", k.name, n)
		}
		if n := testing.AllocsPerRun(100, func() { k.square(&z, &x) }); n != 0 {
			t.Errorf("%s square: %v allocations", k.name, n)
		}
	}
	if n := testing.AllocsPerRun(100, func() { z.Mul(&x, &y).Square(&z) }); n != 0 {
		t.Errorf("Element.Mul/Square: %v allocations", n)
	}
}

var benchSink Element

// The benchmarks chain each operation on its previous result, so they time
// the latency of one operation, as in a ladder or an exponentiation.

func BenchmarkMul(b *testing.B) {
	for _, k := range kernels() {
		b.Run(k.name, func(b *testing.B) {
			r := rand.New(rand.NewChaCha8([32]byte{'b'}))
			x, y := randomElement(r), randomElement(r)
			mulK := k.mul
			for b.Loop() {
				mulK(&x, &x, &y)
			}
			benchSink = x
		})
	}
	b.Run("dispatch", func(b *testing.B) {
		r := rand.New(rand.NewChaCha8([32]byte{'b'}))
		x, y := randomElement(r), randomElement(r)
		for b.Loop() {
			x.Mul(&x, &y)
		}
		benchSink = x
	})
}

func BenchmarkSquare(b *testing.B) {
	for _, k := range kernels() {
		b.Run(k.name, func(b *testing.B) {
			r := rand.New(rand.NewChaCha8([32]byte{'b'}))
			x := randomElement(r)
			squareK := k.square
			for b.Loop() {
				squareK(&x, &x)
			}
			benchSink = x
		})
	}
	b.Run("dispatch", func(b *testing.B) {
		r := rand.New(rand.NewChaCha8([32]byte{'b'}))
		x := randomElement(r)
		for b.Loop() {
			x.Square(&x)
		}
		benchSink = x
	})
}
