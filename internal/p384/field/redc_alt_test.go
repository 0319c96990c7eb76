package field

import (
	"math/bits"
	"math/rand/v2"
	"testing"
)

// redcMulQ is the reduction redc replaced, kept to measure the choice (see
// docs/arithmetic.md, "P-384 field"): textbook word-by-word Montgomery
// reduction, whose quotient digit is m = u0·(2^32 + 1) by a multiplication
// and whose m·p is six 64×64-bit products added on two carry chains.
func redcMulQ(z *Element, t *[12]uint64) {
	const k0 = 1<<32 + 1 // −p⁻¹ mod 2^64
	u := [7]uint64{t[0], t[1], t[2], t[3], t[4], t[5], 0}
	for i := 0; i < 6; i++ {
		m := u[0] * k0
		h0, l0 := bits.Mul64(m, p0)
		h1, l1 := bits.Mul64(m, p1)
		h2, l2 := bits.Mul64(m, p2)
		h3, l3 := bits.Mul64(m, p3)
		h4, l4 := bits.Mul64(m, p4)
		h5, l5 := bits.Mul64(m, p5)
		var c, d uint64
		_, c = bits.Add64(u[0], l0, 0)
		u[0], c = bits.Add64(u[1], l1, c)
		u[1], c = bits.Add64(u[2], l2, c)
		u[2], c = bits.Add64(u[3], l3, c)
		u[3], c = bits.Add64(u[4], l4, c)
		u[4], c = bits.Add64(u[5], l5, c)
		u[5] = c
		u[0], d = bits.Add64(u[0], h0, 0)
		u[1], d = bits.Add64(u[1], h1, d)
		u[2], d = bits.Add64(u[2], h2, d)
		u[3], d = bits.Add64(u[3], h3, d)
		u[4], d = bits.Add64(u[4], h4, d)
		u[5], _ = bits.Add64(u[5], h5, d)
	}
	var r Element
	var c uint64
	r[0], c = bits.Add64(u[0], t[6], 0)
	r[1], c = bits.Add64(u[1], t[7], c)
	r[2], c = bits.Add64(u[2], t[8], c)
	r[3], c = bits.Add64(u[3], t[9], c)
	r[4], c = bits.Add64(u[4], t[10], c)
	r[5], c = bits.Add64(u[5], t[11], c)
	reduceOnce(z, &r, c)
}

func mulGenericMulQ(z, x, y *Element) {
	var t [12]uint64
	product(&t, x, y)
	redcMulQ(z, &t)
}

func squareGenericMulQ(z, x *Element) {
	var t [12]uint64
	squareProduct(&t, x)
	redcMulQ(z, &t)
}

// TestRedcMulQ checks the comparison kernels like the production ones.
func TestRedcMulQ(t *testing.T) {
	edges := tEdges()
	for _, k := range benchKernels {
		for _, x := range edges {
			for _, y := range edges[:40] {
				wm, ws := kExpect(t, x, y, true)
				kCheck(t, k, x, y, wm, ws)
			}
		}
		r := rand.New(rand.NewChaCha8([32]byte{'m', 'q'}))
		for i := 0; i < 2000; i++ {
			x, y := tRandom(r), tRandom(r)
			wm, ws := kExpect(t, x, y, true)
			kCheck(t, k, x, y, wm, ws)
		}
	}
}
