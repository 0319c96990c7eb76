package main

// The profiled run of -breakdown: runtime/pprof's CPU profile of this
// process over one run, at a raised rate, parsed with
// github.com/google/pprof/profile.

import (
	"bytes"
	"fmt"
	"runtime"
	"runtime/pprof"

	"github.com/google/pprof/profile"
)

// profileRate is the rate asked of the CPU profiler during a profiled run,
// in samples per second of each thread's CPU time (runtime/pprof's own is
// 100). The kernel checks a thread's CPU timer once per tick, so a thread
// gets at most CONFIG_HZ samples per CPU second (250 on the machine of
// docs/tlsbench.md) and the Go runtime counts no timer overruns: the
// samples' own time (count × period) then falls short of the CPU the
// process used. The breakdown uses only the samples' shares, scaled by the
// CPU time getrusage measured, so the cap costs precision, not accuracy.
const profileRate = 1000

// cpuProfile is a CPU profile being recorded.
type cpuProfile struct{ buf bytes.Buffer }

// startCPUProfile starts profiling this process at profileRate. It fails
// when a CPU profile is already running (go test -cpuprofile), and then
// leaves that profile alone.
//
// runtime/pprof.StartCPUProfile sets its own rate of 100 Hz, which the
// runtime refuses, with a line on stderr, once runtime.SetCPUProfileRate
// has set one; the profile keeps the rate set first. That line is
// discarded: stderr is silenced for the two calls (silenceStderr).
func startCPUProfile() (*cpuProfile, error) {
	p := &cpuProfile{}
	restore := silenceStderr()
	runtime.SetCPUProfileRate(profileRate)
	err := pprof.StartCPUProfile(&p.buf)
	restore()
	if err != nil {
		return nil, fmt.Errorf("CPU profile: %w", err)
	}
	return p, nil
}

// stop ends the profile and returns it parsed.
func (p *cpuProfile) stop() (*profile.Profile, error) {
	pprof.StopCPUProfile()
	prof, err := profile.ParseData(p.buf.Bytes())
	if err != nil {
		return nil, fmt.Errorf("CPU profile: %w", err)
	}
	return prof, nil
}
