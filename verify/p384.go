package verify

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"math/big"

	"github.com/cloudflare/circl/ecc/p384"
)

var (
	curve384  = p384.P384()
	params384 = elliptic.P384().Params()
)

// verifyP384 checks (r, s) with circl's P-384 CombinedMult after the range
// checks and point validation that crypto/ecdsa applies.
func verifyP384(pub *ecdsa.PublicKey, digest, rb, sb []byte) bool {
	n := params384.N
	r := new(big.Int).SetBytes(rb)
	s := new(big.Int).SetBytes(sb)
	if r.Sign() <= 0 || s.Sign() <= 0 || r.Cmp(n) >= 0 || s.Cmp(n) >= 0 {
		return false
	}
	//lint:ignore SA1019 the coordinates are only read.
	x, y := pub.X, pub.Y
	if x == nil || y == nil || x.Sign() < 0 || y.Sign() < 0 ||
		x.Cmp(params384.P) >= 0 || y.Cmp(params384.P) >= 0 || !curve384.IsOnCurve(x, y) {
		return false
	}
	// bits2int: the leftmost 384 bits of the digest, then mod n.
	const size = 48
	if len(digest) > size {
		digest = digest[:size]
	}
	e := new(big.Int).SetBytes(digest)
	e.Mod(e, n)
	w := new(big.Int).ModInverse(s, n)
	u1 := e.Mul(e, w)
	u1.Mod(u1, n)
	u2 := w.Mul(r, w)
	u2.Mod(u2, n)
	var b1, b2 [size]byte
	px, py := curve384.CombinedMult(x, y, u1.FillBytes(b1[:]), u2.FillBytes(b2[:]))
	if curve384.IsAtInfinity(px, py) {
		return false
	}
	px.Mod(px, n)
	return px.Cmp(r) == 0
}
