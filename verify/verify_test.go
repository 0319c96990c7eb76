package verify_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/sha512"
	"math/big"
	mrand "math/rand/v2"
	"testing"

	"github.com/p256tls/p256tls/internal/ecdsatest"
	"github.com/p256tls/p256tls/verify"
)

// TestWycheproof runs the P-384 vectors (internal/p384/ecdsaverify; keytable's
// TestWycheproofP384 runs them through both paths), the P-256 vectors
// (ordinary path; keytable's test runs them through both paths) and the
// P-521 ones (crypto/ecdsa path), DER and P1363.
func TestWycheproof(t *testing.T) {
	// Every P-384 file of the module; two P-256 ones (keytable's test runs
	// them all through this package too); P-521 through crypto/ecdsa.
	files := append(append([]string{}, ecdsatest.P384Files...),
		"ecdsa_secp256r1_sha256_test.json", "ecdsa_secp256r1_sha256_p1363_test.json",
		"ecdsa_secp521r1_sha512_p1363_test.json")
	total := 0
	for _, name := range files {
		for _, g := range ecdsatest.Load(t, name) {
			if g.Key == nil {
				t.Fatalf("%s: key %x refused by crypto/ecdsa", name, g.SEC1)
			}
			size := (g.Curve.Params().BitSize + 7) / 8
			for _, v := range g.Tests {
				digest := g.Digest(v.Msg)
				// crypto/ecdsa is asked only for "acceptable" vectors (its answer
				// is then the one wanted): keytable's test cross-checks it on
				// P-256, and on P-384 and P-521 it is slow under -race.
				var got, std bool
				want := v.Result == "valid"
				if g.P1363 {
					if r, s, ok := ecdsatest.SplitP1363(v.Sig, size); ok {
						got = verify.Verify(g.Key, digest, r, s)
						if v.Result == "acceptable" {
							want = ecdsa.Verify(g.Key, digest, new(big.Int).SetBytes(r), new(big.Int).SetBytes(s))
						}
					}
				} else {
					got = verify.VerifyASN1(g.Key, digest, v.Sig)
					if v.Result == "acceptable" {
						want = ecdsa.VerifyASN1(g.Key, digest, v.Sig)
					}
				}
				std = want
				if got != want {
					t.Errorf("%s #%d (%s): want %v (%s); verify %v, crypto/ecdsa %v", name, v.ID, v.Comment, want, v.Result, got, std)
				}
				total++
			}
		}
	}
	t.Logf("%d vectors", total)
}

func agree(t testing.TB, pub *ecdsa.PublicKey, digest, sig []byte) bool {
	t.Helper()
	std := ecdsa.VerifyASN1(pub, digest, sig)
	if got := verify.VerifyASN1(pub, digest, sig); got != std {
		t.Fatalf("%s: digest %x sig %x: verify %v, crypto/ecdsa %v", pub.Curve.Params().Name, digest, sig, got, std)
	}
	return std
}

// TestDifferentialCurves compares with crypto/ecdsa on P-384, P-256,
// P-224 and P-521: valid signatures over several digest lengths, each
// single-bit flip of one signature per key, and corrupted digests.
func TestDifferentialCurves(t *testing.T) {
	r := mrand.New(mrand.NewPCG(11, 12))
	for _, c := range []elliptic.Curve{elliptic.P384(), elliptic.P256(), elliptic.P224(), elliptic.P521()} {
		keys, sigs := 4, 25
		if raceEnabled {
			keys, sigs = 2, 5
		}
		if c == elliptic.P224() || c == elliptic.P521() {
			keys, sigs = 2, 4 // crypto/ecdsa on both sides: only the dispatch is tested
		}
		for i := 0; i < keys; i++ {
			k, err := ecdsa.GenerateKey(c, rand.Reader)
			if err != nil {
				t.Fatal(err)
			}
			for j := 0; j < sigs; j++ {
				var digest []byte
				switch j % 4 {
				case 0:
					h := sha256.Sum256([]byte{byte(i), byte(j)})
					digest = h[:]
				case 1:
					h := sha512.Sum384([]byte{byte(i), byte(j)})
					digest = h[:]
				case 2:
					h := sha512.Sum512([]byte{byte(i), byte(j)})
					digest = h[:]
				case 3:
					digest = make([]byte, r.IntN(80))
					for x := range digest {
						digest[x] = byte(r.Uint32())
					}
				}
				sig, err := ecdsa.SignASN1(rand.Reader, k, digest)
				if err != nil {
					t.Fatal(err)
				}
				if !agree(t, &k.PublicKey, digest, sig) {
					t.Fatal("valid signature refused")
				}
				if j == 0 && c == elliptic.P384() {
					step := 1
					if raceEnabled {
						step = 7
					}
					for bit := 0; bit < 8*len(sig); bit += step {
						sig[bit/8] ^= 1 << (bit % 8)
						if agree(t, &k.PublicKey, digest, sig) {
							t.Fatal("bit flip accepted")
						}
						sig[bit/8] ^= 1 << (bit % 8)
					}
				}
				if len(digest) > 0 {
					digest[r.IntN(len(digest))] ^= 1 << r.IntN(8)
					agree(t, &k.PublicKey, digest, sig)
				}
			}
		}
	}
}

// TestP384Ranges refuses r or s equal to 0, n, n+1 and 2^384 − 1 and an
// invalid key, as crypto/ecdsa does.
func TestP384Ranges(t *testing.T) {
	k, _ := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	digest := sha512.Sum384([]byte("ranges"))
	r, s, _ := ecdsa.Sign(rand.Reader, k, digest[:])
	n := elliptic.P384().Params().N
	max := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 384), big.NewInt(1))
	for _, b := range []*big.Int{big.NewInt(0), n, new(big.Int).Add(n, big.NewInt(1)), max, new(big.Int).Add(r, n)} {
		if agree(t, &k.PublicKey, digest[:], ecdsatest.EncodeDER(b, s)) || agree(t, &k.PublicKey, digest[:], ecdsatest.EncodeDER(r, b)) {
			t.Fatalf("out-of-range value %x accepted", b)
		}
	}
	sig := ecdsatest.EncodeDER(r, s)
	if !agree(t, &k.PublicKey, digest[:], sig) {
		t.Fatal("valid signature refused")
	}
	p := elliptic.P384().Params().P
	for _, pub := range []*ecdsa.PublicKey{
		{Curve: elliptic.P384(), X: k.X, Y: new(big.Int).Add(k.Y, big.NewInt(1))},
		{Curve: elliptic.P384(), X: k.X, Y: new(big.Int).Add(k.Y, p)},
		{Curve: elliptic.P384(), X: big.NewInt(0), Y: big.NewInt(0)},
		{Curve: elliptic.P384(), X: k.X, Y: new(big.Int).Add(k.Y, new(big.Int).Lsh(big.NewInt(1), 384))},
		{Curve: elliptic.P384(), X: new(big.Int).Add(k.X, new(big.Int).Lsh(big.NewInt(1), 384)), Y: k.Y},
		{Curve: elliptic.P384(), X: new(big.Int).Neg(k.X), Y: k.Y},
		{Curve: elliptic.P384(), X: k.X, Y: new(big.Int).Neg(k.Y)},
		{Curve: elliptic.P384(), X: k.X},
		{Curve: elliptic.P384()},
	} {
		if verify.VerifyASN1(pub, digest[:], sig) || verify.Verify(pub, digest[:], r.Bytes(), s.Bytes()) {
			t.Fatal("invalid P-384 key accepted")
		}
	}
}

// TestKeyCheckedOnCurve gives the ordinary P-256 and P-384 paths the
// off-curve point (0, 0), of order 2 on y² = x³ − 3x (the formulas never
// read b), with a signature that holds if that point is taken as a key:
// u1 = 7, u2 even, so u1·G + u2·(0, 0) = 7G. crypto/ecdsa refuses the key;
// so must verify.
func TestKeyCheckedOnCurve(t *testing.T) {
	for _, c := range []elliptic.Curve{elliptic.P256(), elliptic.P384()} {
		keyCheckedOnCurve(t, c)
	}
}

func keyCheckedOnCurve(t *testing.T, c elliptic.Curve) {
	n := c.Params().N
	size := (n.BitLen() + 7) / 8
	//lint:ignore SA1019 the deprecated API is the independent reference here.
	x, _ := c.ScalarBaseMult([]byte{7})
	r := new(big.Int).Mod(x, n)
	for _, u2 := range []int64{2, 4, 1 << 20} {
		// s = r/u2, e = u1·s = 7s.
		s := new(big.Int).ModInverse(big.NewInt(u2), n)
		s.Mul(s, r).Mod(s, n)
		e := new(big.Int).Mul(big.NewInt(7), s)
		e.Mod(e, n)
		digest := e.FillBytes(make([]byte, size))
		for _, pub := range []*ecdsa.PublicKey{
			{Curve: c, X: big.NewInt(0), Y: big.NewInt(0)},
			{Curve: c, X: big.NewInt(0), Y: new(big.Int).Set(c.Params().P)},
		} {
			if verify.VerifyASN1(pub, digest, ecdsatest.EncodeDER(r, s)) || verify.Verify(pub, digest, r.Bytes(), s.Bytes()) {
				t.Fatalf("signature under the off-curve key (%x, %x) accepted (u2 = %d)", pub.X, pub.Y, u2)
			}
		}
	}
}

func TestOddKeys(t *testing.T) {
	k, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	digest := sha256.Sum256([]byte("odd"))
	sig, _ := ecdsa.SignASN1(rand.Reader, k, digest[:])
	p := elliptic.P256().Params().P
	for _, pub := range []*ecdsa.PublicKey{
		nil, {}, {Curve: elliptic.P256()},
		{Curve: elliptic.P256(), X: big.NewInt(0), Y: big.NewInt(0)},
		{Curve: elliptic.P256(), X: new(big.Int).Add(k.X, p), Y: k.Y},
		{Curve: elliptic.P256(), X: new(big.Int).Neg(k.X), Y: k.Y},
		{Curve: elliptic.P256(), X: k.X, Y: new(big.Int).Sub(p, k.Y)},
		{Curve: elliptic.P256(), X: new(big.Int).Lsh(big.NewInt(1), 300), Y: k.Y},
		// Other curves go to crypto/ecdsa, which would dereference nil
		// coordinates: these must fail, not panic.
		{Curve: elliptic.P521()}, {Curve: elliptic.P224(), X: big.NewInt(1)},
		{Curve: elliptic.P521(), Y: big.NewInt(1)},
	} {
		if verify.VerifyASN1(pub, digest[:], sig) {
			t.Errorf("key %+v accepted", pub)
		}
		var r32 [32]byte
		if verify.Verify(pub, digest[:], r32[:], r32[:]) {
			t.Errorf("key %+v accepted (raw)", pub)
		}
	}
	if !verify.VerifyASN1(&k.PublicKey, digest[:], sig) {
		t.Fatal("valid signature refused")
	}
}

// FuzzVerifyASN1P384 checks the P-384 path against crypto/ecdsa.
func FuzzVerifyASN1P384(f *testing.F) {
	k, _ := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	digest := sha512.Sum384([]byte("fuzz"))
	sig, _ := ecdsa.SignASN1(rand.Reader, k, digest[:])
	f.Add(digest[:], sig)
	f.Fuzz(func(t *testing.T, digest, sig []byte) { agree(t, &k.PublicKey, digest, sig) })
}
