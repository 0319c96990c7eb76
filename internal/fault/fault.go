// Package fault lets tests corrupt intermediates of a signature computation,
// to show that checked signing refuses to release a faulty signature.
//
// Production code calls Inject at a few named points; it does nothing unless
// a test has installed a hook with Set. The cost when no hook is set is one
// atomic load.
package fault

import "sync/atomic"

// Point names an intermediate value of ECDSA signing.
type Point int

const (
	// R is the x-coordinate of k·G reduced mod n (the signature's r).
	R Point = iota
	// S is the signature's s before encoding.
	S
	// KInv is the inverse of the nonce k mod n.
	KInv
	// T is e + r·d mod n, the value s = k⁻¹·T is made of.
	T
	// U is (k·T)⁻¹ mod n, the one inversion k⁻¹ and s⁻¹ come from.
	U
	// W is s⁻¹ mod n as handed to the check (it only feeds the check: a
	// fault there is a false alarm, never a bad signature).
	W
)

// Hook may modify limbs, the plain little-endian value of the intermediate
// named by p.
type Hook func(p Point, limbs *[4]uint64)

var hook atomic.Pointer[Hook]

// Set installs h (nil removes any hook) and returns a function that restores
// the previous hook. For tests only.
func Set(h Hook) (restore func()) {
	var ptr *Hook
	if h != nil {
		ptr = &h
	}
	old := hook.Swap(ptr)
	return func() { hook.Store(old) }
}

// Inject runs the installed hook, if any, on the intermediate p.
func Inject(p Point, limbs *[4]uint64) {
	if h := hook.Load(); h != nil {
		(*h)(p, limbs)
	}
}

// Active reports whether a hook is installed.
func Active() bool { return hook.Load() != nil }
