package sign

import (
	"crypto"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/rand"
	"crypto/sha256"
	"testing"

	"github.com/p256tls/p256tls/internal/p256/comb"
	"github.com/p256tls/p256tls/internal/p256/nonce"
	"github.com/p256tls/p256tls/internal/p256/point"
	"github.com/p256tls/p256tls/internal/p256/scalar"
)

// The benchmarks below run beside their standard-library counterparts so
// that one `go test -bench . -count 10` gives the ratios (see
// docs/signing.md).

func benchKey(b *testing.B) (*ecdsa.PrivateKey, *Signer, []byte) {
	k := newKey(b)
	s := newSignerT(b, k)
	d := sha256.Sum256([]byte("benchmark"))
	return k, s, d[:]
}

// BenchmarkECDSASignASN1 is crypto/ecdsa.SignASN1, the reference.
func BenchmarkECDSASignASN1(b *testing.B) {
	k, _, d := benchKey(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ecdsa.SignASN1(rand.Reader, k, d); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSign is the checked signature (sign, then verify against the
// key's table).
func BenchmarkSign(b *testing.B) {
	_, s, d := benchKey(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Sign(rand.Reader, d, crypto.SHA256); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSignUnchecked(b *testing.B) {
	_, s, d := benchKey(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.signUnchecked(rand.Reader, d); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSignDeterministic(b *testing.B) {
	k, _, d := benchKey(b)
	s, err := NewDeterministic(k)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Sign(nil, d, crypto.SHA256); err != nil {
			b.Fatal(err)
		}
	}
}

// The parts of a signature.

// BenchmarkPartNonce is the hedged nonce: 32 bytes from crypto/rand and
// the HMAC-DRBG.
func BenchmarkPartNonce(b *testing.B) {
	_, s, d := benchKey(b)
	g := nonce.New()
	x := s.d.Bytes()
	var rnd, k [32]byte
	for b.Loop() {
		rand.Read(rnd[:])
		if err := g.Start(crypto.SHA256, &x, d, rnd[:]); err != nil {
			b.Fatal(err)
		}
		g.Nonce(&k)
	}
}

// BenchmarkPartComb is k·G in projective coordinates.
func BenchmarkPartComb(b *testing.B) {
	var k [32]byte
	rand.Read(k[:])
	l := limbs(&k)
	var p point.Projective
	for b.Loop() {
		comb.ScalarBaseMult(&p, &l)
	}
}

// BenchmarkPartFieldDiv is x = X/Z.
func BenchmarkPartFieldDiv(b *testing.B) {
	var k [32]byte
	rand.Read(k[:])
	l := limbs(&k)
	var p point.Projective
	comb.ScalarBaseMult(&p, &l)
	var x [4]uint64
	for b.Loop() {
		p.AffineX(&x)
	}
}

// BenchmarkPartScalarInvert is k⁻¹ mod n.
func BenchmarkPartScalarInvert(b *testing.B) {
	var k [32]byte
	rand.Read(k[:])
	var s scalar.Scalar
	s.SetDigest(k[:])
	for b.Loop() {
		s.Invert(&s)
	}
}

// BenchmarkPartCheck is the verification of a signature against the key's
// table.
func BenchmarkPartCheck(b *testing.B) {
	_, s, d := benchKey(b)
	st := pool.Get().(*state)
	defer pool.Put(st)
	sig, _ := s.signUnchecked(rand.Reader, d)
	r, ss := parseDER(b, sig)
	var rb, sb [32]byte
	r.FillBytes(rb[:])
	ss.FillBytes(sb[:])
	for b.Loop() {
		if !s.table.Verify(d, rb[:], sb[:]) {
			b.Fatal("does not verify")
		}
	}
}

// BenchmarkECDHPublicKey is crypto/ecdh's P-256 public key derivation
// (scalar base multiplication, affine conversion, encoding), the reference
// for BenchmarkScalarBaseMult.
func BenchmarkECDHPublicKey(b *testing.B) {
	k, _ := ecdh.P256().GenerateKey(rand.Reader)
	kb := k.Bytes()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ecdh.P256().NewPrivateKey(kb); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkScalarBaseMult is k·G alone, in projective coordinates (the
// comb; the same as BenchmarkPartComb).
func BenchmarkScalarBaseMult(b *testing.B) {
	var k [32]byte
	rand.Read(k[:])
	l := limbs(&k)
	var p point.Projective
	b.ReportAllocs()
	for b.Loop() {
		comb.ScalarBaseMult(&p, &l)
	}
}

// BenchmarkScalarBaseMultAffine is k·G with the work crypto/ecdh does
// around it: conversion to affine (point.Projective.Affine) and the SEC 1
// encoding.
func BenchmarkScalarBaseMultAffine(b *testing.B) {
	var k [32]byte
	l := limbs(&k)
	var p point.Projective
	b.ReportAllocs()
	for b.Loop() {
		comb.ScalarBaseMult(&p, &l)
		a, _ := p.Affine()
		_ = a.BytesUncompressed()
	}
}
