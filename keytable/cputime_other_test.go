//go:build !linux

package keytable_test

func threadCPU() int64 { return -1 }
