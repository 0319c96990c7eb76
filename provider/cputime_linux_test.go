package provider

import (
	"syscall"
	"time"
	"unsafe"
)

// threadCPUTime returns the CPU time consumed by the calling OS thread
// (CLOCK_THREAD_CPUTIME_ID); the caller must hold runtime.LockOSThread.
// Unlike wall time it does not count time the thread was descheduled, which
// makes server-side handshake costs comparable on a shared machine.
func threadCPUTime() (time.Duration, bool) {
	const clockThreadCPUTimeID = 3
	var ts syscall.Timespec
	_, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0)
	if errno != 0 {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
