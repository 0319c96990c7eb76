// Package fault lets tests corrupt intermediates of a signature computation,
// to show that checked signing refuses to release a faulty signature.
//
// Signing calls Inject on each named intermediate, a scalar mod n. Inject
// does nothing unless a test has installed a hook with Set; with no hook its
// whole cost is one atomic load, and it neither allocates nor branches on
// the value. A hook sees and may rewrite the plain value (not the
// Montgomery form), as little-endian limbs.
package fault

import (
	"sync/atomic"

	"github.com/p256tls/p256tls/internal/p256/scalar"
)

// Point names an intermediate value of ECDSA signing.
type Point int

const (
	// R is the signature's r: the x-coordinate of k·G reduced mod n.
	R Point = iota
	// S is the signature's s.
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

// Hook may rewrite limbs, the plain little-endian value of the intermediate
// named by p. It may write any 256-bit value; Inject reduces it mod n.
type Hook func(p Point, limbs *[4]uint64)

var hook atomic.Pointer[Hook]

// Set installs h (nil removes any hook) and returns a function that restores
// the previous hook. For tests only; the hook is global to the process.
func Set(h Hook) (restore func()) {
	var ptr *Hook
	if h != nil {
		ptr = &h
	}
	old := hook.Swap(ptr)
	return func() { hook.Store(old) }
}

// Inject runs the installed hook, if any, on x, the intermediate p: x is
// replaced by the value the hook leaves, mod n. Without a hook x is left
// alone.
//
//p256tls:secret
func Inject(p Point, x *scalar.Scalar) {
	if h := hook.Load(); h != nil {
		run(*h, p, x)
	}
}

// run passes x's plain value through h and sets x to the result mod n.
func run(h Hook, p Point, x *scalar.Scalar) {
	l := x.Canonical()
	h(p, &l)
	var b [32]byte
	for i, v := range l {
		for j := range 8 {
			b[31-8*i-j] = byte(v >> (8 * j))
		}
	}
	x.SetDigest(b[:])
}

// Active reports whether a hook is installed.
func Active() bool { return hook.Load() != nil }
