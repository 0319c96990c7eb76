// Command arm64 generates the arm64 kernels of package safegcd with
// internal/_asmlib/a64: divConstAsm, all of Div's divsteps with the
// updates of f, g and d, e after each batch of 62, and the updates alone
// (f, g at every length, d, e at both sizes) for the variable-time
// division. Run it through go generate in the package directory, which
// does
//
//	go run -C _asm ./arm64 -out ../safegcd_arm64.s -stubs ../safegcd_arm64_stubs.go -pkg safegcd
//
// Every kernel gives the limbs of its Go twin in safegcd.go bit for bit;
// none branches on data (divConstAsm's loop counts its ten batches), so
// all are constant time.
//
// # Divsteps in packed words
//
// The Go twin carries seven numbers through each half-delta divstep: h,
// the low bits of f and g, and the four matrix entries. Here a batch of
// nb ≤ 20 divsteps carries three: h and two words, each holding one row
// of the state in three signed fields,
//
//	F = f' + 2^A·u·2^(nb−k) + 2^B·v·2^(nb−k)
//	G = g' + 2^A·q·2^(nb−k) + 2^B·r·2^(nb−k)    (A = nb, B = 2nb + 2)
//
// after k of the nb steps, where f', g' are the divsteps run on the low nb
// bits of f and g taken as signed numbers (the steps depend on those bits
// only) and (u, v, q, r) is the matrix of the k steps so far, scaled by
// 2^k as in the twin. A divstep is linear in (f, g): g ← (g ± f)/2 or
// g/2, f ← g or f. With the matrix entries of the second row scaled by
// 2^(nb−k) the same is true of them (the twin's q ← q ± u with u, v
// doubled is (q ± u)/2 after rescaling), so one addition, subtraction and
// arithmetic shift of the packed words performs a step on all three
// fields at once: the sums are exact integers, even whenever they are
// halved, and never overflow (below).
//
// Bounds, for nb ≤ 20: |f'|, |g'| < 2^(nb−1) throughout (the divsteps
// never increase max(|f|, |g|), f' starts odd, and an odd value never
// reaches ±2^(nb−1)); the scaled entries of a row sum to at most 2^nb in
// absolute value. So |F|, |G| < 2^(nb−1) + 2^(B+nb) ≤ 2^63, and at the
// end of the batch (k = nb) the fields come apart exactly: with
// T = F + 2^(A−1), u is bits A..B−1 of T sign-extended (|u| ≤ 2^nb
// < 2^(B−A−1)) and v = (T − u·2^A) >> B.
//
// Per divstep, in the twin's terms (odd: g is odd; swap: odd and h ≥ 0):
//
//	P = G + F, S = G − F
//	TST G, 1;  C = odd ? P : G;  CCMP: flags of h − 0 if odd, else "LT"
//	G = (swap ? S : C) >> 1;  F = swap ? G : F;  h = swap ? −h : h + 1
//
// ten instructions, four of them on the chain from one G to the next.
// Between batches the new low bits of f and g come from the batch's
// matrix and the old ones (2^nb·f_new = u·f + v·g, modulo 2^64: the valid
// low bits shrink by nb per batch, and the 62 of a limb last exactly the
// 62 steps), and the matrices are multiplied together (entries stay below
// 2^62 in absolute value, so 64-bit products are exact).
//
// # Matrix updates
//
// The updates of f, g (for 1 to 7 limbs) and of d, e (for 5 and 7) are
// the twin's limb loops unrolled: products of the signed matrix entries
// with the limbs by MUL and SMULH (the limbs below the top one are in
// [0, 2^62), so signed and unsigned products agree), 128-bit sums on
// carry chains, and the 128-bit carry shifted right by 62 (EXTR, ASR)
// into the next limb. In divConstAsm they take the matrix from the
// registers the divsteps leave it in.
package main

import (
	"fmt"

	"github.com/p256tls/p256tls/internal/_asmlib/a64"
)

const (
	limbBits = 62
	limbMask = uint64(1)<<limbBits - 1
	// constSteps and nLimbs256 are Div's divstep count and limb count, as
	// in package safegcd (TestDivConstKernel compares divConstAsm with the
	// twin that uses the package's).
	constSteps = 590
	nLimbs256  = 5
	// maxBatch is the most divsteps one pair of packed words can carry:
	// the fields need 3·nb + 2 ≤ 62 bits (see the package comment).
	maxBatch = 20
)

func main() {
	a64.Main(func(f *a64.File) {
		genDivConst(f)
		// updateFG serves every length the variable-time division's f and g
		// shrink through; updateDE the two sizes.
		for n := 1; n <= 7; n++ {
			genUpdateFG(f, n)
		}
		for _, n := range []int{5, 7} {
			genUpdateDE(f, n)
		}
	})
}

// batches splits steps divsteps into the fewest batches of at most
// maxBatch, as equal as possible, the longer ones first.
func batches(steps int) []int {
	k := (steps + maxBatch - 1) / maxBatch
	bs := make([]int, k)
	for i := range bs {
		bs[i] = steps / k
		if i < steps%k {
			bs[i]++
		}
	}
	return bs
}

// genDivConst emits divConstAsm: the whole of Div's divsteps, nine batches
// of 62 and one of 32, each followed by the updates of f, g and d, e. The
// loop and the choice of the batch length depend on a public count only.
func genDivConst(f *a64.File) {
	fn := f.Func("divConstAsm", "func(d, e, x, y, m *num, minv uint64)",
		"divConstAsm runs Div's 590 divsteps (h starting at 0) on f = x, g = y\n"+
			"and d, e modulo M (m = mod.m, minv = mod.minv), five limbs each:\n"+
			"divConstStepsGeneric, bit for bit. Constant time.")
	regs := a64.NewPool(a64.Usable()...)
	pd, pe, pf, pg, pm := regs.Get(), regs.Get(), regs.Get(), regs.Get(), regs.Get()
	fn.Load("d", pd)
	fn.Load("e", pe)
	fn.Load("x", pf)
	fn.Load("y", pg)
	fn.Load("m", pm)
	h, cnt := regs.Get(), regs.Get()
	fn.MOVD(h, 0)
	fn.MOVD(cnt, constSteps/limbBits+1)
	// The matrix of a batch, scaled by 2^62, where both batch lengths
	// leave it for the updates.
	t := regs.GetN(4)
	fn.Label("batch")
	fv, gv := regs.Get(), regs.Get()
	fn.Ldr(fv, a64.Mem(pf, 0))
	fn.Ldr(gv, a64.Mem(pg, 0))
	fn.CMP(cnt, 1)
	fn.BCond(a64.EQ, "last")
	divsteps(fn, regs, h, fv, gv, limbBits, t)
	fn.B("update")
	fn.Label("last")
	const rest = constSteps % limbBits
	divsteps(fn, regs, h, fv, gv, rest, t)
	for _, r := range t {
		fn.LSL(r, r, limbBits-rest)
	}
	regs.Put(fv, gv)
	fn.Label("update")
	updateFG(fn, regs, pf, pg, nLimbs256, t)
	updateDE(fn, regs, pd, pe, pm, nLimbs256, t, func(scratch a64.GP) a64.GP {
		fn.Load("minv", scratch)
		return scratch
	})
	fn.SUBS(cnt, cnt, 1)
	fn.BCond(a64.NE, "batch")
	fn.RET()
}

// divsteps emits steps half-delta divsteps on the low bits of f = fv
// (odd) and g = gv, updating h, and leaves their matrix, scaled by
// 2^steps, in t. It changes fv and gv.
func divsteps(fn *a64.Func, regs *a64.Pool, h, fv, gv a64.GP, steps int, t []a64.GP) {
	one := regs.Get()
	fn.MOVD(one, 1)
	bs := batches(steps)
	// The matrix so far, and the product u·f + v·g (q·f + r·g) of the last
	// batch, from which the next one takes its low bits.
	var U, V, Q, R, tf, tg a64.GP
	shift := 0 // where the next batch's bits start in fv/gv or tf/tg
	for bi, nb := range bs {
		A, B := nb, 2*nb+2
		if 3*nb+2 > 62 {
			panic("batch too long for the packed fields")
		}
		fn.Comment("%d divsteps; F = f' + 2^%d·u + 2^%d·v, G = g' + 2^%d·q + 2^%d·r", nb, A, B, A, B)
		F, G := regs.Get(), regs.Get()
		srcF, srcG := fv, gv
		if bi > 0 {
			srcF, srcG = tf, tg
		}
		fn.SBFX(F, srcF, shift, nb)
		fn.ADD(F, F, one.Lsl(uint(A+nb)))
		fn.SBFX(G, srcG, shift, nb)
		fn.ADD(G, G, one.Lsl(uint(B+nb)))
		if bi > 0 {
			regs.Put(tf, tg)
		}
		for k := 0; k < nb; k++ {
			F = step(fn, regs, h, F, G)
		}
		fn.Comment("the fields of F and G: u, v and q, r")
		u, v := extract(fn, regs, F, one, A, B)
		q, r := extract(fn, regs, G, one, A, B)
		regs.Put(F, G)
		last := bi == len(bs)-1
		switch {
		case bi == 0 && last:
			for i, x := range []a64.GP{u, v, q, r} {
				fn.MOVD(t[i], x)
			}
		case bi == 0:
			U, V, Q, R = u, v, q, r
		default:
			fn.Comment("the matrix so far, multiplied by this batch's")
			var nU, nV, nQ, nR a64.GP
			if last {
				nU, nV, nQ, nR = t[0], t[1], t[2], t[3]
			} else {
				nU, nV, nQ, nR = regs.Get(), regs.Get(), regs.Get(), regs.Get()
			}
			fn.MUL(nU, u, U)
			fn.MADD(nU, v, Q, nU)
			fn.MUL(nV, u, V)
			fn.MADD(nV, v, R, nV)
			fn.MUL(nQ, q, U)
			fn.MADD(nQ, r, Q, nQ)
			fn.MUL(nR, q, V)
			fn.MADD(nR, r, R, nR)
			regs.Put(U, V, Q, R)
			U, V, Q, R = nU, nV, nQ, nR
		}
		if !last {
			fn.Comment("2^%d·(f, g) after the batch: its matrix times (f, g), modulo 2^64", nb)
			tf, tg = regs.Get(), regs.Get()
			fn.MUL(tf, u, fv)
			fn.MADD(tf, v, gv, tf)
			fn.MUL(tg, q, fv)
			fn.MADD(tg, r, gv, tg)
			shift = nb
			if bi < len(bs)-2 {
				// f and g themselves, for the batch after the next.
				fn.ASR(fv, tf, nb)
				fn.ASR(gv, tg, nb)
			}
		}
		if bi > 0 || last {
			regs.Put(u, v, q, r)
		}
	}
	regs.Put(one)
}

// step emits one divstep on the packed F and G and h, and returns the
// register of the new F (G and h are updated in place).
func step(fn *a64.Func, regs *a64.Pool, h, F, G a64.GP) a64.GP {
	P, S, C, H1, Fn := regs.Get(), regs.Get(), regs.Get(), regs.Get(), regs.Get()
	fn.ADD(P, G, F)
	fn.SUB(S, G, F)
	fn.TST(G, 1)
	fn.CSEL(a64.NE, C, P, G) // odd ? G + F : G
	// swap = odd and h ≥ 0: GE after this; an even g sets N alone (LT).
	fn.CCMP(a64.NE, h, 0, 8)
	fn.ADD(H1, h, 1)
	fn.CSEL(a64.GE, S, S, C)
	fn.CSEL(a64.GE, Fn, G, F)
	fn.CSNEG(a64.LT, h, H1, h)
	fn.ASR(G, S, 1)
	regs.Put(P, S, C, H1, F)
	return Fn
}

// extract returns the two matrix fields of the packed word W after its
// batch: bits A..B−1 and B..63 of W + 2^(A−1), the first sign-extended
// and the second net of it.
func extract(fn *a64.Func, regs *a64.Pool, W, one a64.GP, A, B int) (lo, hi a64.GP) {
	lo, hi = regs.Get(), regs.Get()
	fn.ADD(hi, W, one.Lsl(uint(A-1)))
	fn.SBFX(lo, hi, A, B-A)
	fn.SUB(hi, hi, lo.Lsl(uint(A)))
	fn.ASR(hi, hi, B)
	return lo, hi
}

// carry is a signed 128-bit carry (lo, hi) between limbs.
type carry struct{ lo, hi a64.GP }

// mulAdd2 returns (lo, hi) = a·x + b·y as signed 128-bit numbers, in two
// registers from regs; t0 and t1 are scratch.
func mulAdd2(fn *a64.Func, regs *a64.Pool, a, x, b, y, t0, t1 a64.GP) (lo, hi a64.GP) {
	lo, hi = regs.Get(), regs.Get()
	fn.MUL(lo, a, x)
	fn.SMULH(hi, a, x)
	fn.MUL(t0, b, y)
	fn.SMULH(t1, b, y)
	fn.ADDS(lo, lo, t0)
	fn.ADC(hi, hi, t1)
	return lo, hi
}

// finishLimb adds the carry c into (lo, hi) (limb i > 0), stores limb i−1
// of out (the low 62 bits), and sets c to (lo, hi) >> 62; for the top
// limb (last) it stores the low 64 bits of (lo, hi) >> 62 as limb i
// instead. It gives lo and hi back.
func finishLimb(fn *a64.Func, regs *a64.Pool, lo, hi a64.GP, c *carry, out a64.GP, i int, last bool, t a64.GP) {
	if i > 0 {
		fn.ADDS(lo, lo, c.lo)
		fn.ADC(hi, hi, c.hi)
		fn.AND(t, lo, limbMask)
		fn.Str(t, a64.Mem(out, 8*(i-1)))
	}
	if last {
		fn.EXTR(t, hi, lo, limbBits)
		fn.Str(t, a64.Mem(out, 8*i))
		if i > 0 {
			regs.Put(c.lo, c.hi)
		}
	} else {
		if i == 0 {
			c.lo, c.hi = regs.Get(), regs.Get()
		}
		fn.EXTR(c.lo, hi, lo, limbBits)
		fn.ASR(c.hi, hi, limbBits)
	}
	regs.Put(lo, hi)
}

// loadMatrix loads the matrix at t into four registers from regs.
func loadMatrix(fn *a64.Func, regs *a64.Pool, name string) []a64.GP {
	pt := regs.Get()
	fn.Load(name, pt)
	t := regs.GetN(4)
	fn.LDP(t[0], t[1], a64.Mem(pt, 0))
	fn.LDP(t[2], t[3], a64.Mem(pt, 16))
	regs.Put(pt)
	return t
}

func genUpdateFG(f *a64.File, n int) {
	name := fmt.Sprintf("updateFG%dAsm", n)
	fn := f.Func(name, "func(x, y *num, t *matrix)", fmt.Sprintf(
		"%s is updateFGGeneric(x, y, t, %d), bit for bit, for limbs below the\n"+
			"top one in [0, 2^62) and x and y not aliased. Constant time.", name, n))
	regs := a64.NewPool(a64.Usable()...)
	pf, pg := regs.Get(), regs.Get()
	fn.Load("x", pf)
	fn.Load("y", pg)
	updateFG(fn, regs, pf, pg, n, loadMatrix(fn, regs, "t"))
	fn.RET()
}

// updateFG emits the update of the n-limb f and g at pf and pg by the
// matrix t (u, v, q, r in registers). It gives back every register it
// takes.
func updateFG(fn *a64.Func, regs *a64.Pool, pf, pg a64.GP, n int, t []a64.GP) {
	u, v, q, r := t[0], t[1], t[2], t[3]
	var cf, cg carry
	t0, t1 := regs.Get(), regs.Get()
	for i := 0; i < n; i++ {
		fn.Comment("f, g: limb %d", i)
		fi, gi := regs.Get(), regs.Get()
		fn.Ldr(fi, a64.Mem(pf, 8*i))
		fn.Ldr(gi, a64.Mem(pg, 8*i))
		lo, hi := mulAdd2(fn, regs, u, fi, v, gi, t0, t1)
		finishLimb(fn, regs, lo, hi, &cf, pf, i, i == n-1, t0)
		lo, hi = mulAdd2(fn, regs, q, fi, r, gi, t0, t1)
		finishLimb(fn, regs, lo, hi, &cg, pg, i, i == n-1, t0)
		regs.Put(fi, gi)
	}
	regs.Put(t0, t1)
}

func genUpdateDE(f *a64.File, n int) {
	name := fmt.Sprintf("updateDE%dAsm", n)
	fn := f.Func(name, "func(d, e *num, t *matrix, m *num, minv uint64)", fmt.Sprintf(
		"%s is updateDEGeneric(d, e, t, mod, %d limbs) with m = mod.m and\n"+
			"minv = mod.minv, bit for bit, for limbs 0..%d of d and e in [0, 2^62)\n"+
			"and d and e not aliased. Constant time.", name, n, n-2))
	regs := a64.NewPool(a64.Usable()...)
	pd, pe, pm, minv := regs.Get(), regs.Get(), regs.Get(), regs.Get()
	fn.Load("d", pd)
	fn.Load("e", pe)
	fn.Load("m", pm)
	fn.Load("minv", minv)
	updateDE(fn, regs, pd, pe, pm, n, loadMatrix(fn, regs, "t"), func(a64.GP) a64.GP { return minv })
	fn.RET()
}

// updateDE emits the update of the n-limb d and e at pd and pe modulo M
// (at pm) by the matrix t (u, v, q, r in registers). minv returns a
// register holding M^-1 mod 2^62, given a scratch register it may load it
// into. It gives back every register it takes.
func updateDE(fn *a64.Func, regs *a64.Pool, pd, pe, pm a64.GP, n int, t []a64.GP, minv func(scratch a64.GP) a64.GP) {
	u, v, q, r := t[0], t[1], t[2], t[3]
	top := n - 1
	fn.Comment("md = u·[d < 0] + v·[e < 0], me = q·[d < 0] + r·[e < 0]")
	dt, et := regs.Get(), regs.Get()
	fn.Ldr(dt, a64.Mem(pd, 8*top))
	fn.Ldr(et, a64.Mem(pe, 8*top))
	sd, se, md, me := regs.Get(), regs.Get(), regs.Get(), regs.Get()
	fn.ASR(sd, dt, 63)
	fn.ASR(se, et, 63)
	fn.AND(md, u, sd)
	fn.AND(me, q, sd)
	fn.AND(sd, v, se)
	fn.AND(se, r, se)
	fn.ADD(md, md, sd)
	fn.ADD(me, me, se)
	regs.Put(sd, se)
	var cd, ce carry
	t0, t1 := regs.Get(), regs.Get()
	for i := 0; i < n; i++ {
		fn.Comment("d, e: limb %d", i)
		di, ei, mi := dt, et, regs.Get()
		if i < top {
			di, ei = regs.Get(), regs.Get()
			fn.Ldr(di, a64.Mem(pd, 8*i))
			fn.Ldr(ei, a64.Mem(pe, 8*i))
		}
		fn.Ldr(mi, a64.Mem(pm, 8*i))
		for _, row := range []struct {
			a, b, mc, out a64.GP
			c             *carry
		}{{u, v, md, pd, &cd}, {q, r, me, pe, &ce}} {
			lo, hi := mulAdd2(fn, regs, row.a, di, row.b, ei, t0, t1)
			if i == 0 {
				// The correction: mc −= (minv·lo + mc) mod 2^62, so that
				// lo + mc·m0 ≡ 0 (mod 2^62).
				fn.MADD(t0, lo, minv(t1), row.mc)
				fn.AND(t0, t0, limbMask)
				fn.SUB(row.mc, row.mc, t0)
			}
			fn.MUL(t0, row.mc, mi)
			fn.SMULH(t1, row.mc, mi)
			fn.ADDS(lo, lo, t0)
			fn.ADC(hi, hi, t1)
			finishLimb(fn, regs, lo, hi, row.c, row.out, i, i == top, t0)
		}
		regs.Put(di, ei, mi)
	}
	regs.Put(t0, t1, md, me)
}
