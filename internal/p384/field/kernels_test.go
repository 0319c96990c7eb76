package field

import (
	"math/big"
	"math/rand/v2"
	"testing"
)

// The tests in this file check every kernel of kernels() bit for bit
// against math/big (and so against the portable twin), on every pair of
// edge values, on random and carry-heavy values, and in every aliasing.

// kCheck checks k on x and y, in every aliasing pattern.
func kCheck(t *testing.T, k kernel, x, y Element) {
	t.Helper()
	wm := Element(tLimbs(tMod(new(big.Int).Mul(new(big.Int).Mul(tBig(x), tBig(y)), tRInv))))
	ws := Element(tLimbs(tMod(new(big.Int).Mul(new(big.Int).Mul(tBig(x), tBig(x)), tRInv))))
	var z Element
	if k.mul(&z, &x, &y); z != wm {
		t.Fatalf("%s mul(%#x, %#x) = %#x, want %#x", k.name, x, y, z, wm)
	}
	z = x
	if k.mul(&z, &z, &y); z != wm {
		t.Fatalf("%s mul(z=x, %#x, %#x) = %#x, want %#x", k.name, x, y, z, wm)
	}
	z = y
	if k.mul(&z, &x, &z); z != wm {
		t.Fatalf("%s mul(z=y, %#x, %#x) = %#x, want %#x", k.name, x, y, z, wm)
	}
	z = x
	if k.mul(&z, &z, &z); z != ws {
		t.Fatalf("%s mul(z=x=y, %#x) = %#x, want %#x", k.name, x, z, ws)
	}
	if k.square(&z, &x); z != ws {
		t.Fatalf("%s square(%#x) = %#x, want %#x", k.name, x, z, ws)
	}
	z = x
	if k.square(&z, &z); z != ws {
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
	edges := tEdges()
	for _, k := range kernels() {
		t.Run(k.name, func(t *testing.T) {
			for _, x := range edges {
				for _, y := range edges {
					kCheck(t, k, x, y)
				}
			}
		})
	}
}

func TestKernelsRandom(t *testing.T) {
	n := 20000
	if testing.Short() {
		n = 2000
	}
	for _, k := range kernels() {
		t.Run(k.name, func(t *testing.T) {
			r := rand.New(rand.NewChaCha8([32]byte{'r', 'n', 'd'}))
			for i := 0; i < n; i++ {
				kCheck(t, k, tRandom(r), tRandom(r))
			}
		})
	}
}

// TestKernelsTwin compares each kernel with the portable twin on many more
// random inputs than math/big could check quickly.
func TestKernelsTwin(t *testing.T) {
	n := 200000
	if testing.Short() {
		n = 20000
	}
	for _, k := range kernels()[1:] {
		t.Run(k.name, func(t *testing.T) {
			r := rand.New(rand.NewChaCha8([32]byte{'t', 'w', 'n'}))
			for i := 0; i < n; i++ {
				x, y := tRandom(r), tRandom(r)
				var got, want Element
				k.mul(&got, &x, &y)
				mulGeneric(&want, &x, &y)
				if got != want {
					t.Fatalf("%s mul(%#x, %#x) = %#x, twin %#x", k.name, x, y, got, want)
				}
				k.square(&got, &x)
				squareGeneric(&want, &x)
				if got != want {
					t.Fatalf("%s square(%#x) = %#x, twin %#x", k.name, x, got, want)
				}
			}
		})
	}
}

// TestKernelsChain runs a long dependency chain through each kernel and
// compares the end with math/big.
func TestKernelsChain(t *testing.T) {
	r := rand.New(rand.NewChaCha8([32]byte{'c', 'h', 'n'}))
	x0, y := tRandom(r), tRandom(r)
	for _, k := range kernels() {
		x := x0
		want, yb := tBig(x0), tBig(y)
		for i := 0; i < 2000; i++ {
			k.mul(&x, &x, &y)
			k.square(&x, &x)
			want.Mul(want, yb).Mul(want, tRInv).Mod(want, tP)
			want.Mul(want, want).Mul(want, tRInv).Mod(want, tP)
		}
		if tBig(x).Cmp(want) != 0 {
			t.Fatalf("%s: chain = %x, want %x", k.name, tBig(x), want)
		}
	}
}

// TestDispatch checks that Mul and Square agree with the twin with each
// setting of the kernel selection where there is one.
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
			x, y := tRandom(r), tRandom(r)
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
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	r := rand.New(rand.NewChaCha8([32]byte{'k', 'a'}))
	x, y := tRandom(r), tRandom(r)
	var z Element
	for _, k := range kernels() {
		if n := testing.AllocsPerRun(100, func() { k.mul(&z, &x, &y) }); n != 0 {
			t.Errorf("%s mul: %v allocations", k.name, n)
		}
		if n := testing.AllocsPerRun(100, func() { k.square(&z, &x) }); n != 0 {
			t.Errorf("%s square: %v allocations", k.name, n)
		}
	}
}
