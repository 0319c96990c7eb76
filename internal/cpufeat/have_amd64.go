package cpufeat

import "golang.org/x/sys/cpu"

// have returns the extensions of this CPU. golang.org/x/sys/cpu reads them
// once, at its own initialisation, and reports the AVX and AVX-512 ones
// only where the operating system saves their registers.
func have() Set {
	var s Set
	for _, e := range [...]struct {
		ok  bool
		ext Set
	}{
		{cpu.X86.HasBMI2, BMI2},
		{cpu.X86.HasADX, ADX},
		{cpu.X86.HasAVX, AVX},
		{cpu.X86.HasAVX2, AVX2},
		{cpu.X86.HasAVX512F, AVX512F},
		{cpu.X86.HasAVX512DQ, AVX512DQ},
		{cpu.X86.HasAVX512VL, AVX512VL},
		{cpu.X86.HasAVX512IFMA, AVX512IFMA},
	} {
		if e.ok {
			s |= e.ext
		}
	}
	return s
}
