//go:build !linux

package cputime

import (
	"fmt"
	"time"
)

// Thread is Linux only: here it returns 0 and an error wrapping
// ErrUnsupported.
func Thread() (time.Duration, error) {
	return 0, fmt.Errorf("%w (thread CPU clock)", ErrUnsupported)
}

// Of is Linux only (it reads /proc): here it returns 0 and an error
// wrapping ErrUnsupported.
func Of(pid int) (time.Duration, error) {
	return 0, fmt.Errorf("%w (another process's CPU time)", ErrUnsupported)
}
