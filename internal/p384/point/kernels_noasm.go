//go:build !amd64 || purego

package point

// Double sets p = 2p in place: double, there being no fused kernel here.
// Constant time (no branch on p), and correct for the point at infinity.
func (p *Jacobian) Double() { double(p) }

// AddMixedVartime sets p = p + a if neg is false and p = p − a if neg is
// true, in place: addMixed, there being no fused kernel here. It branches
// on the points: public points only.
func (p *Jacobian) AddMixedVartime(a *Affine, neg bool) { addMixed(p, a, neg) }

// AddCachedVartime sets p = p + q if neg is false and p = p − q if neg is
// true, in place: addCached, there being no fused kernel here. It branches
// on the points: public points only.
func (p *Jacobian) AddCachedVartime(q *Cached, neg bool) { addCached(p, q, neg) }

// AddCoZ sets p = p + q and rescales q to the sum's Z, for two points that
// share their Z: addCoZ, there being no fused kernel here. No branches. The
// caller guarantees p ≠ ±q and that neither is the point at infinity; p
// and q must not alias.
func AddCoZ(p, q *Jacobian) { addCoZ(p, q) }
