// Package ecdsaverify holds the P-256 ECDSA verification chains shared by
// keytable (per-key split-wNAF tables) and verify (ordinary verification):
// the weights u1 = e·s⁻¹ and u2 = r·s⁻¹ (digest handling as crypto/ecdsa),
// the multi-scalar chains u1·G + u2·Q with the prefetch of their addends,
// and the inversion-free final check. Signature parsing and the range of r
// and s are internal/ecdsasig's; the group law, its kernels and the
// key-table build (point.BuildRuns) are internal/p256/point's.
//
// Everything here is variable time and must only see public data: public
// keys, digests and signatures.
package ecdsaverify

// The chains (chains.go) are generated from the template that also writes
// internal/p384/ecdsaverify's: internal/gen/chains/chaingen/templates/chains.go.tmpl,
// by internal/gen/chains.
//go:generate go run ../../gen/chains -curve P-256 -dir .
