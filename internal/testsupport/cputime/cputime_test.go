package cputime

import (
	"errors"
	"runtime"
	"testing"
	"time"
)

// spin burns CPU on the calling goroutine for about d of wall time.
func spin(d time.Duration) (sink uint64) {
	for start := time.Now(); time.Since(start) < d; {
		for i := range 10000 {
			sink = sink*6364136223846793005 + uint64(i)
		}
	}
	return sink
}

func TestThread(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	c0, err := Thread()
	if errors.Is(err, ErrUnsupported) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	w0 := time.Now()
	spin(30 * time.Millisecond)
	c1, err := Thread()
	wall := time.Since(w0)
	if err != nil {
		t.Fatal(err)
	}
	if d := c1 - c0; d <= 0 || d > wall+2*time.Millisecond {
		t.Errorf("thread CPU time over %v of spinning advanced by %v, want in (0, wall time]", wall, d)
	}
	// Sleeping costs the thread no CPU time.
	time.Sleep(100 * time.Millisecond)
	c2, err := Thread()
	if err != nil {
		t.Fatal(err)
	}
	if d := c2 - c1; d < 0 || d > 20*time.Millisecond {
		t.Errorf("thread CPU time over a 100ms sleep advanced by %v, want [0, 20ms]", d)
	}
}

func TestProcess(t *testing.T) {
	p0, err := Process()
	if errors.Is(err, ErrUnsupported) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	if p0 <= 0 {
		t.Fatalf("Process() = %v for a running test, want > 0", p0)
	}
	// Two goroutines spinning at once: the process clock counts both.
	const each = 40 * time.Millisecond
	w0 := time.Now()
	done := make(chan time.Duration, 2)
	for range 2 {
		go func() {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			t0, terr := Thread()
			spin(each)
			t1, _ := Thread()
			if terr != nil {
				done <- -1
				return
			}
			done <- t1 - t0
		}()
	}
	a, b := <-done, <-done
	wall := time.Since(w0)
	p1, err := Process()
	if err != nil {
		t.Fatal(err)
	}
	d := p1 - p0
	if a >= 0 && b >= 0 {
		// getrusage has microsecond resolution; allow a little.
		if d+time.Millisecond < a+b {
			t.Errorf("process CPU time advanced by %v, less than its two threads' %v + %v", d, a, b)
		}
	} else if d <= 0 {
		t.Errorf("process CPU time advanced by %v over %v of spinning", d, wall)
	}
	if max := time.Duration(runtime.NumCPU())*wall + 5*time.Millisecond; d > max+100*time.Millisecond {
		t.Errorf("process CPU time advanced by %v in %v of wall time on %d CPUs", d, wall, runtime.NumCPU())
	}
}

func TestOfInvalid(t *testing.T) {
	for _, pid := range []int{0, -1, 1 << 30} {
		if d, err := Of(pid); err == nil {
			t.Errorf("Of(%d) = %v, nil; want an error", pid, d)
		}
	}
}
