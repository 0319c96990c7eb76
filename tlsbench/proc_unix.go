//go:build unix && !linux

package main

import (
	"errors"
	"os"
	"syscall"
	"time"
)

func childSysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

func killGroup(p *os.Process) error {
	return syscall.Kill(-p.Pid, syscall.SIGKILL)
}

func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0 && f.Name() != os.DevNull
}

func processCPU(pid int) (time.Duration, error) {
	return 0, errors.New("another process's CPU time is read from /proc, which this OS lacks")
}
