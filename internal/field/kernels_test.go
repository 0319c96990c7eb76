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
	kpBig    = kLimbsToBig([4]uint64{p0, p1, p2, p3})
	kRInv    = new(big.Int).ModInverse(new(big.Int).Lsh(big.NewInt(1), 256), kpBig)
	kAllOnes = ^uint64(0)
	kernelRN = rand.New(rand.NewChaCha8([32]byte{'p', '2', '5', '6', 'k'}))
)

func kLimbsToBig(v [4]uint64) *big.Int {
	n := new(big.Int)
	for i := 3; i >= 0; i-- {
		n.Lsh(n, 64)
		n.Or(n, new(big.Int).SetUint64(v[i]))
	}
	return n
}

func kBigToElement(t *testing.T, n *big.Int) Element {
	t.Helper()
	if n.Sign() < 0 || n.Cmp(kpBig) >= 0 {
		t.Fatalf("value %x out of range", n)
	}
	var e Element
	words := new(big.Int).Set(n)
	mask := new(big.Int).SetUint64(kAllOnes)
	for i := range e {
		e[i] = new(big.Int).And(words, mask).Uint64()
		words.Rsh(words, 64)
	}
	return e
}

// kLessThanP reports whether the limbs v hold a value < p.
func kLessThanP(v [4]uint64) bool {
	_, b := bits.Sub64(v[0], p0, 0)
	_, b = bits.Sub64(v[1], p1, b)
	_, b = bits.Sub64(v[2], p2, b)
	_, b = bits.Sub64(v[3], p3, b)
	return b == 1
}

// kEdgeElements returns the edge values: small values, values just below p,
// powers of two, R mod p, R² mod p and limb patterns of all-ones limbs and
// carry boundaries that are < p.
func kEdgeElements(t *testing.T) []Element {
	var out []Element
	add := func(n *big.Int) { out = append(out, kBigToElement(t, n)) }
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
	add(new(big.Int).Sub(kpBig, kLimbsToBig(one)))
	add(new(big.Int).Sub(kpBig, kLimbsToBig(rr)))
	// Limbs drawn from a set of carry-boundary patterns, kept if < p.
	pats := []uint64{0, 1, 2, 1 << 32, 1<<32 - 1, 1 << 63, kAllOnes, kAllOnes - 1,
		0xffffffff00000000, 0xffffffff00000001, 0xfffffffeffffffff, 0x00000000fffffffe}
	for _, a := range pats {
		for _, b := range []uint64{0, kAllOnes, 1<<32 - 1} {
			for _, d := range []uint64{0, kAllOnes, 0xffffffff00000000, 0xfffffffeffffffff, 1 << 63} {
				v := [4]uint64{kAllOnes, a, b, d}
				if kLessThanP(v) {
					out = append(out, Element(v))
				}
				v = [4]uint64{a, kAllOnes, b, d}
				if kLessThanP(v) {
					out = append(out, Element(v))
				}
			}
		}
	}
	return out
}

// kPatternElement returns a value < p whose limbs are drawn from carry-heavy
// patterns, or uniformly, at random.
func kPatternElement(r *rand.Rand) Element {
	pats := []uint64{0, 1, kAllOnes, kAllOnes - 1, 1 << 63, 1<<32 - 1, 1 << 32,
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
		if kLessThanP(v) {
			return Element(v)
		}
	}
}

// kRandomElement returns a uniformly random value < p.
func kRandomElement(r *rand.Rand) Element {
	for {
		v := [4]uint64{r.Uint64(), r.Uint64(), r.Uint64(), r.Uint64()}
		if kLessThanP(v) {
			return Element(v)
		}
	}
}

// kWantMul returns x·y·R⁻¹ mod p computed with math/big.
func kWantMul(x, y *Element) [4]uint64 {
	n := new(big.Int).Mul(kLimbsToBig(*x), kLimbsToBig(*y))
	n.Mul(n, kRInv).Mod(n, kpBig)
	var v [4]uint64
	mask := new(big.Int).SetUint64(kAllOnes)
	for i := range v {
		v[i] = new(big.Int).And(n, mask).Uint64()
		n.Rsh(n, 64)
	}
	return v
}

// kExpect returns x·y·R⁻¹ and x·x·R⁻¹ from the generic kernels; with withBig
// it first checks those against math/big.
func kExpect(t *testing.T, x, y Element, withBig bool) (wm, ws Element) {
	t.Helper()
	mulGeneric(&wm, &x, &y)
	squareGeneric(&ws, &x)
	if withBig {
		if got, want := [4]uint64(wm), kWantMul(&x, &y); got != want {
			t.Fatalf("mulGeneric(%#x, %#x) = %#x, math/big %#x", x, y, got, want)
		}
		if got, want := [4]uint64(ws), kWantMul(&x, &x); got != want {
			t.Fatalf("squareGeneric(%#x) = %#x, math/big %#x", x, got, want)
		}
	}
	return wm, ws
}

// kCheck checks k on x and y, in every aliasing pattern, against the
// expected products wm = x·y·R⁻¹ and ws = x·x·R⁻¹.
func kCheck(t *testing.T, k kernel, x, y, wm, ws Element) {
	t.Helper()
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
	k.mul(&z, &x, &x)
	if z != ws {
		t.Fatalf("%s mul(%#x, x) = %#x, want %#x", k.name, x, z, ws)
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
	edges := kEdgeElements(t)
	n := len(edges)
	// Every pair's products are checked against math/big once, then each
	// kernel against them.
	wm, ws := make([]Element, n*n), make([]Element, n)
	for i := range edges {
		wm[i*n+i], ws[i] = kExpect(t, edges[i], edges[i], true)
		for j := range edges {
			if j != i {
				mulGeneric(&wm[i*n+j], &edges[i], &edges[j])
				if got, want := [4]uint64(wm[i*n+j]), kWantMul(&edges[i], &edges[j]); got != want {
					t.Fatalf("mulGeneric(%#x, %#x) = %#x, math/big %#x", edges[i], edges[j], got, want)
				}
			}
		}
	}
	t.Logf("%d edge values", n)
	for _, k := range kernels() {
		t.Run(k.name, func(t *testing.T) {
			for i, x := range edges {
				for j, y := range edges {
					kCheck(t, k, x, y, wm[i*n+j], ws[i])
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
				x, y := kPatternElement(r), kPatternElement(r)
				wm, ws := kExpect(t, x, y, i%4 == 0)
				kCheck(t, k, x, y, wm, ws)
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
				x, y := kRandomElement(r), kRandomElement(r)
				wm, ws := kExpect(t, x, y, i%8 == 0)
				kCheck(t, k, x, y, wm, ws)
			}
		})
	}
}

// TestKernelsChain runs a long dependency chain of products and squares
// through each kernel and compares the final values with math/big.
func TestKernelsChain(t *testing.T) {
	r := rand.New(rand.NewChaCha8([32]byte{'c', 'h', 'n'}))
	x0, y := kRandomElement(r), kRandomElement(r)
	for _, k := range kernels() {
		x := x0
		want := kLimbsToBig(x0)
		yb := kLimbsToBig(y)
		for i := 0; i < 2000; i++ {
			k.mul(&x, &x, &y)
			k.square(&x, &x)
			want.Mul(want, yb).Mul(want, kRInv).Mod(want, kpBig)
			want.Mul(want, want).Mul(want, kRInv).Mod(want, kpBig)
		}
		if kLimbsToBig(x).Cmp(want) != 0 {
			t.Fatalf("%s: chain = %x, want %x", k.name, kLimbsToBig(x), want)
		}
	}
}

// TestDispatch checks that mul and square, as used by Element, agree with
// the generic kernels, with each setting of the kernel selection where there
// is one.
func TestDispatch(t *testing.T) {
	settings := []bool{true}
	if selectADX != nil {
		old := selectADX(true)
		defer selectADX(old)
		settings = []bool{true, false}
	}
	for _, adx := range settings {
		if selectADX != nil {
			selectADX(adx)
		}
		r := rand.New(rand.NewChaCha8([32]byte{'d', 's', 'p'}))
		for i := 0; i < 2000; i++ {
			x, y := kRandomElement(r), kPatternElement(r)
			var got, want Element
			got.Mul(&x, &y)
			mulGeneric(&want, &x, &y)
			if got != want {
				t.Fatalf("adx=%v: Mul(%#x, %#x) = %#x, want %#x", adx, x, y, got, want)
			}
			got.Square(&y)
			squareGeneric(&want, &y)
			if got != want {
				t.Fatalf("adx=%v: Square(%#x) = %#x, want %#x", adx, y, got, want)
			}
		}
	}
}

func TestKernelsAllocs(t *testing.T) {
	x, y := kRandomElement(kernelRN), kRandomElement(kernelRN)
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

var kBenchSink Element

// The benchmarks chain each operation on its previous result, so they time
// the latency of one operation, as in a ladder or an exponentiation.

func BenchmarkMul(b *testing.B) {
	for _, k := range kernels() {
		b.Run(k.name, func(b *testing.B) {
			r := rand.New(rand.NewChaCha8([32]byte{'b'}))
			x, y := kRandomElement(r), kRandomElement(r)
			mulK := k.mul
			for b.Loop() {
				mulK(&x, &x, &y)
			}
			kBenchSink = x
		})
	}
	b.Run("dispatch", func(b *testing.B) {
		r := rand.New(rand.NewChaCha8([32]byte{'b'}))
		x, y := kRandomElement(r), kRandomElement(r)
		for b.Loop() {
			x.Mul(&x, &y)
		}
		kBenchSink = x
	})
}

func BenchmarkSquare(b *testing.B) {
	for _, k := range kernels() {
		b.Run(k.name, func(b *testing.B) {
			r := rand.New(rand.NewChaCha8([32]byte{'b'}))
			x := kRandomElement(r)
			squareK := k.square
			for b.Loop() {
				squareK(&x, &x)
			}
			kBenchSink = x
		})
	}
	b.Run("dispatch", func(b *testing.B) {
		r := rand.New(rand.NewChaCha8([32]byte{'b'}))
		x := kRandomElement(r)
		for b.Loop() {
			x.Square(&x)
		}
		kBenchSink = x
	})
}
