//go:build purego

package provider

// puregoBuild reports the purego build tag, under which the Go toolchain
// refuses to start in FIPS 140-3 mode.
const puregoBuild = true
