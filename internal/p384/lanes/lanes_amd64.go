//go:build amd64 && !purego

package lanes

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// Available reports whether Sum can run here: the kernel needs AVX-512 F and
// IFMA (and the operating system's support for the ZMM state, which cpu
// checks). Tests may turn it off.
var Available = cpu.X86.HasAVX512F && cpu.X86.HasAVX512IFMA

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
