//go:build !amd64 || purego

package comb

import "github.com/p256tls/p256tls/internal/p256/point"

// useWide is false: there is no eight-lane kernel here.
const useWide = false

//p256tls:secret
func scalarBaseMultWide(out *point.Projective, k *[4]uint64) { scalarBaseMultSerial(out, k) }
