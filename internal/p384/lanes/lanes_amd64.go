//go:build amd64 && !purego

package lanes

import (
	"unsafe"

	"github.com/p256tls/p256tls/internal/cpufeat"
)

// gate is what the kernel's code uses (TestGates reads it off
// lanes_amd64.s): AVX-512 F and IFMA on ZMM registers, AVX-512 DQ's 8-bit
// mask instructions (KMOVB, KANDB, ...) and AVX's VZEROUPPER.
const gate = cpufeat.AVX512F | cpufeat.AVX512IFMA | cpufeat.AVX512DQ | cpufeat.AVX

// Available reports whether Sum can run here: the CPU has every extension
// of gate (and the operating system saves the ZMM state, which cpufeat
// checks). Tests may turn it off.
var Available = gate.Available()

// chain8 runs the kernel on c's rounds.
func chain8(c *Chain, out *[outWords]uint64) {
	chain8AVX512((*[maxRounds][roundWords]uint64)(unsafe.Pointer(&c.r)), c.n, int(c.dbl), out)
}

// roundWords is the size of a round in words; the kernel reads a round at
// the offsets of _asm/main.go (ent at 0, dbl at 64, act at 68, neg at 69).
const roundWords = 9

var (
	_ [unsafe.Sizeof(round{}) - 8*roundWords]struct{}
	_ [8*roundWords - unsafe.Sizeof(round{})]struct{}
	_ [unsafe.Offsetof(round{}.dbl) - 64]struct{}
	_ [64 - unsafe.Offsetof(round{}.dbl)]struct{}
	_ [unsafe.Offsetof(round{}.act) - 68]struct{}
	_ [68 - unsafe.Offsetof(round{}.act)]struct{}
	_ [unsafe.Offsetof(round{}.neg) - 69]struct{}
	_ [69 - unsafe.Offsetof(round{}.neg)]struct{}
)
