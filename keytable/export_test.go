package keytable

import (
	"crypto/ecdsa"
	"fmt"

	"github.com/p256tls/p256tls/internal/keytab"
)

// What the tests reach of internal/keytab through this package: the
// signer's width-7 tables, the check with a known s⁻¹, SEC 1 input (for
// Wycheproof's keys) and the reasons New wraps.

const (
	Width      = keytab.Width
	WidthLarge = keytab.WidthLarge
	Width384   = keytab.Width384
)

// Points is the number of points in t's table.
func (t *Table) Points() int { return t.t.Points() }

var (
	ErrNilKey     = keytab.ErrNilKey
	ErrCurve      = keytab.ErrCurve
	ErrInfinity   = keytab.ErrInfinity
	ErrNotOnCurve = keytab.ErrNotOnCurve
	ErrEncoding   = keytab.ErrEncoding
)

// NewLarge is New at width 7, the signer's table.
func NewLarge(pub *ecdsa.PublicKey) (*Table, error) { return newTable(pub, keytab.WidthLarge) }

// NewFromBytes is New for a SEC 1 encoded P-256 point.
func NewFromBytes(sec1 []byte) (*Table, error) {
	t, err := keytab.FromBytes(sec1, keytab.Width)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidKey, err)
	}
	return &Table{t: *t}, nil
}

// NewFromBytes384 is New for a SEC 1 encoded P-384 point.
func NewFromBytes384(sec1 []byte) (*Table, error) {
	t, err := keytab.FromBytes384(sec1)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidKey, err)
	}
	return &Table{t: *t}, nil
}

// VerifyInverse is internal/keytab's check with a known s⁻¹.
func (t *Table) VerifyInverse(digest []byte, r, s, sInv *[32]byte) bool {
	return t.t.VerifyInverse(digest, r, s, sInv)
}
