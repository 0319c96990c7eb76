package truststore

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rsa"

	"github.com/p256tls/p256tls/internal/keytab"
	"github.com/p256tls/p256tls/keytable"
	"github.com/p256tls/p256tls/verify"
)

// This file is the only place that names the signature back ends: the
// per-key tables of package keytable, the one-shot verification of
// package verify, and crypto/rsa for RSA links.

// keyTable is the precomputed table of one P-256 or P-384 public key.
type keyTable = *keytable.Table

// tableCurve reports whether pub, a P-256 or P-384 key, is on a curve
// that keytable builds tables for (both), so that anchors and hot issuers
// with it get one.
func tableCurve(pub *ecdsa.PublicKey) bool {
	return pub.Curve == elliptic.P256() || pub.Curve == elliptic.P384()
}

// tableBytesOf is the memory the table of pub, a key tableCurve admits,
// holds (keytable.New's tables are internal/keytab's).
func tableBytesOf(pub *ecdsa.PublicKey) int {
	if pub.Curve == elliptic.P384() {
		return keytab.Bytes384
	}
	return keytab.Bytes
}

// tablePayback is the number of verifications with a table that repay its
// build: on the reference machine (BenchmarkBackend, thread CPU) a P-256
// build costs 49.0 µs, a verification 36.3 µs without a table and 12.3 µs
// with one, so a table saves 24.0 µs a use and repays its build after
// 49.0/24.0 = 2.04, that is 3, uses. For P-384 (build 187.1 µs, 153.1 µs
// without a table, 48.3 µs with one) it is 187.1/104.8 = 1.79, that is 2;
// one rule serves both curves with the larger count. The hot-table
// admission rule (hotCache) rests on it.
const tablePayback = 3

// newKeyTable builds the table of a key tableCurve admits.
func newKeyTable(pub *ecdsa.PublicKey) (keyTable, error) { return keytable.New(pub) }

// verifyOnce verifies sig over digest under pub without a table (P-256 and
// P-384 both have fast paths in package verify).
func verifyOnce(pub *ecdsa.PublicKey, digest, sig []byte) bool {
	return verify.VerifyASN1(pub, digest, sig)
}

// verifyRSA verifies an RSA PKCS #1 v1.5 signature sig over digest, made
// with hash h, under pub: the call crypto/x509 makes for SHA256WithRSA,
// SHA384WithRSA and SHA512WithRSA, so the answer is crypto/x509's.
func verifyRSA(pub *rsa.PublicKey, h crypto.Hash, digest, sig []byte) bool {
	return rsa.VerifyPKCS1v15(pub, h, digest, sig) == nil
}
