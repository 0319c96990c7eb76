// Package nonce generates the per-signature secret k of ECDSA over P-256.
//
// Two constructions are provided, both driven by the HMAC_DRBG of RFC 6979
// section 3.2 with rejection sampling (step h):
//
//   - Deterministic ECDSA, RFC 6979 section 3.2, when no fresh randomness is
//     supplied. Steps d and f hash V || sep || int2octets(x) || bits2octets(h1).
//
//   - Hedged ECDSA, draft-irtf-cfrg-det-sigs-with-noise-05 ("Hedged ECDSA and
//     EdDSA Signatures", March 2025), section 4, when 32 fresh random bytes Z
//     are supplied. Steps d and f are replaced by
//
//     K = HMAC_K(V || sep || Z || 000... || int2octets(x) || 000... || bits2octets(h1))
//
//     with sep = 0x00 in step d and 0x01 in step f, the same Z in both steps,
//     and each run of zero bytes the shortest (possibly empty) one that makes
//     (V || sep || Z || 000...) and (int2octets(x) || 000...) whole multiples
//     of the hash block size. All other steps are those of RFC 6979.
//
// The curve is fixed: qlen = 256, rlen = 32 bytes, and
// n = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551.
// The HMAC hash is SHA-1, SHA-224, SHA-256, SHA-384 or SHA-512. RFC 6979
// step h.2 builds each candidate T from as many successive V = HMAC_K(V)
// as it takes to reach qlen bits and keeps the leftmost 256: one V for
// SHA-256, SHA-384 and SHA-512 (hlen >= qlen), two for SHA-1 (160 bits) and
// SHA-224 (224 bits).
//
// Secret inputs and the DRBG state never select a branch or a memory address,
// with two documented exceptions: Start reports whether the private key lies
// in [1, n-1], and Nonce repeats its loop while the candidate is out of range
// (probability about 2^-32 per candidate), revealing only how many rejected
// candidates were discarded.
package nonce

import (
	"crypto"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"errors"
)

var (
	errHash = errors.New("nonce: unsupported hash (want SHA-1, SHA-224, SHA-256, SHA-384 or SHA-512)")
	errRand = errors.New("nonce: rnd must be empty or exactly 32 bytes")
	errKey  = errors.New("nonce: private key not in [1, n-1]")
)

const (
	scalarLen = 32 // rlen/8 for P-256; also the length of int2octets(x) and Z

	// maxMsg is the longest HMAC input of steps d and f: hedged SHA-384 or
	// SHA-512 lays out 128 (V, sep, Z, zeros) + 128 (x, zeros) + 32 (h1).
	maxMsg = 128 + 128 + scalarLen
)

// Generator states.
const (
	idle      = iota // no Start yet, failed Start, or after Zero
	started          // steps a-g done, no candidate produced yet
	candidate        // at least one candidate produced
)

// Generator holds the HMAC_DRBG state (K, V) of one nonce derivation and the
// hash objects to compute it. The zero value is not usable; create it with
// New and reuse it for any number of Start calls. Once created it performs
// no heap allocation.
//
// A Generator is not safe for concurrent use; callers that sign from many
// goroutines keep a sync.Pool of them. Call Zero before putting one back to
// erase the secret state.
type Generator struct {
	e     *engine // engine of the current derivation; nil unless started
	state uint8

	sha1, sha224, sha256, sha384, sha512 engine

	k   [64]byte     // K, hlen bytes used
	msg [maxMsg]byte // V || sep || provided data; V always lives in msg[:hlen]
	t   [64]byte     // inner HMAC digest
	pad [128]byte    // K xor ipad/opad block
}

// New returns a Generator with its SHA-1, SHA-224, SHA-256, SHA-384 and
// SHA-512 states allocated. This is the only allocating call of the package.
func New() *Generator {
	g := new(Generator)
	g.sha1.init(sha1.New(), &g.pad)
	g.sha224.init(sha256.New224(), &g.pad)
	g.sha256.init(sha256.New(), &g.pad)
	g.sha384.init(sha512.New384(), &g.pad)
	g.sha512.init(sha512.New(), &g.pad)
	return g
}

// Start begins a nonce derivation, performing steps a to g of RFC 6979
// section 3.2 (or their hedged replacements). After a successful Start, call
// Nonce, or Next as often as needed.
//
//   - h selects the HMAC hash: crypto.SHA1, crypto.SHA224, crypto.SHA256,
//     crypto.SHA384 or crypto.SHA512. For RFC 6979 it must be the hash that
//     produced h1; Start does not check that (h1 may have any length).
//   - x is the private key as 32 big-endian bytes (int2octets(x)); it must be
//     in [1, n-1].
//   - h1 is the message digest, of any length; it is converted with
//     bits2octets: its leftmost 256 bits are taken as an integer (shorter
//     digests are zero-extended on the left) and reduced modulo n.
//   - rnd is nil (or empty) for deterministic RFC 6979 nonces, or exactly 32
//     fresh random bytes for hedged nonces. It must be secret.
//
// Start copies its inputs and keeps no reference to them; the copies of x,
// h1 and rnd are erased before it returns. On error the Generator holds no
// derivation, and Next panics until a Start succeeds.
//
//p256tls:secret
func (g *Generator) Start(h crypto.Hash, x *[32]byte, h1, rnd []byte) error {
	g.e = nil
	g.state = idle

	var e *engine
	switch h {
	case crypto.SHA1:
		e = &g.sha1
	case crypto.SHA224:
		e = &g.sha224
	case crypto.SHA256:
		e = &g.sha256
	case crypto.SHA384:
		e = &g.sha384
	case crypto.SHA512:
		e = &g.sha512
	default:
		return errHash
	}
	if len(rnd) != 0 && len(rnd) != scalarLen {
		return errRand
	}
	if inRange(x, &order) != 1 {
		return errKey
	}

	hlen := e.size
	msg := g.msg[:]
	v := msg[:hlen]

	// Step b: V = 0x01 0x01 ... 0x01. Step c (K = 0x00 ... 0x00) is implicit:
	// the engine keeps the precomputed HMAC states of the all-zero key.
	for i := range v {
		v[i] = 0x01
	}

	// Lay out the rest of the step d input after V || sep.
	p := hlen + 1
	if len(rnd) == 0 {
		p += copy(msg[p:], x[:])
	} else {
		p += copy(msg[p:], rnd)
		p = zeroPad(msg, p, e.block)
		p += copy(msg[p:], x[:])
		p = zeroPad(msg, p, e.block)
	}
	bits2octets((*[scalarLen]byte)(msg[p:p+scalarLen]), h1)
	p += scalarLen
	in := msg[:p]
	k := g.k[:hlen]

	// Step d: K = HMAC_K(V || 0x00 || provided data), K = 0 the initial key.
	msg[hlen] = 0x00
	e.mac(e.zeroInner, e.zeroOuter, in, k, &g.t)
	e.setKey(k)
	// Step e: V = HMAC_K(V).
	e.mac(e.inner, e.outer, v, v, &g.t)
	// Step f: K = HMAC_K(V || 0x01 || provided data).
	msg[hlen] = 0x01
	e.mac(e.inner, e.outer, in, k, &g.t)
	e.setKey(k)
	// Step g: V = HMAC_K(V).
	e.mac(e.inner, e.outer, v, v, &g.t)

	// Erase the copies of Z, x and h1; only K and V are needed from here on.
	clear(msg[hlen:p])

	g.e = e
	g.state = started
	return nil
}

// zeroPad zeroes b[p:q], where q is the smallest multiple of block that is
// >= p, and returns q.
//
//p256tls:secret
func zeroPad(b []byte, p, block int) int {
	q := (p + block - 1) / block * block
	clear(b[p:q])
	return q
}

// Next writes the next candidate for k to *k: bits2int(T) as 32 big-endian
// bytes, with T the leftmost 256 bits of V_1 || V_2 || ..., each
// V_i = HMAC_K(V) of the previous V (RFC 6979 steps h.1, h.2: one V for
// SHA-256/384/512, two for SHA-1 and SHA-224). The candidate is NOT checked: the caller accepts it if
// 1 <= k <= n-1 and otherwise (or if the signature comes out with r = 0 or
// s = 0) calls Next again, which first applies the step h.3 update
// K = HMAC_K(V || 0x00), V = HMAC_K(V).
//
// Next panics if the Generator has no derivation in progress (no successful
// Start since New or Zero).
//
//p256tls:secret
func (g *Generator) Next(k *[32]byte) {
	e := g.e
	if g.state == idle || e == nil {
		panic("nonce: Next called without a successful Start")
	}
	hlen := e.size
	v := g.msg[:hlen]
	if g.state == candidate {
		// Step h.3: K = HMAC_K(V || 0x00); V = HMAC_K(V).
		g.msg[hlen] = 0x00
		e.mac(e.inner, e.outer, g.msg[:hlen+1], g.k[:hlen], &g.t)
		e.setKey(g.k[:hlen])
		e.mac(e.inner, e.outer, v, v, &g.t)
	}
	// Step h.2: while tlen < qlen, V = HMAC_K(V) and T = T || V; k is the
	// leftmost qlen bits of T. Each V lands directly at its offset in k and
	// the copy stops at 32 bytes, so a final partial block (the last 12
	// bytes of SHA-1's second V, the last 24 of SHA-224's) is dropped. The
	// number of rounds depends on hlen only.
	for off := 0; off < scalarLen; off += hlen {
		e.mac(e.inner, e.outer, v, v, &g.t)
		copy(k[off:], v)
	}
	g.state = candidate
}

// Nonce writes to *k the first candidate of Next that lies in [1, n-1],
// which is the RFC 6979 nonce (or the hedged one). Call it once after Start;
// if the signature must be retried (r = 0 or s = 0), call Next and check the
// range of its output.
//
// The range check is constant time (a borrow chain against n and an OR of
// the limbs); the only branch is the loop exit, taken on the public fact
// that a valid candidate was found. A candidate is rejected with probability
// about 2^-32, so the loop almost never repeats.
//
//p256tls:secret
func (g *Generator) Nonce(k *[32]byte) {
	g.nonceBelow(k, &order)
}

// nonceBelow is Nonce with an arbitrary exclusive upper bound, so that tests
// can force rejections through the same code path.
//
//p256tls:secret
func (g *Generator) nonceBelow(k *[32]byte, bound *[4]uint64) {
	for {
		g.Next(k)
		if inRange(k, bound) == 1 {
			return
		}
	}
}

// Zero erases K, V, every scratch buffer and every saved or live hash state,
// as far as Go allows (copies the runtime made on the stack are out of
// reach). The Generator stays usable: Start may be called again.
//
//p256tls:secret
func (g *Generator) Zero() {
	clear(g.k[:])
	clear(g.msg[:])
	clear(g.t[:])
	clear(g.pad[:])
	g.sha1.wipe()
	g.sha224.wipe()
	g.sha256.wipe()
	g.sha384.wipe()
	g.sha512.wipe()
	g.e = nil
	g.state = idle
}
