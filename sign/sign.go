// Package sign produces P-256 ECDSA signatures for a long-lived key, such as
// a TLS server's identity, and checks every signature before releasing it.
//
// A Signer computes k·G with the constant-time fixed-base comb of
// internal/p256/comb, derives its nonces with RFC 6979's HMAC-DRBG (hedged with
// fresh randomness by default, as draft-irtf-cfrg-det-sigs-with-noise), and
// verifies each signature against the key's own table (keytable's, at width 7) before
// returning it. A fault during signing (a glitch, a bit flip, a miscompiled
// kernel) that produced a wrong r or s would hand an attacker an equation in
// the private key; Sign never returns such a signature: it returns an error
// wrapping ErrFaultDetected and counts the event (package provider reports
// the counts in its Stats).
//
// A Signer is safe for concurrent use. Signing allocates only the returned
// signature. A key in PKCS #8 or SEC 1 DER is parsed with crypto/x509
// (x509.ParsePKCS8PrivateKey, x509.ParseECPrivateKey) and handed to New.
//
// Exported identifiers, and why each exists:
//
//   - New: a hedged Signer, the one a server uses (provider's identities).
//   - NewDeterministic: RFC 6979 signatures, byte for byte crypto/ecdsa's,
//     for callers that need reproducible signatures (tests, protocols).
//   - Signer, Signer.Public, Signer.Sign: a crypto.Signer, so it goes
//     wherever one does (tls.Certificate.PrivateKey, x509.CreateCertificate).
//   - ErrFaultDetected: a withheld signature (errors.Is); the one error a
//     caller may want to alert on.
//   - ErrCurve, ErrPrivateKey, ErrKeyMismatch: why New refused a key.
//   - ErrHash, ErrDigestLength: why a deterministic Signer refused a digest.
package sign

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	crand "crypto/rand"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"

	"github.com/p256tls/p256tls/internal/ct"
	"github.com/p256tls/p256tls/internal/keytab"
	"github.com/p256tls/p256tls/internal/p256/comb"
	"github.com/p256tls/p256tls/internal/p256/fault"
	"github.com/p256tls/p256tls/internal/p256/nonce"
	"github.com/p256tls/p256tls/internal/p256/point"
	"github.com/p256tls/p256tls/internal/p256/scalar"
	"github.com/p256tls/p256tls/internal/signer"
)

var (
	// ErrFaultDetected is wrapped by the error Sign returns when a freshly
	// computed signature fails verification against the key's table. The
	// signature is withheld.
	ErrFaultDetected = errors.New("sign: fault detected: signature failed verification and was withheld")

	// ErrCurve is returned for a key that is not on P-256.
	ErrCurve = errors.New("sign: the key is not a P-256 key")
	// ErrPrivateKey is returned for a private scalar outside [1, n−1].
	ErrPrivateKey = errors.New("sign: the private scalar is not in [1, n-1]")
	// ErrKeyMismatch is returned when the public key is not d·G.
	ErrKeyMismatch = errors.New("sign: the public key does not match the private key")
	// ErrHash is returned by a deterministic Signer for nil opts or for an
	// opts.HashFunc() other than SHA-1, SHA-224, SHA-256, SHA-384 and
	// SHA-512 (a hedged Signer does not look at opts).
	ErrHash = errors.New("sign: unsupported hash for deterministic signing (want SHA-1, SHA-224, SHA-256, SHA-384 or SHA-512)")
	// ErrDigestLength is returned by a deterministic Signer for a digest
	// whose length is not the size of opts.HashFunc().
	ErrDigestLength = errors.New("sign: digest length does not match the hash function")
)

// Signer signs with one P-256 private key. It implements crypto.Signer.
type Signer struct {
	// d is the private scalar in Montgomery form.
	d             scalar.Scalar
	pub           *ecdsa.PublicKey
	table         *keytab.Table
	deterministic bool

	signatures, checks, faults atomic.Uint64
}

// registerHooks gives internal/signer this package's hooks, once, when the
// first Signer is made (so importing sign runs no code of it): whoever calls
// those hooks holds a *Signer, so they are in place by then.
var registerHooks sync.Once

func register() {
	signer.Register(signer.Hooks{
		SignUnchecked: func(cs crypto.Signer, rand io.Reader, digest []byte) ([]byte, error) {
			s, ok := cs.(*Signer)
			if !ok || s == nil {
				return nil, errNotSigner
			}
			return s.signUnchecked(rand, digest)
		},
		Counters: func(cs crypto.Signer) (signer.Counters, bool) {
			s, ok := cs.(*Signer)
			if !ok || s == nil {
				return signer.Counters{}, false
			}
			return s.counters(), true
		},
	})
}

var errNotSigner = errors.New("sign: not a *sign.Signer")

// New returns a Signer for priv with hedged nonces: RFC 6979's HMAC-DRBG
// keyed with the private key, the digest and 32 fresh random bytes per
// signature (draft-irtf-cfrg-det-sigs-with-noise). It refuses a key not on
// elliptic.P256(), a private scalar outside [1, n−1] and a public key that is
// not d·G, and builds the key's verification table. priv is not modified
// (nor crypto/ecdsa's cached form of it), and may keep signing elsewhere.
func New(priv *ecdsa.PrivateKey) (*Signer, error) {
	return newSigner(priv, false)
}

// NewDeterministic is like New, but its signatures are exactly those of RFC
// 6979 (deterministic ECDSA), the ones (*ecdsa.PrivateKey).Sign returns for
// a nil rand: the nonce depends only on the key and the digest, the rand
// argument of Sign is ignored, and Sign insists on a known hash (see Sign).
func NewDeterministic(priv *ecdsa.PrivateKey) (*Signer, error) {
	return newSigner(priv, true)
}

func newSigner(priv *ecdsa.PrivateKey, deterministic bool) (*Signer, error) {
	registerHooks.Do(register)
	if priv == nil || priv.Curve != elliptic.P256() {
		return nil, ErrCurve
	}
	raw, err := priv.Bytes()
	if err != nil || len(raw) != 32 {
		return nil, ErrPrivateKey
	}
	// raw is not ours to erase: crypto/ecdsa returns the private key it
	// caches for the caller's *ecdsa.PrivateKey, so clearing it would make
	// every later standard-library signature with priv use d = 0.
	var db [32]byte
	copy(db[:], raw)
	defer clear(db[:])
	s := &Signer{deterministic: deterministic}
	if _, err := s.d.SetBytes(db[:]); err != nil || s.d.IsZero() == 1 {
		return nil, ErrPrivateKey
	}

	// Recompute d·G and compare it with the public key.
	l := limbs(&db)
	var q point.Projective
	comb.ScalarBaseMult(&q, &l)
	clear(l[:])
	a, _ := q.Affine()
	ours := a.BytesUncompressed()
	theirs, err := priv.PublicKey.Bytes()
	if err != nil || string(theirs) != string(ours[:]) {
		return nil, ErrKeyMismatch
	}
	pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), ours[:])
	if err != nil {
		return nil, ErrKeyMismatch
	}
	s.pub = pub
	if s.table, err = keytab.New(pub, keytab.WidthLarge); err != nil {
		return nil, fmt.Errorf("sign: %w", err)
	}
	return s, nil
}

// Public returns the public key, an *ecdsa.PublicKey whose Curve is
// elliptic.P256() (crypto/tls compares it by identity). The caller must not
// modify it.
func (s *Signer) Public() crypto.PublicKey { return s.pub }

// counters returns the Signer's counters (see internal/signer.Counters).
func (s *Signer) counters() signer.Counters {
	return signer.Counters{
		Signatures:     s.signatures.Load(),
		Checks:         s.checks.Load(),
		FaultsDetected: s.faults.Load(),
	}
}

// Sign signs digest and returns the signature in ASN.1 DER form, exactly as
// ecdsa.SignASN1 encodes it. The digest enters the signature through
// bits2int: its leftmost 256 bits, or all of it (as an integer) if shorter.
//
// A hedged Signer (New) signs a digest of any length, including 0, and does
// not look at opts (which may be nil), like (*ecdsa.PrivateKey).Sign with a
// non-nil rand: the 20-byte SHA-1 digests crypto/tls signs in TLS 1.0 and
// 1.1 sign like any other. The HMAC hash of its nonce is SHA-384 for a
// 48-byte digest, SHA-512 for a 64-byte one and SHA-256 otherwise (a hedged
// nonce need not match another implementation's, and SHA-1 or SHA-224 would
// gain nothing). The fresh randomness is read from rand, or from
// crypto/rand when rand is nil (where crypto/ecdsa would sign
// deterministically: use NewDeterministic for that).
//
// A deterministic Signer (NewDeterministic) ignores rand and returns exactly
// the RFC 6979 signature, byte for byte the one (*ecdsa.PrivateKey).Sign
// returns with a nil rand, for an opts.HashFunc() of SHA-1, SHA-224,
// SHA-256, SHA-384 or SHA-512 and a digest of that hash's size. It returns
// ErrHash for nil opts and for any other hash, and ErrDigestLength for a
// digest of another length. (crypto/ecdsa also signs deterministically
// with the other hashes linked into the binary, such as MD5, SHA-512/256 or
// SHA-3: that is the one case where a deterministic Signer refuses what the
// raw key signs. For crypto.Hash(0), MD5SHA1 and hashes not linked in,
// crypto/ecdsa panics and Sign returns ErrHash.)
//
// The signature is verified against the key's table before it is returned.
// If that fails, Sign returns an error wrapping ErrFaultDetected and no
// signature, and counts the event. No other error changes the counters.
func (s *Signer) Sign(rand io.Reader, digest []byte, opts crypto.SignerOpts) ([]byte, error) {
	h, err := s.nonceHash(digest, opts)
	if err != nil {
		return nil, err
	}
	return s.sign(rand, digest, h, true)
}

// signUnchecked is Sign without the verification of the result, for this
// module's benchmarks and timing tests (through internal/signer). It signs a
// digest of any length and picks the nonce's HMAC hash from that length:
// SHA-384 for 48 bytes, SHA-512 for 64, for a deterministic Signer also
// SHA-1 for 20 and SHA-224 for 28, and SHA-256 for any other length. So a
// hedged Signer returns what Sign returns for the same randomness, and a
// deterministic one returns RFC 6979's signature (Sign's) for the digest of
// any of the five hashes Sign supports.
func (s *Signer) signUnchecked(rand io.Reader, digest []byte) ([]byte, error) {
	return s.sign(rand, digest, s.lengthHash(len(digest)), false)
}

// nonceHash returns the HMAC hash of the nonce Sign derives for digest and
// opts, or the error Sign returns. Public inputs only.
func (s *Signer) nonceHash(digest []byte, opts crypto.SignerOpts) (crypto.Hash, error) {
	if s.deterministic {
		return rfc6979Hash(digest, opts)
	}
	// Like the raw key with a non-nil rand: any digest, opts not read.
	return s.lengthHash(len(digest)), nil
}

// rfc6979Hash returns opts.HashFunc() if a deterministic Signer signs digest
// with it, or the error Sign returns.
func rfc6979Hash(digest []byte, opts crypto.SignerOpts) (crypto.Hash, error) {
	if opts == nil {
		return 0, ErrHash
	}
	h := opts.HashFunc()
	switch h {
	case crypto.SHA1, crypto.SHA224, crypto.SHA256, crypto.SHA384, crypto.SHA512:
	default:
		return 0, ErrHash
	}
	if len(digest) != h.Size() {
		return 0, ErrDigestLength
	}
	return h, nil
}

// lengthHash is the nonce's HMAC hash for a digest of n bytes when opts
// does not decide it (hedged signing, SignUnchecked).
func (s *Signer) lengthHash(n int) crypto.Hash {
	switch {
	case n == 48:
		return crypto.SHA384
	case n == 64:
		return crypto.SHA512
	case n == 20 && s.deterministic:
		return crypto.SHA1
	case n == 28 && s.deterministic:
		return crypto.SHA224
	}
	return crypto.SHA256
}

// state is the scratch space of one signature. It lives in a sync.Pool so
// that signing does not allocate, and every secret in it is erased before it
// goes back. Each value of the computation has one field; the scalars mod n
// are in Montgomery form (scalar.Scalar), and a value also has a byte or
// limb form only where a consumer outside this package takes that form.
type state struct {
	gen  *nonce.Generator
	key  [32]byte // int2octets(d): the nonce generator's key
	rand [32]byte // the fresh randomness of a hedged nonce

	k      [32]byte  // the nonce, big-endian, as internal/p256/nonce writes it
	kLimbs [4]uint64 // k as plain limbs, the comb's input
	kG     point.Projective
	x      [32]byte // x(k·G), big-endian (< p; r = x mod n)

	kM   scalar.Scalar // k
	e    scalar.Scalar // bits2int(digest) mod n
	r    scalar.Scalar
	t    scalar.Scalar // e + r·d
	u    scalar.Scalar // (k·t)⁻¹
	kInv scalar.Scalar // k⁻¹
	s    scalar.Scalar
	sInv scalar.Scalar // s⁻¹, for the check

	// The encodings released (r, s) and handed to the check (s⁻¹).
	rBytes, sBytes, sInvBytes [32]byte
}

var pool = sync.Pool{New: func() any { return &state{gen: nonce.New()} }}

// wipe erases every secret of st (r and s are public once released, but are
// erased too).
//
//p256tls:secret
func (st *state) wipe() {
	st.gen.Zero()
	g := st.gen
	*st = state{}
	st.gen = g
}

// sign signs digest with the nonce's HMAC hash h (one that internal/p256/nonce
// supports), verifying the signature first if check is set.
//
//p256tls:secret
func (s *Signer) sign(rand io.Reader, digest []byte, h crypto.Hash, check bool) ([]byte, error) {
	st := pool.Get().(*state)
	defer pool.Put(st)
	defer st.wipe()

	var rnd []byte
	if !s.deterministic {
		var err error
		if rand == nil {
			_, err = crand.Read(st.rand[:])
		} else {
			_, err = io.ReadFull(rand, st.rand[:])
		}
		if err != nil {
			return nil, fmt.Errorf("sign: reading randomness: %w", err)
		}
		rnd = st.rand[:]
	}
	st.key = s.d.Bytes()
	if err := st.gen.Start(h, &st.key, digest, rnd); err != nil {
		return nil, fmt.Errorf("sign: %w", err)
	}
	st.gen.Nonce(&st.k)
	for st.core(&s.d, digest) == 0 {
		// r = 0 or s = 0 (probability about 2^-256): RFC 6979 takes the next
		// candidate in range.
		for {
			st.gen.Next(&st.k)
			if inRange(&st.k) == 1 {
				break
			}
		}
	}
	s.signatures.Add(1)

	if check {
		s.checks.Add(1)
		if !s.table.VerifyInverse(digest, &st.rBytes, &st.sBytes, &st.sInvBytes) {
			s.faults.Add(1)
			return nil, fmt.Errorf("%w (signature #%d of this key)", ErrFaultDetected, s.signatures.Load())
		}
	}
	return encodeASN1(&st.rBytes, &st.sBytes), nil
}

// core computes the signature (st.rBytes, st.sBytes) of digest with the
// nonce st.k and private scalar d, and st.sInvBytes = s⁻¹ for the check. It
// returns 0 if r or s came out zero (the caller then retries with another
// nonce) and 1 otherwise. Constant time in d and k. Every intermediate passes
// through fault.Inject, which does nothing unless a test installed a hook.
//
// One inversion serves both k⁻¹ and s⁻¹: with t = e + r·d and
// u = (k·t)⁻¹, k⁻¹ = t·u, s = k⁻¹·t, and s⁻¹ = k/t = k²·u. The check does
// not trust s⁻¹: it multiplies it by the s released and refuses anything
// but 1 (keytab.Table.VerifyInverse).
//
//p256tls:secret
func (st *state) core(d *scalar.Scalar, digest []byte) int {
	// k·G, and x = X/Z by one constant-time safegcd division of the
	// Montgomery forms (X·R)/(Z·R), which is x itself. x < p < 2n, and
	// SetDigest's one conditional subtraction makes r = x mod n.
	st.kLimbs = limbs(&st.k)
	comb.ScalarBaseMult(&st.kG, &st.kLimbs)
	var x [4]uint64
	st.kG.AffineX(&x)
	putLimbs(&st.x, &x)
	clear(x[:])
	st.r.SetDigest(st.x[:])
	fault.Inject(fault.R, &st.r)
	st.rBytes = st.r.Bytes()

	// t = e + r·d, and u = (k·t)⁻¹ (0 when t = 0: then s = 0 and the
	// caller retries).
	st.e.SetDigest(digest)
	st.t.Mul(&st.r, d)
	st.t.Add(&st.t, &st.e)
	fault.Inject(fault.T, &st.t)
	st.kM.SetDigest(st.k[:]) // k ∈ [1, n−1]: taken as is
	st.u.Mul(&st.kM, &st.t)
	st.u.Invert(&st.u)
	fault.Inject(fault.U, &st.u)

	// k⁻¹ = t·u.
	st.kInv.Mul(&st.t, &st.u)
	fault.Inject(fault.KInv, &st.kInv)

	// s = k⁻¹·t.
	st.s.Mul(&st.kInv, &st.t)
	fault.Inject(fault.S, &st.s)
	st.sBytes = st.s.Bytes()

	// s⁻¹ = k²·u.
	st.sInv.Mul(&st.kM, &st.u)
	st.sInv.Mul(&st.sInv, &st.kM)
	fault.Inject(fault.W, &st.sInv)
	st.sInvBytes = st.sInv.Bytes()

	return 1 ^ (st.r.IsZero() | st.s.IsZero())
}

// limbs returns the little-endian limbs of a 32-byte big-endian value.
//
//p256tls:secret
func limbs(b *[32]byte) [4]uint64 {
	var l [4]uint64
	for i := range l {
		j := 24 - 8*i
		l[i] = uint64(b[j])<<56 | uint64(b[j+1])<<48 | uint64(b[j+2])<<40 | uint64(b[j+3])<<32 |
			uint64(b[j+4])<<24 | uint64(b[j+5])<<16 | uint64(b[j+6])<<8 | uint64(b[j+7])
	}
	return l
}

// putLimbs writes the little-endian limbs l as 32 big-endian bytes.
//
//p256tls:secret
func putLimbs(b *[32]byte, l *[4]uint64) {
	for i := range l {
		j := 24 - 8*i
		v := l[i]
		b[j], b[j+1], b[j+2], b[j+3] = byte(v>>56), byte(v>>48), byte(v>>40), byte(v>>32)
		b[j+4], b[j+5], b[j+6], b[j+7] = byte(v>>24), byte(v>>16), byte(v>>8), byte(v)
	}
}

// inRange returns 1 if the big-endian k is in [1, n−1], in constant time.
//
//p256tls:secret
func inRange(k *[32]byte) int {
	l := limbs(k)
	return ct.InRange(&l, &scalar.N)
}
