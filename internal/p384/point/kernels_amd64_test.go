//go:build amd64 && !purego

package point

import (
	"crypto/ecdh"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/p256tls/p256tls/internal/ecdsaverify/ecdsatest"
	"github.com/p256tls/p256tls/internal/p384/field"
)

// The fused kernels of jacobian_amd64.s against the portable double and
// addMixed, limb for limb.

// kPLimbs is p, least significant limb first.
var kPLimbs = [6]uint64{0x00000000ffffffff, 0xffffffff00000000, 0xfffffffffffffffe,
	0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff}

// kBelowP reports whether the limbs e are below p.
func kBelowP(e *field.Element) bool {
	var b uint64
	for i := range e {
		_, b = bits.Sub64(e[i], kPLimbs[i], b)
	}
	return b == 1
}

// kRandElement returns a uniformly random fully reduced element (in the
// representation, whatever it means).
func kRandElement(r *rand.Rand) field.Element {
	for {
		var e field.Element
		for i := range e {
			e[i] = r.Uint64()
		}
		if kBelowP(&e) {
			return e
		}
	}
}

// kEdgeElements are representations at the edges of the range: 0, 1, 2,
// p−1, p−2, Montgomery one, 2^383, and values with all-ones or zero limbs
// (carries and borrows through every limb of the additions, c's limbs).
func kEdgeElements() []field.Element {
	var one field.Element
	one.One()
	pm := func(d uint64) field.Element {
		e := field.Element(kPLimbs)
		e[0] -= d
		return e
	}
	return []field.Element{
		{},
		{1},
		{2},
		pm(1),
		pm(2),
		one,
		{0, 0, 0, 0, 0, 1 << 63},
		{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0), 0x7fffffffffffffff},
		{^uint64(0), 0, ^uint64(0), 0, ^uint64(0), 0},
		{0xffffffff00000001, 0x00000000ffffffff, 1},
		{0, ^uint64(0), 0, ^uint64(0), 0, 1},
	}
}

// checkDouble doubles p with double, doubleADX and Double and fails unless
// the limbs are identical.
func checkDouble(t *testing.T, p *Jacobian) {
	t.Helper()
	want, got := *p, *p
	double(&want)
	doubleADX(jacobianWords(&got))
	if got != want {
		t.Fatalf("doubleADX(%x)\n = %x\nwant %x", *p, got, want)
	}
	fast := *p
	fast.Double()
	if fast != want {
		t.Fatalf("Double(%x)\n = %x\nwant %x", *p, fast, want)
	}
}

// kScaled returns a random representation (λ²X, λ³Y, λZ) of p, λ ≠ 0.
func kScaled(r *rand.Rand, p *Jacobian) Jacobian {
	l := kRandElement(r)
	for l.IsZero() == 1 {
		l = kRandElement(r)
	}
	var l2, l3 field.Element
	l2.Square(&l)
	l3.Mul(&l2, &l)
	var q Jacobian
	q.X.Mul(&p.X, &l2)
	q.Y.Mul(&p.Y, &l3)
	q.Z.Mul(&p.Z, &l)
	return q
}

func TestDoubleADX(t *testing.T) {
	if !useDoubleADX {
		t.Skip("no fused doubling kernel on this CPU")
	}
	r := rand.New(rand.NewPCG(1, 2))
	n := 0
	t.Run("edges", func(t *testing.T) {
		edges := append(kEdgeElements(), kRandElement(r))
		for _, e := range edges {
			if !kBelowP(&e) {
				t.Fatalf("edge %x is not below p", e)
			}
		}
		for _, x := range edges {
			for _, y := range edges {
				for _, z := range edges {
					checkDouble(t, &Jacobian{X: x, Y: y, Z: z})
					n++
				}
			}
		}
	})
	t.Run("random-elements", func(t *testing.T) {
		for range 4000 {
			checkDouble(t, &Jacobian{X: kRandElement(r), Y: kRandElement(r), Z: kRandElement(r)})
			n++
		}
	})
	t.Run("infinity", func(t *testing.T) {
		for range 500 {
			checkDouble(t, &Jacobian{X: kRandElement(r), Y: kRandElement(r)})
			n++
		}
	})
	t.Run("half-edges", func(t *testing.T) {
		// Inputs whose 3α (the value halved, in the representation) is an
		// edge of the halving: odd, with low 320 bits below c = 2^384 − p
		// (adding p does not carry out of limb 4), or p − 2. With Z
		// random, X = √(α + Z⁴), so that α = X² − Z⁴ = (X − Z²)(X + Z²).
		var one, three, third field.Element
		one.One()
		three.Double(&one)
		three.Add(&three, &one)
		third.Invert(&three)
		targets := []field.Element{
			{1}, {3}, {0xffffffff00000001, 0x00000000ffffffff},
			{1, 0, 0, 0, 0, 1 << 63}, {^uint64(0), ^uint64(0), 0, 0, 0, 5},
			{0xffffffff00000001, 0x00000000ffffffff, 0, 0, 0, ^uint64(0) - 1},
			field.Element{kPLimbs[0] - 2, kPLimbs[1], kPLimbs[2], kPLimbs[3], kPLimbs[4], kPLimbs[5]},
		}
		for _, v := range targets {
			var alpha field.Element
			alpha.Mul(&v, &third)
			for k := 0; k < 8; {
				p := Jacobian{Y: kRandElement(r), Z: kRandElement(r)}
				var x2 field.Element
				x2.Square(&p.Z)
				x2.Square(&x2)
				x2.Add(&x2, &alpha)
				if _, ok := p.X.Sqrt(&x2); ok != 1 {
					continue
				}
				var zz, lo, hi field.Element
				zz.Square(&p.Z)
				lo.Sub(&p.X, &zz)
				hi.Add(&p.X, &zz)
				lo.Mul(&lo, &hi)
				if lo.Mul(&lo, &three); lo != v {
					t.Fatalf("3α = %x, want %x", lo, v)
				}
				checkDouble(t, &p)
				n++
				k++
			}
		}
	})
	t.Run("points", func(t *testing.T) {
		g := Generator()
		for range 50 {
			var p Jacobian
			p.SetAffine(&g)
			p = kScaled(r, &p)
			for range 100 {
				checkDouble(t, &p)
				n++
				p.Double()
			}
		}
	})
	if n < 10000 {
		t.Fatalf("only %d cases", n)
	}
}

// checkAddMixed adds a to p (or subtracts it) with addMixed and with
// AddMixedVartime, and, when p is not at infinity, with addMixedADX, and
// fails unless the limbs are identical; when H = 0 the kernel must report
// it and leave p as it was. It returns addMixed's result.
func checkAddMixed(t *testing.T, p *Jacobian, a *Affine, neg bool) Jacobian {
	t.Helper()
	want, fast := *p, *p
	addMixed(&want, a, neg)
	fast.AddMixedVartime(a, neg)
	if fast != want {
		t.Fatalf("AddMixedVartime(%x, %x, %v)\n = %x\nwant %x", *p, *a, neg, fast, want)
	}
	if p.Z.IsZero() == 1 {
		return want
	}
	var ng uint64
	if neg {
		ng = 1
	}
	got := *p
	hZero := addMixedADX(jacobianWords(&got), affineWords(a), ng)
	var z1z1, h field.Element
	z1z1.Square(&p.Z)
	h.Mul(&a.X, &z1z1)
	h.Sub(&h, &p.X)
	switch {
	case hZero != uint64(h.IsZero()):
		t.Fatalf("addMixedADX(%x, %x, %v) reports hZero = %d, H = %x", *p, *a, neg, hZero, h)
	case hZero == 1 && got != *p:
		t.Fatalf("addMixedADX(%x, %x, %v) changed p with H = 0: %x", *p, *a, neg, got)
	case hZero == 0 && got != want:
		t.Fatalf("addMixedADX(%x, %x, %v)\n = %x\nwant %x", *p, *a, neg, got, want)
	}
	return want
}

// kECDHPoint returns the public key of a fresh crypto/ecdh P-384 key.
func kECDHPoint(t testing.TB, r *rand.Rand) Affine {
	for {
		var seed [48]byte
		for i := range seed {
			seed[i] = byte(r.Uint32())
		}
		k, err := ecdh.P384().NewPrivateKey(seed[:])
		if err != nil {
			continue // a scalar out of range: astronomically unlikely
		}
		var a Affine
		if _, err := a.SetBytes(k.PublicKey().Bytes()); err != nil {
			t.Fatal(err)
		}
		return a
	}
}

func TestAddMixedADX(t *testing.T) {
	if !useAddMixedADX {
		t.Skip("no fused addition kernel on this CPU")
	}
	r := rand.New(rand.NewPCG(3, 4))
	n, hz := 0, 0
	check := func(p *Jacobian, a *Affine, neg bool) Jacobian {
		q := checkAddMixed(t, p, a, neg)
		n++
		return q
	}
	t.Run("points", func(t *testing.T) {
		for range 100 {
			a, b := kECDHPoint(t, r), kECDHPoint(t, r)
			var p Jacobian
			p.SetAffine(&b)
			p = kScaled(r, &p)
			for i := range 40 {
				p = check(&p, &a, i%3 == 0)
				if p.Z.IsZero() == 1 {
					p.SetAffine(&b)
				}
			}
		}
	})
	t.Run("equal-and-opposite", func(t *testing.T) {
		for range 300 {
			a := kECDHPoint(t, r)
			var p Jacobian
			p.SetAffine(&a)
			p = kScaled(r, &p)
			q := p
			q.Y.Neg(&q.Y)
			for _, neg := range []bool{false, true} {
				// p + a and q − a double, p − a and q + a are infinity.
				for _, s := range []*Jacobian{&p, &q} {
					if got := check(s, &a, neg); (s == &p) == neg && got.Z.IsZero() != 1 {
						t.Fatalf("%x ± %x is not infinity", *s, a)
					}
					hz++
				}
			}
		}
	})
	t.Run("infinity", func(t *testing.T) {
		for range 300 {
			a := kECDHPoint(t, r)
			p := Jacobian{X: kRandElement(r), Y: kRandElement(r)}
			check(&p, &a, false)
			check(&p, &a, true)
		}
	})
	t.Run("edges", func(t *testing.T) {
		edges := append(kEdgeElements(), kRandElement(r))
		for _, x := range edges {
			for _, y := range edges {
				for _, z := range edges {
					p := Jacobian{X: x, Y: y, Z: z}
					for _, ax := range edges[:6] {
						for _, ay := range edges[5:] {
							check(&p, &Affine{X: ax, Y: ay}, n&1 == 1)
						}
					}
				}
			}
		}
	})
	t.Run("random-elements", func(t *testing.T) {
		for range 4000 {
			p := Jacobian{X: kRandElement(r), Y: kRandElement(r), Z: kRandElement(r)}
			a := Affine{X: kRandElement(r), Y: kRandElement(r)}
			check(&p, &a, false)
			check(&p, &a, true)
		}
	})
	t.Run("h-zero-off-curve", func(t *testing.T) {
		// X2 = X1/Z1² with an arbitrary Y2: H = 0 with r ≠ 0 (infinity) or,
		// with Y2 = ±Y1/Z1³, r = 0 (doubling).
		for range 500 {
			p := Jacobian{X: kRandElement(r), Y: kRandElement(r), Z: kRandElement(r)}
			if p.Z.IsZero() == 1 {
				continue
			}
			var zi, zi2, zi3 field.Element
			zi.Invert(&p.Z)
			zi2.Square(&zi)
			zi3.Mul(&zi2, &zi)
			var a Affine
			a.X.Mul(&p.X, &zi2)
			a.Y = kRandElement(r)
			check(&p, &a, r.IntN(2) == 1)
			a.Y.Mul(&p.Y, &zi3)
			check(&p, &a, false)
			a.Y.Neg(&a.Y)
			check(&p, &a, true)
			hz += 3
		}
	})
	t.Run("h-single-limb", func(t *testing.T) {
		// Z1 = 1 (Montgomery one) and X1 = X2 − H for H with one nonzero
		// limb: the H = 0 test must look at every limb.
		var one field.Element
		one.One()
		for range 200 {
			for k := range 6 {
				var h field.Element
				h[k] = 1 << r.IntN(64)
				a := Affine{X: kRandElement(r), Y: kRandElement(r)}
				p := Jacobian{Y: kRandElement(r), Z: one}
				p.X.Sub(&a.X, &h)
				check(&p, &a, k&1 == 1)
			}
		}
	})
	if n < 10000 || hz < 2000 {
		t.Fatalf("only %d cases, %d with H = 0", n, hz)
	}
}

// checkAddCached adds q to p (or subtracts it) with addCached and with
// AddCachedVartime, and, when neither is at infinity, with addCachedADX,
// and fails unless the limbs are identical; when H = 0 the kernel must
// report it and leave p (and q) as they were. It returns addCached's
// result.
func checkAddCached(t *testing.T, p *Jacobian, q *Cached, neg bool) Jacobian {
	t.Helper()
	q0 := *q
	want, fast := *p, *p
	addCached(&want, q, neg)
	fast.AddCachedVartime(q, neg)
	if fast != want {
		t.Fatalf("AddCachedVartime(%x, %x, %v)\n = %x\nwant %x", *p, *q, neg, fast, want)
	}
	if p.Z.IsZero() == 1 || q.Z.IsZero() == 1 {
		return want
	}
	var ng uint64
	if neg {
		ng = 1
	}
	got := *p
	hZero := addCachedADX(jacobianWords(&got), cachedWords(q), ng)
	var z1z1, u1, h field.Element
	z1z1.Square(&p.Z)
	u1.Mul(&p.X, &q.ZZ)
	h.Mul(&q.X, &z1z1)
	h.Sub(&h, &u1)
	switch {
	case *q != q0:
		t.Fatalf("addCachedADX(%x, %x, %v) changed q: %x", *p, q0, neg, *q)
	case hZero != uint64(h.IsZero()):
		t.Fatalf("addCachedADX(%x, %x, %v) reports hZero = %d, H = %x", *p, *q, neg, hZero, h)
	case hZero == 1 && got != *p:
		t.Fatalf("addCachedADX(%x, %x, %v) changed p with H = 0: %x", *p, *q, neg, got)
	case hZero == 0 && got != want:
		t.Fatalf("addCachedADX(%x, %x, %v)\n = %x\nwant %x", *p, *q, neg, got, want)
	}
	return want
}

// kCached returns c with c.Set(p).
func kCached(p *Jacobian) *Cached {
	var c Cached
	c.Set(p)
	return &c
}

func TestAddCachedADX(t *testing.T) {
	if !useAddCachedADX {
		t.Skip("no fused cached addition kernel on this CPU")
	}
	r := rand.New(rand.NewPCG(7, 8))
	n, hz := 0, 0
	check := func(p *Jacobian, q *Cached, neg bool) Jacobian {
		s := checkAddCached(t, p, q, neg)
		n++
		return s
	}
	t.Run("points", func(t *testing.T) {
		for range 100 {
			a, b := kECDHPoint(t, r), kECDHPoint(t, r)
			var pa, p Jacobian
			pa.SetAffine(&a)
			p.SetAffine(&b)
			p = kScaled(r, &p)
			for i := range 40 {
				qa := kScaled(r, &pa)
				p = check(&p, kCached(&qa), i%3 == 0)
				if p.Z.IsZero() == 1 {
					p.SetAffine(&b)
				}
			}
		}
	})
	t.Run("equal-and-opposite", func(t *testing.T) {
		for range 300 {
			a := kECDHPoint(t, r)
			var pa Jacobian
			pa.SetAffine(&a)
			p := kScaled(r, &pa)
			m := p
			m.Y.Neg(&m.Y)
			qa := kScaled(r, &pa)
			q := kCached(&qa)
			for _, neg := range []bool{false, true} {
				// p + q and m − q double, p − q and m + q are infinity.
				for _, s := range []*Jacobian{&p, &m} {
					if got := check(s, q, neg); (s == &p) == neg && got.Z.IsZero() != 1 {
						t.Fatalf("%x ± %x is not infinity", *s, *q)
					}
					hz++
				}
			}
		}
	})
	t.Run("infinity", func(t *testing.T) {
		for range 300 {
			a := kECDHPoint(t, r)
			var pa Jacobian
			pa.SetAffine(&a)
			pa = kScaled(r, &pa)
			inf := Jacobian{X: kRandElement(r), Y: kRandElement(r)}
			for _, neg := range []bool{false, true} {
				check(&inf, kCached(&pa), neg)
				check(&pa, kCached(&inf), neg)
				check(&inf, kCached(&inf), neg)
			}
		}
	})
	t.Run("edges", func(t *testing.T) {
		edges := append(kEdgeElements(), kRandElement(r))
		for _, x := range edges {
			for _, y := range edges {
				for _, z := range edges {
					p := Jacobian{X: x, Y: y, Z: z}
					for i := range 4 {
						q := Cached{
							Jacobian: Jacobian{X: edges[(i+n)%len(edges)], Y: edges[(3*i+n/7)%len(edges)], Z: edges[(5*i+n/3)%len(edges)]},
							ZZ:       edges[(7*i+n/5)%len(edges)], ZZZ: edges[(11*i+n/11)%len(edges)],
						}
						check(&p, &q, n&1 == 1)
						q.Set(&q.Jacobian)
						check(&p, &q, n&1 == 1)
					}
				}
			}
		}
	})
	t.Run("random-elements", func(t *testing.T) {
		for range 3000 {
			p := Jacobian{X: kRandElement(r), Y: kRandElement(r), Z: kRandElement(r)}
			q := Cached{
				Jacobian: Jacobian{X: kRandElement(r), Y: kRandElement(r), Z: kRandElement(r)},
				ZZ:       kRandElement(r), ZZZ: kRandElement(r),
			}
			check(&p, &q, false)
			check(&p, &q, true)
			q.Set(&q.Jacobian)
			check(&p, &q, r.IntN(2) == 1)
		}
	})
	t.Run("h-zero-off-curve", func(t *testing.T) {
		// X2 = X1·Z2²/Z1² with an arbitrary Y2: H = 0 with r ≠ 0
		// (infinity) or, with Y2 = ±Y1·Z2³/Z1³, r = 0 (doubling).
		for range 500 {
			p := Jacobian{X: kRandElement(r), Y: kRandElement(r), Z: kRandElement(r)}
			q := Cached{Jacobian: Jacobian{Z: kRandElement(r)}}
			if p.Z.IsZero() == 1 || q.Z.IsZero() == 1 {
				continue
			}
			q.Set(&q.Jacobian)
			var zi, zi2, zi3 field.Element
			zi.Invert(&p.Z)
			zi2.Square(&zi)
			zi3.Mul(&zi2, &zi)
			q.X.Mul(&p.X, &zi2)
			q.X.Mul(&q.X, &q.ZZ)
			q.Y = kRandElement(r)
			check(&p, &q, r.IntN(2) == 1)
			q.Y.Mul(&p.Y, &zi3)
			q.Y.Mul(&q.Y, &q.ZZZ)
			check(&p, &q, false)
			q.Y.Neg(&q.Y)
			check(&p, &q, true)
			hz += 3
		}
	})
	t.Run("h-single-limb", func(t *testing.T) {
		// Z1 = 1 and Z2² = 1 (Montgomery one) and X1 = X2 − H for H with
		// one nonzero limb: the H = 0 test must look at every limb.
		var one field.Element
		one.One()
		for range 200 {
			for k := range 6 {
				var h field.Element
				h[k] = 1 << r.IntN(64)
				q := Cached{
					Jacobian: Jacobian{X: kRandElement(r), Y: kRandElement(r), Z: kRandElement(r)},
					ZZ:       one, ZZZ: kRandElement(r),
				}
				p := Jacobian{Y: kRandElement(r), Z: one}
				p.X.Sub(&q.X, &h)
				check(&p, &q, k&1 == 1)
			}
		}
	})
	if n < 10000 || hz < 2000 {
		t.Fatalf("only %d cases, %d with H = 0", n, hz)
	}
}

// checkAddCoZ runs addCoZ, addCoZADX and AddCoZ on p and q and fails
// unless both results, p's and q's, are identical limb for limb.
func checkAddCoZ(t *testing.T, p, q *Jacobian) (Jacobian, Jacobian) {
	t.Helper()
	wp, wq := *p, *q
	addCoZ(&wp, &wq)
	gp, gq := *p, *q
	addCoZADX(jacobianWords(&gp), jacobianWords(&gq))
	if gp != wp || gq != wq {
		t.Fatalf("addCoZADX(%x, %x)\n = %x, %x\nwant %x, %x", *p, *q, gp, gq, wp, wq)
	}
	fp, fq := *p, *q
	AddCoZ(&fp, &fq)
	if fp != wp || fq != wq {
		t.Fatalf("AddCoZ(%x, %x)\n = %x, %x\nwant %x, %x", *p, *q, fp, fq, wp, wq)
	}
	return wp, wq
}

func TestAddCoZADX(t *testing.T) {
	if !useAddCoZADX {
		t.Skip("no fused co-Z addition kernel on this CPU")
	}
	r := rand.New(rand.NewPCG(9, 10))
	n := 0
	t.Run("runs", func(t *testing.T) {
		// The odd multiples of BuildRuns: P, then k·P + 2P.
		for range 100 {
			a := kECDHPoint(t, r)
			var base, cur, two Jacobian
			base.SetAffine(&a)
			base = kScaled(r, &base)
			DoubleCoZ(&two, &cur, &base)
			for range 20 {
				cur, two = checkAddCoZ(t, &cur, &two)
				n++
			}
		}
	})
	t.Run("edges", func(t *testing.T) {
		edges := append(kEdgeElements(), kRandElement(r))
		for _, px := range edges {
			for _, py := range edges {
				for _, qx := range edges {
					for _, qy := range edges {
						z := edges[n%len(edges)]
						checkAddCoZ(t, &Jacobian{X: px, Y: py, Z: z}, &Jacobian{X: qx, Y: qy, Z: z})
						n++
					}
				}
			}
		}
	})
	t.Run("random-elements", func(t *testing.T) {
		for range 4000 {
			p := Jacobian{X: kRandElement(r), Y: kRandElement(r), Z: kRandElement(r)}
			q := Jacobian{X: kRandElement(r), Y: kRandElement(r), Z: kRandElement(r)}
			if n&1 == 1 {
				q.Z = p.Z
			}
			checkAddCoZ(t, &p, &q)
			n++
		}
	})
	t.Run("equal-x", func(t *testing.T) {
		// Xp = Xq (outside the contract, but still the same limbs).
		for range 500 {
			p := Jacobian{X: kRandElement(r), Y: kRandElement(r), Z: kRandElement(r)}
			q := Jacobian{X: p.X, Y: kRandElement(r), Z: p.Z}
			if n&1 == 1 {
				q.Y = p.Y
			}
			checkAddCoZ(t, &p, &q)
			n++
		}
	})
	if n < 10000 {
		t.Fatalf("only %d cases", n)
	}
}

// TestKernelsSwitch turns the kernels off and checks that Double,
// AddMixedVartime, AddCachedVartime and AddCoZ then are the portable
// formulas (the switch tests and
// benchmarks use), and on again.
func TestKernelsSwitch(t *testing.T) {
	d, m, c, z := useDoubleADX, useAddMixedADX, useAddCachedADX, useAddCoZADX
	defer func() { useDoubleADX, useAddMixedADX, useAddCachedADX, useAddCoZADX = d, m, c, z }()
	g := Generator()
	r := rand.New(rand.NewPCG(5, 6))
	var g3 Jacobian
	g3.SetAffine(&g)
	double(&g3)
	addMixed(&g3, &g, false)
	g3 = kScaled(r, &g3)
	q := kCached(&g3)
	for _, on := range []bool{false, d} {
		useDoubleADX, useAddMixedADX, useAddCachedADX, useAddCoZADX = on, on && m, on && c, on && z
		var p Jacobian
		p.SetAffine(&g)
		p = kScaled(r, &p)
		want := p
		for i := range 50 {
			p.Double()
			double(&want)
			p.AddMixedVartime(&g, i&1 == 1)
			addMixed(&want, &g, i&1 == 1)
			p.AddCachedVartime(q, i&2 == 2)
			addCached(&want, q, i&2 == 2)
			if p != want {
				t.Fatalf("kernels %v: step %d: %x, want %x", on, i, p, want)
			}
			cz, czWant := g3, g3
			cz.Z, czWant.Z = p.Z, p.Z
			AddCoZ(&p, &cz)
			addCoZ(&want, &czWant)
			if p != want || cz != czWant {
				t.Fatalf("kernels %v: step %d: AddCoZ %x, %x, want %x, %x", on, i, p, cz, want, czWant)
			}
		}
	}
}

func TestKernelsAllocs(t *testing.T) {
	g := Generator()
	var p Jacobian
	p.SetAffine(&g).Double()
	q := kCached(&p)
	p.Double()
	if a := testing.AllocsPerRun(100, func() { p.Double(); p.AddMixedVartime(&g, false); p.AddCachedVartime(q, true) }); a != 0 {
		t.Fatalf("Double, AddMixedVartime and AddCachedVartime allocate %v times", a)
	}
	var two, cur Jacobian
	DoubleCoZ(&two, &cur, &p)
	if a := testing.AllocsPerRun(100, func() { AddCoZ(&cur, &two) }); a != 0 {
		t.Fatalf("AddCoZ allocates %v times", a)
	}
}

// BenchmarkDoubleFused, BenchmarkAddMixedFused, BenchmarkAddCachedFused
// and BenchmarkAddCoZFused run the portable formula ("go") and the fused
// kernel ("adx") side by side.
func BenchmarkDoubleFused(b *testing.B) {
	g := Generator()
	var a Jacobian
	a.SetAffine(&g)
	b.Run("go", func(b *testing.B) { ecdsatest.Loop(b, func() { double(&a) }) })
	if useDoubleADX {
		b.Run("adx", func(b *testing.B) { ecdsatest.Loop(b, func() { doubleADX(jacobianWords(&a)) }) })
	}
}

func BenchmarkAddMixedFused(b *testing.B) {
	g := Generator()
	var acc Jacobian
	acc.SetAffine(&g).Double()
	b.Run("go", func(b *testing.B) {
		p := acc
		ecdsatest.Loop(b, func() { addMixed(&p, &g, false) })
	})
	if useAddMixedADX {
		b.Run("adx", func(b *testing.B) {
			p := acc
			ecdsatest.Loop(b, func() { p.AddMixedVartime(&g, false) })
		})
	}
}

func BenchmarkAddCachedFused(b *testing.B) {
	g := Generator()
	var acc, g3 Jacobian
	acc.SetAffine(&g).Double()
	g3 = acc
	addMixed(&g3, &g, false)
	double(&acc)
	q := kCached(&g3)
	b.Run("go", func(b *testing.B) {
		p := acc
		ecdsatest.Loop(b, func() { addCached(&p, q, false) })
	})
	if useAddCachedADX {
		b.Run("adx", func(b *testing.B) {
			p := acc
			ecdsatest.Loop(b, func() { p.AddCachedVartime(q, false) })
		})
	}
}

func BenchmarkAddCoZFused(b *testing.B) {
	g := Generator()
	var base, cur, two Jacobian
	base.SetAffine(&g)
	DoubleCoZ(&two, &cur, &base)
	b.Run("go", func(b *testing.B) {
		p, q := cur, two
		ecdsatest.Loop(b, func() { addCoZ(&p, &q) })
	})
	if useAddCoZADX {
		b.Run("adx", func(b *testing.B) {
			p, q := cur, two
			ecdsatest.Loop(b, func() { AddCoZ(&p, &q) })
		})
	}
}
