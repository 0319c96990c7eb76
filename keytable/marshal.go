package keytable

import (
	"bytes"
	"crypto/sha256"
	"errors"

	"github.com/p256tls/p256tls/internal/point"
)

// The binary format of a Table, version 1 (all integers big-endian), for a
// table of width w (5 from New, 7 from NewLarge) with E = 16·2^(w−2)·64
// bytes of entries (8192 or 32768):
//
//	offset  size  content
//	0       65    the key Q, SEC 1 uncompressed: 0x04 ‖ X ‖ Y
//	65      1     format version: 1
//	66      1     number of runs R: 16 (each of L = ⌈257/R⌉ = 17 positions)
//	67      1     wNAF width w of the key's runs: 5 or 7
//	68      E     the entries: run 0, 1, …, R−1; run j holds 1·, 3·, …, (2^(w−1)−1)·(2^(L·j)·Q),
//	              each point as X ‖ Y (32 + 32 bytes, plain values, not Montgomery form)
//	68+E    32    SHA-256 of bytes 0…67+E
//
// 8292 or 32868 bytes in all. UnmarshalBinary refuses any other length,
// version or width, a point that is not on P-256, a wrong checksum, and,
// after rebuilding the entries from the point, any entry that differs from
// the rebuilt one: a corrupted, truncated or foreign table is never used.
// The rebuild makes UnmarshalBinary cost about as much as New (or
// NewLarge); the stored entries let the format be checked against an
// independent implementation.
const (
	formatVersion = 1
	headerLen     = 65 + 3
)

// encodedLen is the length of the encoding of a table of width w.
func encodedLen(w uint) int { return headerLen + runs<<(w-2)*64 + sha256.Size }

// Errors returned by UnmarshalBinary.
var (
	ErrTruncated = errors.New("keytable: encoded table has the wrong length")
	ErrVersion   = errors.New("keytable: unsupported table format version, run count or width")
	ErrChecksum  = errors.New("keytable: encoded table is corrupted (checksum mismatch)")
	ErrEntries   = errors.New("keytable: encoded table's entries do not belong to its key")
	// ErrZeroTable is MarshalBinary's error for a Table that was never built.
	ErrZeroTable = errors.New("keytable: the zero Table has no key to encode")
)

// MarshalBinary encodes the table in the documented version-1 format.
func (t *Table) MarshalBinary() ([]byte, error) {
	if t.w == 0 {
		return nil, ErrZeroTable
	}
	out := make([]byte, 0, encodedLen(t.w))
	q := t.q.BytesUncompressed()
	out = append(out, q[:]...)
	out = append(out, formatVersion, runs, byte(t.w))
	for i := range t.tab {
		x, y := t.tab[i].X.Bytes(), t.tab[i].Y.Bytes()
		out = append(out, x[:]...)
		out = append(out, y[:]...)
	}
	sum := sha256.Sum256(out)
	return append(out, sum[:]...), nil
}

// UnmarshalBinary decodes a table encoded by MarshalBinary into t. On any
// error t is left unchanged.
func (t *Table) UnmarshalBinary(data []byte) error {
	if len(data) < headerLen {
		return ErrTruncated
	}
	var q point.Affine
	if data[0] != 4 {
		return ErrEncoding
	}
	if _, err := q.SetBytes(data[:65]); err != nil {
		return ErrNotOnCurve
	}
	w := uint(data[67])
	if data[65] != formatVersion || data[66] != runs || (w != Width && w != WidthLarge) {
		return ErrVersion
	}
	n := encodedLen(w)
	if len(data) != n {
		return ErrTruncated
	}
	body := data[:n-sha256.Size]
	sum := sha256.Sum256(body)
	if !bytes.Equal(sum[:], data[n-sha256.Size:]) {
		return ErrChecksum
	}
	fresh := build(&q, w)
	enc := body[headerLen:]
	for i := range fresh.tab {
		x, y := fresh.tab[i].X.Bytes(), fresh.tab[i].Y.Bytes()
		if !bytes.Equal(x[:], enc[64*i:64*i+32]) || !bytes.Equal(y[:], enc[64*i+32:64*i+64]) {
			return ErrEntries
		}
	}
	*t = *fresh
	return nil
}
