// Package ecdsasig is the one home of the rules an ECDSA signature and its
// key must meet before any arithmetic: the signature's ASN.1 DER form
// (ParseDER, the rules of crypto/ecdsa, for any curve), the range [1, n−1]
// of r and s, for P-256 (ScalarFromBytes, Scalar32) and P-384
// (ScalarFromBytes384), and the reading of a crypto/ecdsa key's
// coordinates into SEC 1 form (PublicKeyBytes), whose curve checks the
// point packages' SetBytes then make. keytable, verify and truststore's
// fast path use it; it holds no state and allocates nothing.
//
// Everything here is variable time: signatures are public.
package ecdsasig

import (
	"crypto/ecdsa"
	"math/big"

	"golang.org/x/crypto/cryptobyte"
	"golang.org/x/crypto/cryptobyte/asn1"

	"github.com/p256tls/p256tls/internal/p256/scalar"
	p384scalar "github.com/p256tls/p256tls/internal/p384/scalar"
)

// ParseDER splits an ASN.1 DER ECDSA signature into the big-endian values
// of r and s, with the rules of crypto/ecdsa: exactly one SEQUENCE holding
// two INTEGERs and nothing else, nothing after the SEQUENCE, DER lengths,
// minimally encoded non-negative INTEGERs. The leading zero octets of each
// value are removed (0 becomes one zero octet). The results alias sig.
//
// It reads the INTEGERs with cryptobyte's ReadASN1 and checks them here
// rather than through ReadASN1Integer, whose interface argument would make
// every call allocate.
func ParseDER(sig []byte) (r, s []byte, ok bool) {
	in := cryptobyte.String(sig)
	var inner, ri, si cryptobyte.String
	if !in.ReadASN1(&inner, asn1.SEQUENCE) || !in.Empty() ||
		!inner.ReadASN1(&ri, asn1.INTEGER) || !inner.ReadASN1(&si, asn1.INTEGER) ||
		!inner.Empty() {
		return nil, nil, false
	}
	r, ok1 := unsignedInteger(ri)
	s, ok2 := unsignedInteger(si)
	if !ok1 || !ok2 {
		return nil, nil, false
	}
	return r, s, true
}

// unsignedInteger checks the content octets of a DER INTEGER (at least one
// octet, minimal two's complement, not negative) and strips its leading
// zeros.
func unsignedInteger(b []byte) ([]byte, bool) {
	if len(b) == 0 || b[0]&0x80 != 0 {
		return nil, false
	}
	if len(b) > 1 && b[0] == 0 && b[1]&0x80 == 0 {
		return nil, false // a zero octet that is not needed for the sign
	}
	for len(b) > 1 && b[0] == 0 {
		b = b[1:]
	}
	return b, true
}

// ScalarFromBytes reads a big-endian unsigned value of any length (leading
// zeros allowed) into a scalar, refusing 0 and values ≥ n: ECDSA's range
// check for r and s.
func ScalarFromBytes(out *scalar.Scalar, b []byte) bool {
	var buf [32]byte
	return rightAlign(buf[:], b) && Scalar32(out, &buf)
}

// rightAlign copies the big-endian value b (leading zeros allowed) into
// the zeroed dst, right-aligned, and reports false if it needs more than
// len(dst) bytes.
func rightAlign(dst, b []byte) bool {
	for len(b) > 0 && b[0] == 0 {
		b = b[1:]
	}
	if len(b) > len(dst) {
		return false
	}
	copy(dst[len(dst)-len(b):], b)
	return true
}

// Scalar32 reads a 32-byte big-endian value into a scalar, refusing 0 and
// values ≥ n.
func Scalar32(out *scalar.Scalar, b *[32]byte) bool {
	if _, err := out.SetBytes(b[:]); err != nil {
		return false
	}
	return out.IsZero() == 0
}

// ScalarFromBytes384 is ScalarFromBytes for P-384: it reads a big-endian
// unsigned value of any length (leading zeros allowed) into a P-384 scalar,
// refusing 0 and values ≥ n. On false, out is unchanged or zero.
func ScalarFromBytes384(out *p384scalar.Scalar, b []byte) bool {
	var buf [48]byte
	if !rightAlign(buf[:], b) {
		return false
	}
	if _, err := out.SetBytes(buf[:]); err != nil {
		return false
	}
	return out.IsZero() == 0 // r, s ≠ 0 (P-384)
}

// PublicKeyBytes writes pub's point in SEC 1 uncompressed form, 0x04‖X‖Y
// with each coordinate size bytes big-endian, into dst[:1+2·size] and
// returns that slice, without allocating; it reads pub.X and pub.Y only. It
// returns nil, leaving dst in an unspecified state, for a nil pub or
// coordinate, a negative coordinate, one ≥ 2^(8·size), a size < 1 or a dst
// shorter than 1+2·size. It makes no curve check (pub.Curve is not read):
// the curve's point SetBytes refuses nil, coordinates ≥ p and points off
// the curve, the point at infinity (0, 0) included.
func PublicKeyBytes(dst []byte, pub *ecdsa.PublicKey, size int) []byte {
	if pub == nil || size < 1 || len(dst) < 1+2*size {
		return nil
	}
	//lint:ignore SA1019 the coordinates are only read: Bytes would allocate.
	x, y := pub.X, pub.Y
	if !fits(x, size) || !fits(y, size) {
		return nil
	}
	dst[0] = 4
	x.FillBytes(dst[1 : 1+size])
	y.FillBytes(dst[1+size : 1+2*size])
	return dst[:1+2*size]
}

// fits reports whether v is a non-negative integer below 2^(8·size).
func fits(v *big.Int, size int) bool {
	return v != nil && v.Sign() >= 0 && v.BitLen() <= 8*size
}
