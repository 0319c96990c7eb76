//go:build !amd64 || purego

package ecdsaverify

import "github.com/p256tls/p256tls/internal/point"

// addMixedFast is addMixed: there is no fused addition kernel here.
func addMixedFast(p *point.Jacobian, a *point.Affine, neg bool) { addMixed(p, a, neg) }
