//go:build !race

package keytable_test

const raceEnabled = false
