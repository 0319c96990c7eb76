package keytable_test

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/sha512"
	"errors"
	"math/big"
	mrand "math/rand/v2"
	"os"
	"sync"
	"testing"

	"github.com/p256tls/p256tls/internal/ecdsatest"
	"github.com/p256tls/p256tls/keytable"
	"github.com/p256tls/p256tls/verify"
)

var nBig = ecdsatest.N

// agree checks that the table, ordinary verification and crypto/ecdsa all
// give want for the DER signature sig (and for its raw form when it parses).
func agree(t testing.TB, pub *ecdsa.PublicKey, tab *keytable.Table, digest, sig []byte, want bool) {
	t.Helper()
	std := ecdsa.VerifyASN1(pub, digest, sig)
	got := tab.VerifyASN1(digest, sig)
	ord := verify.VerifyASN1(pub, digest, sig)
	large := largeFor(t, pub).VerifyASN1(digest, sig)
	if std != want || got != want || ord != want || large != want {
		t.Fatalf("digest %x sig %x: want %v; crypto/ecdsa %v, table %v, ordinary %v, large table %v", digest, sig, want, std, got, ord, large)
	}
}

// largeTables caches a NewLarge table per public key (by pointer), so that
// every check of agree and agreeRaw also runs on a width-7 table.
var largeTables sync.Map

func largeFor(t testing.TB, pub *ecdsa.PublicKey) *keytable.Table {
	t.Helper()
	if v, ok := largeTables.Load(pub); ok {
		return v.(*keytable.Table)
	}
	tab, err := keytable.NewLarge(pub)
	if err != nil {
		t.Fatal(err)
	}
	largeTables.Store(pub, tab)
	return tab
}

// agreeRaw does the same for (r, s) as 32-byte values.
func agreeRaw(t testing.TB, pub *ecdsa.PublicKey, tab *keytable.Table, digest []byte, r, s *big.Int, want bool) {
	t.Helper()
	std := ecdsa.Verify(pub, digest, r, s)
	var rb, sb [32]byte
	if r.Sign() < 0 || s.Sign() < 0 || r.BitLen() > 256 || s.BitLen() > 256 {
		t.Fatal("agreeRaw: r or s does not fit 32 bytes")
	}
	r.FillBytes(rb[:])
	s.FillBytes(sb[:])
	got := tab.Verify(digest, rb[:], sb[:])
	ord := verify.Verify(pub, digest, rb[:], sb[:])
	// VerifyInverse with s's true inverse (any value when s has none: it
	// must refuse such an s whatever it is given).
	var wb [32]byte
	if s.Sign() > 0 && s.Cmp(nBig) < 0 {
		new(big.Int).ModInverse(s, nBig).FillBytes(wb[:])
	} else {
		wb[31] = 1
	}
	inv := tab.VerifyInverse(digest, &rb, &sb, &wb)
	lt := largeFor(t, pub)
	large, largeInv := lt.Verify(digest, rb[:], sb[:]), lt.VerifyInverse(digest, &rb, &sb, &wb)
	if std != want || got != want || ord != want || inv != want || large != want || largeInv != want {
		t.Fatalf("digest %x r %x s %x: want %v; crypto/ecdsa %v, table %v, ordinary %v, table with s⁻¹ %v, large table %v, %v", digest, r, s, want, std, got, ord, inv, large, largeInv)
	}
}

// TestVerifyInverseRefusesWrongInverses gives VerifyInverse a valid
// signature with everything but s⁻¹: s⁻¹ ± 1, −s⁻¹ (the inverse of n − s,
// which is the other valid signature's), the inverse of another s, 0, 1, n,
// n − 1 and 2^256 − 1. Only the true inverse is accepted.
func TestVerifyInverseRefusesWrongInverses(t *testing.T) {
	k := testKeys(t, 1)[3]
	digest := sha256.Sum256([]byte("inverse"))
	r, s, err := ecdsa.Sign(rand.Reader, k.priv, digest[:])
	if err != nil {
		t.Fatal(err)
	}
	var rb, sb [32]byte
	r.FillBytes(rb[:])
	s.FillBytes(sb[:])
	w := new(big.Int).ModInverse(s, nBig)
	mod := func(x *big.Int) *big.Int { return x.Mod(x, nBig) }
	other := new(big.Int).ModInverse(new(big.Int).Add(s, big.NewInt(1)), nBig)
	max := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
	wrong := []*big.Int{
		mod(new(big.Int).Add(w, big.NewInt(1))), mod(new(big.Int).Sub(w, big.NewInt(1))),
		mod(new(big.Int).Neg(w)), other, big.NewInt(0), big.NewInt(1), nBig,
		new(big.Int).Sub(nBig, big.NewInt(1)), max,
	}
	for _, x := range wrong {
		var wb [32]byte
		x.FillBytes(wb[:])
		if k.tab.VerifyInverse(digest[:], &rb, &sb, &wb) {
			t.Errorf("accepted s⁻¹ = %x (true inverse %x)", x, w)
		}
	}
	var wb [32]byte
	w.FillBytes(wb[:])
	if !k.tab.VerifyInverse(digest[:], &rb, &sb, &wb) {
		t.Fatal("refused the true inverse")
	}
	// The other valid signature (r, n − s) with its own inverse, −s⁻¹.
	ns := new(big.Int).Sub(nBig, s)
	var nsb, nwb [32]byte
	ns.FillBytes(nsb[:])
	mod(new(big.Int).Neg(w)).FillBytes(nwb[:])
	if !k.tab.VerifyInverse(digest[:], &rb, &nsb, &nwb) {
		t.Fatal("refused (r, n − s) with its inverse")
	}
}

func mustTable(t testing.TB, pub *ecdsa.PublicKey) *keytable.Table {
	t.Helper()
	tab, err := keytable.New(pub)
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// TestWycheproof runs every P-256 ECDSA vector of the module (DER, P1363 and
// WebCrypto files; SHA-2, SHA-3 and SHAKE128) through the table and ordinary
// paths.
func TestWycheproof(t *testing.T) {
	total := runWycheproof(t, ecdsatest.P256Files, elliptic.P256(), keytable.NewFromBytes, false)
	t.Logf("%d vectors", total)
}

// runWycheproof runs the vectors of files, all on curve, through the table
// that fromBytes builds from each group's SEC 1 key (which must equal New's
// for the parsed key, and be refused where crypto/ecdsa refuses the key),
// the ordinary path (verify) and crypto/ecdsa; every answer must be the
// vector's, crypto/ecdsa's for "acceptable" ones. With raceSkipsStd,
// crypto/ecdsa is asked under the race detector (where it is slow) only for
// the "acceptable" vectors, whose answer it decides. It returns the number
// of vectors.
func runWycheproof(t *testing.T, files []string, curve elliptic.Curve, fromBytes func([]byte) (*keytable.Table, error), raceSkipsStd bool) int {
	t.Helper()
	size := (curve.Params().BitSize + 7) / 8
	total := 0
	for _, name := range files {
		for _, g := range ecdsatest.Load(t, name) {
			if g.Curve != curve {
				t.Fatalf("%s: not a %s group", name, curve.Params().Name)
			}
			tab, err := fromBytes(g.SEC1)
			if g.Key == nil {
				if err == nil {
					t.Fatalf("%s: key %x refused by crypto/ecdsa, accepted by keytable", name, g.SEC1)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%s: key %x: %v", name, g.SEC1, err)
			}
			if tab2 := mustTable(t, g.Key); !tab2.PublicKey().Equal(tab.PublicKey()) {
				t.Fatalf("%s: New and NewFromBytes disagree", name)
			}
			for _, v := range g.Tests {
				digest := g.Digest(v.Msg)
				want := v.Result == "valid"
				askStd := !raceSkipsStd || !raceEnabled || v.Result == "acceptable"
				var got, ord bool
				std := want
				if g.P1363 {
					if r, s, ok := ecdsatest.SplitP1363(v.Sig, size); ok {
						got = tab.Verify(digest, r, s)
						ord = verify.Verify(g.Key, digest, r, s)
						if askStd {
							std = ecdsa.Verify(g.Key, digest, new(big.Int).SetBytes(r), new(big.Int).SetBytes(s))
						}
					} else if askStd {
						std = false
					}
				} else {
					got = tab.VerifyASN1(digest, v.Sig)
					ord = verify.VerifyASN1(g.Key, digest, v.Sig)
					if askStd {
						std = ecdsa.VerifyASN1(g.Key, digest, v.Sig)
					}
				}
				if v.Result == "acceptable" {
					want = std
				}
				if got != want || ord != want || std != want {
					t.Errorf("%s #%d (%s): want %v (%s); table %v, ordinary %v, crypto/ecdsa %v",
						name, v.ID, v.Comment, want, v.Result, got, ord, std)
				}
				total++
			}
		}
	}
	return total
}

// triple is one (key, digest, signature) case of the differential test.
type keyed struct {
	priv *ecdsa.PrivateKey
	tab  *keytable.Table
}

func testKeys(t testing.TB, random int) []keyed {
	var ks []keyed
	for _, d := range []*big.Int{big.NewInt(1), big.NewInt(2), new(big.Int).Sub(nBig, big.NewInt(1))} {
		k := ecdsatest.PrivateKey(d)
		ks = append(ks, keyed{k, mustTable(t, &k.PublicKey)})
	}
	for i := 0; i < random; i++ {
		k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		ks = append(ks, keyed{k, mustTable(t, &k.PublicKey)})
	}
	return ks
}

// A testCurve is what the curve-independent random tests (differential,
// bitFlips) need of a curve: its test keys with tables, its agreement
// checks (all the verifiers of that curve), its random digests, the hash
// of the bit-flip signatures, and n.
type testCurve struct {
	keys     func(t testing.TB, random int) []keyed
	agree    func(t testing.TB, pub *ecdsa.PublicKey, tab *keytable.Table, digest, sig []byte, want bool)
	agreeRaw func(t testing.TB, pub *ecdsa.PublicKey, tab *keytable.Table, digest []byte, r, s *big.Int, want bool)
	digest   func(r *mrand.Rand) []byte
	hash     func(msg []byte) []byte
	n        *big.Int
	random   int    // random keys besides 1, 2 and n−1 in differential
	stream   uint64 // differential's PCG stream
}

var (
	curveP256 = testCurve{testKeys, agree, agreeRaw, digest256,
		func(msg []byte) []byte { h := sha256.Sum256(msg); return h[:] }, nBig, 8, 99}
	curveP384 = testCurve{keys384, agree384, agreeRaw384, digest384,
		func(msg []byte) []byte { h := sha512.Sum384(msg); return h[:] }, n384, 6, 384}
)

// digest256 returns a random digest: SHA-256, SHA-384, SHA-512, random
// bytes of length 0 to 69, or a SHA-256 cut to 20 to 31 bytes.
func digest256(r *mrand.Rand) []byte {
	msg := make([]byte, 16)
	for j := range msg {
		msg[j] = byte(r.Uint32())
	}
	switch r.IntN(5) {
	case 0:
		h := sha256.Sum256(msg)
		return h[:]
	case 1:
		h := sha512.Sum384(msg)
		return h[:]
	case 2:
		h := sha512.Sum512(msg)
		return h[:]
	case 3:
		d := make([]byte, r.IntN(70))
		for j := range d {
			d[j] = byte(r.Uint32())
		}
		return d
	}
	h := sha256.Sum256(msg)
	return h[:20+r.IntN(12)]
}

// differential runs count random cases on curve c: valid signatures over
// c's random digests, and their corruptions (a bit of the signature, of the
// digest, another key, random r and s), comparing c's verifiers (the
// table, ordinary verification, crypto/ecdsa, and circl for P-384).
func differential(t testing.TB, c testCurve, count int, seed uint64) {
	r := mrand.New(mrand.NewPCG(seed, c.stream))
	ks := c.keys(t, c.random)
	for i := 0; i < count; i++ {
		k := ks[r.IntN(len(ks))]
		pub := &k.priv.PublicKey
		digest := c.digest(r)
		sig, err := ecdsa.SignASN1(rand.Reader, k.priv, digest)
		if err != nil {
			t.Fatal(err)
		}
		switch r.IntN(6) {
		case 0, 1:
			c.agree(t, pub, k.tab, digest, sig, true)
		case 2:
			sig[r.IntN(len(sig))] ^= byte(1 << r.IntN(8))
			c.agree(t, pub, k.tab, digest, sig, ecdsa.VerifyASN1(pub, digest, sig))
		case 3:
			if len(digest) == 0 {
				digest = []byte{0}
			}
			digest[r.IntN(len(digest))] ^= byte(1 << r.IntN(8))
			c.agree(t, pub, k.tab, digest, sig, ecdsa.VerifyASN1(pub, digest, sig))
		case 4:
			// Another key: refused, except for the same key and for keys ±d
			// with a digest that is 0 mod n (u1 = 0, and x(u2·Q) = x(−u2·Q)),
			// so crypto/ecdsa's answer is the reference.
			o := ks[r.IntN(len(ks))]
			c.agree(t, &o.priv.PublicKey, o.tab, digest, sig, ecdsa.VerifyASN1(&o.priv.PublicKey, digest, sig))
		case 5:
			rr := new(big.Int).Rand(mr(r), c.n)
			ss := new(big.Int).Rand(mr(r), c.n)
			c.agreeRaw(t, pub, k.tab, digest, rr, ss, ecdsa.Verify(pub, digest, rr, ss))
		}
	}
}

// TestDifferential compares each curve's verifiers on a few thousand random
// cases (fewer under -short and -race): P-256 3000 (1000, 300), P-384 2000
// (500, 60).
func TestDifferential(t *testing.T) {
	for _, c := range []struct {
		name             string
		curve            testCurve
		full, short, rac int
	}{
		{"P-256", curveP256, 3000, 1000, 300},
		{"P-384", curveP384, 2000, 500, 60},
	} {
		t.Run(c.name, func(t *testing.T) {
			n := c.full
			if testing.Short() {
				n = c.short
			}
			if raceEnabled {
				n = c.rac
			}
			differential(t, c.curve, n, 1)
		})
	}
}

// TestDifferentialLong runs 200,000 cases and the bit flips of 50
// signatures on each curve. It is opt-in: it runs only when the environment
// sets P256TLS_LONG=1, and never under -short.
func TestDifferentialLong(t *testing.T) {
	if testing.Short() || os.Getenv("P256TLS_LONG") != "1" {
		t.Skip("skipping the 200,000-case differential tests: set P256TLS_LONG=1 (and do not pass -short) to run them")
	}
	for _, c := range []struct {
		name  string
		curve testCurve
	}{{"P-256", curveP256}, {"P-384", curveP384}} {
		t.Run(c.name, func(t *testing.T) {
			differential(t, c.curve, 200000, 2)
			bitFlips(t, c.curve, 50)
		})
	}
}

// bitFlips checks that every single-bit flip of count valid signatures on
// curve c (DER, and r and s over n's bit length) is refused by all of c's
// verifiers.
func bitFlips(t testing.TB, c testCurve, count int) {
	ks := c.keys(t, 2)
	for i := 0; i < count; i++ {
		k := ks[i%len(ks)]
		pub := &k.priv.PublicKey
		digest := c.hash([]byte{byte(i), byte(i >> 8)})
		sig, err := ecdsa.SignASN1(rand.Reader, k.priv, digest)
		if err != nil {
			t.Fatal(err)
		}
		c.agree(t, pub, k.tab, digest, sig, true)
		for bit := 0; bit < 8*len(sig); bit++ {
			sig[bit/8] ^= 1 << (bit % 8)
			c.agree(t, pub, k.tab, digest, sig, false)
			sig[bit/8] ^= 1 << (bit % 8)
		}
		r, s, err := ecdsa.Sign(rand.Reader, k.priv, digest)
		if err != nil {
			t.Fatal(err)
		}
		for bit := 0; bit < c.n.BitLen(); bit++ {
			rf := new(big.Int).Xor(r, new(big.Int).Lsh(big.NewInt(1), uint(bit)))
			sf := new(big.Int).Xor(s, new(big.Int).Lsh(big.NewInt(1), uint(bit)))
			c.agreeRaw(t, pub, k.tab, digest, rf, s, false)
			c.agreeRaw(t, pub, k.tab, digest, r, sf, false)
		}
	}
}

// TestBitFlips runs bitFlips on 3 P-256 and 2 P-384 signatures (1 each
// under -race; 1 P-384 one under -short).
func TestBitFlips(t *testing.T) {
	t.Run("P-256", func(t *testing.T) {
		n := 3
		if raceEnabled {
			n = 1
		}
		bitFlips(t, curveP256, n)
	})
	t.Run("P-384", func(t *testing.T) {
		n := 2
		if testing.Short() || raceEnabled {
			n = 1
		}
		bitFlips(t, curveP384, n)
	})
}

type randSource struct{ r *mrand.Rand }

func (s randSource) Int63() int64 { return int64(s.r.Uint64() >> 1) }
func (s randSource) Seed(int64)   {}

func mr(r *mrand.Rand) *randV1 { return newRandV1(randSource{r}) }

// TestCrafted uses signatures built from known private keys so that u1 and
// u2 take chosen values: u1 = 0, digits at the run boundaries (positions
// 17k − 1 and 17k of the shipped 16×17 split, and 64, 65, 129, 130, 194,
// 195 of a 4×65 split) where the chain meets equal and opposite points and
// the point at infinity, with keys 1, 2, 3, n−1, n−2.
func TestCrafted(t *testing.T) {
	ds := []*big.Int{big.NewInt(1), big.NewInt(2), big.NewInt(3),
		new(big.Int).Sub(nBig, big.NewInt(1)), new(big.Int).Sub(nBig, big.NewInt(2))}
	poss := []uint{0, 16, 17, 33, 34, 50, 51, 63, 64, 65, 66, 67, 68, 118, 119, 128, 129, 130, 131,
		135, 136, 193, 194, 195, 196, 203, 204, 254, 255, 256}
	at := func(m int64, pos uint) *big.Int {
		v := new(big.Int).Lsh(big.NewInt(m), pos)
		return v.Mod(v, nBig)
	}
	type pair struct{ u1, u2 *big.Int }
	var pairs []pair
	special := []*big.Int{big.NewInt(0), big.NewInt(1), new(big.Int).Sub(nBig, big.NewInt(1))}
	for _, a := range special {
		for _, b := range special[1:] {
			pairs = append(pairs, pair{a, b})
		}
	}
	for i, p1 := range poss {
		for j := i - 1; j <= i+1; j++ {
			if j < 0 || j >= len(poss) {
				continue
			}
			for _, m1 := range []int64{1, 63} {
				for _, m2 := range []int64{1, 3, 65} {
					pairs = append(pairs, pair{at(m1, p1), at(m2, poss[j])})
				}
			}
		}
		pairs = append(pairs, pair{big.NewInt(0), at(1, p1)}, pair{at(1, p1), big.NewInt(1)})
	}
	crafted := 0
	for _, d := range ds {
		tab := mustTable(t, &ecdsatest.PrivateKey(d).PublicKey)
		for i, p := range pairs {
			c, ok := ecdsatest.Craft(d, p.u1, p.u2)
			if !ok {
				continue
			}
			crafted++
			agree(t, c.Key, tab, c.Digest, ecdsatest.EncodeDER(c.R, c.S), true)
			if i%4 == 0 {
				agreeRaw(t, c.Key, tab, c.Digest, c.R, c.S, true)
				// The same signature with s moved by one must fail.
				if s2 := new(big.Int).Add(c.S, big.NewInt(1)); s2.Cmp(nBig) < 0 {
					agreeRaw(t, c.Key, tab, c.Digest, c.R, s2, false)
				}
			}
		}
	}
	t.Logf("%d crafted signatures", crafted)
}

// TestLargeX covers the branch x(R) ≥ n (r + n < p): the key is a point R
// whose x-coordinate is at least n, the digest is zero and s = r, so that
// u1 = 0, u2 = 1 and the chain ends at R with X/Z² = r + n.
func TestLargeX(t *testing.T) {
	x, y := ecdsatest.LargeX()
	enc := make([]byte, 65)
	enc[0] = 4
	x.FillBytes(enc[1:33])
	y.FillBytes(enc[33:])
	pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), enc)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := keytable.NewFromBytes(enc)
	if err != nil {
		t.Fatal(err)
	}
	r := new(big.Int).Sub(x, nBig)
	zero := make([]byte, 32)
	agree(t, pub, tab, zero, ecdsatest.EncodeDER(r, r), true)
	agreeRaw(t, pub, tab, zero, r, r, true)
	// r + 1 and r − 1 must fail; so must r = x itself (≥ n).
	agreeRaw(t, pub, tab, zero, new(big.Int).Add(r, big.NewInt(1)), r, false)
	agreeRaw(t, pub, tab, zero, new(big.Int).Sub(r, big.NewInt(1)), r, false)
	agreeRaw(t, pub, tab, zero, x, r, false)
	// With u2 = 3: s = r/3, the chain ends at 3R, an ordinary point.
	three := new(big.Int).ModInverse(big.NewInt(3), nBig)
	s := three.Mul(three, r).Mod(three, nBig)
	agreeRaw(t, pub, tab, zero, r, s, false)
}

// TestRanges refuses r or s equal to 0, n, n+1 and 2^256 − 1, in DER and raw
// form.
func TestRanges(t *testing.T) {
	k := testKeys(t, 1)[3]
	digest := sha256.Sum256([]byte("ranges"))
	r, s, err := ecdsa.Sign(rand.Reader, k.priv, digest[:])
	if err != nil {
		t.Fatal(err)
	}
	max := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
	bad := []*big.Int{big.NewInt(0), nBig, new(big.Int).Add(nBig, big.NewInt(1)), max,
		new(big.Int).Add(r, nBig), new(big.Int).Add(s, nBig)}
	for _, b := range bad {
		for _, sig := range [][2]*big.Int{{b, s}, {r, b}, {b, b}} {
			agree(t, &k.priv.PublicKey, k.tab, digest[:], ecdsatest.EncodeDER(sig[0], sig[1]), false)
			if sig[0].BitLen() <= 256 && sig[1].BitLen() <= 256 {
				agreeRaw(t, &k.priv.PublicKey, k.tab, digest[:], sig[0], sig[1], false)
			}
		}
	}
	// n − s gives the other valid signature; both are accepted.
	agreeRaw(t, &k.priv.PublicKey, k.tab, digest[:], r, new(big.Int).Sub(nBig, s), true)
	// Negative and padded DER integers are refused.
	der := ecdsatest.EncodeDER(r, s)
	agree(t, &k.priv.PublicKey, k.tab, digest[:], append(bytes.Clone(der), 0), false)
	agree(t, &k.priv.PublicKey, k.tab, digest[:], der[:len(der)-1], false)
}

// TestDigests gives SHA-256, SHA-384 and SHA-512 digests (TLS 1.2) and short
// ones, and checks the answers are crypto/ecdsa's.
func TestDigests(t *testing.T) {
	k := testKeys(t, 1)[3]
	for _, h := range []crypto.Hash{crypto.SHA256, crypto.SHA384, crypto.SHA512} {
		digest := ecdsatest.Digest(h, []byte("message"))
		sig, err := ecdsa.SignASN1(rand.Reader, k.priv, digest)
		if err != nil {
			t.Fatal(err)
		}
		agree(t, &k.priv.PublicKey, k.tab, digest, sig, true)
		// Bytes past the 32nd do not count (bits2int truncation).
		d2 := bytes.Clone(digest)
		if len(d2) > 32 {
			d2[len(d2)-1] ^= 0xff
			agree(t, &k.priv.PublicKey, k.tab, d2, sig, true)
		}
		d2 = bytes.Clone(digest)
		d2[31] ^= 1
		agree(t, &k.priv.PublicKey, k.tab, d2, sig, false)
	}
	for _, l := range []int{0, 1, 20, 31} {
		digest := bytes.Repeat([]byte{0xa5}, l)
		sig, err := ecdsa.SignASN1(rand.Reader, k.priv, digest)
		if err != nil {
			t.Fatal(err)
		}
		agree(t, &k.priv.PublicKey, k.tab, digest, sig, true)
	}
}

func TestConstructorErrors(t *testing.T) {
	k384, _ := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	k521, _ := ecdsa.GenerateKey(elliptic.P521(), rand.Reader)
	k224, _ := ecdsa.GenerateKey(elliptic.P224(), rand.Reader)
	k256, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	p384 := elliptic.P384().Params().P
	for _, c := range []struct {
		pub  *ecdsa.PublicKey
		want error
	}{
		{nil, keytable.ErrNilKey},
		{&k521.PublicKey, keytable.ErrCurve},
		{&k224.PublicKey, keytable.ErrCurve},
		{&ecdsa.PublicKey{Curve: elliptic.P384(), X: big.NewInt(0), Y: big.NewInt(0)}, keytable.ErrInfinity},
		{&ecdsa.PublicKey{Curve: elliptic.P384(), X: k384.X, Y: new(big.Int).Add(k384.Y, big.NewInt(1))}, keytable.ErrNotOnCurve},
		{&ecdsa.PublicKey{Curve: elliptic.P384(), X: k384.X, Y: new(big.Int).Add(k384.Y, p384)}, keytable.ErrNotOnCurve},
		{&ecdsa.PublicKey{Curve: elliptic.P384(), X: new(big.Int).Neg(k384.X), Y: k384.Y}, keytable.ErrNotOnCurve},
		{&ecdsa.PublicKey{Curve: elliptic.P384(), X: k384.X, Y: new(big.Int).Lsh(big.NewInt(1), 384)}, keytable.ErrNotOnCurve},
		{&ecdsa.PublicKey{Curve: elliptic.P384()}, keytable.ErrNotOnCurve},
		{&ecdsa.PublicKey{Curve: elliptic.P256(), X: k384.X, Y: k384.Y}, keytable.ErrNotOnCurve},
		{&ecdsa.PublicKey{Curve: elliptic.P256(), X: big.NewInt(0), Y: big.NewInt(0)}, keytable.ErrInfinity},
		{&ecdsa.PublicKey{Curve: elliptic.P256(), X: k256.X, Y: new(big.Int).Add(k256.Y, big.NewInt(1))}, keytable.ErrNotOnCurve},
		{&ecdsa.PublicKey{Curve: elliptic.P256(), X: k256.X, Y: new(big.Int).Add(k256.Y, elliptic.P256().Params().P)}, keytable.ErrNotOnCurve},
		{&ecdsa.PublicKey{Curve: elliptic.P256(), X: new(big.Int).Neg(k256.X), Y: k256.Y}, keytable.ErrNotOnCurve},
		{&ecdsa.PublicKey{Curve: elliptic.P256()}, keytable.ErrNotOnCurve},
	} {
		_, err := keytable.New(c.pub)
		if !errors.Is(err, c.want) || !errors.Is(err, keytable.ErrInvalidKey) {
			t.Errorf("New: got %v, want %v wrapped in ErrInvalidKey", err, c.want)
		}
		if want := "keytable: invalid public key: " + c.want.Error(); err == nil || err.Error() != want {
			t.Errorf("New: message %q, want %q", err, want)
		}
		if _, err := keytable.NewLarge(c.pub); !errors.Is(err, c.want) {
			t.Errorf("NewLarge: got %v, want %v", err, c.want)
		}
	}
	enc, _ := k256.PublicKey.Bytes()
	for _, c := range []struct {
		b    []byte
		want error
	}{
		{nil, keytable.ErrEncoding}, {[]byte{0}, keytable.ErrInfinity}, {enc[:64], keytable.ErrEncoding},
		{append([]byte{5}, enc[1:]...), keytable.ErrEncoding},
		{append(bytes.Clone(enc[:64]), enc[64]^1), keytable.ErrNotOnCurve},
		// x = p: a coordinate out of range is a point not on the curve.
		{append(append([]byte{4}, elliptic.P256().Params().P.FillBytes(make([]byte, 32))...), enc[33:]...), keytable.ErrNotOnCurve},
	} {
		if _, err := keytable.NewFromBytes(c.b); !errors.Is(err, c.want) {
			t.Errorf("NewFromBytes(%x): got %v, want %v", c.b, err, c.want)
		}
	}
	// Compressed encodings are accepted.
	x := k256.PublicKey
	comp := elliptic.MarshalCompressed(elliptic.P256(), x.X, x.Y)
	tab, err := keytable.NewFromBytes(comp)
	if err != nil || !tab.PublicKey().Equal(&k256.PublicKey) {
		t.Errorf("compressed key: %v", err)
	}

	enc384, _ := k384.PublicKey.Bytes()
	for _, c := range []struct {
		b    []byte
		want error
	}{
		{nil, keytable.ErrEncoding}, {[]byte{0}, keytable.ErrInfinity}, {enc384[:96], keytable.ErrEncoding},
		{enc, keytable.ErrEncoding}, // a P-256 encoding
		{append([]byte{5}, enc384[1:]...), keytable.ErrEncoding},
		{append(bytes.Clone(enc384[:96]), enc384[96]^1), keytable.ErrNotOnCurve},
		{append(append([]byte{4}, elliptic.P384().Params().P.FillBytes(make([]byte, 48))...), enc384[49:]...), keytable.ErrNotOnCurve},
	} {
		if _, err := keytable.NewFromBytes384(c.b); !errors.Is(err, c.want) {
			t.Errorf("NewFromBytes384(%x): got %v, want %v", c.b, err, c.want)
		}
	}
	comp384 := elliptic.MarshalCompressed(elliptic.P384(), k384.X, k384.Y)
	tab, err = keytable.NewFromBytes384(comp384)
	if err != nil || !tab.PublicKey().Equal(&k384.PublicKey) {
		t.Errorf("compressed P-384 key: %v", err)
	}
	tab, err = keytable.New(&k384.PublicKey)
	if err != nil || !tab.PublicKey().Equal(&k384.PublicKey) || tab.Points() != 160 {
		t.Errorf("P-384 key: %v", err)
	}
}

func TestPublicKey(t *testing.T) {
	k := testKeys(t, 1)[3]
	if !k.tab.PublicKey().Equal(&k.priv.PublicKey) {
		t.Fatal("PublicKey differs from the key the table was built from")
	}
}

// TestConcurrent verifies with one table from many goroutines (run with
// -race in CI).
func TestConcurrent(t *testing.T) {
	k := testKeys(t, 1)[3]
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				digest := sha256.Sum256([]byte{byte(g), byte(i)})
				sig, err := ecdsa.SignASN1(rand.Reader, k.priv, digest[:])
				if err != nil {
					t.Error(err)
					return
				}
				if !k.tab.VerifyASN1(digest[:], sig) {
					t.Error("valid signature refused")
				}
				digest[0] ^= 1
				if k.tab.VerifyASN1(digest[:], sig) {
					t.Error("invalid signature accepted")
				}
			}
		}()
	}
	wg.Wait()
}

// signatures returns the SHA-256 digest of msg and two signatures of it by
// k: one DER-encoded, the other as 32-byte big-endian r, s and s⁻¹ mod n.
func signatures(k *ecdsa.PrivateKey, msg string) (digest [32]byte, sig []byte, rb, sb, wb [32]byte) {
	digest = sha256.Sum256([]byte(msg))
	sig, _ = ecdsa.SignASN1(rand.Reader, k, digest[:])
	r, s, _ := ecdsa.Sign(rand.Reader, k, digest[:])
	r.FillBytes(rb[:])
	s.FillBytes(sb[:])
	new(big.Int).ModInverse(s, nBig).FillBytes(wb[:])
	return
}

func TestAllocations(t *testing.T) {
	k := testKeys(t, 1)[3]
	digest, sig, rb, sb, wb := signatures(k.priv, "allocs")
	for name, f := range map[string]func(){
		"Table.VerifyASN1":    func() { k.tab.VerifyASN1(digest[:], sig) },
		"Table.Verify":        func() { k.tab.Verify(digest[:], rb[:], sb[:]) },
		"Table.VerifyInverse": func() { k.tab.VerifyInverse(digest[:], &rb, &sb, &wb) },
		"large Table.VerifyInverse": func() {
			largeFor(t, &k.priv.PublicKey).VerifyInverse(digest[:], &rb, &sb, &wb)
		},
		"verify.VerifyASN1": func() { verify.VerifyASN1(&k.priv.PublicKey, digest[:], sig) },
		"verify.Verify":     func() { verify.Verify(&k.priv.PublicKey, digest[:], rb[:], sb[:]) },
	} {
		if a := testing.AllocsPerRun(20, f); a != 0 {
			t.Errorf("%s: %v allocations per call", name, a)
		}
	}
}

// fuzzKeys are the keys FuzzVerifyASN1 chooses from.
var fuzzKeys = func() []*ecdsa.PrivateKey {
	var ks []*ecdsa.PrivateKey
	for _, d := range []string{"1", "2", "c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721"} {
		v, _ := new(big.Int).SetString(d, 16)
		ks = append(ks, ecdsatest.PrivateKey(v))
	}
	return ks
}()

// FuzzVerifyASN1 checks that the table and ordinary verification agree with
// crypto/ecdsa on every input.
func FuzzVerifyASN1(f *testing.F) {
	tabs := make([]*keytable.Table, len(fuzzKeys))
	for i, k := range fuzzKeys {
		tabs[i] = mustTable(f, &k.PublicKey)
		for _, m := range []string{"", "a", "fuzz"} {
			digest := sha256.Sum256([]byte(m))
			sig, _ := ecdsa.SignASN1(rand.Reader, k, digest[:])
			f.Add(uint8(i), digest[:], sig)
		}
	}
	f.Add(uint8(0), []byte{}, []byte{0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01})
	f.Fuzz(func(t *testing.T, ki uint8, digest, sig []byte) {
		i := int(ki) % len(fuzzKeys)
		pub := &fuzzKeys[i].PublicKey
		std := ecdsa.VerifyASN1(pub, digest, sig)
		if got := tabs[i].VerifyASN1(digest, sig); got != std {
			t.Fatalf("table %v, crypto/ecdsa %v", got, std)
		}
		if got := verify.VerifyASN1(pub, digest, sig); got != std {
			t.Fatalf("ordinary %v, crypto/ecdsa %v", got, std)
		}
	})
}

// TestOppositeKeys: with a digest that is 0 mod n, u1 = 0 and u2·Q and
// u2·(−Q) share their x-coordinate, so a signature by d is also valid for
// n − d; with any other digest it is not.
func TestOppositeKeys(t *testing.T) {
	d, _ := new(big.Int).SetString("c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721", 16)
	k := ecdsatest.PrivateKey(d)
	o := ecdsatest.PrivateKey(new(big.Int).Sub(nBig, d))
	otab := mustTable(t, &o.PublicKey)
	for _, digest := range [][]byte{make([]byte, 32), nil, nBig.Bytes()} {
		sig, err := ecdsa.SignASN1(rand.Reader, k, digest)
		if err != nil {
			t.Fatal(err)
		}
		agree(t, &o.PublicKey, otab, digest, sig, true)
	}
	digest := sha256.Sum256([]byte("opposite"))
	sig, _ := ecdsa.SignASN1(rand.Reader, k, digest[:])
	agree(t, &o.PublicKey, otab, digest[:], sig, false)
}

// TestZeroTable: a Table that was never built refuses every signature
// instead of panicking.
func TestZeroTable(t *testing.T) {
	k := testKeys(t, 1)[3]
	digest, sig, rb, sb, wb := signatures(k.priv, "zero")
	var zero keytable.Table
	if zero.VerifyASN1(digest[:], sig) || zero.Verify(digest[:], rb[:], sb[:]) || zero.VerifyInverse(digest[:], &rb, &sb, &wb) {
		t.Fatal("the zero Table accepted a signature")
	}
	if zero.PublicKey() != nil {
		t.Fatal("the zero Table has a public key")
	}
}

// TestVerifyConvention: Table.Verify takes r and s as verify.Verify does:
// big-endian, of any length, leading zeros allowed, each in [1, n−1]. Each
// form gives verify.Verify's and crypto/ecdsa's answer.
func TestVerifyConvention(t *testing.T) {
	k := testKeys(t, 1)[3]
	pub := &k.priv.PublicKey
	for i := range 32 {
		digest := sha256.Sum256([]byte{byte(i)})
		r, s, err := ecdsa.Sign(rand.Reader, k.priv, digest[:])
		if err != nil {
			t.Fatal(err)
		}
		forms := map[string][2][]byte{
			"minimal":          {r.Bytes(), s.Bytes()},
			"32 bytes":         {r.FillBytes(make([]byte, 32)), s.FillBytes(make([]byte, 32))},
			"40 bytes":         {r.FillBytes(make([]byte, 40)), s.FillBytes(make([]byte, 40))},
			"r+n":              {new(big.Int).Add(r, nBig).Bytes(), s.Bytes()},
			"s+n":              {r.Bytes(), new(big.Int).Add(s, nBig).Bytes()},
			"r=0":              {nil, s.Bytes()},
			"s=0, 32 zeros":    {r.Bytes(), make([]byte, 32)},
			"n−s":              {r.Bytes(), new(big.Int).Sub(nBig, s).Bytes()},
			"r, s swapped":     {s.Bytes(), r.Bytes()},
			"33 bytes, high 1": {append([]byte{1}, r.FillBytes(make([]byte, 32))...), s.Bytes()},
		}
		for name, f := range forms {
			want := ecdsa.Verify(pub, digest[:], new(big.Int).SetBytes(f[0]), new(big.Int).SetBytes(f[1]))
			if name == "r+n" || name == "s+n" || name == "33 bytes, high 1" {
				want = false // out of [1, n−1], as crypto/ecdsa's range check says
			}
			if got, ord := k.tab.Verify(digest[:], f[0], f[1]), verify.Verify(pub, digest[:], f[0], f[1]); got != want || ord != want {
				t.Errorf("%s: Table.Verify %v, verify.Verify %v, want %v", name, got, ord, want)
			}
		}
	}
}
