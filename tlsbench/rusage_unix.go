//go:build unix

package main

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time (user + system, all threads) this process has
// used so far, from getrusage(RUSAGE_SELF).
func cpuTime() (time.Duration, error) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, err
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), nil
}
