package truststore

import (
	"runtime"
	"syscall"
	"testing"
	"time"
)

// threadCPU returns the CPU time of the calling OS thread. On a shared,
// loaded machine it measures the work of a benchmark where wall time
// measures the load.
func threadCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// cpuPerOp runs body (a b.Loop loop) on one locked thread and reports its
// CPU time per operation as cpu-ns/op.
func cpuPerOp(b *testing.B, body func()) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start := threadCPU()
	body()
	if b.N > 0 {
		b.ReportMetric(float64(threadCPU()-start)/float64(b.N), "cpu-ns/op")
	}
}
