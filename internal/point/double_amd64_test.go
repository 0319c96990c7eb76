//go:build amd64 && !purego

package point

import (
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/p256tls/p256tls/internal/ecdsaverify/ecdsatest"
	"github.com/p256tls/p256tls/internal/field"
)

// pLimbs is p, least significant limb first.
var pLimbs = [4]uint64{0xffffffffffffffff, 0x00000000ffffffff, 0, 0xffffffff00000001}

// belowP reports whether the limbs e are below p.
func belowP(e *field.Element) bool {
	var b uint64
	for i := range e {
		_, b = bits.Sub64(e[i], pLimbs[i], b)
	}
	return b == 1
}

// randElement returns a uniformly random fully reduced field element (in
// the representation, whatever it means).
func randElement(r *rand.Rand) field.Element {
	for {
		var e field.Element
		for i := range e {
			e[i] = r.Uint64()
		}
		if belowP(&e) {
			return e
		}
	}
}

// edgeElements are representations at the edges of the range: 0, 1, 2,
// p-1, p-2, Montgomery one, 2^255, and values with all-ones or zero limbs.
func edgeElements() []field.Element {
	var one field.Element
	one.One()
	return []field.Element{
		{0, 0, 0, 0},
		{1, 0, 0, 0},
		{2, 0, 0, 0},
		{pLimbs[0] - 1, pLimbs[1], pLimbs[2], pLimbs[3]},
		{pLimbs[0] - 2, pLimbs[1], pLimbs[2], pLimbs[3]},
		one,
		{0, 0, 0, 1 << 63},
		{^uint64(0), ^uint64(0), ^uint64(0), 0xffffffff00000000},
		{^uint64(0), 0, ^uint64(0), 0},
		{0, ^uint64(0), 0, 1},
	}
}

// checkDouble doubles p with double and with doubleADX and fails unless
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

func TestDoubleADX(t *testing.T) {
	if !useDoubleADX {
		t.Skip("no fused doubling kernel on this platform or CPU")
	}
	r := rand.New(rand.NewPCG(1, 2))
	n := 0

	t.Run("edges", func(t *testing.T) {
		edges := edgeElements()
		edges = append(edges, randElement(r))
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
			checkDouble(t, &Jacobian{X: randElement(r), Y: randElement(r), Z: randElement(r)})
			n++
		}
	})

	t.Run("infinity", func(t *testing.T) {
		for range 500 {
			p := Jacobian{X: randElement(r), Y: randElement(r)}
			checkDouble(t, &p)
			n++
		}
	})

	t.Run("points", func(t *testing.T) {
		g := Generator()
		for range 50 {
			// A random representation of G: (λ²X, λ³Y, λZ).
			var p Jacobian
			p.SetAffine(&g)
			l := randElement(r)
			var l2, l3 field.Element
			l2.Square(&l)
			l3.Mul(&l2, &l)
			p.X.Mul(&p.X, &l2)
			p.Y.Mul(&p.Y, &l3)
			p.Z.Mul(&p.Z, &l)
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

func TestDoubleAllocs(t *testing.T) {
	g := Generator()
	var p Jacobian
	p.SetAffine(&g)
	if a := testing.AllocsPerRun(100, func() { p.Double() }); a != 0 {
		t.Fatalf("Double allocates %v times", a)
	}
}

func BenchmarkDoubleFused(b *testing.B) {
	g := Generator()
	var a Jacobian
	a.SetAffine(&g)
	b.Run("go", func(b *testing.B) { ecdsatest.Loop(b, func() { double(&a) }) })
	if useDoubleADX {
		b.Run("adx", func(b *testing.B) {
			ecdsatest.Loop(b, func() { doubleADX(jacobianWords(&a)) })
		})
	}
}
