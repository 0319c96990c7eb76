// Package ecdsaverify holds the P-384 ECDSA verification chains shared by
// keytable (per-key split-wNAF tables, through internal/keytab) and verify
// (ordinary verification): the weights u1 = e·s⁻¹ and u2 = r·s⁻¹ (digest
// handling as crypto/ecdsa: the leftmost 384 bits), the multi-scalar chains
// u1·G + u2·Q with the prefetch of their addends, and the inversion-free
// final check. It is the same text as internal/p256/ecdsaverify's P-256 chains:
// both are generated from one template. Signature parsing and the range of r
// and s are internal/ecdsasig's; the group law and the key-table
// build (point.BuildRuns) are internal/p384/point's; G's runs are
// internal/p384/gtable's.
//
// Everything here is variable time and must only see public data: public
// keys, digests and signatures.
package ecdsaverify

// The chains (chains.go) are generated from the template that also writes
// internal/p256/ecdsaverify's: internal/gen/chains/chaingen/templates/chains.go.tmpl.
//go:generate go run ../../gen/chains -curve P-384 -dir .
