package main

// The p256tls side of every comparison lives in this file, so that what the
// "p256tls" column runs is in one place.

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/rand"
	"crypto/tls"
	"errors"
	"io"
)

// standIns lists the p256tls packages that are not in this tree yet; their
// columns run the standard library and every report says so.
var standIns = []string{"sign", "keytable", "verify", "provider"}

var errNotLanded = errors.New("not in this tree yet")

// oursCertificate turns the standard certificate into the p256tls server
// identity. note says what the identity does with this key type.
func oursCertificate(std tls.Certificate) (cert tls.Certificate, note string, err error) {
	return std, "STAND-IN: provider/ not in this tree; this column is crypto/tls", nil
}

// oursSigner is the p256tls signer for a P-256 key.
type oursSigner interface {
	Sign(rand io.Reader, digest []byte, opts crypto.SignerOpts) ([]byte, error)
	SignUnchecked(digest []byte) ([]byte, error)
	VerifyWithTable(digest, sig []byte) bool
}

type standInSigner struct{ priv *ecdsa.PrivateKey }

func (s standInSigner) Sign(r io.Reader, digest []byte, opts crypto.SignerOpts) ([]byte, error) {
	return ecdsa.SignASN1(r, s.priv, digest)
}
func (s standInSigner) SignUnchecked(digest []byte) ([]byte, error) {
	return ecdsa.SignASN1(rand.Reader, s.priv, digest)
}
func (s standInSigner) VerifyWithTable(digest, sig []byte) bool {
	return ecdsa.VerifyASN1(&s.priv.PublicKey, digest, sig)
}

func newOursSigner(priv *ecdsa.PrivateKey) (oursSigner, error) {
	return standInSigner{priv}, nil
}

// oursTableBuild builds the per-key verification table once.
func oursTableBuild(pub *ecdsa.PublicKey) error {
	return errNotLanded
}

// oursVerify is p256tls's ordinary verification (any curve).
func oursVerify(pub *ecdsa.PublicKey, digest, sig []byte) bool {
	return ecdsa.VerifyASN1(pub, digest, sig)
}
