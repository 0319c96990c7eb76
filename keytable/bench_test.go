package keytable_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/sha512"
	"testing"

	"github.com/p256tls/p256tls/internal/ecdsatest"
	"github.com/p256tls/p256tls/keytable"
	"github.com/p256tls/p256tls/verify"
)

// The benchmarks that the ratios in docs/verification.md come from: every
// path beside crypto/ecdsa in one test binary, so that one run of
//
//	go test -run '^$' -bench 'Verify|TableNew' -count 10 ./keytable/ | tee new.txt
//
// gives comparable numbers (benchstat new.txt). Besides ns/op (wall time),
// each benchmark reports cpu-ns/op, the CPU time of the benchmarking thread
// per operation: on a shared, loaded machine it is the steadier of the two.

func benchKey(b *testing.B, c elliptic.Curve) (*ecdsa.PrivateKey, []byte, []byte) {
	k, err := ecdsa.GenerateKey(c, rand.Reader)
	if err != nil {
		b.Fatal(err)
	}
	var digest []byte
	if c == elliptic.P384() {
		h := sha512.Sum384([]byte("benchmark"))
		digest = h[:]
	} else {
		h := sha256.Sum256([]byte("benchmark"))
		digest = h[:]
	}
	sig, err := ecdsa.SignASN1(rand.Reader, k, digest)
	if err != nil {
		b.Fatal(err)
	}
	return k, digest, sig
}

func BenchmarkVerify(b *testing.B) {
	k, digest, sig := benchKey(b, elliptic.P256())
	tab, err := keytable.New(&k.PublicKey)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("stdlib", func(b *testing.B) {
		ecdsatest.Loop(b, func() {
			if !ecdsa.VerifyASN1(&k.PublicKey, digest, sig) {
				b.Fatal("rejected")
			}
		})
	})
	b.Run("table", func(b *testing.B) {
		ecdsatest.Loop(b, func() {
			if !tab.VerifyASN1(digest, sig) {
				b.Fatal("rejected")
			}
		})
	})
	b.Run("ordinary", func(b *testing.B) {
		ecdsatest.Loop(b, func() {
			if !verify.VerifyASN1(&k.PublicKey, digest, sig) {
				b.Fatal("rejected")
			}
		})
	})
}

func BenchmarkTableNew(b *testing.B) {
	k, _, _ := benchKey(b, elliptic.P256())
	ecdsatest.Loop(b, func() {
		if _, err := keytable.New(&k.PublicKey); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkVerifyP384 puts the P-384 paths beside crypto/ecdsa and circl's
// ecc/p384 (ecdsatest.CirclP384: CombinedMult after crypto/ecdsa's checks,
// what verify ran before internal/p384/ecdsaverify) in one binary.
func BenchmarkVerifyP384(b *testing.B) {
	k, digest, sig := benchKey(b, elliptic.P384())
	tab, err := keytable.New(&k.PublicKey)
	if err != nil {
		b.Fatal(err)
	}
	r, s, ok := refParse(sig)
	if !ok {
		b.Fatal("signature does not parse")
	}
	rb, sb := r.Bytes(), s.Bytes()
	b.Run("stdlib", func(b *testing.B) {
		ecdsatest.Loop(b, func() {
			if !ecdsa.VerifyASN1(&k.PublicKey, digest, sig) {
				b.Fatal("rejected")
			}
		})
	})
	b.Run("circl", func(b *testing.B) {
		ecdsatest.Loop(b, func() {
			if !ecdsatest.CirclP384(&k.PublicKey, digest, rb, sb) {
				b.Fatal("rejected")
			}
		})
	})
	b.Run("ordinary", func(b *testing.B) {
		ecdsatest.Loop(b, func() {
			if !verify.VerifyASN1(&k.PublicKey, digest, sig) {
				b.Fatal("rejected")
			}
		})
	})
	b.Run("table", func(b *testing.B) {
		ecdsatest.Loop(b, func() {
			if !tab.VerifyASN1(digest, sig) {
				b.Fatal("rejected")
			}
		})
	})
}

// BenchmarkTableNewP384 is BenchmarkTableNew for a P-384 key.
func BenchmarkTableNewP384(b *testing.B) {
	k, _, _ := benchKey(b, elliptic.P384())
	ecdsatest.Loop(b, func() {
		if _, err := keytable.New(&k.PublicKey); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkTableNewLarge is BenchmarkTableNew for NewLarge (width 7, the
// signer's table).
func BenchmarkTableNewLarge(b *testing.B) {
	k, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := keytable.NewLarge(&k.PublicKey); err != nil {
			b.Fatal(err)
		}
	}
}
