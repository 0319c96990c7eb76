package cputime

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// Thread returns the CPU time (user and system) consumed so far by the
// calling OS thread, from clock_gettime(CLOCK_THREAD_CPUTIME_ID), with
// nanosecond resolution. It does not advance while the thread waits for a
// core. The caller must hold runtime.LockOSThread between the two readings
// it subtracts, or they may come from different threads. Linux only.
func Thread() (time.Duration, error) {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0, fmt.Errorf("cputime: clock_gettime(CLOCK_THREAD_CPUTIME_ID): %w", err)
	}
	return time.Duration(ts.Nano()), nil
}

// Of returns the CPU time (user and system) used so far by the main thread
// of process pid, which is all of it for a single-threaded process such as
// openssl s_client: from /proc/PID/schedstat (nanoseconds), or from
// /proc/PID/stat (clock ticks of 10 ms) when schedstat is missing. It
// fails, with the reason, for a process that does not exist or is not
// readable. Linux only.
func Of(pid int) (time.Duration, error) {
	if pid <= 0 {
		return 0, fmt.Errorf("cputime: invalid process id %d", pid)
	}
	if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/schedstat", pid)); err == nil {
		if f := strings.Fields(string(b)); len(f) >= 1 {
			if ns, err := strconv.ParseInt(f[0], 10, 64); err == nil && ns >= 0 {
				return time.Duration(ns), nil
			}
		}
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, fmt.Errorf("cputime: %w", err)
	}
	return parseStat(pid, string(b))
}

// parseStat reads utime and stime (fields 14 and 15) from the text of
// /proc/PID/stat. The command name (field 2) is in parentheses and may hold
// spaces and parentheses, so the fields are counted after the last ')'.
func parseStat(pid int, s string) (time.Duration, error) {
	bad := fmt.Errorf("cputime: unexpected format of /proc/%d/stat", pid)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, bad
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 13 {
		return 0, bad
	}
	ut, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil || ut < 0 || st < 0 {
		return 0, bad
	}
	const clkTck = 100 // USER_HZ on every Linux ABI Go supports
	return time.Duration(ut+st) * time.Second / clkTck, nil
}
