package truststore

import (
	"runtime"
	"testing"

	"github.com/p256tls/p256tls/internal/testsupport/cputime"
)

// cpuPerOp runs body (a b.Loop loop) on one locked thread and reports its
// CPU time per operation as cpu-ns/op (cputime.Thread); on a shared,
// loaded machine it measures the work where wall time measures the load.
// Where the clock is not available the metric is left out.
func cpuPerOp(b *testing.B, body func()) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start, err := cputime.Thread()
	body()
	end, err2 := cputime.Thread()
	if err == nil && err2 == nil && b.N > 0 {
		b.ReportMetric(float64(end-start)/float64(b.N), "cpu-ns/op")
	}
}
