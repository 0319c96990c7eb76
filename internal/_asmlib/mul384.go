package asmlib

// P-384 multiplication and squaring kernels that are faster than MontMulN
// with asmlib.P384 (measured in internal/p384/field/_asm/main.go's doc
// comment). What limits MontMulN on the Intel cores we measured is not
// its latency alone but also the two ports (0 and 6) that execute every
// flag-consuming instruction (ADC, SBB, ADCX, ADOX, CMOV, the shifts),
// while MULX holds ports 1 and 5. The emitters here spend fewer of them:
//
//   - The reduction round subtracts only the three limbs 1..3 of q·c from
//     a[k+1..k+3] (p = 2^384 − c, q·c as in p384.go) and does not add q at
//     a[k+6]: the borrow out of a[k+3] is kept in a register and subtracted
//     with the next round's limb 3, and the six quotient digits are stored
//     to memory and added once at the end. A round is eight such
//     instructions instead of twelve.
//   - The rows write the full twelve-limb product in place (no carry limb
//     a[k+7] per row): a row is thirteen instead of fifteen.
//   - The finish adds Q and Q − p to two copies of the high half on two
//     independent chains and selects with a mask, instead of adding Q and
//     then subtracting p on one chain.
//
// # Why the rounds may run between the rows
//
// Write V for the value the limbs hold, Σ a[i]·2^(64i), less the pending
// borrow b times 2^(64(k+4)) after round k. Row r adds x·y[r] into the six
// limbs a[r..r+5] and creates a[r+6]: whatever those six limbs hold, the
// sum is below 2^384 + (2^384 − 1)(2^64 − 1) < 2^448, so a[r+6] takes the
// whole carry and a row is exact. Round k needs a[k] final, which it is
// after row k, and touches only a[k+1..k+3], which row k created; it runs
// after row k+1, so that row's addition into a[k+1] is off the chain from
// one digit to the next. So the rows and rounds keep V = x·y −
// Σ_{j≤k} q_j·c·2^(64j) exact, and after the last round the low six limbs
// are retired (each q_j·c ≡ a[j] mod 2^64 cancels a[j] exactly). The last
// round propagates its borrow through a[9..11], leaving
//
//	r = (x·y + Q·p)/2^384 = A + Q,  A = a[6..11] − borrow·2^384,  Q = Σ q_j·2^(64j),
//
// with 0 ≤ r < p²/2^384 + p < 2p. Square384MULQ reduces its full product
// the same way, after it; Square384ADX runs the rounds between its rows.
//
// # Limb 2 of a round
//
// With s = q<<32, sh = q>>32 the limbs 1..3 of q·c are x1 = s − sh − [q <
// s], x2 = q + sh − borrow(x1) and x3 = carry(q + sh), as in p384.go; x2
// never borrows (q + sh ≡ 0 only for q = 0 and q = 2^64 − 2^32 + 1, where
// x1 does not borrow). The round subtracts x3 + b_prev (at most 2) with one
// SBB.

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// red384 is the state the reduction rounds carry from one to the next:
// the pending borrow (nil before round 0) and where the digits go.
type red384 struct {
	b  GPPhysical
	q  []Mem // q[0..5] the digits, q[6..11] Q − p + 2^384
	q5 GPPhysical
	// keep: a round that is not last keeps its digit in q5 for the
	// finish (Square384ADX's round 5, whose borrow the caller propagates).
	keep bool
}

// round emits round k on a[k..k+3]: q = a[k]·(2^32+1) mod 2^64 stored to
// q[k], x1, x2, x3 + b subtracted from a[k+1..k+3], the borrow out left in
// b. sc and sc2 are scratch registers (sc2 nil: one from regs); it takes one
// more from regs, and frees a[k].
//
// The last round instead propagates the borrow through a[k+4..k+6] and
// leaves −borrow in b.
func (st *red384) round(a []GPPhysical, k int, sc, sc2 GPPhysical, regs *Pool, last bool) {
	Commentf("Round %d: q = a[%d]·(2^32+1); a[%d..%d] −= limbs 1..3 of q·c, the borrow kept.", k, k, k+1, k+3)
	q := a[k]
	s, sh, c2 := sc, sc2, regs.Get()
	if sh == nil {
		sh = regs.Get()
		defer regs.Put(sh)
	}
	MOVQ(q, s)
	SHLQ(U8(32), s)
	ADDQ(s, q) // q = a + a<<32; s = q<<32 too (the 2^64 term drops)
	MOVQ(q, st.q[k])
	MOVQ(q, sh)
	SHRQ(U8(32), sh)
	MOVQ(q, c2)
	ADDQ(sh, c2)
	if st.b == nil {
		st.b = regs.Get()
		MOVL(U32(0), st.b.As32())
	}
	ADCQ(Imm(0), st.b) // x3 + the previous round's borrow
	CMPQ(q, s)
	SBBQ(sh, s)      // x1
	SBBQ(Imm(0), c2) // x2, never borrows
	SUBQ(s, a[k+1])
	SBBQ(c2, a[k+2])
	SBBQ(st.b, a[k+3])
	if last {
		for i := k + 4; i < k+7; i++ {
			SBBQ(Imm(0), a[i])
		}
		SBBQ(st.b, st.b)
		st.q5 = q // the finish's Q' reads it from here
		regs.Put(c2)
		return
	}
	MOVL(U32(0), st.b.As32())
	ADCQ(Imm(0), st.b)
	if st.keep {
		st.q5 = q
		regs.Put(c2)
		return
	}
	regs.Put(c2, q)
}

// finish emits r = A + Q, A = a[6..11] − borrow·2^384 after the last
// round, reduced below p: with Q' = Q − p + 2^384 (borrow bq), it adds Q
// and Q' to copies of A on two independent chains and keeps A + Q' unless
// its top, carry − bq − borrow, is −1 (then r < p and A + Q is r). It
// returns the six limbs of the result in new registers from regs and frees
// r, b and q5; pr is a scratch register (not returned to regs); it writes
// tmp[6..11].
func (st *red384) finish(r []GPPhysical, pr GPPhysical, regs *Pool) []GPPhysical {
	Comment("Q' = Q − p + 2^384 into tmp[6..11]; m = −bq − borrow.")
	t := regs.Get()
	for i, l := range P384.Limbs {
		op := ConstOp(l, pr)
		if i < 5 {
			MOVQ(st.q[i], t)
		} else {
			MOVQ(st.q5, t)
		}
		if i == 0 {
			SUBQ(op, t)
		} else {
			SBBQ(op, t)
		}
		MOVQ(t, st.q[6+i])
	}
	m := t
	SBBQ(m, m)
	ADDQ(st.b, m)
	regs.Put(st.b, st.q5)
	Comment("r = A + Q and r' = A + Q' on two chains; r' unless m + carry' = −1.")
	s := make([]GPPhysical, 6)
	for i := range s {
		s[i] = regs.Get()
		MOVQ(r[i], s[i])
	}
	for i := range r {
		if i == 0 {
			ADDQ(st.q[i], r[i])
		} else {
			ADCQ(st.q[i], r[i])
		}
	}
	for i := range s {
		if i == 0 {
			ADDQ(st.q[6+i], s[i])
		} else {
			ADCQ(st.q[6+i], s[i])
		}
	}
	ADCQ(Imm(0), m)
	for i := range s {
		XORQ(s[i], r[i])
		ANDQ(m, r[i])
		XORQ(r[i], s[i])
	}
	regs.Put(r...)
	regs.Put(m)
	return s
}

// Mul384ADX returns x·y·2^−384 mod p, below p, for p = P-384's prime and
// x, y < p, in six registers taken from regs; x and y are six limbs in
// memory each (they may be the same). Row r loads y[r] into DX and reads
// x's limbs as MULX memory operands: when one operand comes from the
// instructions just before (a chain), pass it as y (only six loads wait for
// it), as internal/p384/field's mulADX does. It needs BMI2 and ADX, and
// uses:
//
//   - DX (not in regs) and the flags, clobbered;
//   - regs: at least eleven registers, none of them DX or a register of
//     release (eleven are in use at the peak);
//   - release: the registers holding x's and y's base addresses (two, or
//     one when x and y share it), not in regs; they join regs after the
//     last row and are clobbered;
//   - tmp: twelve 8-byte memory slots (a frame slot, 96 bytes) where the
//     quotient digits and Q − p are stored and read back; x and y must not
//     overlap it.
//
// On return regs holds the registers it had that are not in the result,
// plus release's, all clobbered; DX is clobbered and not in regs (as with
// MontMulN, so the same pool serves the next call). It is constant time: no
// branches, no secret-dependent addresses.
func Mul384ADX(x, y, tmp []Mem, regs *Pool, release ...GPPhysical) []GPPhysical {
	if len(x) != 6 || len(y) != 6 || len(tmp) != 12 {
		panic(fmt.Sprintf("asmlib: Mul384ADX needs 6-limb operands and 12 slots of tmp, got %d, %d, %d", len(x), len(y), len(tmp)))
	}
	a := make([]GPPhysical, 12)
	st := &red384{q: tmp}

	Comment("Row 0: a[0..6] = x·y[0].")
	for i := 0; i <= 6; i++ {
		a[i] = regs.Get()
	}
	lo := regs.Get()
	MOVQ(y[0], RDX)
	MULXQ(x[0], a[0], a[1])
	for j := 1; j < 6; j++ {
		MULXQ(x[j], lo, a[j+1])
		if j == 1 {
			ADDQ(lo, a[j])
		} else {
			ADCQ(lo, a[j])
		}
	}
	ADCQ(Imm(0), a[6])
	regs.Put(lo)

	// Round k runs after row k+1, so that row k+1's addition into a[k+1]
	// is off the chain from one quotient digit to the next.
	for r := 1; r < 6; r++ {
		mulRow384(a, x, y, r, regs)
		if r == 5 {
			regs.Put(release...)
		}
		st.round(a, r-1, RDX, nil, regs, false)
	}
	st.round(a, 5, RDX, nil, regs, true)
	return st.finish(a[6:], RDX, regs)
}

// mulRow384 adds x·y[r] into a[r..r+5] on the two carry chains, creating
// a[r+6] from regs; it uses DX and two scratch registers.
func mulRow384(a []GPPhysical, x, y []Mem, r int, regs *Pool) {
	Commentf("Row %d: a[%d..%d] += x·y[%d]; low halves on CF, high halves on OF.", r, r, r+6, r)
	lo, hi := regs.Get(), regs.Get()
	a[r+6] = regs.Get()
	MOVQ(y[r], RDX)
	XORL(lo.As32(), lo.As32()) // clears CF and OF
	MOVL(U32(0), a[r+6].As32())
	for j := 0; j < 6; j++ {
		MULXQ(x[j], lo, hi)
		ADCXQ(lo, a[r+j])
		ADOXQ(hi, a[r+j+1])
	}
	ADCQ(Imm(0), a[r+6])
	regs.Put(lo, hi)
}

// Mul384MULQ is Mul384ADX with MULQ rows (x[j] loaded into AX, y[r] the
// MULQ memory operand: here the chained operand is better passed as x): it
// needs no BMI2 or ADX, and uses AX and DX (neither in regs) besides the
// flags; regs must hold at least ten registers, none of them AX, DX or a
// register of release. The rest of Mul384ADX's contract holds, tmp
// included, with AX joining regs on return.
func Mul384MULQ(x, y, tmp []Mem, regs *Pool, release ...GPPhysical) []GPPhysical {
	if len(x) != 6 || len(y) != 6 || len(tmp) != 12 {
		panic(fmt.Sprintf("asmlib: Mul384MULQ needs 6-limb operands and 12 slots of tmp, got %d, %d, %d", len(x), len(y), len(tmp)))
	}
	a := make([]GPPhysical, 12)
	st := &red384{q: tmp}
	for r := 0; r < 6; r++ {
		mulRow384MULQ(a, x, y, r, regs)
		if r == 5 {
			regs.Put(release...)
		}
		if r > 0 {
			st.round(a, r-1, RDX, RAX, regs, false)
		}
	}
	st.round(a, 5, RDX, RAX, regs, true)
	regs.Put(RAX)
	return st.finish(a[6:], RDX, regs)
}

// mulRow384MULQ adds x·y[r] into a[r..r+5] (row 0: sets a[0..5]) and
// creates a[r+6] from regs, with MULQ on one carry chain per product; it
// uses AX, DX and one scratch register.
func mulRow384MULQ(a []GPPhysical, x, y []Mem, r int, regs *Pool) {
	Commentf("Row %d: a[%d..%d] += x·y[%d].", r, r, r+6, r)
	rowMULQ(a[r:], x, y[r], r == 0, regs)
}

// rowMULQ adds x·m into a[0..len(x)−1] (with set: sets them, creating them
// from regs) and creates a[len(x)] from regs with the top limb, with MULQ
// (x[j] loaded into AX, m the memory operand) and one carry chain per
// product: x[j]·m plus the previous product's high half, then plus a[j].
// It uses AX, DX and one scratch register. The rows of Mul384MULQ and the
// cross products of Square384MULQ are such rows.
func rowMULQ(a []GPPhysical, x []Mem, m Mem, set bool, regs *Pool) {
	n := len(x)
	hi := regs.Get()
	for j := 0; j < n; j++ {
		MOVQ(x[j], RAX)
		MULQ(m)
		if j > 0 {
			ADDQ(hi, RAX)
			ADCQ(Imm(0), RDX)
		}
		if set {
			a[j] = regs.Get()
			MOVQ(RAX, a[j])
		} else {
			ADDQ(RAX, a[j])
			ADCQ(Imm(0), RDX)
		}
		if j < n-1 {
			MOVQ(RDX, hi)
		}
	}
	regs.Put(hi)
	a[n] = regs.Get()
	MOVQ(RDX, a[n])
}

// Square384ADX returns x·x·2^−384 mod p, below p, for x < p six limbs in
// memory, in six registers taken from regs, with a product of its own: 21
// MULX instead of 36, in six rows with the reduction rounds between them,
// then Mul384ADX's finish. Row i adds x_i·W_i·2^(128i) into a[2i..i+6],
// where W_i = x_i + (2·Σ_{j>i} x_j·2^(64(j−i)) mod 2^(64(6−i))): the
// square x_i² and the doubled cross products x_i·2x_j in one row, the
// limbs of 2x being x_(i+1)<<1 and d_j = x_j<<1 | x_(j−1)>>63 (j ≥ i+2).
// The bit the rows drop, top = x5>>63 (it would sit at limb 6−i of W_i
// for i < 5), comes back at the end as top·(x0..x4)·2^384, added by MULX
// with top in DX (no flags, no secret-dependent branch or address). It
// needs BMI2 and ADX, and uses:
//
//   - DX (not in regs) and the flags, clobbered;
//   - regs: at least twelve registers, none of them DX or xp;
//   - xp: the register holding x's base address, not in regs; it joins
//     regs after the last read of x and is clobbered;
//   - tmp: twelve 8-byte memory slots (a frame slot, 96 bytes): d_2..d_5
//     (tmp[6..9], written by row 0 and read by rows 1..3), the quotient
//     digits and Q − p go there; x must not overlap it.
//
// On return regs holds the registers it had that are not in the result,
// plus xp, all clobbered; DX is clobbered and not in regs. It is constant
// time.
//
// Why the rows are exact: after rows 0..i the sum is below X_i·(X_i +
// 2^384 − 2^(64(i+1)+1)) < 2^(64(i+7)), X_i = Σ_{i'≤i} x_i'·2^(64i') (the
// doubled part mod 2^(64(6−i)) is a multiple of 2^(64(i+1)+1)); and
// whatever a[2i..i+5] hold when row i runs (the rounds change them),
// their value plus x_i·W_i is below 2^(64(6−i)) + (2^64 − 1)·2^(64(6−i)),
// as W_i < 2^(64(6−i)): so a[i+6], created zero by the row, takes the
// whole carry, as with Mul384ADX's rows. Round k needs a[k] final, which
// it is after row ⌊k/2⌋ and round k − 1; sqOrder384 runs the rounds one
// row later than that allows where that measured faster. The last round's
// borrow is subtracted from a[9] after row 5 and propagated to a[11],
// leaving −borrow in b for the finish. The top·x addition never carries
// out of a[11]: with top = 0 it adds nothing; with top = 1, x ≥ 2^383 and
// before it the limbs hold A' = (x² − X4·2^384 − Q·c)/2^384 ≥ (2^766 −
// 2^704 − 2^513)/2^384 > 0 (X4 = Σ_{i<5} x_i·2^(64i) < 2^320, Q < 2^384,
// c < 2^129), so borrow = 0, and after it they hold A = (x² − Q·c)/2^384
// < 2^384.
func Square384ADX(x, tmp []Mem, regs *Pool, xp GPPhysical) []GPPhysical {
	if len(x) != 6 || len(tmp) != 12 {
		panic(fmt.Sprintf("asmlib: Square384ADX needs 6 limbs and 12 slots of tmp, got %d, %d", len(x), len(tmp)))
	}
	d := tmp[6:10] // d_2..d_5, written by row 0
	a := make([]GPPhysical, 12)
	st := &red384{q: tmp}
	for _, step := range sqOrder384 {
		if step < 10 {
			sqRow384(a, x, d, step, regs)
			continue
		}
		k := step - 10
		st.keep = k == 5 // rows 3..5 still to come: its borrow waits
		st.round(a, k, RDX, nil, regs, false)
	}
	Comment("The last round's borrow through a[9..11], −borrow into b.")
	SUBQ(st.b, a[9])
	SBBQ(Imm(0), a[10])
	SBBQ(Imm(0), a[11])
	SBBQ(st.b, st.b)
	Comment("a[6..11] += top·x[0..4]·2^384, top = x5>>63 in DX, by MULX (no flags).")
	u, v := regs.Get(), regs.Get()
	MOVQ(x[5], RDX)
	SHRQ(U8(63), RDX)
	for i := 0; i < 5; i++ {
		MULXQ(x[i], u, v) // u = x_i·top, v = 0
		if i == 0 {
			ADDQ(u, a[6])
		} else {
			ADCQ(u, a[6+i])
		}
	}
	ADCQ(Imm(0), a[11]) // no carry out of a[11]: see the doc comment
	regs.Put(u, v, xp)
	return st.finish(a[6:], RDX, regs)
}

// sqOrder384 is the order of Square384ADX's steps: row i is i, round k is
// 10 + k (measured against other orders: internal/p384/field/_asm).
var sqOrder384 = []int{0, 1, 10, 11, 2, 12, 3, 13, 14, 4, 15, 5}

// sqRow384 adds x_i·W_i (Square384ADX's doc comment) into a[2i..i+6] and
// creates a[i+6] from regs (row 0 creates a[0..6] and writes d_2..d_5 to
// d); it uses DX and scratch registers from regs (six in row 0).
func sqRow384(a []GPPhysical, x, d []Mem, i int, regs *Pool) {
	Commentf("Square row %d: a[%d..%d] += x%d·W%d.", i, 2*i, i+6, i, i)
	var e GPPhysical
	if i < 5 {
		e = regs.Get()
		MOVQ(x[i+1], e)
		ADDQ(e, e) // x_(i+1)<<1: limb i+1 of 2x without x_i's top bit
	}
	if i == 0 {
		// d_j in registers (and to tmp for rows 1..3), all before the
		// carry chain: SHLD writes the flags.
		t := make([]GPPhysical, 6)
		for j := 2; j <= 5; j++ {
			t[j] = regs.Get()
			MOVQ(x[j], t[j])
			MOVQ(x[j-1], RDX)
			SHLQ(U8(1), RDX, t[j]) // d_j = x_j<<1 | x_(j−1)>>63
			MOVQ(t[j], d[j-2])
		}
		for k := 0; k <= 6; k++ {
			a[k] = regs.Get()
		}
		MOVQ(x[0], RDX)
		MULXQ(x[0], a[0], a[1])
		MULXQ(e, e, a[2])
		for j := 2; j <= 5; j++ {
			MULXQ(t[j], t[j], a[j+1]) // the low half over d_j's register
		}
		ADDQ(e, a[1])
		regs.Put(e)
		for j := 2; j <= 5; j++ {
			ADCQ(t[j], a[j])
			regs.Put(t[j])
		}
		ADCQ(Imm(0), a[6]) // row 0's top
		return
	}
	lo := regs.Get()
	a[i+6] = regs.Get()
	if i == 5 {
		MOVQ(x[5], RDX)
		MULXQ(x[5], lo, a[11])
		ADDQ(lo, a[10])
		ADCQ(Imm(0), a[11]) // row 5's top
		regs.Put(lo)
		return
	}
	hi := regs.Get()
	XORL(lo.As32(), lo.As32()) // clears CF and OF
	MOVL(U32(0), a[i+6].As32())
	MOVQ(x[i], RDX)
	ops := []Op{x[i], e}
	for j := i + 2; j <= 5; j++ {
		ops = append(ops, d[j-2])
	}
	for m, op := range ops {
		MULXQ(op, lo, hi)
		ADCXQ(lo, a[2*i+m])
		ADOXQ(hi, a[2*i+m+1])
	}
	ADCQ(Imm(0), a[i+6]) // the row's last CF into its top
	regs.Put(lo, hi, e)
}

// reduce384 runs the six rounds and the finish on the twelve-limb product
// f: f[0..8] in registers, f[9..11] in tmp[9..11], the digits to
// tmp[0..5]; sc and sc2 (nil: one from regs) are the rounds' scratch.
func reduce384(f []GPPhysical, tmp []Mem, regs *Pool, sc, sc2 GPPhysical) []GPPhysical {
	st := &red384{q: tmp}
	for k := 0; k < 6; k++ {
		if k == 5 {
			for i := 9; i < 12; i++ {
				f[i] = regs.Get()
				MOVQ(tmp[i], f[i])
			}
		}
		st.round(f, k, sc, sc2, regs, k == 5)
	}
	if sc2 != nil {
		regs.Put(sc2)
	}
	return st.finish(f[6:], sc, regs)
}

// Square384MULQ is Square384ADX with MULQ: the 15 cross products on one
// carry chain per product, the doubling on one ADD/ADC chain, the six
// squares added on a chain whose carry is kept in a mask across each MULQ,
// then the same rounds and finish. It needs no BMI2 or ADX, and uses AX
// and DX (neither in regs) besides the flags; regs must hold at least
// eleven registers, none of them AX, DX or xp. The rest of Square384ADX's
// contract holds, with AX joining regs on return.
func Square384MULQ(x, tmp []Mem, regs *Pool, xp GPPhysical) []GPPhysical {
	if len(x) != 6 || len(tmp) != 12 {
		panic(fmt.Sprintf("asmlib: Square384MULQ needs 6 limbs and 12 slots of tmp, got %d, %d", len(x), len(tmp)))
	}
	c := make([]GPPhysical, 12)
	// After row i the cross sum is below 2^(64(i+7)), as in Square384ADX:
	// limb i+6 is row i's top.
	for i := 0; i <= 4; i++ {
		Commentf("Row %d: c[%d..%d] += x%d·x[%d..5].", i, 2*i+1, i+6, i, i+1)
		rowMULQ(c[2*i+1:], x[i+1:], x[i], i == 0, regs)
	}
	Comment("f = 2c + Σ x_i²·2^(128i): c doubled on one chain, c[9..11] in tmp.")
	for _, k := range []int{9, 10} {
		MOVQ(c[k], tmp[k])
		regs.Put(c[k])
	}
	ADDQ(c[1], c[1])
	for k := 2; k <= 8; k++ {
		ADCQ(c[k], c[k])
	}
	for _, k := range []int{9, 10} {
		MOVQ(tmp[k], RAX)
		ADCQ(RAX, RAX)
		MOVQ(RAX, tmp[k])
	}
	MOVL(U32(0), EAX)
	ADCQ(Imm(0), RAX)
	MOVQ(RAX, tmp[11])
	Comment("The squares, the carry kept in a mask across each MULQ.")
	f := make([]GPPhysical, 12)
	copy(f, c[:9])
	cy := regs.Get()
	limb := func(k int) Op {
		if k >= 9 {
			return tmp[k]
		}
		return f[k]
	}
	for i := 0; i < 6; i++ {
		MOVQ(x[i], RAX)
		MULQ(x[i])
		if i == 0 {
			f[0] = regs.Get()
			MOVQ(RAX, f[0])
			ADDQ(RDX, f[1])
		} else {
			NEGQ(cy) // CF = the carry
			ADCQ(RAX, limb(2*i))
			ADCQ(RDX, limb(2*i+1))
		}
		if i < 5 {
			SBBQ(cy, cy)
		}
	}
	regs.Put(cy, xp)
	return reduce384(f, tmp, regs, RDX, RAX)
}
