package point

import (
	"errors"

	"github.com/p256tls/p256tls/internal/field"
)

// Errors returned by Affine.SetBytes.
var (
	ErrInfinity   = errors.New("point: encoding is the point at infinity")
	ErrEncoding   = errors.New("point: invalid SEC1 encoding (bad prefix or length)")
	ErrNotOnCurve = errors.New("point: point is not on the P-256 curve")
	ErrCoordinate = errors.New("point: coordinate is not less than p")
)

// SetBytes sets a to the point encoded in b, uncompressed (0x04‖X‖Y, 65
// bytes) or compressed (0x02/0x03‖X, 33 bytes) as in SEC 1 §2.3.4. It refuses
// the point at infinity, coordinates ≥ p, points not on the curve and any
// other length or prefix, returning an error and leaving a unchanged. The
// encoding is treated as public: timing may depend on it.
func (a *Affine) SetBytes(b []byte) (*Affine, error) {
	var t Affine
	switch {
	case len(b) == 1 && b[0] == 0:
		return a, ErrInfinity
	case len(b) == 65 && b[0] == 4:
		if _, err := t.X.SetBytes(b[1:33]); err != nil {
			return a, ErrCoordinate
		}
		if _, err := t.Y.SetBytes(b[33:65]); err != nil {
			return a, ErrCoordinate
		}
		if t.IsOnCurve() != 1 {
			return a, ErrNotOnCurve
		}
	case len(b) == 33 && (b[0] == 2 || b[0] == 3):
		if _, err := t.X.SetBytes(b[1:33]); err != nil {
			return a, ErrCoordinate
		}
		// y² = x³ − 3x + b.
		var rhs, u field.Element
		rhs.Square(&t.X).Mul(&rhs, &t.X)
		u.Double(&t.X).Add(&u, &t.X)
		rhs.Sub(&rhs, &u).Add(&rhs, &curveB)
		if _, ok := t.Y.Sqrt(&rhs); ok != 1 {
			return a, ErrNotOnCurve
		}
		yb := t.Y.Bytes()
		if yb[31]&1 != b[0]&1 {
			t.Y.Neg(&t.Y)
		}
	default:
		return a, ErrEncoding
	}
	*a = t
	return a, nil
}

// BytesUncompressed returns the 65-byte SEC 1 uncompressed encoding of a.
func (a *Affine) BytesUncompressed() [65]byte {
	var out [65]byte
	out[0] = 4
	a.X.PutBytes((*[32]byte)(out[1:33]))
	a.Y.PutBytes((*[32]byte)(out[33:65]))
	return out
}
