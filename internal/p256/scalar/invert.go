package scalar

import "github.com/p256tls/p256tls/internal/safegcd"

// order holds n and the constants of the safegcd inversion modulo n.
var order = safegcd.NewModulus(N)

// Both inversions below compute R²/a mod n with the Bernstein–Yang divstep
// algorithm of package safegcd. For a = x·R (the Montgomery form of x) that
// is R/x, the Montgomery form of x^-1: passing R² as the numerator does the
// whole Montgomery conversion, with no multiplication before or after.

// Invert sets s = a^-1 mod n (0 maps to 0) and returns s. Constant time: it
// always performs the same 590 divsteps, without branches or memory accesses
// that depend on a.
//
//p256tls:secret
func (s *Scalar) Invert(a *Scalar) *Scalar {
	order.Div((*[4]uint64)(s), (*[4]uint64)(&rr), (*[4]uint64)(a))
	return s
}

// InvertVartime sets s = a^-1 mod n (0 maps to 0) and returns s. It is not
// constant time: use it only when a is public, as in signature verification.
func (s *Scalar) InvertVartime(a *Scalar) *Scalar {
	order.DivVartime((*[4]uint64)(s), (*[4]uint64)(&rr), (*[4]uint64)(a))
	return s
}
