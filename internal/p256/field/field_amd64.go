//go:build amd64 && !purego

package field

import "golang.org/x/sys/cpu"

// useADX selects the MULX/ADCX/ADOX kernels; without BMI2 and ADX the MULQ
// kernels run instead. mulAsm and squareAsm read it and tail-jump to the
// chosen kernel, so mul and square inline into their callers and cost one
// call into assembly.
var useADX = hasADX

// The assembly kernels on the secret path (audited by scripts/branch-audit):
//
//p256tls:secret-asm mulAsm squareAsm mulADX squareADX mulMULQ squareMULQ

var hasADX = cpu.X86.HasBMI2 && cpu.X86.HasADX

//p256tls:secret
func mul(z, x, y *Element) { mulAsm((*[4]uint64)(z), (*[4]uint64)(x), (*[4]uint64)(y)) }

//p256tls:secret
func square(z, x *Element) { squareAsm((*[4]uint64)(z), (*[4]uint64)(x)) }
