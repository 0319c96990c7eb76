//go:build unix

package main

import (
	"os"

	"golang.org/x/sys/unix"
)

// silenceStderr points file descriptor 2 at /dev/null until restore is
// called, for a runtime message that cannot be turned off
// (startCPUProfile). Nothing else may write to stderr in between. When
// something fails, stderr stays as it was.
func silenceStderr() (restore func()) {
	nop := func() {}
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		return nop
	}
	defer null.Close()
	saved, err := unix.Dup(2)
	if err != nil {
		return nop
	}
	if err := unix.Dup2(int(null.Fd()), 2); err != nil {
		unix.Close(saved)
		return nop
	}
	return func() {
		unix.Dup2(saved, 2)
		unix.Close(saved)
	}
}
