// Package signer reaches what package sign keeps out of its public API, for
// this module's own code: the unchecked signature of tlsbench and
// internal/cmd/dudect (a measurement, never a signature to release) and the
// counters provider reports as its Stats.
//
// Package sign fills the hooks when it makes its first Signer, so they are
// in place for every caller that holds a *sign.Signer; the functions take it
// as a crypto.Signer only because this package cannot import sign (sign
// imports it). Anything else (nil included) gets an error or zero counters, never a
// panic.
package signer

import (
	"crypto"
	"errors"
	"io"
	"sync/atomic"
)

// Counters are a Signer's counters since it was created: signatures
// computed (checked or not), verifications of its own signatures, and the
// signatures that failed them and were withheld. Each is read atomically,
// but the three are not one atomic snapshot.
type Counters struct {
	Signatures, Checks, FaultsDetected uint64
}

// Hooks is what package sign registers.
type Hooks struct {
	SignUnchecked func(s crypto.Signer, rand io.Reader, digest []byte) ([]byte, error)
	Counters      func(s crypto.Signer) (Counters, bool)
}

var hooks atomic.Pointer[Hooks]

// Register is called once, by package sign when it makes its first Signer.
// It may run while other goroutines call SignUnchecked or CountersOf.
func Register(h Hooks) { hooks.Store(&h) }

var errNotSigner = errors.New("signer: not a *sign.Signer")

// SignUnchecked is Sign without the verification of the result: the
// signature is returned even if a fault corrupted it. Benchmarks and timing
// tests only. The nonce's HMAC hash follows the digest's length (SHA-384
// for 48 bytes, SHA-512 for 64, for a deterministic Signer also SHA-1 for
// 20 and SHA-224 for 28, SHA-256 otherwise), so the signature is the one
// Sign returns for the same digest and randomness.
func SignUnchecked(s crypto.Signer, rand io.Reader, digest []byte) ([]byte, error) {
	h := hooks.Load()
	if h == nil || h.SignUnchecked == nil {
		return nil, errNotSigner
	}
	return h.SignUnchecked(s, rand, digest)
}

// CountersOf returns the counters of s, a *sign.Signer; ok is false (and
// the counters zero) for anything else.
func CountersOf(s crypto.Signer) (c Counters, ok bool) {
	h := hooks.Load()
	if h == nil || h.Counters == nil {
		return Counters{}, false
	}
	return h.Counters(s)
}
