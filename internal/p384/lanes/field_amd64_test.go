//go:build amd64 && !purego

package lanes

import (
	"crypto/elliptic"
	"math/big"
	"math/rand/v2"
	"testing"
)

// The field subroutines of the kernel, one at a time through the test
// kernels (slots 0 and 1 in, slot 2 out, slot 3 the K·p or p), against
// math/big, on every lane.

var (
	bigP   = elliptic.P384().Params().P
	mask52 = new(big.Int).SetUint64(1<<52 - 1)
	r416   = new(big.Int).Lsh(big.NewInt(1), 416)
)

type vecSlots [4 * 64]uint64

// needIFMA skips tb where the kernel cannot run.
func needIFMA(tb testing.TB) {
	tb.Helper()
	if !Available {
		tb.Skip("no AVX-512 IFMA")
	}
}

func (s *vecSlots) set(slot, lane int, v *big.Int) {
	if v.Sign() < 0 || v.BitLen() > 416 {
		panic("value out of range")
	}
	for i := 0; i < 8; i++ {
		s[64*slot+8*i+lane] = new(big.Int).And(new(big.Int).Rsh(v, uint(52*i)), mask52).Uint64()
	}
}

// get returns the value of slot, lane, and whether its limbs are normalized
// (each below 2^52).
func (s *vecSlots) get(slot, lane int) (*big.Int, bool) {
	v := new(big.Int)
	ok := true
	for i := 7; i >= 0; i-- {
		l := s[64*slot+8*i+lane]
		if l>>52 != 0 {
			ok = false
		}
		v.Lsh(v, 52).Add(v, new(big.Int).SetUint64(l))
	}
	return v, ok
}

func mulP(k int64) *big.Int { return new(big.Int).Mul(bigP, big.NewInt(k)) }

// edgeValues returns values below bound·p: the small ones, p's neighbours,
// multiples of p and their neighbours, all-ones limb patterns, and random
// values.
func edgeValues(rng *rand.Rand, bound int64, n int) []*big.Int {
	lim := mulP(bound)
	var vs []*big.Int
	add := func(v *big.Int) {
		if v.Sign() >= 0 && v.Cmp(lim) < 0 {
			vs = append(vs, v)
		}
	}
	for _, v := range []int64{0, 1, 2, 1<<52 - 1, 1 << 52} {
		add(big.NewInt(v))
	}
	for k := int64(1); k < bound && k <= 40; k++ {
		add(new(big.Int).Sub(mulP(k), big.NewInt(1)))
		add(mulP(k))
		add(new(big.Int).Add(mulP(k), big.NewInt(1)))
	}
	for _, bits := range []uint{52, 104, 200, 383, 384, 385, 400} {
		add(new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), bits), big.NewInt(1)))
	}
	add(new(big.Int).Sub(lim, big.NewInt(1)))
	for len(vs) < n {
		b := make([]byte, 53)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		v := new(big.Int).SetBytes(b)
		add(v.Mod(v, lim))
	}
	return vs
}

// runOp fills the eight lanes of slots 0 and 1 with xs[i..i+8], ys[...]
// and those of slot 3 with k, runs kernel, and calls check for each lane.
func runOp(t *testing.T, name string, kernel func(*[256]uint64), k *big.Int, xs, ys []*big.Int, check func(x, y, got *big.Int) string) {
	t.Helper()
	var s vecSlots
	for i := 0; i < len(xs); i += 8 {
		for l := 0; l < 8; l++ {
			s.set(0, l, xs[(i+l)%len(xs)])
			s.set(1, l, ys[(i+l)%len(ys)])
			s.set(3, l, k)
		}
		kernel((*[256]uint64)(&s))
		for l := 0; l < 8; l++ {
			got, norm := s.get(2, l)
			x, y := xs[(i+l)%len(xs)], ys[(i+l)%len(ys)]
			if !norm {
				t.Fatalf("%s(%x, %x): limbs not normalized", name, x, y)
			}
			if msg := check(x, y, got); msg != "" {
				t.Fatalf("%s(%x, %x) = %x: %s", name, x, y, got, msg)
			}
		}
	}
}

// wants returns a check of runOp that got is want(x, y), failing with msg.
func wants(msg string, want func(x, y *big.Int) *big.Int) func(x, y, got *big.Int) string {
	return func(x, y, got *big.Int) string {
		if got.Cmp(want(x, y)) != 0 {
			return msg
		}
		return ""
	}
}

// pairs returns every pair of xs and ys as two slices.
func pairs(xs, ys []*big.Int) (a, b []*big.Int) {
	for _, x := range xs {
		for _, y := range ys {
			a = append(a, x)
			b = append(b, y)
		}
	}
	return a, b
}

func TestVecMul(t *testing.T) {
	needIFMA(t)
	rng := rand.New(rand.NewPCG(1, 2))
	// The kernel's bounds: products of values below 40p and 6p, 34p and
	// 34p, 2^32·p and 1 (the conversions).
	for _, bb := range [][2]int64{{2, 2}, {40, 6}, {34, 34}, {18, 18}, {1 << 16, 1 << 16}} {
		xs, ys := pairs(edgeValues(rng, bb[0], 40), edgeValues(rng, bb[1], 40))
		runOp(t, "mul", vecMulAVX512, new(big.Int), xs, ys, checkMontProduct)
	}
}

// checkMontProduct checks got·2^416 ≡ x·y (mod p) and got < x·y/2^416 + p.
func checkMontProduct(x, y, got *big.Int) string {
	l := new(big.Int).Mul(got, r416)
	r := new(big.Int).Mul(x, y)
	if new(big.Int).Mod(new(big.Int).Sub(l, r), bigP).Sign() != 0 {
		return "not x·y·2^−416 mod p"
	}
	if new(big.Int).Sub(l, r).Cmp(new(big.Int).Mul(bigP, r416)) >= 0 {
		return "not below x·y/2^416 + p"
	}
	return ""
}

func TestVecSqr(t *testing.T) {
	needIFMA(t)
	rng := rand.New(rand.NewPCG(13, 14))
	// Squares of values below 40p (the kernel's largest squared bound is
	// 34) and up to 2^16·p.
	for _, b := range []int64{2, 40, 1 << 16} {
		xs := edgeValues(rng, b, 400)
		runOp(t, "sqr", vecSqrAVX512, new(big.Int), xs, xs, func(x, _, got *big.Int) string {
			return checkMontProduct(x, x, got)
		})
	}
}

func TestVecAddSub(t *testing.T) {
	needIFMA(t)
	rng := rand.New(rand.NewPCG(3, 4))
	xs, ys := pairs(edgeValues(rng, 40, 30), edgeValues(rng, 34, 30))
	runOp(t, "add", vecAddAVX512, new(big.Int), xs, ys, wants("not x + y", func(x, y *big.Int) *big.Int {
		return new(big.Int).Add(x, y)
	}))
	for _, k := range []int64{1, 2, 4, 8, 16, 32} {
		xs, ys := pairs(edgeValues(rng, 40, 20), edgeValues(rng, k, 20))
		kp := mulP(k)
		runOp(t, "sub", vecSubAVX512, kp, xs, ys, wants("not x − y + K·p", func(x, y *big.Int) *big.Int {
			return new(big.Int).Add(new(big.Int).Sub(x, y), kp)
		}))
	}
}

func TestVecFoldCanon(t *testing.T) {
	needIFMA(t)
	rng := rand.New(rand.NewPCG(5, 6))
	// Fold takes any normalized value: up to 2^416 − 1.
	xs := edgeValues(rng, 1<<31, 200)
	xs = append(xs, new(big.Int).Sub(r416, big.NewInt(1)), new(big.Int).Lsh(big.NewInt(1), 415))
	runOp(t, "fold", vecFoldAVX512, new(big.Int), xs, xs, func(x, _, got *big.Int) string {
		if got.Cmp(mulP(2)) >= 0 {
			return "not below 2p"
		}
		if new(big.Int).Mod(new(big.Int).Sub(got, x), bigP).Sign() != 0 {
			return "not x mod p"
		}
		return ""
	})
	xs = edgeValues(rng, 2, 200)
	runOp(t, "canon", vecCanonAVX512, bigP, xs, xs, wants("not x mod p", func(x, _ *big.Int) *big.Int {
		return new(big.Int).Mod(x, bigP)
	}))
}
