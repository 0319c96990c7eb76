// Package cpufeat names the x86-64 instruction-set extensions that the
// assembly kernels use, so that a kernel's gate (the set its dispatch
// checks) and the test that reads the extensions off the kernel's
// generated code (internal/testsupport/asmext) hold the same value.
//
// Extensions every amd64 CPU that Go supports has (CMOV, SSE2 at
// GOAMD64=v1) are not named: a kernel needs no gate for them.
package cpufeat

import "strings"

// Set is a set of extensions.
type Set uint16

// The extensions the kernels use.
const (
	BMI2       Set = 1 << iota // MULX
	ADX                        // ADCX, ADOX
	AVX                        // VEX encodings, YMM moves, VZEROUPPER
	AVX2                       // integer operations on YMM
	AVX512F                    // EVEX encodings, ZMM, 16-bit mask registers
	AVX512DQ                   // 8-bit mask instructions (KMOVB, KANDB, ...)
	AVX512VL                   // EVEX encodings on XMM and YMM
	AVX512IFMA                 // VPMADD52LUQ, VPMADD52HUQ
)

var names = [...]string{"BMI2", "ADX", "AVX", "AVX2", "AVX512F", "AVX512DQ", "AVX512VL", "AVX512IFMA"}

// String returns the extensions' names joined by "|", or "none".
func (s Set) String() string {
	var n []string
	for i, name := range names {
		if s&(1<<i) != 0 {
			n = append(n, name)
		}
	}
	if len(n) == 0 {
		return "none"
	}
	return strings.Join(n, "|")
}

// Available reports whether this CPU has every extension of s, with the
// operating system's support for the register state the AVX ones need.
// It is false off amd64 for any non-empty s, and true for the empty set.
func (s Set) Available() bool { return s&^have() == 0 }
