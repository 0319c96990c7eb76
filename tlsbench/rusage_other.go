//go:build !unix

package main

import (
	"errors"
	"time"
)

// cpuTime is unavailable here: the handshake rows need getrusage, and say
// so instead of substituting wall time.
func cpuTime() (time.Duration, error) {
	return 0, errors.New("per-process CPU time (getrusage) is not available on this OS")
}
