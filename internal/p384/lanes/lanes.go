// Package lanes runs a chain of P-384 doublings and mixed additions on
// eight accumulators side by side, one per 64-bit lane of the AVX-512
// registers, with IFMA products in radix 2^52 (see _asm/field.go).
//
// A split chain (u1·G + u2·Q from per-key tables, internal/p384/ecdsaverify)
// adds, at each of its RunLen steps, several table points into one
// accumulator; none of those additions depends on another, only on the
// doublings between the steps. A Chain spreads the additions over eight
// accumulators that all take the same doublings, so one vector doubling
// serves eight and one vector addition does up to eight, in Groups groups
// of two lanes whose sums the caller puts together. A product of eight
// lanes costs about what two scalar products do (docs/arithmetic.md, "P-384
// in eight lanes").
//
// Everything here is variable time and for public data only: the rounds
// depend on the digits of the verification scalars, and the kernel's work
// on the points.
package lanes

import (
	"github.com/p256tls/p256tls/internal/p384/field"
	"github.com/p256tls/p256tls/internal/p384/point"
)

// maxRounds bounds the rounds of one chain: a split chain of 20 steps of at
// most 40 additions each needs at most 100 (a step's additions on one
// group's two lanes take 20 rounds, and the groups' five steps run side by
// side).
const maxRounds = 128

// round is one vector addition: lane l adds *ent[l] (negated if bit l of
// neg is set) if bit l of act is set, after dbl doublings of every lane.
// The kernel reads it by these offsets (_asm/main.go).
type round struct {
	ent [8]*point.Affine
	dbl uint32
	act uint8
	neg uint8
	_   [2]uint8
}

// Groups is the number of sums a Chain keeps, each on 8/Groups lanes.
const Groups = 4

// perGroup is the number of lanes of a group. The kernel adds the two
// lanes of each group before it returns (the odd lanes come back at
// infinity), so a group is a pair of lanes.
const perGroup = 8 / Groups

var _ [perGroup - 2]struct{} // the kernel's pairs
var _ [2 - perGroup]struct{}

// A Chain is Groups sums Σ ±aᵢ·2^dᵢ being built, one per group of lanes:
// Double doubles them all, Add adds a point to one. Its zero value is an
// empty chain (every sum the point at infinity). A Chain holds pointers to
// the points added, which must not change until Sum returns; it is not
// safe for concurrent use.
//
// Groups let a caller cut the vector doublings: a chain of G·k steps
// becomes k steps, group g taking the additions of steps g·k … g·k + k − 1,
// and the caller puts the sums together by Horner's rule with k scalar
// doublings between groups. Vector doublings cost eight scalar ones'
// products, scalar ones one.
type Chain struct {
	r      [maxRounds]round
	n      int         // rounds in r
	step   int         // the first round of the current step
	cnt    [Groups]int // each group's additions in the current step
	dbl    uint32      // doublings not yet given to a round
	refuse bool        // more rounds than maxRounds were needed, or a nil point
}

// Double doubles every sum. Doublings before the first addition are
// dropped (they double the point at infinity). More than 2^32 − 1
// doublings between two additions make Sum refuse.
func (c *Chain) Double() {
	if c.n == 0 {
		return
	}
	if c.dbl == 1<<32-1 {
		c.refuse = true
		return
	}
	c.dbl++
	c.step = c.n
	c.cnt = [Groups]int{}
}

// Add adds a, or −a if neg is set, to the sum of group g, in [0, Groups)
// (other values are taken mod Groups). a must be on the curve; a nil a
// makes Sum refuse.
func (c *Chain) Add(a *point.Affine, neg bool, g int) {
	if a == nil {
		c.refuse = true
		return
	}
	g &= Groups - 1
	k := c.cnt[g]
	ri := c.step + k/perGroup
	if ri == c.n {
		if c.n == maxRounds {
			c.refuse = true
			return
		}
		c.r[c.n] = round{dbl: c.dbl}
		c.dbl = 0
		c.n++
	}
	l := perGroup*g + k%perGroup
	r := &c.r[ri]
	r.ent[l] = a
	r.act |= 1 << l
	if neg {
		r.neg |= 1 << l
	}
	c.cnt[g]++
}

// Sum sets sums[g] to the sum of group g and reports true, or reports false
// and leaves sums unchanged if the chain cannot be summed here: the CPU
// lacks AVX-512 IFMA (or the purego tag is set), the chain needed more than
// 128 rounds of vector additions, was given a nil point or more doublings
// in a row than Double counts, or a lane met an addition the general
// formula does not cover (a point added to itself or to its opposite,
// which a random chain meets with probability about 2^−370 and a crafted
// one on purpose).
// The caller then computes the same sums another way. c is left as it was.
func (c *Chain) Sum(sums *[Groups]point.Jacobian) bool {
	if !Available || c.refuse {
		return false
	}
	var out [outWords]uint64
	chain8(c, &out)
	var part [8]point.Jacobian
	inf := uint8(out[outWords-1])
	for l := range part {
		if inf>>l&1 != 0 {
			part[l].SetInfinity()
			continue
		}
		p := &part[l]
		p.X, p.Y, p.Z = lane(&out, 0, l), lane(&out, 1, l), lane(&out, 2, l)
		if p.Z.IsZero() == 1 {
			return false // a lane met H = 0: its Z stays 0 from then on
		}
	}
	for g := range sums {
		sums[g] = part[perGroup*g] // the kernel added the pair (its odd lane is at infinity)
	}
	return true
}

// outWords is the kernel's output: X, Y and Z of the eight lanes (eight
// radix-2^52 limbs each, limb-major), then the lanes at infinity.
const outWords = 3*8*8 + 1

// lane packs the radix-2^52 limbs of lane l of coordinate c of out (below
// p: the kernel reduces them) into a field element.
func lane(out *[outWords]uint64, c, l int) field.Element {
	var e field.Element
	for i := 0; i < 8; i++ {
		v := out[64*c+8*i+l]
		pos := 52 * i
		w, off := pos/64, uint(pos%64)
		e[w] |= v << off
		if off > 12 && w+1 < len(e) {
			e[w+1] |= v >> (64 - off)
		}
	}
	return e
}
