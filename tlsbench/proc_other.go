//go:build !unix

package main

import (
	"errors"
	"os"
	"syscall"
	"time"
)

func childSysProcAttr() *syscall.SysProcAttr { return nil }

func killGroup(p *os.Process) error { return p.Kill() }

func isTerminal(f *os.File) bool { return false }

func processCPU(pid int) (time.Duration, error) {
	return 0, errors.New("another process's CPU time is not available on this OS")
}
