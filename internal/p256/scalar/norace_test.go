//go:build !race

package scalar

const raceEnabled = false
