package ecdsatest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"math/big"

	"github.com/cloudflare/circl/ecc/p384"
)

// CirclP384 verifies (r, s) (big-endian, any length) under a P-384 key with
// github.com/cloudflare/circl's ecc/p384 CombinedMult after crypto/ecdsa's
// checks (r, s in [1, n−1], coordinates in [0, p), the point on the curve),
// e = the leftmost 384 bits of the digest mod n: an implementation
// independent of this module's and of crypto/ecdsa's, for differential
// tests (verify used it in production before internal/p384/ecdsaverify).
func CirclP384(pub *ecdsa.PublicKey, digest, rb, sb []byte) bool {
	c := p384.P384()
	params := elliptic.P384().Params()
	n := params.N
	r := new(big.Int).SetBytes(rb)
	s := new(big.Int).SetBytes(sb)
	if r.Sign() <= 0 || s.Sign() <= 0 || r.Cmp(n) >= 0 || s.Cmp(n) >= 0 {
		return false
	}
	//lint:ignore SA1019 the coordinates are only read.
	x, y := pub.X, pub.Y
	if x == nil || y == nil || x.Sign() < 0 || y.Sign() < 0 ||
		x.Cmp(params.P) >= 0 || y.Cmp(params.P) >= 0 || !c.IsOnCurve(x, y) {
		return false
	}
	if len(digest) > 48 {
		digest = digest[:48]
	}
	e := new(big.Int).SetBytes(digest)
	e.Mod(e, n)
	w := new(big.Int).ModInverse(s, n)
	u1 := e.Mul(e, w)
	u1.Mod(u1, n)
	u2 := w.Mul(r, w)
	u2.Mod(u2, n)
	var b1, b2 [48]byte
	px, py := c.CombinedMult(x, y, u1.FillBytes(b1[:]), u2.FillBytes(b2[:]))
	if c.IsAtInfinity(px, py) {
		return false
	}
	px.Mod(px, n)
	return px.Cmp(r) == 0
}
