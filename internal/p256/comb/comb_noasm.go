//go:build (!amd64 && !arm64) || purego

package comb

import "github.com/p256tls/p256tls/internal/p256/point"

// lookup sets e = tab[idx−1] for idx ∈ [1, entries], reading every entry
// and keeping the one wanted by mask.
//
//p256tls:secret
func lookup(e *point.Affine, tab *[entries]point.Affine, idx int) {
	lookupGeneric(e, tab, idx)
}

// addMixed sets out = q + a with the complete mixed addition.
//
//p256tls:secret
func addMixed(out, q *point.Projective, a *point.Affine) {
	out.AddMixed(q, a)
}

// step is one comb position: acc = acc if keep = 1, and
// acc + (−1)^neg·tab[idx−1] otherwise.
//
//p256tls:secret
func step(acc *point.Projective, tab *[entries]point.Affine, idx, neg, keep int) {
	stepGeneric(acc, tab, idx, neg, keep)
}
