package a64

// Montgomery multiplication modulo a general odd constant modulus m of n
// 64-bit limbs (R = 2^(64n)), in registers, for moduli without P256's
// special form (the order of the P-256 group): the quotient digit of a
// round is a multiplication by −m⁻¹ mod 2^64, and every limb of m is
// multiplied in.
//
// It is word-by-word (CIOS) Montgomery multiplication on a sliding window
// a[k..k+n+1] of accumulator limbs, as asmlib's MontMulN on amd64: row k
// adds x·y[k] at limbs k..k+n, carrying into a new limb a[k+n+1], then
// round k adds q·m for the quotient digit q = a[k]·(−m⁻¹) mod 2^64, which
// retires a[k]. Relative to 2^(64k) the window is below 2m before row k,
// below m·(2^64 + 2) < 2^(64(n+1)+1) after it and below 2m after round k,
// so a[k+n+1] is a carry bit and nothing is lost for any m < 2^(64n).
// After the last round the result r < 2m is a[n..2n−1] plus the bit
// a[2n], and one subtraction of m, kept when it does not borrow, reduces
// it. A round does not multiply out q·m0: its low half is −a[k] mod 2^64,
// so a[k] + lo(q·m0) is 0 with a carry exactly when a[k] ≠ 0.
//
// With n = 4 a multiplication is 64 multiplies (MUL and UMULH) and the
// kernel around it needs about 25 registers.

// Mont holds the limbs of m and −m⁻¹ mod 2^64 in registers, loaded once
// per kernel by NewMont.
type Mont struct {
	fn   *Func
	m    []GP
	ninv GP
}

// NewMont loads the limbs of the odd modulus m (least significant first)
// and −m⁻¹ mod 2^64, computed here, into registers taken from regs.
func NewMont(fn *Func, regs *Pool, m []uint64) *Mont {
	if len(m) == 0 || m[0]&1 == 0 {
		panic("a64: Montgomery modulus must be odd")
	}
	mt := &Mont{fn: fn, m: regs.GetN(len(m)), ninv: regs.Get()}
	for i, l := range m {
		fn.MOVD(mt.m[i], l)
	}
	// Newton's iteration x ← x·(2 − m0·x) doubles the correct low bits of
	// m0⁻¹; x = m0 is correct to three (m0² ≡ 1 mod 8).
	inv := m[0]
	for i := 0; i < 5; i++ {
		inv *= 2 - m[0]*inv
	}
	fn.MOVD(mt.ninv, -inv)
	return mt
}

// Limbs returns n.
func (mt *Mont) Limbs() int { return len(mt.m) }

// Mul returns x·y·R⁻¹ mod m, below m, in n registers from regs, for x, y
// below m in n registers each (not changed). It gives back every other
// register it takes.
func (mt *Mont) Mul(x, y []GP, regs *Pool) []GP {
	fn, n := mt.fn, len(mt.m)
	a := make([]GP, 2*n+1)
	lo, hi := regs.Get(), regs.Get()
	fn.Comment("row 0: a[0..%d] = x·y0", n)
	for j := 0; j < n; j++ {
		a[j] = regs.Get()
		fn.MUL(a[j], x[j], y[0])
	}
	a[n] = regs.Get()
	fn.UMULH(a[n], x[n-1], y[0])
	for j := 0; j < n-1; j++ {
		fn.UMULH(hi, x[j], y[0])
		if j == 0 {
			fn.ADDS(a[1], a[1], hi)
		} else {
			fn.ADCS(a[j+1], a[j+1], hi)
		}
	}
	fn.ADC(a[n], a[n], ZR)
	for k := 0; k < n; k++ {
		if k > 0 {
			fn.Comment("row %d: a[%d..%d] += x·y%d, the carries into a[%d]", k, k, k+n, k, k+n+1)
			for j := 0; j < n; j++ {
				fn.MUL(lo, x[j], y[k])
				if j == 0 {
					fn.ADDS(a[k], a[k], lo)
				} else {
					fn.ADCS(a[k+j], a[k+j], lo)
				}
			}
			// a[k+n] ≤ 1 before, so it takes the carry without one out.
			fn.ADC(a[k+n], a[k+n], ZR)
			a[k+n+1] = regs.Get()
			for j := 0; j < n; j++ {
				fn.UMULH(hi, x[j], y[k])
				if j == 0 {
					fn.ADDS(a[k+1], a[k+1], hi)
				} else {
					fn.ADCS(a[k+1+j], a[k+1+j], hi)
				}
			}
			fn.ADC(a[k+n+1], ZR, ZR)
		}
		fn.Comment("round %d: a[%d..%d] += q·m, q = a[%d]·(−m⁻¹); a[%d] becomes 0", k, k, k+n+1, k, k)
		q := regs.Get()
		fn.MUL(q, a[k], mt.ninv)
		// a[k] + lo(q·m0) = 0, carrying iff a[k] ≠ 0 (no borrow from 1).
		fn.CMP(a[k], 1)
		for j := 1; j < n; j++ {
			fn.MUL(lo, q, mt.m[j])
			fn.ADCS(a[k+j], a[k+j], lo)
		}
		if k == 0 {
			fn.ADCS(a[n], a[n], ZR)
			a[n+1] = regs.Get()
			fn.ADC(a[n+1], ZR, ZR)
		} else {
			fn.ADCS(a[k+n], a[k+n], ZR)
			fn.ADC(a[k+n+1], a[k+n+1], ZR)
		}
		for j := 0; j < n; j++ {
			fn.UMULH(hi, q, mt.m[j])
			if j == 0 {
				fn.ADDS(a[k+1], a[k+1], hi)
			} else {
				fn.ADCS(a[k+1+j], a[k+1+j], hi)
			}
		}
		fn.ADC(a[k+n+1], a[k+n+1], ZR)
		regs.Put(q, a[k])
	}
	fn.Comment("r = a[%d..%d] < 2m: minus m, kept if that does not borrow", n, 2*n)
	r := a[n : 2*n]
	d := regs.GetN(n)
	for j := 0; j < n; j++ {
		if j == 0 {
			fn.SUBS(d[0], r[0], mt.m[0])
		} else {
			fn.SBCS(d[j], r[j], mt.m[j])
		}
	}
	fn.SBCS(ZR, a[2*n], ZR)
	for j := range r {
		fn.CSEL(CS, r[j], d[j], r[j])
	}
	regs.Put(d...)
	regs.Put(a[2*n], lo, hi)
	return r
}
