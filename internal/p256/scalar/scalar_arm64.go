//go:build arm64 && !purego

package scalar

// On arm64 the Montgomery multiplication is the generated kernel of
// scalar_arm64.s (_asm/arm64). It needs nothing beyond the base
// instruction set, so there is no dispatch.
//
// The assembly kernel on the secret path (audited by scripts/branch-audit):
//
//p256tls:secret-asm montMulAsm

// montMul sets z = x·y·R^-1 mod n.
//
//p256tls:secret
func montMul(z, x, y *Scalar) {
	montMulAsm((*[4]uint64)(z), (*[4]uint64)(x), (*[4]uint64)(y))
}
