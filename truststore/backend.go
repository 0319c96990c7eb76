package truststore

import (
	"crypto/ecdsa"
	"crypto/elliptic"

	"github.com/p256tls/p256tls/keytable"
	"github.com/p256tls/p256tls/verify"
)

// This file is the only place that names the signature back ends: the
// per-key tables of package keytable and the one-shot verification of
// package verify.

// keyTable is the precomputed table of one P-256 public key.
type keyTable = *keytable.Table

// tableBytes is the memory one P-256 key table holds: 128 affine points of
// 64 bytes (keytable's documented size).
const tableBytes = 8 << 10

// tablePayback is the number of verifications with a table that repay its
// build: on the reference machine (BenchmarkBackend, thread CPU) a build
// costs 48 µs, a verification 35.5 µs without a table and 12.3 µs with one,
// so a table saves 23.2 µs a use and repays its build after 48/23.2 = 2.1,
// that is 3, uses. The hot-table admission rule (hotCache) rests on it.
const tablePayback = 3

// newKeyTable builds the table of a P-256 key.
func newKeyTable(pub *ecdsa.PublicKey) (keyTable, error) { return keytable.New(pub) }

// verifyOnce verifies sig over digest under pub without a table (P-256 and
// P-384 both have fast paths in package verify).
func verifyOnce(pub *ecdsa.PublicKey, digest, sig []byte) bool {
	return verify.VerifyASN1(pub, digest, sig)
}

func isP256(pub *ecdsa.PublicKey) bool { return pub.Curve == elliptic.P256() }
