package ecdsaverify

import (
	"github.com/p256tls/p256tls/internal/field"
	"github.com/p256tls/p256tls/internal/point"
)

// BuildRuns fills out (Runs·2^(w−2) entries) with the odd multiples of
// 2^(RunLen·j)·Q, run after run, with doublings and co-Z additions of Q
// alone, all made affine with one inversion.
func BuildRuns(out []point.Affine, q *point.Affine, w uint) {
	per := 1 << (w - 2)
	if len(out) != Runs*per {
		panic("ecdsaverify: bad table size")
	}
	// A width-5 table (128 points, keytable.New) is built on the stack; wider
	// ones (keytable.NewLarge's 512 points, about 64 KiB of scratch) allocate
	// their scratch once per build.
	var jacBuf [128]point.Jacobian
	var scratchBuf [128]field.Element
	jac, scratch := jacBuf[:], scratchBuf[:]
	if len(out) > len(jacBuf) {
		jac, scratch = make([]point.Jacobian, len(out)), make([]field.Element, len(out))
	}
	jac, scratch = jac[:len(out)], scratch[:len(out)]
	var base, two point.Jacobian
	base.SetAffine(q)
	for j := 0; j < Runs; j++ {
		run := jac[j*per : (j+1)*per]
		// two = 2·base and run[0] = base, both with two's Z; then each odd
		// multiple is the previous one plus two by a co-Z addition, which
		// leaves two with the sum's Z for the next one.
		doubleCoZ(&two, &run[0], &base)
		for i := 1; i < per; i++ {
			run[i] = run[i-1]
			addCoZ(&run[i], &two)
		}
		if j+1 < Runs {
			// 2^RunLen·base: the first doubling is two.
			base = two
			for k := 1; k < RunLen; k++ {
				doubleFast(&base)
			}
		}
	}
	// Q has prime order n > 2^255 and every multiple here is k·2^i·Q with k
	// odd, k < 2^7, i < 256: never the point at infinity.
	if !point.BatchToAffineVartime(out, jac, scratch) {
		panic("ecdsaverify: a table entry is the point at infinity")
	}
}
