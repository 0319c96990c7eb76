//go:build race

package sign

// raceEnabled reports a -race build, whose instrumentation allocates and
// slows the arithmetic about tenfold.
const raceEnabled = true
