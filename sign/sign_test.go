package sign

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/x509"
	"encoding/hex"
	"errors"
	"hash"
	"io"
	"math/big"
	"os"
	"strings"
	"sync"
	"testing"

	"golang.org/x/crypto/cryptobyte"
	"golang.org/x/crypto/cryptobyte/asn1"

	"github.com/p256tls/p256tls/internal/p256/fault"
	"github.com/p256tls/p256tls/verify"
)

func mustHex(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

// derOf encodes (r, s) with cryptobyte, as crypto/ecdsa does, for comparison.
func derOf(r, s *big.Int) []byte {
	var b cryptobyte.Builder
	b.AddASN1(asn1.SEQUENCE, func(b *cryptobyte.Builder) {
		b.AddASN1BigInt(r)
		b.AddASN1BigInt(s)
	})
	return b.BytesOrPanic()
}

func parseDER(t testing.TB, sig []byte) (r, s *big.Int) {
	t.Helper()
	r, s = new(big.Int), new(big.Int)
	in := cryptobyte.String(sig)
	var inner cryptobyte.String
	if !in.ReadASN1(&inner, asn1.SEQUENCE) || !in.Empty() ||
		!inner.ReadASN1Integer(r) || !inner.ReadASN1Integer(s) || !inner.Empty() {
		t.Fatalf("malformed signature %x", sig)
	}
	if !bytes.Equal(derOf(r, s), sig) {
		t.Fatalf("signature %x is not in canonical DER", sig)
	}
	return r, s
}

func newKey(t testing.TB) *ecdsa.PrivateKey {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func newSignerT(t testing.TB, k *ecdsa.PrivateKey) *Signer {
	t.Helper()
	s, err := New(k)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// rfcKey is the P-256 key of RFC 6979 appendix A.2.5.
const (
	rfcX  = "C9AFA9D845BA75166B5C215767B1D6934E50C3DB36E89B127B8A622B120F6721"
	rfcUx = "60FED4BA255A9D31C961EB74C6356D68C049B8923B61FA6CE669622E60F29FB6"
	rfcUy = "7903FE1008B8BC99A41AE9E95628BC64F2F1B20C2D7E9F5177A3C294D4462299"
)

var rfcVectors = []struct {
	h    crypto.Hash
	newH func() hash.Hash
	msg  string
	r, s string
}{
	{crypto.SHA1, sha1.New, "sample",
		"61340C88C3AAEBEB4F6D667F672CA9759A6CCAA9FA8811313039EE4A35471D32",
		"6D7F147DAC089441BB2E2FE8F7A3FA264B9C475098FDCF6E00D7C996E1B8B7EB"},
	{crypto.SHA224, sha256.New224, "sample",
		"53B2FFF5D1752B2C689DF257C04C40A587FABABB3F6FC2702F1343AF7CA9AA3F",
		"B9AFB64FDC03DC1A131C7D2386D11E349F070AA432A4ACC918BEA988BF75C74C"},
	{crypto.SHA256, sha256.New, "sample",
		"EFD48B2AACB6A8FD1140DD9CD45E81D69D2C877B56AAF991C34D0EA84EAF3716",
		"F7CB1C942D657C41D436C7A1B6E29F65F3E900DBB9AFF4064DC4AB2F843ACDA8"},
	{crypto.SHA384, sha512.New384, "sample",
		"0EAFEA039B20E9B42309FB1D89E213057CBF973DC0CFC8F129EDDDC800EF7719",
		"4861F0491E6998B9455193E34E7B0D284DDD7149A74B95B9261F13ABDE940954"},
	{crypto.SHA512, sha512.New, "sample",
		"8496A60B5E9B47C825488827E0495B0E3FA109EC4568FD3F8D1097678EB97F00",
		"2362AB1ADBE2B8ADF9CB9EDAB740EA6049C028114F2460F96554F61FAE3302FE"},
	{crypto.SHA1, sha1.New, "test",
		"0CBCC86FD6ABD1D99E703E1EC50069EE5C0B4BA4B9AC60E409E8EC5910D81A89",
		"01B9D7B73DFAA60D5651EC4591A0136F87653E0FD780C3B1BC872FFDEAE479B1"},
	{crypto.SHA224, sha256.New224, "test",
		"C37EDB6F0AE79D47C3C27E962FA269BB4F441770357E114EE511F662EC34A692",
		"C820053A05791E521FCAAD6042D40AEA1D6B1A540138558F47D0719800E18F2D"},
	{crypto.SHA256, sha256.New, "test",
		"F1ABB023518351CD71D881567B1EA663ED3EFCF6C5132B354F28D3B0B7D38367",
		"019F4113742A2B14BD25926B49C649155F267E60D3814B4C0CC84250E46F0083"},
	{crypto.SHA384, sha512.New384, "test",
		"83910E8B48BB0C74244EBDF7F07A1C5413D61472BD941EF3920E623FBCCEBEB6",
		"8DDBEC54CF8CD5874883841D712142A56A8D0F218F5003CB0296B6B509619F2C"},
	{crypto.SHA512, sha512.New, "test",
		"461D93F31B6540894788FD206C07CFA0CC35F46FA3C91816FFF1040AD1581A04",
		"39AF9F15DE0DB8D97E72719C74820D304CE5226E32DEDAE67519E840D1194E55"},
}

func rfcKey(t testing.TB) *ecdsa.PrivateKey {
	t.Helper()
	k, err := ecdsa.ParseRawPrivateKey(elliptic.P256(), mustHex(rfcX))
	if err != nil {
		t.Fatal(err)
	}
	pub, _ := k.PublicKey.Bytes()
	if !bytes.Equal(pub, append(append([]byte{4}, mustHex(rfcUx)...), mustHex(rfcUy)...)) {
		t.Fatal("RFC 6979 public key mismatch")
	}
	return k
}

func TestRFC6979(t *testing.T) {
	s, err := NewDeterministic(rfcKey(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range rfcVectors {
		h := v.newH()
		h.Write([]byte(v.msg))
		digest := h.Sum(nil)
		r := new(big.Int).SetBytes(mustHex(v.r))
		ss := new(big.Int).SetBytes(mustHex(v.s))
		want := derOf(r, ss)
		for _, sign := range []func() ([]byte, error){
			func() ([]byte, error) { return s.Sign(rand.Reader, digest, v.h) },
			func() ([]byte, error) { return s.Sign(nil, digest, v.h) },
			func() ([]byte, error) { return s.signUnchecked(nil, digest) },
			func() ([]byte, error) { return rfcKey(t).Sign(nil, digest, v.h) }, // validates the vector
		} {
			got, err := sign()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%v %q:\n got %x\nwant %x", v.h, v.msg, got, want)
			}
		}
	}
}

func TestHedged(t *testing.T) {
	k := newKey(t)
	s := newSignerT(t, k)
	d := sha256.Sum256([]byte("hello"))
	a, err := s.Sign(nil, d[:], crypto.SHA256)
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.Sign(rand.Reader, d[:], crypto.SHA256)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(a, b) {
		t.Fatal("two hedged signatures are equal")
	}
	// The same randomness gives the same signature, and it differs from
	// the deterministic one.
	zero := bytes.NewReader(make([]byte, 64))
	c, _ := s.Sign(zero, d[:], crypto.SHA256)
	zero = bytes.NewReader(make([]byte, 64))
	e, _ := s.Sign(zero, d[:], crypto.SHA256)
	if !bytes.Equal(c, e) {
		t.Fatal("same randomness, different signatures")
	}
	ds, _ := NewDeterministic(k)
	f, _ := ds.Sign(nil, d[:], crypto.SHA256)
	if bytes.Equal(c, f) {
		t.Fatal("hedged signature equals the deterministic one")
	}
	for _, sig := range [][]byte{a, b, c, f} {
		if !ecdsa.VerifyASN1(&k.PublicKey, d[:], sig) {
			t.Fatal("signature does not verify")
		}
	}
	// A failing reader is an error.
	if _, err := s.Sign(io.LimitReader(rand.Reader, 5), d[:], crypto.SHA256); err == nil {
		t.Fatal("short randomness accepted")
	}
}

func iterations(short, normal, long int) int {
	switch {
	case os.Getenv("P256TLS_LONG") != "":
		return long
	case testing.Short():
		return short
	}
	return normal
}

// TestAgainstStdlib: our signatures verify under crypto/ecdsa and
// verify.VerifyASN1; crypto/ecdsa's verify under our keytable and verify.
func TestAgainstStdlib(t *testing.T) {
	keys := iterations(5, 400, 3000)
	hashes := []struct {
		h crypto.Hash
		f func() hash.Hash
	}{{crypto.SHA256, sha256.New}, {crypto.SHA384, sha512.New384}, {crypto.SHA512, sha512.New}}
	for i := 0; i < keys; i++ {
		k := newKey(t)
		s := newSignerT(t, k)
		for j := 0; j < 3; j++ {
			hh := hashes[(i+j)%3]
			msg := make([]byte, 20)
			rand.Read(msg)
			h := hh.f()
			h.Write(msg)
			digest := h.Sum(nil)
			sig, err := s.Sign(rand.Reader, digest, hh.h)
			if err != nil {
				t.Fatal(err)
			}
			parseDER(t, sig)
			if !ecdsa.VerifyASN1(&k.PublicKey, digest, sig) {
				t.Fatalf("crypto/ecdsa rejects our signature %x", sig)
			}
			if !verify.VerifyASN1(&k.PublicKey, digest, sig) {
				t.Fatalf("verify rejects our signature %x", sig)
			}
			std, err := ecdsa.SignASN1(rand.Reader, k, digest)
			if err != nil {
				t.Fatal(err)
			}
			if !s.table.VerifyASN1(digest, std) {
				t.Fatalf("keytable rejects crypto/ecdsa's signature %x", std)
			}
			if !verify.VerifyASN1(&k.PublicKey, digest, std) {
				t.Fatalf("verify rejects crypto/ecdsa's signature %x", std)
			}
			// And a wrong digest is rejected everywhere.
			digest[0] ^= 1
			if ecdsa.VerifyASN1(&k.PublicKey, digest, sig) || s.table.VerifyASN1(digest, sig) {
				t.Fatal("signature verifies for another digest")
			}
		}
	}
}

func TestEncodeASN1(t *testing.T) {
	n, _ := new(big.Int).SetString("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551", 16)
	vals := []*big.Int{
		big.NewInt(1), big.NewInt(0x7f), big.NewInt(0x80), big.NewInt(0xff), big.NewInt(0x100),
		new(big.Int).Sub(n, big.NewInt(1)), new(big.Int).Lsh(big.NewInt(1), 255),
		new(big.Int).Lsh(big.NewInt(1), 247), new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 255), big.NewInt(1)),
	}
	for i := 0; i < 50; i++ {
		v, _ := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), uint(8+i*5)))
		vals = append(vals, v.Add(v, big.NewInt(1)))
	}
	for _, r := range vals {
		for _, s := range vals {
			var rb, sb [32]byte
			r.FillBytes(rb[:])
			s.FillBytes(sb[:])
			if got, want := encodeASN1(&rb, &sb), derOf(r, s); !bytes.Equal(got, want) {
				t.Fatalf("r=%x s=%x:\n got %x\nwant %x", r, s, got, want)
			}
		}
	}
}

// TestRefusals: a deterministic Signer refuses what it cannot sign as RFC
// 6979 does (with sentinel errors, counters untouched); a hedged Signer
// signs the same requests, like the raw key with a non-nil rand.
func TestRefusals(t *testing.T) {
	k := newKey(t)
	s := newSignerT(t, k)
	det, err := NewDeterministic(k)
	if err != nil {
		t.Fatal(err)
	}
	d256 := sha256.Sum256(nil)
	d384 := sha512.Sum384(nil)
	d1 := sha1.Sum(nil)
	for _, c := range []struct {
		digest []byte
		opts   crypto.SignerOpts
		want   error
	}{
		{d256[:], crypto.SHA384, ErrDigestLength},
		{d384[:], crypto.SHA256, ErrDigestLength},
		{d256[:31], crypto.SHA256, ErrDigestLength},
		{d256[:], crypto.SHA1, ErrDigestLength},
		{d1[:], crypto.SHA224, ErrDigestLength},
		{nil, crypto.SHA256, ErrDigestLength},
		{d256[:], crypto.SHA512_256, ErrHash},
		{d256[:], crypto.SHA3_256, ErrHash},
		{d256[:], crypto.MD5SHA1, ErrHash},
		{d256[:16], crypto.MD5, ErrHash},
		{d256[:], crypto.Hash(0), ErrHash},
		{d256[:], crypto.Hash(200), ErrHash},
		{d256[:], nil, ErrHash},
	} {
		before := det.counters()
		sig, err := det.Sign(nil, c.digest, c.opts)
		if !errors.Is(err, c.want) || sig != nil {
			t.Errorf("deterministic, len %d, %v: %x, err = %v, want %v", len(c.digest), c.opts, sig, err, c.want)
		}
		if det.counters() != before {
			t.Errorf("deterministic, len %d, %v: a refusal moved the counters", len(c.digest), c.opts)
		}
		if msg := err.Error(); !strings.HasPrefix(msg, "sign: ") || strings.Count(msg, "sign: ") != 1 {
			t.Errorf("error %q: want exactly one \"sign: \" prefix", msg)
		}
		before = s.counters()
		sig, err = s.Sign(nil, c.digest, c.opts)
		if err != nil || !ecdsa.VerifyASN1(&k.PublicKey, c.digest, sig) {
			t.Errorf("hedged, len %d, %v: %x, %v", len(c.digest), c.opts, sig, err)
		}
		if got := s.counters(); got.Signatures != before.Signatures+1 || got.Checks != before.Checks+1 {
			t.Errorf("hedged: counters %+v -> %+v", before, got)
		}
	}

	// Keys.
	p384, _ := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	if _, err := New(p384); !errors.Is(err, ErrCurve) {
		t.Errorf("P-384 key: %v", err)
	}
	if _, err := New(nil); err == nil {
		t.Error("nil key accepted")
	}
	n := elliptic.P256().Params().N
	for _, d := range []*big.Int{big.NewInt(0), n, new(big.Int).Add(n, big.NewInt(1)), new(big.Int).Lsh(big.NewInt(1), 256)} {
		bad := &ecdsa.PrivateKey{PublicKey: k.PublicKey, D: d}
		if _, err := New(bad); err == nil {
			t.Errorf("d = %x accepted", d)
		}
	}
	other := newKey(t)
	mixed := &ecdsa.PrivateKey{PublicKey: other.PublicKey, D: k.D}
	if _, err := New(mixed); !errors.Is(err, ErrKeyMismatch) {
		t.Errorf("mismatched public key: %v", err)
	}
}

func TestPublicAndParse(t *testing.T) {
	k := newKey(t)
	s := newSignerT(t, k)
	pub, ok := s.Public().(*ecdsa.PublicKey)
	if !ok || pub.Curve != elliptic.P256() || !pub.Equal(&k.PublicKey) {
		t.Fatalf("Public() = %#v", s.Public())
	}
	var _ crypto.Signer = s

	// A key from PEM or DER: crypto/x509 parses it, New takes it.
	p8, _ := x509.MarshalPKCS8PrivateKey(k)
	parsed, err := x509.ParsePKCS8PrivateKey(p8)
	if err != nil {
		t.Fatal(err)
	}
	s2, err := New(parsed.(*ecdsa.PrivateKey))
	if err != nil || !s2.Public().(*ecdsa.PublicKey).Equal(pub) {
		t.Fatalf("New(x509.ParsePKCS8PrivateKey(...)): %v", err)
	}
	k384, _ := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	if _, err := New(k384); !errors.Is(err, ErrCurve) {
		t.Errorf("P-384 key: %v", err)
	}
}

// TestFaults corrupts r, s and k⁻¹ through the fault hook: Sign must refuse
// and count, SignUnchecked must return a signature crypto/ecdsa rejects.
func TestFaults(t *testing.T) {
	k := newKey(t)
	s := newSignerT(t, k)
	d := sha256.Sum256([]byte("fault"))
	for _, p := range []fault.Point{fault.R, fault.S, fault.KInv, fault.T, fault.U, fault.W} {
		for _, limb := range []int{0, 3} {
			restore := fault.Set(func(q fault.Point, l *[4]uint64) {
				if q == p {
					l[limb] ^= 1 << 17
				}
			})
			before := s.counters()
			sig, err := s.Sign(rand.Reader, d[:], crypto.SHA256)
			after := s.counters()
			if !errors.Is(err, ErrFaultDetected) || sig != nil {
				t.Errorf("fault at %v limb %d: Sign returned %x, %v", p, limb, sig, err)
			} else if msg := err.Error(); !strings.HasPrefix(msg, "sign: fault detected") || strings.Count(msg, "sign: ") != 1 {
				t.Errorf("fault error %q: want one \"sign: \" prefix", msg)
			}
			if after.FaultsDetected != before.FaultsDetected+1 || after.Checks != before.Checks+1 {
				t.Errorf("fault at %v: stats %+v -> %+v", p, before, after)
			}
			bad, err := s.signUnchecked(rand.Reader, d[:])
			if err != nil {
				t.Fatal(err)
			}
			// A fault in s⁻¹ only feeds the check: the signature is good
			// and the check's refusal is a false alarm. Every other fault
			// makes a bad signature, which the check must have caught.
			if valid := ecdsa.VerifyASN1(&k.PublicKey, d[:], bad); valid != (p == fault.W) {
				t.Errorf("fault at %v: the unchecked signature verifies: %v", p, valid)
			}
			restore()
		}
	}
	st := s.counters()
	sig, err := s.Sign(rand.Reader, d[:], crypto.SHA256)
	if err != nil || !ecdsa.VerifyASN1(&k.PublicKey, d[:], sig) {
		t.Fatal("signing after the faults failed")
	}
	if got := s.counters(); got.Signatures != st.Signatures+1 || got.Checks != st.Checks+1 || got.FaultsDetected != st.FaultsDetected {
		t.Fatalf("stats %+v -> %+v", st, got)
	}
}

// TestRetry forces r = 0 and then s = 0 for the first nonce candidate
// through the fault hook: RFC 6979 then takes the next candidate, so the
// deterministic signature is valid, checked, counted once, and not the one
// crypto/ecdsa returns (which used the first candidate).
func TestRetry(t *testing.T) {
	k := newKey(t)
	det, err := NewDeterministic(k)
	if err != nil {
		t.Fatal(err)
	}
	d := sha256.Sum256([]byte("retry"))
	first, err := k.Sign(nil, d[:], crypto.SHA256)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []fault.Point{fault.R, fault.S} {
		calls := 0
		restore := fault.Set(func(q fault.Point, l *[4]uint64) {
			if q == p {
				if calls == 0 {
					*l = [4]uint64{}
				}
				calls++
			}
		})
		before := det.counters()
		sig, err := det.Sign(nil, d[:], crypto.SHA256)
		after := det.counters()
		restore()
		if err != nil || !ecdsa.VerifyASN1(&k.PublicKey, d[:], sig) {
			t.Fatalf("%v = 0 for the first candidate: Sign returned %x, %v", p, sig, err)
		}
		if calls != 2 {
			t.Errorf("%v = 0 for the first candidate: %d candidates tried, want 2", p, calls)
		}
		if string(sig) == string(first) {
			t.Errorf("%v = 0 for the first candidate: the signature is the first candidate's", p)
		}
		if after.Signatures != before.Signatures+1 || after.FaultsDetected != before.FaultsDetected {
			t.Errorf("%v = 0 for the first candidate: stats %+v -> %+v", p, before, after)
		}
	}
}

func TestAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's instrumentation allocates")
	}
	if fault.Active() {
		t.Skip("fault hook installed")
	}
	s := newSignerT(t, newKey(t))
	d := sha256.Sum256([]byte("allocs"))
	s.Sign(nil, d[:], crypto.SHA256) // warm the pool
	if n := testing.AllocsPerRun(50, func() { s.Sign(nil, d[:], crypto.SHA256) }); n > 1 {
		t.Errorf("Sign: %v allocations, want 1 (the signature)", n)
	}
	if n := testing.AllocsPerRun(50, func() { s.signUnchecked(rand.Reader, d[:]) }); n > 1 {
		t.Errorf("SignUnchecked: %v allocations, want 1", n)
	}
	// SHA-1, hedged and deterministic (two V blocks per nonce candidate).
	d1 := sha1.Sum([]byte("allocs"))
	det, err := NewDeterministic(newKey(t))
	if err != nil {
		t.Fatal(err)
	}
	for name, sign := range map[string]func() error{
		"hedged SHA-1":          func() error { _, err := s.Sign(nil, d1[:], crypto.SHA1); return err },
		"deterministic SHA-1":   func() error { _, err := det.Sign(nil, d1[:], crypto.SHA1); return err },
		"deterministic SHA-224": func() error { _, err := det.Sign(nil, d[:28], crypto.SHA224); return err },
	} {
		if err := sign(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		f := func() { sign() }
		if n := testing.AllocsPerRun(50, f); n > 1 {
			t.Errorf("Sign, %s: %v allocations, want 1 (the signature)", name, n)
		}
	}
}

// TestWiped checks that the pooled scratch state holds no secret after a
// signature.
func TestWiped(t *testing.T) {
	s := newSignerT(t, newKey(t))
	d := sha256.Sum256([]byte("wipe"))
	for i := 0; i < 3; i++ {
		if _, err := s.Sign(nil, d[:], crypto.SHA256); err != nil {
			t.Fatal(err)
		}
		st := pool.Get().(*state)
		g := st.gen
		st.gen = nil
		if *st != (state{}) {
			t.Fatal("scratch state not wiped")
		}
		st.gen = g
		pool.Put(st)
	}
}

func TestConcurrent(t *testing.T) {
	k := newKey(t)
	s := newSignerT(t, k)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 10; i++ {
				d := sha256.Sum256([]byte{byte(g), byte(i)})
				sig, err := s.Sign(nil, d[:], crypto.SHA256)
				if err != nil || !ecdsa.VerifyASN1(&k.PublicKey, d[:], sig) {
					t.Error("concurrent signature failed")
					return
				}
			}
		}(g)
	}
	wg.Wait()
	if st := s.counters(); st.Signatures != 80 || st.Checks != 80 || st.FaultsDetected != 0 {
		t.Fatalf("stats %+v", st)
	}
}
