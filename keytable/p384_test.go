package keytable_test

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/asn1"
	"math/big"
	mrand "math/rand/v2"
	"sync"
	"testing"

	"github.com/p256tls/p256tls/internal/ecdsatest"
	"github.com/p256tls/p256tls/keytable"
	"github.com/p256tls/p256tls/verify"
)

// The P-384 tests: every P-384 case goes through the table (keytable), the
// ordinary path (verify), crypto/ecdsa and circl's ecc/p384 (the oracle
// verify used before), and all four must give the expected answer.

var (
	p384   = elliptic.P384()
	n384   = p384.Params().N
	p384P  = p384.Params().P
	max384 = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 384), big.NewInt(1))
)

// agree384 checks the DER signature sig, and its (r, s) form when it
// parses, on all four verifiers.
func agree384(t testing.TB, pub *ecdsa.PublicKey, tab *keytable.Table, digest, sig []byte, want bool) {
	t.Helper()
	std := ecdsa.VerifyASN1(pub, digest, sig)
	got := tab.VerifyASN1(digest, sig)
	ord := verify.VerifyASN1(pub, digest, sig)
	if std != want || got != want || ord != want {
		t.Fatalf("P-384 digest %x sig %x: want %v; crypto/ecdsa %v, table %v, ordinary %v", digest, sig, want, std, got, ord)
	}
	if r, s, ok := refParse(sig); ok {
		if c := ecdsatest.CirclP384(pub, digest, r.Bytes(), s.Bytes()); c != want {
			t.Fatalf("P-384 digest %x sig %x: want %v; circl %v", digest, sig, want, c)
		}
	}
}

// agreeRaw384 checks (r, s) with Verify, r and s as minimal big-endian
// bytes and as 48-byte values (when they fit).
func agreeRaw384(t testing.TB, pub *ecdsa.PublicKey, tab *keytable.Table, digest []byte, r, s *big.Int, want bool) {
	t.Helper()
	std := ecdsa.Verify(pub, digest, r, s)
	encs := [][2][]byte{{r.Bytes(), s.Bytes()}}
	if r.BitLen() <= 384 && s.BitLen() <= 384 {
		encs = append(encs, [2][]byte{r.FillBytes(make([]byte, 48)), s.FillBytes(make([]byte, 48))})
	}
	for _, e := range encs {
		got := tab.Verify(digest, e[0], e[1])
		ord := verify.Verify(pub, digest, e[0], e[1])
		c := ecdsatest.CirclP384(pub, digest, e[0], e[1])
		if std != want || got != want || ord != want || c != want {
			t.Fatalf("P-384 digest %x r %x s %x: want %v; crypto/ecdsa %v, table %v, ordinary %v, circl %v", digest, e[0], e[1], want, std, got, ord, c)
		}
	}
}

// refParse reads a DER signature with crypto/ecdsa's rules (through the
// P-256 agreement helper's parser, which is curve-independent).
func refParse(sig []byte) (r, s *big.Int, ok bool) {
	var v struct{ R, S *big.Int }
	rest, err := asn1Unmarshal(sig, &v)
	if err != nil || len(rest) != 0 || v.R.Sign() < 0 || v.S.Sign() < 0 {
		return nil, nil, false
	}
	return v.R, v.S, true
}

func keys384(t testing.TB, random int) []keyed {
	var ks []keyed
	for _, d := range []*big.Int{big.NewInt(1), big.NewInt(2), new(big.Int).Sub(n384, big.NewInt(1))} {
		k := ecdsatest.PrivateKeyOn(p384, d)
		ks = append(ks, keyed{k, mustTable(t, &k.PublicKey)})
	}
	for i := 0; i < random; i++ {
		k, err := ecdsa.GenerateKey(p384, rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		ks = append(ks, keyed{k, mustTable(t, &k.PublicKey)})
	}
	return ks
}

// TestWycheproofP384 runs every P-384 ECDSA file of the Wycheproof module
// (DER and P1363, SHA-2, SHA-3, SHAKE256, WebCrypto) through the table and
// the ordinary path, each answer the vector's (crypto/ecdsa's for
// "acceptable" ones).
func TestWycheproofP384(t *testing.T) {
	total := runWycheproof(t, ecdsatest.P384Files, p384, keytable.NewFromBytes384, true)
	if total < 4000 {
		t.Fatalf("only %d P-384 vectors", total)
	}
	t.Logf("%d vectors", total)
}

// digest384 returns a random digest: SHA-256, SHA-384, SHA-512, or random
// bytes of length 0 to 80.
func digest384(r *mrand.Rand) []byte {
	msg := make([]byte, 16)
	for j := range msg {
		msg[j] = byte(r.Uint32())
	}
	switch r.IntN(5) {
	case 0:
		h := sha256.Sum256(msg)
		return h[:]
	case 1, 2:
		h := sha512.Sum384(msg)
		return h[:]
	case 3:
		h := sha512.Sum512(msg)
		return h[:]
	}
	d := make([]byte, r.IntN(81))
	for j := range d {
		d[j] = byte(r.Uint32())
	}
	return d
}

// TestCraftedP384 verifies signatures built with chosen u1 and u2 under the
// keys 1, 2, 3, n−1, n−2: u1 = 0; digits at the run boundaries 20k − 1 and
// 20k of the shipped split and at the limb boundaries; u2 = ±u1 and u2 = 1,
// 2, 3 with the small keys, whose chains pass through equal and opposite
// points and infinity. Each signature is valid by construction; its
// neighbours (s + 1, r + 1) are checked against crypto/ecdsa.
func TestCraftedP384(t *testing.T) {
	one := big.NewInt(1)
	ds := []*big.Int{one, big.NewInt(2), big.NewInt(3), new(big.Int).Sub(n384, one), new(big.Int).Sub(n384, big.NewInt(2))}
	var vals []*big.Int
	poss := []uint{0, 1, 63, 64, 127, 128, 191, 192, 255, 256, 319, 320, 383}
	for k := uint(1); k < 20; k++ {
		poss = append(poss, 20*k-1, 20*k)
	}
	ms := []int64{1, 3, 127}
	if testing.Short() || raceEnabled {
		ms = ms[:1]
		ds = []*big.Int{one, big.NewInt(2), new(big.Int).Sub(n384, one)}
	}
	for _, p := range poss {
		for _, m := range ms {
			vals = append(vals, new(big.Int).Mod(new(big.Int).Lsh(big.NewInt(m), p), n384))
		}
	}
	small := []*big.Int{one, big.NewInt(2), big.NewInt(3), new(big.Int).Sub(n384, one)}
	count := 0
	for _, d := range ds {
		k := ecdsatest.PrivateKeyOn(p384, d)
		tab := mustTable(t, &k.PublicKey)
		try := func(u1, u2 *big.Int) {
			c, ok := ecdsatest.CraftOn(p384, d, u1, u2)
			if !ok {
				return
			}
			agree384(t, c.Key, tab, c.Digest, ecdsatest.EncodeDER(c.R, c.S), true)
			if count%4 == 0 {
				agreeRaw384(t, c.Key, tab, c.Digest, c.R, c.S, true)
				s1 := new(big.Int).Add(c.S, one)
				agreeRaw384(t, c.Key, tab, c.Digest, c.R, s1, ecdsa.Verify(c.Key, c.Digest, c.R, s1))
			}
			count++
		}
		for _, v := range vals {
			try(big.NewInt(0), v)             // u1 = 0
			try(v, one)                       // u2 = 1: Q = dG added to u1·G
			try(v, new(big.Int).Sub(n384, v)) // u2 = −u1
			try(v, v)                         // u2 = u1
		}
		for _, a := range small {
			for _, b := range small {
				try(a, b) // with keys ±1, ±2, 3: sums through ±G, 2G, 0
			}
		}
	}
	if count < 100 {
		t.Fatalf("only %d crafted signatures", count)
	}
}

// TestLargeXP384 takes the r + n < p branch: the key R has x(R) ≥ n, the
// digest is zero and s = r, so u1 = 0, u2 = 1 and the sum is R, whose x
// reduced mod n is r = x(R) − n.
func TestLargeXP384(t *testing.T) {
	x, y := ecdsatest.LargeXOn(p384)
	pub := &ecdsa.PublicKey{Curve: p384, X: x, Y: y}
	tab := mustTable(t, pub)
	r := new(big.Int).Sub(x, n384)
	zero := make([]byte, 48)
	agreeRaw384(t, pub, tab, zero, r, r, true)
	agree384(t, pub, tab, zero, ecdsatest.EncodeDER(r, r), true)
	agreeRaw384(t, pub, tab, zero, new(big.Int).Add(r, big.NewInt(1)), r, false)
	// r = x(R) itself is ≥ n: out of range.
	agreeRaw384(t, pub, tab, zero, x, r, false)
	// A digest of n (≡ 0) gives the same weights.
	agreeRaw384(t, pub, tab, n384.Bytes(), r, r, true)
}

// TestRangesP384 refuses r or s = 0, n, n+1, 2^384−1, r + n, s + n, and
// DER with trailing or missing bytes; and accepts the valid signature with
// leading zeros in Verify's arguments.
func TestRangesP384(t *testing.T) {
	k := keys384(t, 1)[3]
	pub := &k.priv.PublicKey
	digest := sha512.Sum384([]byte("ranges"))
	r, s, err := ecdsa.Sign(rand.Reader, k.priv, digest[:])
	if err != nil {
		t.Fatal(err)
	}
	agreeRaw384(t, pub, k.tab, digest[:], r, s, true)
	one := big.NewInt(1)
	for _, bad := range []*big.Int{big.NewInt(0), n384, new(big.Int).Add(n384, one), max384,
		new(big.Int).Lsh(one, 384), new(big.Int).Lsh(one, 400)} {
		agreeRaw384(t, pub, k.tab, digest[:], bad, s, false)
		agreeRaw384(t, pub, k.tab, digest[:], r, bad, false)
		agree384(t, pub, k.tab, digest[:], ecdsatest.EncodeDER(bad, s), false)
		agree384(t, pub, k.tab, digest[:], ecdsatest.EncodeDER(r, bad), false)
	}
	agreeRaw384(t, pub, k.tab, digest[:], new(big.Int).Add(r, n384), s, false)
	agreeRaw384(t, pub, k.tab, digest[:], r, new(big.Int).Add(s, n384), false)
	// n − s is the other valid signature.
	agreeRaw384(t, pub, k.tab, digest[:], r, new(big.Int).Sub(n384, s), true)
	padded := append(make([]byte, 7), r.Bytes()...)
	if !k.tab.Verify(digest[:], padded, s.Bytes()) || !verify.Verify(pub, digest[:], padded, s.Bytes()) {
		t.Error("leading zeros refused")
	}
	sig := ecdsatest.EncodeDER(r, s)
	agree384(t, pub, k.tab, digest[:], sig, true)
	agree384(t, pub, k.tab, digest[:], append(bytes.Clone(sig), 0), false)
	for i := 0; i < len(sig); i++ {
		agree384(t, pub, k.tab, digest[:], sig[:i], false)
	}
}

// TestDigestLengthsP384 signs digests of every length from 0 to 80 bytes
// (bits2int keeps the leftmost 384 bits) and checks them and their
// one-byte extensions.
func TestDigestLengthsP384(t *testing.T) {
	k := keys384(t, 1)[3]
	pub := &k.priv.PublicKey
	for n := 0; n <= 80; n++ {
		d := bytes.Repeat([]byte{byte(0xa5 ^ n)}, n)
		sig, err := ecdsa.SignASN1(rand.Reader, k.priv, d)
		if err != nil {
			t.Fatal(err)
		}
		agree384(t, pub, k.tab, d, sig, true)
		ext := append(bytes.Clone(d), 1)
		agree384(t, pub, k.tab, ext, sig, ecdsa.VerifyASN1(pub, ext, sig))
	}
}

// TestVerifyInverseP384 checks that the check with a known s⁻¹ (P-256
// only, package sign's) refuses everything on a P-384 table.
func TestVerifyInverseP384(t *testing.T) {
	k := keys384(t, 1)[0] // d = 1
	var r, s, w [32]byte
	r[31], s[31], w[31] = 1, 1, 1
	if k.tab.VerifyInverse(make([]byte, 32), &r, &s, &w) {
		t.Fatal("VerifyInverse accepted on a P-384 table")
	}
}

// TestAllocationsP384: no allocations on either P-384 path.
func TestAllocationsP384(t *testing.T) {
	k := keys384(t, 1)[3]
	pub := &k.priv.PublicKey
	digest := sha512.Sum384([]byte("allocs"))
	sig, _ := ecdsa.SignASN1(rand.Reader, k.priv, digest[:])
	r, s, _ := ecdsa.Sign(rand.Reader, k.priv, digest[:])
	rb, sb := r.Bytes(), s.Bytes()
	for name, f := range map[string]func() bool{
		"Table.VerifyASN1":  func() bool { return k.tab.VerifyASN1(digest[:], sig) },
		"Table.Verify":      func() bool { return k.tab.Verify(digest[:], rb, sb) },
		"verify.VerifyASN1": func() bool { return verify.VerifyASN1(pub, digest[:], sig) },
		"verify.Verify":     func() bool { return verify.Verify(pub, digest[:], rb, sb) },
	} {
		if !f() {
			t.Fatalf("%s refused a valid signature", name)
		}
		if a := testing.AllocsPerRun(20, func() { f() }); a != 0 {
			t.Errorf("%s: %v allocations", name, a)
		}
	}
}

// TestConcurrentP384 verifies with one P-384 table from several goroutines
// (run under -race in CI).
func TestConcurrentP384(t *testing.T) {
	k := keys384(t, 1)[3]
	digest := sha512.Sum384([]byte("concurrent"))
	sig, _ := ecdsa.SignASN1(rand.Reader, k.priv, digest[:])
	bad := bytes.Clone(sig)
	bad[len(bad)-1] ^= 1
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 10; i++ {
				if !k.tab.VerifyASN1(digest[:], sig) || k.tab.VerifyASN1(digest[:], bad) {
					errs <- "wrong answer under concurrency"
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
}

// FuzzVerifyASN1P384: the table, the ordinary path and crypto/ecdsa agree
// on every P-384 input.
func FuzzVerifyASN1P384(f *testing.F) {
	k, _ := ecdsa.GenerateKey(p384, rand.Reader)
	tab, err := keytable.New(&k.PublicKey)
	if err != nil {
		f.Fatal(err)
	}
	digest := sha512.Sum384([]byte("fuzz"))
	sig, _ := ecdsa.SignASN1(rand.Reader, k, digest[:])
	f.Add(digest[:], sig)
	f.Add([]byte{}, sig)
	f.Fuzz(func(t *testing.T, digest, sig []byte) {
		agree384(t, &k.PublicKey, tab, digest, sig, ecdsa.VerifyASN1(&k.PublicKey, digest, sig))
	})
}

func asn1Unmarshal(b []byte, v any) ([]byte, error) { return asn1.Unmarshal(b, v) }
