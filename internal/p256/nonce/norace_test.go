//go:build !race

package nonce

const raceEnabled = false
