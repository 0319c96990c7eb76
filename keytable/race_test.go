//go:build race

package keytable_test

// raceEnabled scales the randomized tests down under the race detector,
// which slows the arithmetic about tenfold; the vector tests still run in
// full.
const raceEnabled = true
