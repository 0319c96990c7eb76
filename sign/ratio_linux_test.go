package sign

import (
	"crypto"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/rand"
	"crypto/sha256"
	"os"
	"runtime"
	"sort"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/p256tls/p256tls/internal/comb"
	"github.com/p256tls/p256tls/internal/point"
)

// threadCPU returns the CPU time consumed by the calling thread
// (CLOCK_THREAD_CPUTIME_ID): on a shared machine it does not count the time
// other processes run, unlike the wall clock of testing.B.
func threadCPU() time.Duration {
	var ts syscall.Timespec
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, 3, uintptr(unsafe.Pointer(&ts)), 0)
	return time.Duration(ts.Nano())
}

// TestCPURatios measures, in thread CPU time, signing and k·G beside
// crypto/ecdsa and crypto/ecdh, the candidates interleaved in short
// alternating batches (so that frequency and load drift hit all alike), and
// logs the median per-operation times and ratios. It runs only with
// P256TLS_RATIOS=1 (go test -run CPURatios -v ./sign/); see docs/signing.md.
func TestCPURatios(t *testing.T) {
	if os.Getenv("P256TLS_RATIOS") == "" {
		t.Skip("set P256TLS_RATIOS=1 to measure")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	k := newKey(t)
	s := newSignerT(t, k)
	d := sha256.Sum256([]byte("ratios"))
	ek, _ := ecdh.P256().GenerateKey(rand.Reader)
	ekb := ek.Bytes()
	var kb [32]byte
	rand.Read(kb[:])
	l := limbs(&kb)
	var p point.Projective
	ops := []struct {
		name string
		f    func()
	}{
		{"ecdsa.SignASN1", func() { ecdsa.SignASN1(rand.Reader, k, d[:]) }},
		{"SignUnchecked", func() { s.SignUnchecked(rand.Reader, d[:]) }},
		{"Sign", func() { s.Sign(rand.Reader, d[:], crypto.SHA256) }},
		{"ecdh.NewPrivateKey", func() { ecdh.P256().NewPrivateKey(ekb) }},
		{"comb.ScalarBaseMult", func() { comb.ScalarBaseMult(&p, &l) }},
	}
	const rounds, batch = 41, 200
	times := make([][]float64, len(ops))
	for r := 0; r < rounds; r++ {
		for i, op := range ops {
			t0 := threadCPU()
			for j := 0; j < batch; j++ {
				op.f()
			}
			times[i] = append(times[i], float64(threadCPU()-t0)/batch)
		}
	}
	med := make([]float64, len(ops))
	for i := range ops {
		sort.Float64s(times[i])
		med[i] = times[i][rounds/2]
		t.Logf("%-20s %8.2f µs (median of %d batches of %d)", ops[i].name, med[i]/1e3, rounds, batch)
	}
	t.Logf("SignUnchecked / ecdsa.SignASN1       = %.2f (target ≤ 0.40)", med[1]/med[0])
	t.Logf("Sign / ecdsa.SignASN1                = %.2f (target ≤ 0.85)", med[2]/med[0])
	t.Logf("comb.ScalarBaseMult / ecdh key deriv = %.2f (target ≤ 0.70)", med[4]/med[3])
}
