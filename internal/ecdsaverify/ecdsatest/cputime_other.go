//go:build !linux

package ecdsatest

func threadCPU() int64 { return -1 }
