//go:build amd64 && !purego

package comb

import (
	"sync"
	"unsafe"

	"github.com/p256tls/p256tls/internal/cpufeat"
	"github.com/p256tls/p256tls/internal/ct"
	"github.com/p256tls/p256tls/internal/p256/field"
	"github.com/p256tls/p256tls/internal/p256/point"
)

// The eight-lane AVX-512 IFMA kernel (_asm/avx512.go).

// scratch8Words is the size of the kernel's scratch space in 64-bit words:
// 26 vector field elements of 5×8 words (17 variables and constants, and
// the multiples 0·p … 8·p).
const scratch8Words = 26 * 40

// addFull sets out = q + r with the ADX complete addition (out may alias q
// or r).
func addFull(out, q, r *point.Projective) {
	addFullADX(projectiveWords(out), projectiveWords(q), projectiveWords(r))
}

// gate8 is what the eight-lane kernel's code uses (TestGates reads it off
// comb_amd64.s): AVX-512 F and IFMA on ZMM registers, and AVX's
// VZEROUPPER. The wide path also adds the four partial sums with
// addFullADX, so it needs gateAdd as well.
const (
	gate8    = cpufeat.AVX512F | cpufeat.AVX512IFMA | cpufeat.AVX
	gateWide = gate8 | gateAdd
)

// useWide selects the eight-lane path (cpufeat checks the operating
// system's support for the ZMM state).
var useWide = gateWide.Available()

// wideState is the scratch space of scalarBaseMultWide. It is pooled (not
// on the stack) so that its 10 KiB are not zeroed on every call: the kernel
// writes every slot before reading it.
type wideState struct {
	digits  recoding
	scratch [scratch8Words]uint64
	part    [4]point.Projective
}

// secretWords is the part of the scratch space that holds values derived
// from the scalar (the sums, the selected entries and the temporaries);
// the rest holds public constants.
const secretWords = 14 * 40

var widePool = sync.Pool{New: func() any { return new(wideState) }}

// scalarBaseMultWide computes k·G eight positions at a time.
//
//p256tls:secret
func scalarBaseMultWide(out *point.Projective, k *[4]uint64) {
	st := widePool.Get().(*wideState)
	kk := doubled(k)
	recode(&st.digits, &kk)
	comb8AVX512((*[8 * rounds8]*[entries][8]uint64)(unsafe.Pointer(&tabs8)), (*[rounds8][3][8]uint64)(&st.digits), &st.scratch)
	// Lanes 0–3 of X1, Y1, Z1 (slots 0, 1, 2) hold four partial sums in
	// radix 2^52, read back as Montgomery values for R = 2^256: each is its
	// point scaled by 2^−4, which projective coordinates do not see.
	for l := range st.part {
		st.part[l] = point.Projective{X: lane(&st.scratch, 0, l), Y: lane(&st.scratch, 1, l), Z: lane(&st.scratch, 2, l)}
	}
	addFull(&st.part[0], &st.part[0], &st.part[1])
	addFull(&st.part[2], &st.part[2], &st.part[3])
	addFull(&st.part[0], &st.part[0], &st.part[2])
	// Remove the z offsets, z = the number of zero digits in round 0.
	var z uint64
	for _, f := range st.digits[0][2] {
		z += f
	}
	selectNegZT(&st.part[1], z)
	addFull(out, &st.part[0], &st.part[1])
	wipe(st)
	widePool.Put(st)
}

// lane packs the five radix-2^52 limbs of lane ln of vector slot s into
// four 64-bit limbs.
//
//p256tls:secret
func lane(sc *[scratch8Words]uint64, s, ln int) field.Element {
	var l [5]uint64
	for i := range l {
		l[i] = sc[40*s+8*i+ln]
	}
	return field.Element{
		l[0] | l[1]<<52,
		l[1]>>12 | l[2]<<40,
		l[2]>>24 | l[3]<<28,
		l[3]>>36 | l[4]<<16,
	}
}

// wipe erases the digits, the intermediate sums and everything else
// derived from the scalar.
//
//p256tls:secret
func wipe(st *wideState) {
	st.digits = recoding{}
	clear(st.scratch[:secretWords])
	st.part = [4]point.Projective{}
}

// selectNegZT sets p = negOffsetZT[z], reading all nine entries and keeping
// the one wanted by mask (z depends on the scalar).
//
//p256tls:secret
func selectNegZT(p *point.Projective, z uint64) {
	var acc [12]uint64
	for j := range negOffsetZT {
		m := ct.Mask(ct.IsZero(uint64(j) ^ z))
		e := &negOffsetZT[j]
		for i := 0; i < 4; i++ {
			acc[i] |= e.X[i] & m
			acc[4+i] |= e.Y[i] & m
			acc[8+i] |= e.Z[i] & m
		}
	}
	p.X = field.Element(acc[0:4])
	p.Y = field.Element(acc[4:8])
	p.Z = field.Element(acc[8:12])
}
