// Package safegcd computes modular quotients c/x mod M (and so inverses) for
// an odd modulus M < 2^256 or M < 2^384 with the divstep algorithm of
// Bernstein and Yang, "Fast constant-time gcd computation and modular
// inversion" (TCHES 2019).
//
// Numbers enter and leave as plain little-endian 64-bit limbs, [4]uint64
// for a Modulus (M < 2^256) and [6]uint64 for a Modulus384 (M < 2^384);
// nothing here knows about Montgomery form. A caller working in Montgomery
// form with R = 2^256 (or 2^384) gets (xR)^-1·R = x^-1·R in a single call by
// passing c = R² mod M as the numerator.
//
// The two sizes share one implementation: the divsteps and the matrix
// arithmetic run on signed numbers with as many limbs as the modulus needs
// (five for 256 bits, seven for 384), the count held in the modulus, and
// the conversion from and to 64-bit limbs is written once, for six of them
// (a 256-bit value enters with its top two limbs zero).
//
// Two entry points share the matrix arithmetic:
//
//   - Div (Modulus only) is constant time: it always runs 590
//     "half-delta" divsteps (δ starts at 1/2 instead of 1), a count shown
//     sufficient for all 256-bit inputs by Wuille's computer-checked
//     convex-hull bound analysis (github.com/sipa/safegcd-bounds; the
//     paper's own proof, for δ = 1, gives 741). The divsteps are
//     branch-free, batched 62 to a 2×2 matrix, and the matrices are applied
//     to full-size numbers with a fixed number of limbs. There is no
//     constant-time division for 384-bit moduli.
//   - DivVartime (both sizes) is for public inputs only. It runs the
//     original divsteps (δ = 1), skips runs of zero bits of g with a
//     trailing-zero count, cancels up to six low bits of g at once (adding
//     f·(−g/f mod 2^k), looked up in a table), stops as soon as g = 0, and
//     drops limbs of f and g as they shrink.
//
// Both return 0 for x = 0 (0 has no inverse; the result is defined so that
// callers can map 0 to 0 without a test).
//
// Internally numbers are signed, in radix 2^62: n int64 limbs (n = 5 or 7),
// value Σ v[i]·2^(62i). After every update the limbs below the top one are
// in [0, 2^62) and the top limb carries the sign.
package safegcd

import "math/bits"

const (
	limbBits = 62
	limbMask = 1<<limbBits - 1
	// nLimbs256 and nLimbs384 are the radix-2^62 limb counts of the two
	// sizes: 4·62 = 248 < 256 and 6·62 = 372 < 384 bits below a signed top
	// limb. maxLimbs sizes the arrays.
	nLimbs256 = 5
	nLimbs384 = 7
	maxLimbs  = nLimbs384

	// constSteps is the number of half-delta divsteps Div performs; 590
	// suffices for every 0 ≤ g ≤ f < 2^256 with f odd.
	constSteps = 590
)

// num is a signed integer in radix 2^62, least significant limb first. Only
// the low n limbs of the modulus in use are meaningful; the others stay 0.
type num [maxLimbs]int64

// matrix is the transition matrix of a batch of divsteps, scaled by 2^62:
// with f, g the values before the batch and f', g' after it,
// 2^62·f' = u·f + v·g and 2^62·g' = q·f + r·g. |u|+|v| ≤ 2^62 and
// |q|+|r| ≤ 2^62.
type matrix struct{ u, v, q, r int64 }

// core is an odd modulus with the constants the algorithm needs; it holds
// everything the divsteps depend on, for either size.
type core struct {
	m    num    // M in radix 2^62
	minv uint64 // M^-1 mod 2^62
	n    int    // limbs in use: nLimbs256 or nLimbs384
}

// Modulus is an odd modulus 3 ≤ M < 2^256 with the constants the algorithm
// needs. Build one with NewModulus; it is read-only afterwards and safe for
// concurrent use.
type Modulus struct{ core }

// Modulus384 is an odd modulus 3 ≤ M < 2^384, the same as Modulus with
// six-limb inputs and outputs, and only the variable-time division. Build
// one with NewModulus384; it is read-only afterwards and safe for
// concurrent use.
type Modulus384 struct{ core }

// NewModulus returns the parameters for the odd modulus m (little-endian
// limbs). It panics if m is even or m < 3. Div and DivVartime return a
// correct quotient for every x coprime to m (every nonzero x < m for a
// prime m); for other nonzero x their result is unspecified.
func NewModulus(m [4]uint64) *Modulus {
	return &Modulus{newCore(widen(&m), nLimbs256)}
}

// NewModulus384 returns the parameters for the odd modulus m (little-endian
// limbs). It panics if m is even or m < 3. DivVartime returns a correct
// quotient for every x coprime to m; for other nonzero x its result is
// unspecified.
func NewModulus384(m [6]uint64) *Modulus384 {
	return &Modulus384{newCore(&m, nLimbs384)}
}

// newCore returns the constants of the odd modulus 3 ≤ m < 2^384 with n
// radix-2^62 limbs, or panics if m is even or below 3.
func newCore(m *[6]uint64, n int) core {
	if m[0]&1 == 0 || (m[0] < 3 && m[1]|m[2]|m[3]|m[4]|m[5] == 0) {
		panic("safegcd: modulus must be odd and at least 3")
	}
	// Newton's iteration x ← x·(2 − m·x) doubles the number of correct low
	// bits; x = m is correct to 3 bits for odd m (m² ≡ 1 mod 8).
	m0 := m[0]
	x := m0
	for i := 0; i < 5; i++ {
		x *= 2 - m0*x
	}
	return core{m: fromWords(m), minv: x & limbMask, n: n}
}

// widen returns the 256-bit x as six 64-bit limbs, the top two zero: the
// form fromWords takes for both sizes.
func widen(x *[4]uint64) *[6]uint64 {
	return &[6]uint64{x[0], x[1], x[2], x[3]}
}

// fromWords converts an unsigned value < 2^384 to radix 2^62 (seven limbs).
// For x < 2^256 the top two limbs are 0 and the other five are x's
// five-limb form.
func fromWords(x *[6]uint64) num {
	return num{
		int64(x[0] & limbMask),
		int64((x[0]>>62 | x[1]<<2) & limbMask),
		int64((x[1]>>60 | x[2]<<4) & limbMask),
		int64((x[2]>>58 | x[3]<<6) & limbMask),
		int64((x[3]>>56 | x[4]<<8) & limbMask),
		int64((x[4]>>54 | x[5]<<10) & limbMask),
		int64(x[5] >> 52),
	}
}

// toWords converts a nonnegative normalized seven-limb value < 2^384 to
// 64-bit limbs. For a five-limb value < 2^256 (limbs 5 and 6 zero) the top
// two words are 0; the low four do not depend on limbs 5 and 6.
func toWords(a *num) [6]uint64 {
	return [6]uint64{
		uint64(a[0]) | uint64(a[1])<<62,
		uint64(a[1])>>2 | uint64(a[2])<<60,
		uint64(a[2])>>4 | uint64(a[3])<<58,
		uint64(a[3])>>6 | uint64(a[4])<<56,
		uint64(a[4])>>8 | uint64(a[5])<<54,
		uint64(a[5])>>10 | uint64(a[6])<<52,
	}
}

// narrow returns the low four limbs of w.
func narrow(w *[6]uint64) [4]uint64 {
	return [4]uint64{w[0], w[1], w[2], w[3]}
}

// Div sets out = c·x^-1 mod M, or 0 if x = 0. It requires x < M and c < M.
// It is constant time in the values of c and x. out may alias c or x.
//
//p256tls:secret
func (mod *Modulus) Div(out, c, x *[4]uint64) {
	d, f, _ := mod.divConst(c, x)
	// g = 0 and f = ±1 now (f = M and d = 0 if x = 0).
	mod.finish(&d, f[nLimbs256-1]>>63)
	w := toWords(&d)
	*out = narrow(&w)
}

// divConst runs the constSteps divsteps of Div and returns the final d, f
// and g (the last two for tests).
//
//p256tls:secret
func (mod *Modulus) divConst(c, x *[4]uint64) (d, f, g num) {
	f = mod.m
	g = fromWords(widen(x))
	e := fromWords(widen(c))
	divConstSteps(&d, &e, &f, &g, &mod.core)
	return d, f, g
}

// divConstStepsGeneric runs the constSteps half-delta divsteps of Div on f
// and g (δ starting at 1/2), in batches of 62, and applies each batch's
// matrix to d and e modulo M, on five limbs. It is divConstSteps's
// portable twin.
//
//p256tls:secret
func divConstStepsGeneric(d, e, f, g *num, mod *core) {
	var t matrix
	h := int64(0) // δ − 1/2; δ starts at 1/2
	const full = constSteps / limbBits
	for i := 0; i < full; i++ {
		h, t = divstepsConst(h, uint64(f[0]), uint64(g[0]), limbBits)
		updateFG(f, g, &t, nLimbs256)
		updateDE(d, e, &t, mod)
	}
	// The remaining constSteps − 558 = 32 steps; scale their matrix up to
	// the common 2^62 so that the same update routines apply.
	const rest = constSteps - full*limbBits
	_, t = divstepsConst(h, uint64(f[0]), uint64(g[0]), rest)
	t.u <<= limbBits - rest
	t.v <<= limbBits - rest
	t.q <<= limbBits - rest
	t.r <<= limbBits - rest
	updateFG(f, g, &t, nLimbs256)
	updateDE(d, e, &t, mod)
}

// DivVartime sets out = c·x^-1 mod M, or 0 if x = 0. It requires x < M and
// c < M. Its running time depends on x (not on c): use it only for public
// x. out may alias c or x.
func (mod *Modulus) DivVartime(out, c, x *[4]uint64) {
	w := mod.quotientVartime(widen(c), widen(x))
	*out = narrow(&w)
}

// DivVartime sets out = c·x^-1 mod M, or 0 if x = 0. It requires x < M and
// c < M. Its running time depends on x (not on c): use it only for public
// x. out may alias c or x.
func (mod *Modulus384) DivVartime(out, c, x *[6]uint64) {
	*out = mod.quotientVartime(c, x)
}

// quotientVartime returns c·x^-1 mod M, or 0 if x = 0, for x, c < M as six
// 64-bit limbs (the top two zero for a 256-bit modulus). Not constant time
// in x.
func (mod *core) quotientVartime(c, x *[6]uint64) [6]uint64 {
	g, e := fromWords(x), fromWords(c)
	mod.divVartime(&g, &e)
	return toWords(&e)
}

// divVartime sets e = e/g mod M in [0, M), normalized, or 0 if g = 0, for
// 0 ≤ g, e < M; it leaves g unspecified. Not constant time in g.
func (mod *core) divVartime(g, e *num) {
	f := mod.m
	var d num
	var t matrix
	eta := int64(-1) // −δ; δ starts at 1
	n := mod.n
	for {
		if g[0] == 0 {
			z := int64(0)
			for i := 1; i < n; i++ {
				z |= g[i]
			}
			if z == 0 {
				break
			}
		}
		eta, t = divstepsVartime(eta, uint64(f[0]), uint64(g[0]))
		updateFG(&f, g, &t, n)
		updateDE(&d, e, &t, mod)
		// Drop the top limb while it is only sign extension of both f and
		// g, folding its sign into the new top limb.
		for n > 1 {
			ft, gt := f[n-1], g[n-1]
			if (ft != 0 && ft != -1) || (gt != 0 && gt != -1) {
				break
			}
			f[n-2] |= ft << limbBits
			g[n-2] |= gt << limbBits
			n--
		}
	}
	mod.finish(&d, f[n-1]>>63)
	*e = d
}

// finish sets d = ±d mod M in [0, M), normalized, negating when neg is −1
// (f = −1). d is in (−2M, M).
//
//p256tls:secret
func (mod *core) finish(d *num, neg int64) {
	mod.addIfNegative(d) // (−M, M)
	n := mod.n
	for i := 0; i < n; i++ {
		d[i] = (d[i] ^ neg) - neg
	}
	normalize(d, n)      // still (−M, M)
	mod.addIfNegative(d) // [0, M)
}

// addIfNegative adds M to the mod.n-limb a if a < 0 and renormalizes.
// Constant time.
//
//p256tls:secret
func (mod *core) addIfNegative(a *num) {
	n := mod.n
	s := a[n-1] >> 63
	for i := 0; i < n; i++ {
		a[i] += mod.m[i] & s
	}
	normalize(a, n)
}

// normalize propagates carries so that limbs 0..n−2 are in [0, 2^62).
//
//p256tls:secret
func normalize(a *num, n int) {
	for i := 0; i < n-1; i++ {
		a[i+1] += a[i] >> limbBits
		a[i] &= limbMask
	}
}

// divstepsVartime performs 62 divsteps (δ form, η = −δ) on the low 62 bits
// of f (odd) and g and returns the new η and their matrix. Not constant
// time.
func divstepsVartime(eta int64, f, g uint64) (int64, matrix) {
	// Invariant, after k of the 62 steps: 2^k·f_k = u·f + v·g and
	// 2^k·g_k = q·f + r·g, with f_k, g_k known modulo 2^(62−k). The shift
	// counts are masked with 63 (they are all < 63) to spare the compiler's
	// large-shift handling.
	u, v, q, r := int64(1), int64(0), int64(0), int64(1)
	left := uint(62)
	for {
		// Halve g over its run of trailing zeros (at most the steps left):
		// each such step is g ← g/2, δ ← δ+1 whatever δ is.
		z := uint(bits.TrailingZeros64(g | ^uint64(0)<<(left&63)))
		g >>= z & 63
		u <<= z & 63
		v <<= z & 63
		eta -= int64(z)
		left -= z
		if left == 0 {
			break
		}
		// g is odd. With δ > 0 the step is (f, g) ← (g, (g−f)/2), δ ← 1−δ;
		// written as a swap (f, g) ← (g, −f), η ← −η followed by the
		// δ ≤ 0 step below.
		if eta < 0 {
			eta = -eta
			f, g = g, -f
			u, q = q, -u
			v, r = r, -v
		}
		// δ ≤ 0: the next steps are g ← (g + b·f)/2 with b the parity of
		// g, for as long as δ stays ≤ 0 whenever g is odd, that is for
		// η+1 steps. Do up to six of them together: add w·f with
		// w = −g/f mod 2^k, and let the next round count the zeros.
		k := min(uint(eta)+1, left, 6)
		w := uint64(cancelTable[(f<<5)&0x7c0|g&63]) & (1<<(k&63) - 1)
		g += f * w
		q += u * int64(w)
		r += v * int64(w)
	}
	return eta, matrix{u, v, q, r}
}

// divstepsConst performs n ≤ 62 half-delta divsteps on the low bits of f
// (odd) and g and returns the new h = δ − 1/2 and their matrix, scaled by
// 2^n. Constant time: n is public and there are no branches on data.
//
//p256tls:secret
func divstepsConst(h int64, f, g uint64, n int) (int64, matrix) {
	// 2^k·f_k = u·f + v·g, 2^k·g_k = q·f + r·g after k steps; the entries
	// are kept as two's complement uint64.
	u, v, q, r := uint64(1), uint64(0), uint64(0), uint64(1)
	for ; n > 0; n-- {
		// odd = all ones if g is odd; s = all ones if also δ > 0 (h ≥ 0).
		// s: (f, g) ← (g, (g − f)/2), h ← −h.
		// else: g ← (g + (g mod 2)·f)/2, h ← h + 1.
		// With s ⊆ odd, ((x ^ s) − s) & odd = ((x & odd) ^ s) − s is
		// x, −x or 0 as needed; −h = (h ^ −1) + 1.
		odd := -(g & 1)
		s := uint64(^h>>63) & odd
		h = (h ^ int64(s)) + 1
		fo := f & odd
		f ^= s & (f ^ g)
		g = (g - s + (fo ^ s)) >> 1
		uo := u & odd
		u ^= s & (u ^ q)
		q = q - s + (uo ^ s)
		u <<= 1
		vo := v & odd
		v ^= s & (v ^ r)
		r = r - s + (vo ^ s)
		v <<= 1
	}
	return h, matrix{int64(u), int64(v), int64(q), int64(r)}
}

// mulS returns a·b as a signed 128-bit two's complement (hi, lo).
func mulS(a, b int64) (hi, lo uint64) {
	hi, lo = bits.Mul64(uint64(a), uint64(b))
	hi -= uint64(a>>63)&uint64(b) + uint64(b>>63)&uint64(a)
	return
}

// mulSU returns a·b as a signed 128-bit (hi, lo) for b ≥ 0.
func mulSU(a int64, b uint64) (hi, lo uint64) {
	hi, lo = bits.Mul64(uint64(a), b)
	hi -= uint64(a>>63) & b
	return
}

// add128 returns (h1, l1) + (h2, l2) mod 2^128.
func add128(h1, l1, h2, l2 uint64) (hi, lo uint64) {
	var c uint64
	lo, c = bits.Add64(l1, l2, 0)
	hi = h1 + h2 + c
	return
}

// shr62 returns the signed 128-bit (hi, lo) shifted right by 62.
func shr62(hi, lo uint64) (uint64, uint64) {
	return uint64(int64(hi) >> limbBits), lo>>limbBits | hi<<(64-limbBits)
}

// updateFGGeneric sets (f, g) ← ((u·f + v·g)/2^62, (q·f + r·g)/2^62), both
// held in their low n limbs (the divisions are exact by construction of t).
// n is public: always 5 in Div, the current length of f and g in
// DivVartime. |f'|, |g'| ≤ max(|f|, |g|) since |u|+|v|, |q|+|r| ≤ 2^62.
// It is updateFG's portable twin.
//
//p256tls:secret
func updateFGGeneric(f, g *num, t *matrix, n int) {
	u, v, q, r := t.u, t.v, t.q, t.r
	top := n - 1
	var fh, fl, gh, gl uint64
	for i := 0; i < top; i++ {
		fi, gi := uint64(f[i]), uint64(g[i])
		h1, l1 := mulSU(u, fi)
		h2, l2 := mulSU(v, gi)
		h1, l1 = add128(h1, l1, h2, l2)
		fh, fl = add128(fh, fl, h1, l1)
		h1, l1 = mulSU(q, fi)
		h2, l2 = mulSU(r, gi)
		h1, l1 = add128(h1, l1, h2, l2)
		gh, gl = add128(gh, gl, h1, l1)
		if i > 0 {
			f[i-1] = int64(fl & limbMask)
			g[i-1] = int64(gl & limbMask)
		}
		fh, fl = shr62(fh, fl)
		gh, gl = shr62(gh, gl)
	}
	fi, gi := f[top], g[top]
	h1, l1 := mulS(u, fi)
	h2, l2 := mulS(v, gi)
	h1, l1 = add128(h1, l1, h2, l2)
	fh, fl = add128(fh, fl, h1, l1)
	h1, l1 = mulS(q, fi)
	h2, l2 = mulS(r, gi)
	h1, l1 = add128(h1, l1, h2, l2)
	gh, gl = add128(gh, gl, h1, l1)
	if top > 0 {
		f[top-1] = int64(fl & limbMask)
		g[top-1] = int64(gl & limbMask)
		fh, fl = shr62(fh, fl)
		gh, gl = shr62(gh, gl)
		f[top] = int64(fl)
		g[top] = int64(gl)
	} else {
		// A single limb: the value itself, divided by 2^62.
		_, fl = shr62(fh, fl)
		_, gl = shr62(gh, gl)
		f[0] = int64(fl)
		g[0] = int64(gl)
	}
}

// updateDEGeneric sets (d, e) ← ((u·d + v·e + md·M)/2^62,
// (q·d + r·e + me·M)/2^62) with md, me chosen to make the divisions exact,
// keeping d ≡ (u·d+v·e)/2^62 (mod M), on mod.n limbs. For d, e in (−2M, M)
// the results are in (−2M, M): with the negative ones counted as d+M, e+M
// in (−M, M), |u·d + v·e| < 2^62·M, and the correction
// md − (u·[d<0] + v·[e<0]) is in (−2^62, 0]. Constant time. It is
// updateDE's portable twin.
//
//p256tls:secret
func updateDEGeneric(d, e *num, t *matrix, mod *core) {
	u, v, q, r := t.u, t.v, t.q, t.r
	top := mod.n - 1
	sd, se := d[top]>>63, e[top]>>63
	md := (u & sd) + (v & se)
	me := (q & sd) + (r & se)

	d0, e0 := uint64(d[0]), uint64(e[0])
	h1, l1 := mulSU(u, d0)
	h2, l2 := mulSU(v, e0)
	dh, dl := add128(h1, l1, h2, l2)
	h1, l1 = mulSU(q, d0)
	h2, l2 = mulSU(r, e0)
	eh, el := add128(h1, l1, h2, l2)
	md -= int64((mod.minv*dl + uint64(md)) & limbMask)
	me -= int64((mod.minv*el + uint64(me)) & limbMask)
	m0 := uint64(mod.m[0])
	h1, l1 = mulSU(md, m0)
	dh, dl = add128(dh, dl, h1, l1)
	h1, l1 = mulSU(me, m0)
	eh, el = add128(eh, el, h1, l1)
	dh, dl = shr62(dh, dl)
	eh, el = shr62(eh, el)

	// Limbs 1..top−1 of d and e are in [0, 2^62); the top one is signed.
	for i := 1; i < top; i++ {
		di, ei, mi := uint64(d[i]), uint64(e[i]), uint64(mod.m[i])
		h1, l1 = mulSU(u, di)
		h2, l2 = mulSU(v, ei)
		h1, l1 = add128(h1, l1, h2, l2)
		h2, l2 = mulSU(md, mi)
		h1, l1 = add128(h1, l1, h2, l2)
		dh, dl = add128(dh, dl, h1, l1)
		h1, l1 = mulSU(q, di)
		h2, l2 = mulSU(r, ei)
		h1, l1 = add128(h1, l1, h2, l2)
		h2, l2 = mulSU(me, mi)
		h1, l1 = add128(h1, l1, h2, l2)
		eh, el = add128(eh, el, h1, l1)
		d[i-1] = int64(dl & limbMask)
		e[i-1] = int64(el & limbMask)
		dh, dl = shr62(dh, dl)
		eh, el = shr62(eh, el)
	}
	di, ei, mi := d[top], e[top], uint64(mod.m[top])
	h1, l1 = mulS(u, di)
	h2, l2 = mulS(v, ei)
	h1, l1 = add128(h1, l1, h2, l2)
	h2, l2 = mulSU(md, mi)
	h1, l1 = add128(h1, l1, h2, l2)
	dh, dl = add128(dh, dl, h1, l1)
	h1, l1 = mulS(q, di)
	h2, l2 = mulS(r, ei)
	h1, l1 = add128(h1, l1, h2, l2)
	h2, l2 = mulSU(me, mi)
	h1, l1 = add128(h1, l1, h2, l2)
	eh, el = add128(eh, el, h1, l1)
	d[top-1] = int64(dl & limbMask)
	e[top-1] = int64(el & limbMask)
	_, dl = shr62(dh, dl)
	_, el = shr62(eh, el)
	d[top] = int64(dl)
	e[top] = int64(el)
}
