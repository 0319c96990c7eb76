//go:build !arm64 || purego

package scalar

// montMul sets z = x·y·R^-1 mod n: the portable twin, on every other
// architecture and with the purego tag.
//
//p256tls:secret
func montMul(z, x, y *Scalar) { montMulGeneric(z, x, y) }
