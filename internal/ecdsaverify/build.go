package ecdsaverify

import (
	"github.com/p256tls/p256tls/internal/field"
	"github.com/p256tls/p256tls/internal/point"
)

// BuildRuns fills out (runs·2^(w−2) entries) with the odd multiples of
// 2^(65j)·Q, run after run, with doublings and additions of Q alone, all
// made affine with one inversion.
func BuildRuns(out []point.Affine, q *point.Affine, w uint) {
	per := 1 << (w - 2)
	if len(out) != Runs*per {
		panic("ecdsaverify: bad table size")
	}
	jac := make([]point.Jacobian, len(out))
	scratch := make([]field.Element, len(out))
	var base, two point.Jacobian
	base.SetAffine(q)
	for j := 0; j < Runs; j++ {
		run := jac[j*per : (j+1)*per]
		two.Double(&base)
		run[0] = base
		for i := 1; i < per; i++ {
			run[i].AddVartime(&run[i-1], &two)
		}
		if j+1 < Runs {
			// 2^65·base: the first doubling is two.
			base = two
			for k := 1; k < RunLen; k++ {
				base.Double(&base)
			}
		}
	}
	// Q has prime order n > 2^255, so no multiple k·2^(65j)·Q with k ≤ 255 and
	// j ≤ 3 is the point at infinity.
	if !point.BatchToAffineVartime(out, jac, scratch) {
		panic("ecdsaverify: a table entry is the point at infinity")
	}
}
