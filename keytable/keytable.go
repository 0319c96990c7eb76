// Package keytable verifies P-256 and P-384 ECDSA signatures with a
// per-key table.
//
// A key that verifies signature after signature (a server's own key, a
// trust anchor, a hot intermediate) is worth a table built once. The table
// follows the key's curve:
//
//   - P-256: the key's point Q, then sixteen runs, run j holding the odd
//     multiples 1·, 3·, 5·, 7·(2^(17j)·Q) in affine form (128 points,
//     8 KiB). A verification recodes u2 = r·s⁻¹ into width-5 NAF and
//     u1 = e·s⁻¹ into width-8 NAF, cuts each into sixteen runs of 17
//     positions, and adds the digits of all runs (the key's, and the
//     generator's from a static table) into one chain of 16 doublings:
//     about 16 doublings and 71 mixed additions instead of the 256
//     doublings of an ordinary verification.
//   - P-384: Q and twenty runs of 20 positions, run j holding the odd
//     multiples 1·, 3·, …, 15·(2^(20j)·Q) (width 5, 160 points, 15 KiB),
//     the generator's runs at width 8: 19 doublings and about 107 mixed
//     additions instead of 384 doublings.
//
// See docs/verification.md for the shapes measured and why these were kept.
//
// The same P-256 runs at width 7 (512 points, 32 KiB, about 32 instead of
// 43 additions for the key's digits) serve package sign, which checks every
// signature it makes against its key's table; they are internal
// (internal/keytab), as is the check with a known s⁻¹ that sign uses.
//
// Table.VerifyASN1 and Table.Verify take what verify.VerifyASN1 and
// verify.Verify take, minus the key: a caller that verifies many signatures
// under one key swaps the one for the other (as curve25519-voi's
// ExpandedPublicKey stands beside its plain Verify).
//
// Exported identifiers, and why each exists:
//
//   - New: builds a key's table (the one cost, paid once per key).
//   - ErrInvalidKey: New's one error, wrapping the reason; test with errors.Is.
//   - Table: the table; the zero Table (declared, never built) verifies
//     nothing (every Verify returns false, PublicKey nil).
//   - Table.VerifyASN1: the check crypto/tls and crypto/x509 signatures need
//     (ASN.1 DER), crypto/ecdsa.VerifyASN1's answer for every input.
//   - Table.Verify: the same for (r, s) as two big-endian integers (a P1363
//     signature cut in halves), with verify.Verify's convention.
//   - Table.PublicKey: the key a table was built for, to match tables to
//     certificates.
//
// A Table is immutable once built and safe for concurrent use by any
// number of goroutines. Verification is variable time; it handles only
// public data (the key, the digest, the signature).
package keytable

import (
	"crypto/ecdsa"
	"errors"
	"fmt"

	"github.com/p256tls/p256tls/internal/keytab"
)

// ErrInvalidKey is the error of New for a key that gets no table: nil, on
// neither P-256 nor P-384, the point at infinity, or a point that is not on
// its curve. The error returned wraps it and says which (test with
// errors.Is).
var ErrInvalidKey = errors.New("keytable: invalid public key")

// Table is the per-key verification table of one P-256 (8 KiB) or P-384
// (15 KiB) public key.
type Table struct {
	t keytab.Table
}

// New builds the table of a P-256 or P-384 public key: about 1.4 (P-256)
// or 1.6 (P-384) one-shot verifications of work, repaid after 2 or 3
// verifications with it. It refuses nil, keys on other curves, the point at
// infinity and points that are not on the curve (coordinates outside
// [0, p) included) with an error wrapping ErrInvalidKey; pub is only read.
func New(pub *ecdsa.PublicKey) (*Table, error) {
	return newTable(pub, keytab.Width)
}

func newTable(pub *ecdsa.PublicKey, w uint) (*Table, error) {
	t, err := keytab.New(pub, w)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidKey, err)
	}
	return &Table{t: *t}, nil
}

// PublicKey returns the table's key as a new *ecdsa.PublicKey (nil for the
// zero Table).
func (t *Table) PublicKey() *ecdsa.PublicKey { return t.t.PublicKey() }

// VerifyASN1 reports whether sig, an ASN.1 DER ECDSA signature, is a valid
// signature of digest under the table's key. The digest is handled as
// crypto/ecdsa does: truncated to the bit length of n (so SHA-256, SHA-384
// and SHA-512 digests give crypto/ecdsa's answers), then reduced. The DER
// parsing is as strict as crypto/ecdsa's. It gives
// ecdsa.VerifyASN1(t.PublicKey(), digest, sig)'s answer for every input.
func (t *Table) VerifyASN1(digest, sig []byte) bool { return t.t.VerifyASN1(digest, sig) }

// Verify reports whether (r, s), given as big-endian unsigned integers (of
// any length; leading zeros are allowed), is a valid signature of digest
// under the table's key. r and s must be in [1, n−1]; anything else is
// refused. This is verify.Verify's convention, the form of a P1363
// signature cut in halves.
func (t *Table) Verify(digest, r, s []byte) bool { return t.t.Verify(digest, r, s) }
