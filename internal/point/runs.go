package point

import "github.com/p256tls/p256tls/internal/field"

// BuildRuns fills out (runs·2^(w−2) entries) with the odd multiples of
// 2^(runLen·j)·q for j = 0, …, runs−1, run after run: run j holds
// 1·, 3·, …, (2^(w−1)−1)·(2^(runLen·j)·q), the split-wNAF table of a key.
// It uses co-Z doublings and additions of q alone (DoubleCoZ, AddCoZ), all
// made affine with one inversion. q must be a point of the curve (of prime
// order n, as every valid public key is) and runLen·runs at most 257. A
// wrong len(out) panics: the sizes come from the caller's constants, never
// from input. Variable time; q is public.
func BuildRuns(out []Affine, q *Affine, w uint, runs, runLen int) {
	per := 1 << (w - 2)
	if len(out) != runs*per {
		panic("point: BuildRuns: bad table size")
	}
	// A width-5 table of 16 runs (128 points, keytable.New) is built on the
	// stack; wider ones (keytable.NewLarge's 512 points, about 64 KiB of
	// scratch) allocate their scratch once per build.
	var jacBuf [128]Jacobian
	var scratchBuf [128]field.Element
	jac, scratch := jacBuf[:], scratchBuf[:]
	if len(out) > len(jacBuf) {
		jac, scratch = make([]Jacobian, len(out)), make([]field.Element, len(out))
	}
	jac, scratch = jac[:len(out)], scratch[:len(out)]
	var base, two Jacobian
	base.SetAffine(q)
	for j := 0; j < runs; j++ {
		run := jac[j*per : (j+1)*per]
		// two = 2·base and run[0] = base, both with two's Z; then each odd
		// multiple is the previous one plus two by a co-Z addition, which
		// leaves two with the sum's Z for the next one.
		DoubleCoZ(&two, &run[0], &base)
		for i := 1; i < per; i++ {
			run[i] = run[i-1]
			AddCoZ(&run[i], &two)
		}
		if j+1 < runs {
			// 2^runLen·base: the first doubling is two.
			base = two
			for k := 1; k < runLen; k++ {
				base.Double()
			}
		}
	}
	// q has odd prime order n and every multiple here is k·2^i·q with k odd
	// and below n: never the point at infinity.
	if !BatchToAffineVartime(out, jac, scratch) {
		panic("point: BuildRuns: a table entry is the point at infinity")
	}
}
