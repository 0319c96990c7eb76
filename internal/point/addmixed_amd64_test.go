//go:build amd64 && !purego

package point

import (
	"crypto/ecdh"
	"math/rand/v2"
	"testing"

	"github.com/p256tls/p256tls/internal/ecdsaverify/ecdsatest"
	"github.com/p256tls/p256tls/internal/field"
)

// checkAddMixed adds a to p (or subtracts it) with addMixed and with
// AddMixedVartime, and, when p is not at infinity, with addMixedADX, and fails
// unless the limbs are identical. It returns addMixed's result.
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
	var n uint64
	if neg {
		n = 1
	}
	got := *p
	hZero := addMixedADX(jacobianWords(&got), affineWords(a), n)
	// H = 0 exactly when addMixed took a special case, and then the kernel
	// must leave p as it was.
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

// scaled returns a random representation (λ²X, λ³Y, λZ) of p.
func scaled(r *rand.Rand, p *Jacobian) Jacobian {
	l := randElement(r)
	for l.IsZero() == 1 {
		l = randElement(r)
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

// ecdhPoint returns the public key of a fresh crypto/ecdh P-256 key.
func ecdhPoint(t testing.TB, r *rand.Rand) Affine {
	var seed [32]byte
	for i := range seed {
		seed[i] = byte(r.Uint32())
	}
	k, err := ecdh.P256().NewPrivateKey(seed[:])
	if err != nil {
		// Out of range scalars are astronomically unlikely; use another.
		return ecdhPoint(t, r)
	}
	var a Affine
	if _, err := a.SetBytes(k.PublicKey().Bytes()); err != nil {
		t.Fatal(err)
	}
	return a
}

func TestAddMixedADX(t *testing.T) {
	if !useAddMixedADX {
		t.Skip("no fused addition kernel on this platform or CPU")
	}
	r := rand.New(rand.NewPCG(3, 4))
	n := 0

	t.Run("points", func(t *testing.T) {
		for range 100 {
			a := ecdhPoint(t, r)
			var p Jacobian
			b := ecdhPoint(t, r)
			p.SetAffine(&b)
			p = scaled(r, &p)
			for i := range 40 {
				p = checkAddMixed(t, &p, &a, i%3 == 0)
				n++
				if p.Z.IsZero() == 1 {
					p.SetAffine(&b)
				}
			}
		}
	})

	t.Run("equal-and-opposite", func(t *testing.T) {
		for range 300 {
			a := ecdhPoint(t, r)
			var p, q Jacobian
			p.SetAffine(&a)
			p = scaled(r, &p)
			q = p
			q.Y.Neg(&q.Y)
			for _, neg := range []bool{false, true} {
				checkAddMixed(t, &p, &a, neg) // doubling or infinity
				checkAddMixed(t, &q, &a, neg) // infinity or doubling
				n += 2
			}
		}
	})

	t.Run("infinity", func(t *testing.T) {
		for range 300 {
			a := ecdhPoint(t, r)
			p := Jacobian{X: randElement(r), Y: randElement(r)}
			checkAddMixed(t, &p, &a, false)
			checkAddMixed(t, &p, &a, true)
			n += 2
		}
	})

	t.Run("edges", func(t *testing.T) {
		edges := edgeElements()
		edges = append(edges, randElement(r))
		for _, x := range edges {
			for _, y := range edges {
				for _, z := range edges {
					p := Jacobian{X: x, Y: y, Z: z}
					for _, ax := range edges[:6] {
						for _, ay := range edges[5:] {
							a := Affine{X: ax, Y: ay}
							checkAddMixed(t, &p, &a, (n&1) == 1)
							n++
						}
					}
				}
			}
		}
	})

	t.Run("random-elements", func(t *testing.T) {
		for range 4000 {
			p := Jacobian{X: randElement(r), Y: randElement(r), Z: randElement(r)}
			a := Affine{X: randElement(r), Y: randElement(r)}
			checkAddMixed(t, &p, &a, false)
			checkAddMixed(t, &p, &a, true)
			n += 2
		}
	})

	t.Run("h-zero-off-curve", func(t *testing.T) {
		// X2 = X1/Z1² with an arbitrary Y2: H = 0 with r ≠ 0 (infinity) or,
		// with Y2 = ±Y1/Z1³, r = 0 (doubling).
		for range 500 {
			p := Jacobian{X: randElement(r), Y: randElement(r), Z: randElement(r)}
			if p.Z.IsZero() == 1 {
				continue
			}
			var zi, zi2, zi3 field.Element
			zi.Invert(&p.Z)
			zi2.Square(&zi)
			zi3.Mul(&zi2, &zi)
			var a Affine
			a.X.Mul(&p.X, &zi2)
			a.Y = randElement(r)
			checkAddMixed(t, &p, &a, r.IntN(2) == 1)
			a.Y.Mul(&p.Y, &zi3)
			checkAddMixed(t, &p, &a, false)
			a.Y.Neg(&a.Y)
			checkAddMixed(t, &p, &a, true)
			n += 3
		}
	})
	t.Run("h-single-limb", func(t *testing.T) {
		// Z1 = 1 (Montgomery one) and X1 = X2 - H for H with one nonzero
		// limb: the H = 0 test must look at every limb.
		var one field.Element
		one.One()
		for range 200 {
			for k := range 4 {
				var h field.Element
				h[k] = 1 << r.IntN(32)
				a := Affine{X: randElement(r), Y: randElement(r)}
				p := Jacobian{Y: randElement(r), Z: one}
				p.X.Sub(&a.X, &h)
				checkAddMixed(t, &p, &a, k&1 == 1)
				n++
			}
		}
	})
	if n < 10000 {
		t.Fatalf("only %d cases", n)
	}
}

func TestAddMixedAllocs(t *testing.T) {
	g := Generator()
	var p Jacobian
	p.SetAffine(&g)
	p.Double()
	if a := testing.AllocsPerRun(100, func() { p.AddMixedVartime(&g, false) }); a != 0 {
		t.Fatalf("AddMixedVartime allocates %v times", a)
	}
}

func BenchmarkAddMixedFused(b *testing.B) {
	g := Generator()
	var acc Jacobian
	acc.SetAffine(&g)
	acc.Double()
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
