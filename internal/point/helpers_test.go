package point

// Helpers only tests call, kept here rather than in the package: Affine's
// Select and Equal, Jacobian's IsInfinity and the SEC 1 compressed encoder
// (the decoder, Affine.SetBytes, accepts compressed keys; nothing in the
// library writes them).

// Select sets a = p if cond == 1 and a = q if cond == 0. cond must be 0 or 1.
func (a *Affine) Select(p, q *Affine, cond int) *Affine {
	a.X.Select(&p.X, &q.X, cond)
	a.Y.Select(&p.Y, &q.Y, cond)
	return a
}

// Equal returns 1 if a and q are the same point, and 0 otherwise.
func (a *Affine) Equal(q *Affine) int {
	return a.X.Equal(&q.X) & a.Y.Equal(&q.Y)
}

// IsInfinity returns 1 if p is the point at infinity, and 0 otherwise.
func (p *Jacobian) IsInfinity() int { return p.Z.IsZero() }

// BytesCompressed returns the 33-byte SEC 1 compressed encoding of a.
func (a *Affine) BytesCompressed() [33]byte {
	var out [33]byte
	a.X.PutBytes((*[32]byte)(out[1:33]))
	y := a.Y.Bytes()
	out[0] = 2 | y[31]&1
	return out
}
