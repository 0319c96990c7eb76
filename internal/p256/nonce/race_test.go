//go:build race

package nonce

// raceEnabled reports a -race build, whose instrumentation allocates.
const raceEnabled = true
