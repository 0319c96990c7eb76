//go:build !unix

package main

import (
	"os"
	"syscall"
)

func childSysProcAttr() *syscall.SysProcAttr { return nil }

func killGroup(p *os.Process) error { return p.Kill() }

func isTerminal(f *os.File) bool { return false }
