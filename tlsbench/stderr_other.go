//go:build !unix

package main

// silenceStderr does nothing here: the runtime's line about the profile
// rate (see startCPUProfile) reaches stderr.
func silenceStderr() (restore func()) { return func() {} }
