package sign

import (
	"bytes"
	"crypto"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/rand"
	"crypto/rsa"
	_ "crypto/sha3" // makes crypto.SHA3_* available, so that the raw key signs with them
	"errors"
	"fmt"
	"io"
	"maps"
	"math/big"
	"slices"
	"strings"
	"testing"

	"github.com/p256tls/p256tls/internal/p256/nonce"
	"github.com/p256tls/p256tls/verify"
)

// The promise of sign.Signer: what (*ecdsa.PrivateKey).Sign signs, a Signer
// signs, and what it refuses, a Signer refuses. A hedged Signer stands for
// the raw key with a non-nil rand (any digest, opts ignored); a
// deterministic one for the raw key with rand == nil (RFC 6979 over
// opts.HashFunc()), except for the hashes documented on Sign.

// rfc6979Hashes are the hashes a deterministic Signer supports.
var rfc6979Hashes = []crypto.Hash{crypto.SHA1, crypto.SHA224, crypto.SHA256, crypto.SHA384, crypto.SHA512}

func supported(h crypto.Hash) bool {
	for _, x := range rfc6979Hashes {
		if h == x {
			return true
		}
	}
	return false
}

// diffOpts is every kind of opts the differential tests pass: each
// supported hash, other hashes the raw key may or may not sign with,
// MD5SHA1 (what crypto/tls passes for RSA in TLS 1.0/1.1), the zero and
// an unknown hash, nil, and a non-Hash SignerOpts.
var diffOpts = []crypto.SignerOpts{
	nil, crypto.Hash(0), crypto.MD5, crypto.SHA1, crypto.SHA224, crypto.SHA256, crypto.SHA384,
	crypto.SHA512, crypto.MD5SHA1, crypto.SHA512_224, crypto.SHA512_256, crypto.SHA3_256,
	crypto.SHA3_512, crypto.RIPEMD160, crypto.Hash(99), &rsa.PSSOptions{Hash: crypto.SHA1},
}

func optsName(o crypto.SignerOpts) string {
	if o == nil {
		return "nil"
	}
	if h, ok := o.(crypto.Hash); ok {
		if h == 0 {
			return "Hash(0)"
		}
		return h.String()
	}
	return fmt.Sprintf("%T(%v)", o, o.HashFunc())
}

// rawSign calls the raw key's Sign and turns a panic into an error.
func rawSign(k *ecdsa.PrivateKey, r io.Reader, digest []byte, opts crypto.SignerOpts) (sig []byte, err error, panicked bool) {
	defer func() {
		if p := recover(); p != nil {
			sig, err, panicked = nil, fmt.Errorf("panic: %v", p), true
		}
	}()
	sig, err = k.Sign(r, digest, opts)
	return sig, err, false
}

// TestDifferentialHedged: for every opts and every digest length 0..80, the
// hedged Signer signs exactly when the raw key with a non-nil rand signs,
// and its signature verifies under crypto/ecdsa and verify.
func TestDifferentialHedged(t *testing.T) {
	k := newKey(t)
	s := newSignerT(t, k)
	maxLen := iterations(64, 80, 80) // at least every hash size
	for _, opts := range diffOpts {
		for n := 0; n <= maxLen; n++ {
			digest := make([]byte, n)
			rand.Read(digest)
			rawSig, rawErr, _ := rawSign(k, rand.Reader, digest, opts)
			before := s.counters()
			sig, err := s.Sign(rand.Reader, digest, opts)
			if (err == nil) != (rawErr == nil) {
				t.Fatalf("%s, len %d: Signer err = %v, raw key err = %v", optsName(opts), n, err, rawErr)
			}
			if err != nil {
				continue
			}
			if !ecdsa.VerifyASN1(&k.PublicKey, digest, rawSig) {
				t.Fatalf("%s, len %d: the raw key's own signature does not verify", optsName(opts), n)
			}
			parseDER(t, sig)
			if !ecdsa.VerifyASN1(&k.PublicKey, digest, sig) || !verify.VerifyASN1(&k.PublicKey, digest, sig) {
				t.Fatalf("%s, len %d: signature %x does not verify", optsName(opts), n, sig)
			}
			if got := s.counters(); got.Signatures != before.Signatures+1 || got.Checks != before.Checks+1 {
				t.Fatalf("%s, len %d: counters %+v -> %+v, want one checked signature", optsName(opts), n, before, got)
			}
		}
	}
}

// TestDifferentialDeterministic: for every opts and digest length, the
// deterministic Signer returns the raw key's rand == nil signature byte for
// byte, or refuses where the raw key refuses (errors mapped to ErrHash and
// ErrDigestLength) or panics (ErrHash). The raw key signs with hashes a
// deterministic Signer refuses only for hashes other than the five
// supported, which the test lists (the difference documented on Sign).
func TestDifferentialDeterministic(t *testing.T) {
	k := newKey(t)
	det, err := NewDeterministic(k)
	if err != nil {
		t.Fatal(err)
	}
	maxLen := iterations(64, 80, 80) // at least every hash size
	extra := map[string]bool{}       // hashes the raw key signs with and det refuses
	for _, opts := range diffOpts {
		for n := 0; n <= maxLen; n++ {
			digest := make([]byte, n)
			rand.Read(digest)
			rawSig, rawErr, panicked := rawSign(k, nil, digest, opts)
			sig, err := det.Sign(nil, digest, opts)
			var h crypto.Hash
			if opts != nil {
				h = opts.HashFunc()
			}
			switch {
			case opts != nil && supported(h) && rawErr == nil:
				if err != nil || !bytes.Equal(sig, rawSig) {
					t.Fatalf("%s, len %d:\n got %x, %v\nwant %x (crypto/ecdsa, rand == nil)", optsName(opts), n, sig, err, rawSig)
				}
			case opts != nil && supported(h):
				// The raw key refuses a supported hash only for the length.
				if panicked || !strings.Contains(rawErr.Error(), "length") || !errors.Is(err, ErrDigestLength) {
					t.Fatalf("%s, len %d: raw key %v, Signer %v (want ErrDigestLength)", optsName(opts), n, rawErr, err)
				}
			default:
				if !errors.Is(err, ErrHash) || sig != nil {
					t.Fatalf("%s, len %d: Signer returned %x, %v, want ErrHash", optsName(opts), n, sig, err)
				}
				if rawErr == nil {
					extra[optsName(opts)] = true
					if !ecdsa.VerifyASN1(&k.PublicKey, digest, rawSig) {
						t.Fatalf("%s: the raw key's signature does not verify", optsName(opts))
					}
				}
			}
		}
	}
	t.Logf("the raw key also signs deterministically with: %v", slices.Sorted(maps.Keys(extra)))
	// The raw key's extra hashes are exactly those linked into this test
	// binary besides the five (MD5 through crypto/tls's dependencies or
	// not: the list follows crypto.Hash.Available).
	for _, opts := range diffOpts {
		h, ok := opts.(crypto.Hash)
		if !ok || h == 0 || h == crypto.MD5SHA1 || supported(h) || h >= 99 {
			continue
		}
		if want := h.Available(); extra[optsName(opts)] != want {
			t.Errorf("%s: the raw key signs deterministically: %v, want %v (Available)", optsName(opts), extra[optsName(opts)], want)
		}
		delete(extra, optsName(opts))
	}
	for name := range extra {
		t.Errorf("the raw key signs deterministically with %s, which Sign does not document", name)
	}
}

// TestHedgedIgnoresOpts: with the same fresh randomness, a hedged Signer
// returns the same signature whatever opts says, and SignUnchecked returns
// it too.
func TestHedgedIgnoresOpts(t *testing.T) {
	s := newSignerT(t, newKey(t))
	z := bytes.Repeat([]byte{0x5a}, 32)
	for _, n := range []int{0, 1, 20, 28, 32, 36, 48, 64, 80} {
		digest := bytes.Repeat([]byte{byte(n)}, n)
		want, err := s.signUnchecked(bytes.NewReader(z), digest)
		if err != nil {
			t.Fatal(err)
		}
		for _, opts := range diffOpts {
			got, err := s.Sign(bytes.NewReader(z), digest, opts)
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("len %d, %s: %x, %v; want %x (SignUnchecked)", n, optsName(opts), got, err, want)
			}
		}
	}
}

// TestNonceHash pins the HMAC hash of the nonce: for a hedged Signer,
// SHA-384 for a 48-byte digest, SHA-512 for 64 bytes and SHA-256 for any
// other length (SHA-1 and SHA-224 digests included); for a deterministic
// Signer's SignUnchecked, also SHA-1 for 20 bytes and SHA-224 for 28. The
// expected r is computed from internal/p256/nonce and crypto/ecdh.
func TestNonceHash(t *testing.T) {
	k := newKey(t)
	hedged := newSignerT(t, k)
	det, err := NewDeterministic(k)
	if err != nil {
		t.Fatal(err)
	}
	x := hedged.d.Bytes()
	z := bytes.Repeat([]byte{0xc3}, 32)
	g := nonce.New()
	for _, c := range []struct {
		n         int
		hedged    crypto.Hash
		unchecked crypto.Hash // deterministic SignUnchecked
	}{
		{0, crypto.SHA256, crypto.SHA256},
		{20, crypto.SHA256, crypto.SHA1},
		{28, crypto.SHA256, crypto.SHA224},
		{32, crypto.SHA256, crypto.SHA256},
		{36, crypto.SHA256, crypto.SHA256},
		{48, crypto.SHA384, crypto.SHA384},
		{64, crypto.SHA512, crypto.SHA512},
		{65, crypto.SHA256, crypto.SHA256},
	} {
		digest := bytes.Repeat([]byte{0x11 + byte(c.n)}, c.n)
		wantR := func(h crypto.Hash, rnd []byte) *big.Int {
			if err := g.Start(h, &x, digest, rnd); err != nil {
				t.Fatal(err)
			}
			var kb [32]byte
			g.Nonce(&kb)
			priv, err := ecdh.P256().NewPrivateKey(kb[:])
			if err != nil {
				t.Fatal(err)
			}
			r := new(big.Int).SetBytes(priv.PublicKey().Bytes()[1:33])
			return r.Mod(r, elliptic256N)
		}
		sig, err := hedged.Sign(bytes.NewReader(z), digest, crypto.SHA1)
		if err != nil {
			t.Fatal(err)
		}
		if r, _ := parseDER(t, sig); r.Cmp(wantR(c.hedged, z)) != 0 {
			t.Errorf("hedged, len %d: nonce is not HMAC-%v's", c.n, c.hedged)
		}
		sig, err = det.signUnchecked(nil, digest)
		if err != nil {
			t.Fatal(err)
		}
		if r, _ := parseDER(t, sig); r.Cmp(wantR(c.unchecked, nil)) != 0 {
			t.Errorf("deterministic SignUnchecked, len %d: nonce is not HMAC-%v's", c.n, c.unchecked)
		}
	}
}

var elliptic256N, _ = new(big.Int).SetString("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551", 16)

// TestUncheckedMatchesSign: for a deterministic Signer, SignUnchecked of a
// digest of a supported hash's size is Sign with that hash.
func TestUncheckedMatchesSign(t *testing.T) {
	det, err := NewDeterministic(newKey(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range rfc6979Hashes {
		digest := make([]byte, h.Size())
		rand.Read(digest)
		a, err1 := det.Sign(nil, digest, h)
		b, err2 := det.signUnchecked(nil, digest)
		if err1 != nil || err2 != nil || !bytes.Equal(a, b) {
			t.Errorf("%v: Sign %x, %v; SignUnchecked %x, %v", h, a, err1, b, err2)
		}
	}
}
