//go:build race

package point

const raceEnabled = true
