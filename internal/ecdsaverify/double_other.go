//go:build !amd64 || purego

package ecdsaverify

import "github.com/p256tls/p256tls/internal/point"

// useDoubleADX is false: there is no fused doubling kernel here.
const useDoubleADX = false

// doubleFast is double.
func doubleFast(p *point.Jacobian) { double(p) }
