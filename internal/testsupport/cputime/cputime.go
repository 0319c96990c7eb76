// Package cputime reads the CPU-time clocks that this module's benchmarks
// and tools report beside wall time. On a shared, loaded machine wall time
// measures the load; CPU time measures the work.
//
// Each clock returns a reading as a time.Duration since an arbitrary origin;
// only differences of two readings of the same clock (and, for Thread, the
// same OS thread) mean anything. A clock the operating system does not
// offer returns 0 and an error wrapping ErrUnsupported; callers report the
// figure as missing rather than substituting wall time. No clock allocates
// on success or panics.
package cputime

import "errors"

// ErrUnsupported is wrapped by every error of a clock this operating
// system does not offer.
var ErrUnsupported = errors.New("cputime: clock not available on this OS")
