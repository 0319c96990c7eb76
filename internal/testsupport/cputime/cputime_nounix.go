//go:build !unix

package cputime

import (
	"fmt"
	"time"
)

// Process is Unix only (getrusage): here it returns 0 and an error
// wrapping ErrUnsupported.
func Process() (time.Duration, error) {
	return 0, fmt.Errorf("%w (process CPU time)", ErrUnsupported)
}
