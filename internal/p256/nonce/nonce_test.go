package nonce

import (
	"bytes"
	"crypto"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hmac"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/asn1"
	"encoding/hex"
	"hash"
	"math/big"
	"math/rand/v2"
	"reflect"
	"testing"
)

var nBig, _ = new(big.Int).SetString("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551", 16)

var hashes = []struct {
	name string
	h    crypto.Hash
	new  func() hash.Hash
}{
	{"SHA-1", crypto.SHA1, sha1.New},
	{"SHA-224", crypto.SHA224, sha256.New224},
	{"SHA-256", crypto.SHA256, sha256.New},
	{"SHA-384", crypto.SHA384, sha512.New384},
	{"SHA-512", crypto.SHA512, sha512.New},
}

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func digest(f func() hash.Hash, msg []byte) []byte {
	h := f()
	h.Write(msg)
	return h.Sum(nil)
}

// ---------------------------------------------------------------------------
// Reference implementation: RFC 6979 section 3.2 and the hedged variant of
// draft-irtf-cfrg-det-sigs-with-noise-05 section 4, written as plainly as
// possible on crypto/hmac and math/big, with no attempt at speed.

func refBits2Octets(h1 []byte) []byte {
	z := new(big.Int).SetBytes(h1)
	if l := len(h1) * 8; l > 256 {
		z.Rsh(z, uint(l-256))
	}
	z.Mod(z, nBig)
	return z.FillBytes(make([]byte, 32))
}

func refHMAC(f func() hash.Hash, key []byte, parts ...[]byte) []byte {
	m := hmac.New(f, key)
	for _, p := range parts {
		m.Write(p)
	}
	return m.Sum(nil)
}

// refCandidates returns the first count candidates bits2int(T) of the DRBG.
// rnd == nil selects RFC 6979, otherwise the hedged construction.
func refCandidates(f func() hash.Hash, x, h1, rnd []byte, count int) [][]byte {
	hlen, block := f().Size(), f().BlockSize()
	V := bytes.Repeat([]byte{0x01}, hlen)
	K := make([]byte, hlen)
	var provided []byte
	if rnd == nil {
		provided = append(append(provided, x...), refBits2Octets(h1)...)
	} else {
		zeros1 := make([]byte, (block-(hlen+1+len(rnd))%block)%block)
		zeros2 := make([]byte, (block-len(x)%block)%block)
		for _, p := range [][]byte{rnd, zeros1, x, zeros2, refBits2Octets(h1)} {
			provided = append(provided, p...)
		}
	}
	K = refHMAC(f, K, V, []byte{0x00}, provided)
	V = refHMAC(f, K, V)
	K = refHMAC(f, K, V, []byte{0x01}, provided)
	V = refHMAC(f, K, V)
	var out [][]byte
	for i := 0; i < count; i++ {
		if i > 0 {
			K = refHMAC(f, K, V, []byte{0x00})
			V = refHMAC(f, K, V)
		}
		var T []byte
		for len(T) < 32 {
			V = refHMAC(f, K, V)
			T = append(T, V...)
		}
		out = append(out, T[:32])
	}
	return out
}

func refValid(k []byte) bool {
	z := new(big.Int).SetBytes(k)
	return z.Sign() > 0 && z.Cmp(nBig) < 0
}

// refNonce is the first valid candidate: a naive RFC 6979 / hedged nonce.
func refNonce(f func() hash.Hash, x, h1, rnd []byte) []byte {
	for n := 1; ; n++ {
		c := refCandidates(f, x, h1, rnd, n)
		if k := c[n-1]; refValid(k) {
			return k
		}
	}
}

// ---------------------------------------------------------------------------

// RFC 6979 appendix A.2.5: P-256 with the key below, messages "sample" and
// "test".
var rfcKey = "C9AFA9D845BA75166B5C215767B1D6934E50C3DB36E89B127B8A622B120F6721"

var rfcVectors = []struct {
	h   crypto.Hash
	f   func() hash.Hash
	msg string
	k   string
}{
	{crypto.SHA1, sha1.New, "sample", "882905F1227FD620FBF2ABF21244F0BA83D0DC3A9103DBBEE43A1FB858109DB4"},
	{crypto.SHA224, sha256.New224, "sample", "103F90EE9DC52E5E7FB5132B7033C63066D194321491862059967C715985D473"},
	{crypto.SHA256, sha256.New, "sample", "A6E3C57DD01ABE90086538398355DD4C3B17AA873382B0F24D6129493D8AAD60"},
	{crypto.SHA384, sha512.New384, "sample", "09F634B188CEFD98E7EC88B1AA9852D734D0BC272F7D2A47DECC6EBEB375AAD4"},
	{crypto.SHA512, sha512.New, "sample", "5FA81C63109BADB88C1F367B47DA606DA28CAD69AA22C4FE6AD7DF73A7173AA5"},
	{crypto.SHA1, sha1.New, "test", "8C9520267C55D6B980DF741E56B4ADEE114D84FBFA2E62137954164028632A2E"},
	{crypto.SHA224, sha256.New224, "test", "669F4426F2688B8BE0DB3A6BD1989BDAEFFF84B649EEB84F3DD26080F667FAA7"},
	{crypto.SHA256, sha256.New, "test", "D16B6AE827F17175E040871A1C7EC3500192C4C92677336EC2537ACAEE0008E0"},
	{crypto.SHA384, sha512.New384, "test", "16AEFFA357260B04B1DD199693960740066C1A8F3E8EDD79070AA914D361B3B8"},
	{crypto.SHA512, sha512.New, "test", "6915D11632ACA3C40D5D51C08DAF9C555933819548784480E93499000D9F0B7F"},
}

func TestRFC6979Vectors(t *testing.T) {
	x := (*[32]byte)(unhex(t, rfcKey))
	g := New()
	for _, v := range rfcVectors {
		h1 := digest(v.f, []byte(v.msg))
		for _, rnd := range [][]byte{nil, {}} {
			if err := g.Start(v.h, x, h1, rnd); err != nil {
				t.Fatal(err)
			}
			var k [32]byte
			g.Nonce(&k)
			if want := unhex(t, v.k); !bytes.Equal(k[:], want) {
				t.Errorf("%v %q: k = %X, want %X", v.h, v.msg, k, want)
			}
		}
		// The plain reference agrees too (validates the reference).
		if got := refNonce(v.f, x[:], h1, nil); !bytes.Equal(got, unhex(t, v.k)) {
			t.Errorf("reference %v %q: k = %X", v.h, v.msg, got)
		}
	}
}

// TestAgainstReference compares several successive candidates of Next with
// the reference DRBG, over random keys, digests of various lengths
// (including ones shorter and longer than 32 bytes and ones >= n), for both
// modes and all five hashes, reusing one Generator throughout.
func TestAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	g := New()
	fill := func(b []byte) {
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
	}
	for _, hh := range hashes {
		for iter := 0; iter < 200; iter++ {
			var x [32]byte
			fill(x[:])
			if !refValid(x[:]) {
				continue
			}
			h1 := make([]byte, []int{0, 1, 20, 31, 32, 33, 48, 64, 100}[iter%9])
			fill(h1)
			if iter%17 == 0 && len(h1) >= 32 {
				copy(h1, bytes.Repeat([]byte{0xff}, 32)) // bits2int(h1) >= n
			}
			var rnd []byte
			if iter%2 == 1 {
				rnd = make([]byte, 32)
				fill(rnd)
			}
			if err := g.Start(hh.h, &x, h1, rnd); err != nil {
				t.Fatal(err)
			}
			want := refCandidates(hh.new, x[:], h1, rnd, 4)
			for i, w := range want {
				var k [32]byte
				g.Next(&k)
				if !bytes.Equal(k[:], w) {
					t.Fatalf("%s iter %d hedged=%v candidate %d: got %X, want %X",
						hh.name, iter, rnd != nil, i, k, w)
				}
			}
		}
	}
}

// sigR extracts r from an ASN.1 ECDSA signature.
func sigR(t *testing.T, sig []byte) *big.Int {
	t.Helper()
	var s struct{ R, S *big.Int }
	if _, err := asn1.Unmarshal(sig, &s); err != nil {
		t.Fatal(err)
	}
	return s.R
}

// rFromK computes r = x(kG) mod n independently with crypto/ecdh.
func rFromK(t *testing.T, k []byte) *big.Int {
	t.Helper()
	priv, err := ecdh.P256().NewPrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	r := new(big.Int).SetBytes(priv.PublicKey().Bytes()[1:33])
	return r.Mod(r, nBig)
}

// TestAgainstStdlibDeterministic checks that the nonce reproduces the r of
// crypto/ecdsa's RFC 6979 signatures.
func TestAgainstStdlibDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	g := New()
	for _, hh := range hashes {
		for i := 0; i < 10; i++ {
			var x [32]byte
			for j := range x {
				x[j] = byte(rng.Uint32())
			}
			priv, err := ecdsa.ParseRawPrivateKey(elliptic.P256(), x[:])
			if err != nil {
				continue
			}
			h1 := digest(hh.new, []byte{byte(i), byte(rng.Uint32())})
			sig, err := priv.Sign(nil, h1, hh.h)
			if err != nil {
				t.Fatal(err)
			}
			if err := g.Start(hh.h, &x, h1, nil); err != nil {
				t.Fatal(err)
			}
			var k [32]byte
			g.Nonce(&k)
			if sigR(t, sig).Cmp(rFromK(t, k[:])) != 0 {
				t.Errorf("%s: r mismatch with crypto/ecdsa", hh.name)
			}
		}
	}
}

// recorder serves random bytes and remembers them.
type recorder struct {
	rng  *rand.Rand
	seen []byte
}

func (r *recorder) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(r.rng.Uint32())
	}
	r.seen = append(r.seen, p...)
	return len(p), nil
}

// TestAgainstStdlibHedged checks the hedged construction against
// crypto/ecdsa, which implements the same construction with SHA-512 as the
// HMAC hash whatever the digest. The recorded last 32 bytes read from the
// custom reader are Z.
func TestAgainstStdlibHedged(t *testing.T) {
	t.Setenv("GODEBUG", "cryptocustomrand=1")
	rng := rand.New(rand.NewPCG(5, 6))
	g := New()
	for i := 0; i < 10; i++ {
		var x [32]byte
		for j := range x {
			x[j] = byte(rng.Uint32())
		}
		priv, err := ecdsa.ParseRawPrivateKey(elliptic.P256(), x[:])
		if err != nil {
			continue
		}
		h1 := digest(sha256.New, []byte{byte(i)})
		rec := &recorder{rng: rng}
		sig, err := ecdsa.SignASN1(rec, priv, h1)
		if err != nil {
			t.Fatal(err)
		}
		if n := len(rec.seen); n != 32 && n != 33 {
			t.Skipf("crypto/ecdsa read %d random bytes; custom reader not honored", n)
		}
		z := rec.seen[len(rec.seen)-32:]
		if err := g.Start(crypto.SHA512, &x, h1, z); err != nil {
			t.Fatal(err)
		}
		var k [32]byte
		g.Nonce(&k)
		if sigR(t, sig).Cmp(rFromK(t, k[:])) != 0 {
			t.Errorf("iteration %d: r mismatch with crypto/ecdsa hedged signature", i)
		}
	}
}

func TestHedgedProperties(t *testing.T) {
	x := (*[32]byte)(unhex(t, rfcKey))
	g := New()
	for _, hh := range hashes {
		h1 := digest(hh.new, []byte("sample"))
		nonce := func(rnd []byte) [32]byte {
			t.Helper()
			if err := g.Start(hh.h, x, h1, rnd); err != nil {
				t.Fatal(err)
			}
			var k [32]byte
			g.Nonce(&k)
			return k
		}
		r1 := bytes.Repeat([]byte{0xa5}, 32)
		r2 := bytes.Repeat([]byte{0xa5}, 32)
		r2[31] ^= 1
		zero := make([]byte, 32)
		det, a, a2, b, z := nonce(nil), nonce(r1), nonce(r1), nonce(r2), nonce(zero)
		if a != a2 {
			t.Errorf("%s: same rnd gave different k", hh.name)
		}
		if a == b {
			t.Errorf("%s: different rnd gave the same k", hh.name)
		}
		// An all-zero Z is still hedged mode (different input length).
		if a == det || b == det || z == det {
			t.Errorf("%s: hedged k equals the RFC 6979 k", hh.name)
		}
		if !bytes.Equal(a[:], refNonce(hh.new, x[:], h1, r1)) {
			t.Errorf("%s: hedged k differs from reference", hh.name)
		}
	}
}

// TestHedgedLayout pins the padding of the hedged HMAC input: the block
// boundaries fall right before int2octets(x) and right before bits2octets(h1).
func TestHedgedLayout(t *testing.T) {
	for _, c := range []struct {
		f              func() hash.Hash
		zeros1, zeros2 int
	}{
		{sha1.New, 11, 32},      // 20+1+32+11 = 64, 32+32 = 64
		{sha256.New224, 3, 32},  // 28+1+32+3 = 64
		{sha256.New, 63, 32},    // 32+1+32+63 = 128, 32+32 = 64
		{sha512.New384, 47, 96}, // 48+1+32+47 = 128, 32+96 = 128
		{sha512.New, 31, 96},    // 64+1+32+31 = 128
	} {
		hlen, block := c.f().Size(), c.f().BlockSize()
		if got := zeroPad(make([]byte, 512), hlen+1+32, block) - (hlen + 1 + 32); got != c.zeros1 {
			t.Errorf("hlen %d: first zero run %d, want %d", hlen, got, c.zeros1)
		}
		if got := zeroPad(make([]byte, 512), 128+32, block) - (128 + 32); got != c.zeros2 {
			t.Errorf("hlen %d: second zero run %d, want %d", hlen, got, c.zeros2)
		}
	}
	if got := zeroPad(make([]byte, 128), 64, 64); got != 64 {
		t.Errorf("aligned input padded to %d", got)
	}
}

func TestInRange(t *testing.T) {
	n := nBig.FillBytes(make([]byte, 32))
	add := func(d int64) [32]byte {
		var b [32]byte
		z := new(big.Int).Add(nBig, big.NewInt(d))
		z.Mod(z, new(big.Int).Lsh(big.NewInt(1), 256))
		z.FillBytes(b[:])
		return b
	}
	cases := []struct {
		k    [32]byte
		want uint64
	}{
		{[32]byte{}, 0},
		{[32]byte{31: 1}, 1},
		{add(-1), 1},
		{[32]byte(n), 0},
		{add(1), 0},
		{add(1 << 40), 0},
		{[32]byte(bytes.Repeat([]byte{0xff}, 32)), 0},
		{[32]byte{0: 0x80}, 1},
	}
	for _, c := range cases {
		if got := inRange(&c.k, &order); got != c.want {
			t.Errorf("inRange(%X) = %d, want %d", c.k, got, c.want)
		}
	}
}

func TestBits2Octets(t *testing.T) {
	n := nBig.FillBytes(make([]byte, 32))
	inputs := [][]byte{
		nil,
		{1},
		n,
		append(append([]byte{}, n...), 0xab), // truncated back to n: result 0
		bytes.Repeat([]byte{0xff}, 32),
		bytes.Repeat([]byte{0xff}, 64),
		unhex(t, "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632550"),
		unhex(t, "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632552"),
	}
	for _, in := range inputs {
		var got [32]byte
		bits2octets(&got, in)
		if want := refBits2Octets(in); !bytes.Equal(got[:], want) {
			t.Errorf("bits2octets(%x) = %x, want %x", in, got, want)
		}
	}
}

// TestForcedRetry drives the rejection loop with smaller bounds, so that
// candidates are rejected often, and checks that the accepted value is the
// first reference candidate that is nonzero and below the bound. With
// bound 2^250 about 63 of every 64 candidates are rejected.
func TestForcedRetry(t *testing.T) {
	x := (*[32]byte)(unhex(t, rfcKey))
	g := New()
	for _, hh := range hashes {
		for _, shift := range []uint{255, 252, 250} {
			var bound [4]uint64
			bound[3] = 1 << (shift - 192)
			boundBig := new(big.Int).Lsh(big.NewInt(1), shift)
			for _, rnd := range [][]byte{nil, bytes.Repeat([]byte{7}, 32)} {
				h1 := digest(hh.new, []byte("test"))
				cands := refCandidates(hh.new, x[:], h1, rnd, 1000)
				want, rejected := -1, 0
				for i, c := range cands {
					z := new(big.Int).SetBytes(c)
					if z.Sign() > 0 && z.Cmp(boundBig) < 0 {
						want = i
						break
					}
					rejected++
				}
				if want < 0 {
					t.Fatal("no reference candidate below the bound")
				}
				if err := g.Start(hh.h, x, h1, rnd); err != nil {
					t.Fatal(err)
				}
				var k [32]byte
				g.nonceBelow(&k, &bound)
				if !bytes.Equal(k[:], cands[want]) {
					t.Errorf("%s bound 2^%d: got %X, want candidate %d %X", hh.name, shift, k, want, cands[want])
				}
				// After the accepted candidate, Next continues the sequence.
				if want+1 < len(cands) {
					g.Next(&k)
					if !bytes.Equal(k[:], cands[want+1]) {
						t.Errorf("%s bound 2^%d: Next after retry diverged", hh.name, shift)
					}
				}
				if shift == 250 && rejected == 0 {
					t.Errorf("%s: expected at least one rejection at 2^250", hh.name)
				}
			}
		}
	}
}

func TestStartErrors(t *testing.T) {
	x := (*[32]byte)(unhex(t, rfcKey))
	h1 := digest(sha256.New, []byte("sample"))
	g := New()
	if err := g.Start(crypto.SHA256, x, h1, nil); err != nil {
		t.Fatal(err)
	}
	var n [32]byte
	nBig.FillBytes(n[:])
	bad := []struct {
		name string
		h    crypto.Hash
		x    [32]byte
		rnd  []byte
		want error
	}{
		{"MD5", crypto.MD5, *x, nil, errHash},
		{"MD5SHA1", crypto.MD5SHA1, *x, nil, errHash},
		{"SHA-512/256", crypto.SHA512_256, *x, nil, errHash},
		{"SHA3-256", crypto.SHA3_256, *x, nil, errHash},
		{"zero hash", 0, *x, nil, errHash},
		{"hash 99", crypto.Hash(99), *x, nil, errHash},
		{"rnd 31", crypto.SHA256, *x, make([]byte, 31), errRand},
		{"rnd 33", crypto.SHA256, *x, make([]byte, 33), errRand},
		{"x = 0", crypto.SHA256, [32]byte{}, nil, errKey},
		{"x = n", crypto.SHA256, n, nil, errKey},
		{"x = 2^256-1", crypto.SHA256, [32]byte(bytes.Repeat([]byte{0xff}, 32)), nil, errKey},
	}
	for _, c := range bad {
		if err := g.Start(c.h, &c.x, h1, c.rnd); err != c.want {
			t.Errorf("%s: err = %v, want %v", c.name, err, c.want)
		}
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: Next after failed Start did not panic", c.name)
				}
			}()
			var k [32]byte
			g.Next(&k)
		}()
	}
	// x = 1 and x = n-1 are valid.
	one := [32]byte{31: 1}
	nm1 := n
	nm1[31]--
	for _, x := range []*[32]byte{&one, &nm1} {
		if err := g.Start(crypto.SHA256, x, h1, nil); err != nil {
			t.Errorf("x = %X: %v", *x, err)
		}
	}
}

func TestNextBeforeStartPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Next on a new Generator did not panic")
		}
	}()
	var k [32]byte
	New().Next(&k)
}

func TestZeroAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's instrumentation allocates")
	}
	x := (*[32]byte)(unhex(t, rfcKey))
	g := New()
	rnd := bytes.Repeat([]byte{9}, 32)
	var k [32]byte
	for _, hh := range hashes {
		h1 := digest(hh.new, []byte("sample"))
		for _, r := range [][]byte{nil, rnd} {
			allocs := testing.AllocsPerRun(100, func() {
				if err := g.Start(hh.h, x, h1, r); err != nil {
					panic(err)
				}
				g.Nonce(&k)
				g.Next(&k)
				g.Zero()
			})
			if allocs != 0 {
				t.Errorf("%s hedged=%v: %v allocations per Start+Nonce+Next+Zero", hh.name, r != nil, allocs)
			}
		}
	}
}

// TestZeroWipes inspects the internal state after Zero: every buffer is
// zero and each hash object is indistinguishable (reflect.DeepEqual, which
// sees unexported fields such as the block buffer) from a new one.
func TestZeroWipes(t *testing.T) {
	x := (*[32]byte)(unhex(t, rfcKey))
	g := New()
	fresh := map[*engine]hash.Hash{
		&g.sha1:   sha1.New(),
		&g.sha224: sha256.New224(),
		&g.sha256: sha256.New(),
		&g.sha384: sha512.New384(),
		&g.sha512: sha512.New(),
	}
	for _, hh := range hashes {
		if err := g.Start(hh.h, x, digest(hh.new, []byte("sample")), bytes.Repeat([]byte{3}, 32)); err != nil {
			t.Fatal(err)
		}
		var k [32]byte
		g.Nonce(&k)
		g.Next(&k)
	}
	allZero := func(b []byte) bool { return !bytes.ContainsFunc(b, func(r rune) bool { return r != 0 }) }
	if allZero(g.k[:]) || allZero(g.msg[:]) {
		t.Fatal("state unexpectedly zero before Zero; test is not meaningful")
	}
	for e, f := range fresh {
		if reflect.DeepEqual(e.h, f) {
			t.Fatal("hash state unexpectedly fresh before Zero; test is not meaningful")
		}
	}

	g.Zero()

	for name, b := range map[string][]byte{"K": g.k[:], "msg/V": g.msg[:], "t": g.t[:], "pad": g.pad[:]} {
		if !allZero(b) {
			t.Errorf("%s not wiped: %x", name, b)
		}
	}
	for e, f := range fresh {
		if !allZero(e.inner[:cap(e.inner)]) || !allZero(e.outer[:cap(e.outer)]) {
			t.Errorf("hlen %d: saved key states not wiped", e.size)
		}
		if !reflect.DeepEqual(e.h, f) {
			t.Errorf("hlen %d: hash object not returned to a fresh state: %+v", e.size, e.h)
		}
	}
	if g.e != nil || g.state != idle {
		t.Error("Zero left a derivation in progress")
	}
	// Still usable.
	if err := g.Start(crypto.SHA256, x, digest(sha256.New, []byte("sample")), nil); err != nil {
		t.Fatal(err)
	}
	var k [32]byte
	g.Nonce(&k)
	if !bytes.Equal(k[:], unhex(t, "A6E3C57DD01ABE90086538398355DD4C3B17AA873382B0F24D6129493D8AAD60")) { // SHA-256, "sample"
		t.Errorf("after Zero: k = %X", k)
	}
}

// TestStartErasesInputs checks that no copy of Z, x or bits2octets(h1)
// survives Start: only V (msg[:hlen]) and K remain.
func TestStartErasesInputs(t *testing.T) {
	x := (*[32]byte)(unhex(t, rfcKey))
	g := New()
	for _, hh := range hashes {
		h1 := digest(hh.new, []byte("sample"))
		for _, rnd := range [][]byte{nil, bytes.Repeat([]byte{0xee}, 32)} {
			if err := g.Start(hh.h, x, h1, rnd); err != nil {
				t.Fatal(err)
			}
			if rest := g.msg[hh.new().Size():]; bytes.ContainsFunc(rest, func(r rune) bool { return r != 0 }) {
				t.Errorf("%s hedged=%v: inputs left after V: %x", hh.name, rnd != nil, rest)
			}
		}
	}
}

// ---------------------------------------------------------------------------

func benchNonce(b *testing.B, h crypto.Hash, f func() hash.Hash, rnd []byte) {
	x := (*[32]byte)(unhex(b, rfcKey))
	h1 := digest(f, []byte("sample"))
	g := New()
	var k [32]byte
	b.ReportAllocs()
	for b.Loop() {
		if err := g.Start(h, x, h1, rnd); err != nil {
			b.Fatal(err)
		}
		g.Nonce(&k)
	}
}

func BenchmarkNonceSHA256(b *testing.B) { benchNonce(b, crypto.SHA256, sha256.New, nil) }
func BenchmarkNonceHedgedSHA256(b *testing.B) {
	benchNonce(b, crypto.SHA256, sha256.New, bytes.Repeat([]byte{5}, 32))
}
func BenchmarkNonceSHA384(b *testing.B) { benchNonce(b, crypto.SHA384, sha512.New384, nil) }
func BenchmarkNonceSHA512(b *testing.B) { benchNonce(b, crypto.SHA512, sha512.New, nil) }
func BenchmarkNonceHedgedSHA512(b *testing.B) {
	benchNonce(b, crypto.SHA512, sha512.New, bytes.Repeat([]byte{5}, 32))
}

// BenchmarkStdlibHMAC is the naive crypto/hmac implementation of the same
// deterministic SHA-256 nonce, for comparison.
func BenchmarkStdlibHMAC(b *testing.B) {
	x := unhex(b, rfcKey)
	h1 := digest(sha256.New, []byte("sample"))
	b.ReportAllocs()
	for b.Loop() {
		refNonce(sha256.New, x, h1, nil)
	}
}
