//go:build arm64 && !purego

package safegcd

// The arm64 kernels against their portable twins, bit for bit: every
// output word, on edge and random inputs; the updates also on inputs the
// divisions never produce (matrices beyond the divstep bound, any top
// limb), since they promise the twins' results whatever the data. The
// divisions through the kernels are checked against math/big by the tests
// of safegcd_test.go, which run here too.

import (
	"math/big"
	"math/rand"
	"testing"
)

// TestDivConstKernel runs Div's divsteps and updates in the kernel and in
// the twin from the same start (f = M, g = x, d = 0, e = c, and wider f,
// g) for every test modulus and compares d, e, f and g.
func TestDivConstKernel(t *testing.T) {
	r := rand.New(rand.NewSource(21))
	iters := 300
	if testing.Short() {
		iters = 30
	}
	for _, m := range testModuli(r) {
		mod := NewModulus(fromBig(m))
		// check runs both from f, g (big-endian values fb, gb) and e = c,
		// d = 0, and returns the final g.
		check := func(fb, gb, c *big.Int) num {
			t.Helper()
			f, g, e := bigToNum(fb, nLimbs256), bigToNum(gb, nLimbs256), bigToNum(c, nLimbs256)
			var d num
			wd, we, wf, wg := d, e, f, g
			divConstStepsGeneric(&wd, &we, &wf, &wg, &mod.core)
			divConstAsm(&d, &e, &f, &g, &mod.m, mod.minv)
			if d != wd || e != we || f != wf || g != wg {
				t.Fatalf("divConstAsm(f = %x, g = %x, c = %x) mod %x:\n d, e, f, g = %x %x %x %x\nwant %x %x %x %x", fb, gb, c, m, d, e, f, g, wd, we, wf, wg)
			}
			return wg
		}
		xs := edgeValues(m, 256)
		for i := 0; i < iters; i++ {
			xs = append(xs, new(big.Int).Rand(r, m))
		}
		for i, x := range xs {
			c := new(big.Int).Rand(r, m)
			if i%3 == 0 {
				c = xs[r.Intn(len(xs))]
			}
			check(m, x, c)
		}
		// f and g of up to 300 bits, of either sign, which the divisions
		// never start from: they keep g nonzero through the last batches
		// (256-bit inputs reach g = 0 within about 500 steps, after which
		// the batches change little).
		wide := new(big.Int).Lsh(big.NewInt(1), 300)
		for i := 0; i < iters/3+1; i++ {
			fb, gb := new(big.Int).Rand(r, wide), new(big.Int).Rand(r, wide)
			fb.SetBit(fb, 0, 1)
			if i%2 == 1 {
				fb.Neg(fb)
			}
			if i%3 == 1 {
				gb.Neg(gb)
			}
			if g := check(fb, gb, new(big.Int).Rand(r, m)); i == 0 && numToBig(&g).Sign() == 0 {
				t.Errorf("g = 0 after %d divsteps from 300-bit f, g: the late batches go untested", constSteps)
			}
		}
	}
}

// randMatrix returns a matrix: random, or at the divstep bound
// |u|+|v| = 2^62, or any 64-bit entries.
func randMatrix(r *rand.Rand, i int) matrix {
	const two62 = int64(1) << 62
	sign := func() int64 { return 1 - 2*int64(r.Intn(2)) }
	row := func() (int64, int64) {
		switch i % 5 {
		case 0:
			a := r.Int63n(two62 + 1)
			return a * sign(), (two62 - a) * sign()
		case 1:
			return two62 * sign(), 0
		case 2:
			return int64(r.Uint64()), int64(r.Uint64())
		case 3:
			return -two62 / 2, -two62 / 2
		}
		return r.Int63n(two62) - two62/2, r.Int63n(two62) - two62/2
	}
	var m matrix
	m.u, m.v = row()
	m.q, m.r = row()
	return m
}

// randNum returns an n-limb number with limbs 0..n−2 in [0, 2^62) (often
// 0 or 2^62 − 1) and a signed top limb, the unused limbs set to a marker
// that must survive.
func randNum(r *rand.Rand, n int) num {
	var a num
	for i := 0; i < n-1; i++ {
		switch r.Intn(4) {
		case 0:
			a[i] = 0
		case 1:
			a[i] = limbMask
		default:
			a[i] = int64(r.Uint64() & limbMask)
		}
	}
	switch r.Intn(4) {
	case 0:
		a[n-1] = int64(r.Intn(512)) - 256
	case 1:
		a[n-1] = -1
	default:
		a[n-1] = int64(r.Uint64())
	}
	for i := n; i < maxLimbs; i++ {
		a[i] = 0x0123456789abcdef
	}
	return a
}

func TestUpdateFGKernels(t *testing.T) {
	r := rand.New(rand.NewSource(22))
	for n := 1; n <= maxLimbs; n++ {
		for i := 0; i < 10000; i++ {
			f, g, tm := randNum(r, n), randNum(r, n), randMatrix(r, i)
			wf, wg := f, g
			updateFGGeneric(&wf, &wg, &tm, n)
			updateFG(&f, &g, &tm, n)
			if f != wf || g != wg {
				t.Fatalf("updateFG(%+v, %d):\n f = %x\nwant %x\n g = %x\nwant %x", tm, n, f, wf, g, wg)
			}
		}
	}
}

func TestUpdateDEKernels(t *testing.T) {
	r := rand.New(rand.NewSource(23))
	for _, mod := range testCores(r) {
		for i := 0; i < 2000; i++ {
			d, e, tm := randNum(r, mod.n), randNum(r, mod.n), randMatrix(r, i)
			if i%2 == 0 {
				// d, e in (−2M, M), as the divisions keep them.
				m := numToBig(&mod.m)
				lo := new(big.Int).Lsh(m, 1)
				lo.Neg(lo).Add(lo, big.NewInt(1))
				span := new(big.Int).Mul(m, big.NewInt(3))
				span.Sub(span, big.NewInt(1))
				d = bigToNum(new(big.Int).Add(new(big.Int).Rand(r, span), lo), mod.n)
				e = bigToNum(new(big.Int).Add(new(big.Int).Rand(r, span), lo), mod.n)
			}
			wd, we := d, e
			updateDEGeneric(&wd, &we, &tm, mod)
			updateDE(&d, &e, &tm, mod)
			if d != wd || e != we {
				t.Fatalf("updateDE%dAsm(%+v) mod %x:\n d = %x\nwant %x\n e = %x\nwant %x", mod.n, tm, mod.m, d, wd, e, we)
			}
		}
	}
}
