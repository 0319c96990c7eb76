// Package gtable holds the static split-wNAF runs of the P-256 generator G:
// run j (j = 0…3) holds the odd multiples 1·, 3·, …, (2^(Width−1)−1)·(2^(65j)·G)
// in affine form, so that a width-Width NAF of a scalar, cut into four runs
// of 65 positions, is added into one chain of 64 doublings.
//
// The table is generated source (table.go, by ./gen from math/big): there is
// no work at init. TestGenerated regenerates it and compares byte for byte;
// TestEntries recomputes every entry with crypto/elliptic.
package gtable

//go:generate go run ./gen -w 8 -out table.go

// Runs is the number of runs and RunLen the number of digit positions in
// each; Runs·RunLen = 260 ≥ 257, the length of any 256-bit wNAF.
const (
	Runs   = 4
	RunLen = 65
)

// PerRun is the number of entries in a run: the odd multiples up to
// 2^(Width−1) − 1.
const PerRun = 1 << (Width - 2)
