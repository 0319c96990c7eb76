package scalar

// Invert sets s = a^-1 mod n (a^(n-2); 0 maps to 0) and returns s. Constant
// time: the exponent is public and fixed, and the window digits come from it,
// never from a.
func (s *Scalar) Invert(a *Scalar) *Scalar {
	// tbl[i] = a^(i+1) for i in 0..15.
	var tbl [16]Scalar
	tbl[0] = *a
	for i := 1; i < 16; i++ {
		montMul(&tbl[i], &tbl[i-1], a)
	}
	e := nMinus2
	var r Scalar
	r.One()
	for i := 63; i >= 0; i-- {
		if i != 63 {
			montMul(&r, &r, &r)
			montMul(&r, &r, &r)
			montMul(&r, &r, &r)
			montMul(&r, &r, &r)
		}
		w := (e[i/16] >> (uint(i%16) * 4)) & 0xf
		if w != 0 { // public exponent digit
			montMul(&r, &r, &tbl[w-1])
		}
	}
	*s = r
	return s
}

// nMinus2 is n - 2 as plain little-endian limbs.
var nMinus2 = [4]uint64{n0 - 2, n1, n2, n3}

// InvertVartime sets s = a^-1 mod n and returns s (0 maps to 0). It is not
// constant time: use it only when a is public, as in signature verification.
func (s *Scalar) InvertVartime(a *Scalar) *Scalar {
	return s.Invert(a)
}
