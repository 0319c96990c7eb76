package field

import "github.com/p256tls/p256tls/internal/safegcd"

// prime holds p and the constants of the safegcd inversion modulo p.
var prime = safegcd.NewModulus([4]uint64{p0, p1, p2, p3})

// InvertVartime sets e = a^-1 mod p (0 maps to 0) and returns e. It is not
// constant time: use it only when a is public, for example to convert public
// points to affine coordinates.
//
// It runs the variable-time Bernstein–Yang divsteps of package safegcd on
// R²/a: for a = x·R (the Montgomery form of x) that is R/x, the Montgomery
// form of x^-1, so no conversion in or out of Montgomery form is needed.
func (e *Element) InvertVartime(a *Element) *Element {
	prime.DivVartime((*[4]uint64)(e), (*[4]uint64)(&rr), (*[4]uint64)(a))
	return e
}

// DivCanonical sets x to a/b mod p as plain canonical limbs (least
// significant first, < p, out of Montgomery form), or to 0 when b = 0.
// Constant time: one constant-time safegcd division of the Montgomery
// forms, (a·R)/(b·R) = a/b. x does not alias a or b.
//
//p256tls:secret
func DivCanonical(x *[4]uint64, a, b *Element) {
	prime.Div(x, (*[4]uint64)(a), (*[4]uint64)(b))
}
