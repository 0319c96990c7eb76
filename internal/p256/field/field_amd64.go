//go:build amd64 && !purego

package field

import "github.com/p256tls/p256tls/internal/cpufeat"

// useADX selects the MULX/ADCX/ADOX kernels; without BMI2 and ADX the MULQ
// kernels run instead. mulAsm and squareAsm read it and tail-jump to the
// chosen kernel, so mul and square inline into their callers and cost one
// call into assembly.
var useADX = hasADX

// The assembly kernels on the secret path (audited by scripts/branch-audit):
//
//p256tls:secret-asm mulAsm squareAsm mulADX squareADX mulMULQ squareMULQ

// gateADX is what the ADX kernels' code uses (TestGates reads it off
// field_amd64.s); the MULQ kernels need nothing beyond the base set.
const gateADX = cpufeat.BMI2 | cpufeat.ADX

var hasADX = gateADX.Available()

//p256tls:secret
func mul(z, x, y *Element) { mulAsm((*[4]uint64)(z), (*[4]uint64)(x), (*[4]uint64)(y)) }

//p256tls:secret
func square(z, x *Element) { squareAsm((*[4]uint64)(z), (*[4]uint64)(x)) }
