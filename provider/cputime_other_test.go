//go:build !linux

package provider

import "time"

func threadCPUTime() (time.Duration, bool) { return 0, false }
