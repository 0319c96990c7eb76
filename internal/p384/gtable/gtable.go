// Package gtable holds the static split-wNAF runs of the P-384 generator G,
// in the layout of internal/p256/gtable's P-256 runs: the width-Width NAF of a
// scalar (at most 385 digits) is cut into Runs runs of RunLen positions,
// and run j holds the odd multiples 1·, 3·, …, (2^(Width−1)−1)·(2^(RunLen·j)·G)
// in affine form, so that all runs are added into one chain of RunLen−1
// doublings (shared with a key's runs in internal/keytab).
//
// Odd holds G's odd multiples alone at the wider width OddWidth, for
// ordinary verification's single chain over a full-length NAF of u1
// (odd.go).
//
// Both tables are generated source (table.go and odd.go, by
// internal/gen/gtable, the one generator of both curves' tables, from
// math/big): there is no work at init. TestGenerated and TestGeneratedOdd
// regenerate them and compare byte for byte; TestEntries and TestOddEntries
// recompute every entry with crypto/elliptic.
package gtable

//go:generate go run ../../gen/gtable -curve P-384 -w 8 -runs 20 -out table.go
//go:generate go run ../../gen/gtable -curve P-384 -odd 12 -out odd.go

// PerRun is the number of entries in a run: the odd multiples up to
// 2^(Width−1) − 1.
const PerRun = 1 << (Width - 2)
