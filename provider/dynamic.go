package provider

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/subtle"
	"crypto/tls"
	"crypto/x509"
	"github.com/p256tls/p256tls/internal/ecdsasig"
	"sync"
	"sync/atomic"
	"time"
)

// defaultCacheSize is the number of keys DefaultCache holds, and the size
// NewCache uses for a size <= 0. One entry costs about 33 KiB (the key's
// table), so the default bounds the cache at about 17 MiB.
const defaultCacheSize = 512

// Cache turns certificates that arrive at run time (from
// tls.Config.GetCertificate, an ACME client such as autocert or certmagic,
// a SPIFFE X509-SVID source, ...) into certificates signed by the checked
// comb signer, building one signer and table per P-256 key, not per
// certificate and never per handshake.
//
// Entries are keyed by the public key's encoding and bound to the private
// key they were built from: a certificate whose private key object is not
// that one is used only if its private scalar is equal (compared in
// constant time); otherwise it is returned unchanged and counted as a
// fallback. The cache holds at most its size in keys, least recently used
// first out, and a key whose certificates have all expired is dropped when
// a key is added (or by Sweep) if it has not been used since the previous
// such pass: a key still served with expired certificates keeps its table.
//
// A Cache is safe for concurrent use. The zero Cache is not usable; make
// one with NewCache, or use DefaultCache.
type Cache struct {
	size int
	now  func() time.Time // time.Now; tests replace it

	mu      sync.Mutex
	entries map[string]*entry
	head    entry // sentinel of the LRU list: head.next is the most recent

	hits, builds, waits, evictions, expired, fallbacks, failures atomic.Uint64
}

// CacheStats are a Cache's counters since it was made, and its size.
type CacheStats struct {
	// Hits counts certificates whose key was already in the cache.
	Hits uint64 `json:"hits"`
	// Builds counts the signers (tables) built: one per key added.
	Builds uint64 `json:"builds"`
	// Waits counts callers that waited for another caller's build of the
	// same key (counted in Hits too when that build succeeded).
	Waits uint64 `json:"waits"`
	// Evictions counts entries dropped because the cache was full.
	Evictions uint64 `json:"evictions"`
	// Expired counts entries dropped because all their certificates had
	// expired and they had not been used since the previous pass (see
	// Sweep).
	Expired uint64 `json:"expired"`
	// Fallbacks counts certificates returned unchanged: keys other than
	// P-256 (whose signatures are then made by their standard signer and
	// are not seen by the provider), opaque crypto.Signers, and
	// certificates whose key does not match their leaf or their cached
	// entry.
	Fallbacks uint64 `json:"fallbacks"`
	// BuildFailures counts P-256 keys the comb signer refused (a public
	// key that is not d·G, a scalar out of range); they are in Fallbacks
	// too and are never cached.
	BuildFailures uint64 `json:"build_failures"`
	// Entries is the number of keys in the cache now; Size its bound.
	Entries int `json:"entries"`
	Size    int `json:"size"`
}

// maxLeaves bounds the certificates remembered per key (a key kept across
// renewals, as autocert does, is seen with a new leaf at each renewal).
const maxLeaves = 4

// entry is one key of the cache.
type entry struct {
	pub        string // uncompressed public point, the map key
	prev, next *entry

	// done is closed when the build has finished; k and d are set before
	// and never change after it. k is nil if the build failed.
	done chan struct{}
	k    *key
	d    [32]byte // the private scalar the entry is bound to (secret)

	// Guarded by Cache.mu.
	priv     *ecdsa.PrivateKey // a private key object known to hold d
	leaves   [maxLeaves][]byte // leaf certificates checked against the key
	nLeaves  int
	notAfter time.Time // the latest NotAfter among leaves
	// used: the entry has handed out its signer (or was built) since the
	// last expiry pass; such an entry is kept by the pass, expired or not.
	used bool
}

var defaultCache = NewCache(defaultCacheSize)

// DefaultCache returns the process's cache, the one HookServerConfig,
// HookClientConfig, Client and Dialer use: 512 keys (about 17 MiB of
// tables at most). Wrap a callback with DefaultCache().WrapGetCertificate
// to share it; its Stats show the hooks' conversions.
func DefaultCache() *Cache { return defaultCache }

// NewCache returns an empty cache holding at most size keys (512, as
// DefaultCache, if size <= 0). One key costs about 33 KiB (its table).
func NewCache(size int) *Cache {
	if size <= 0 {
		size = defaultCacheSize
	}
	c := &Cache{size: size, now: time.Now, entries: make(map[string]*entry)}
	c.head.next, c.head.prev = &c.head, &c.head
	return c
}

// Stats returns the cache's counters.
func (c *Cache) Stats() CacheStats {
	c.mu.Lock()
	n := len(c.entries)
	c.mu.Unlock()
	return CacheStats{
		Hits: c.hits.Load(), Builds: c.builds.Load(), Waits: c.waits.Load(),
		Evictions: c.evictions.Load(), Expired: c.expired.Load(),
		Fallbacks: c.fallbacks.Load(), BuildFailures: c.failures.Load(),
		Entries: n, Size: c.size,
	}
}

// WrapGetCertificate returns a tls.Config.GetCertificate that calls f and,
// when f returns a certificate with a P-256 *ecdsa.PrivateKey that belongs
// to its leaf, returns a copy of it whose PrivateKey is the key's checked
// comb signer, taken from the cache or built (once per key; concurrent
// first callers wait for that one build, or for the handshake's context).
// The copy shares everything else with f's certificate; f's certificate is
// not modified. Any other certificate (other keys, opaque crypto.Signers,
// a key that does not match its leaf; every certificate when
// fips140.Enforced(), under GODEBUG=fips140=only) is returned unchanged and
// counted as a fallback; f's errors and nil certificates are returned
// unchanged. A nil f gives a nil callback.
//
// Signatures of the comb signers count in TotalStats and the expvar view
// like a static identity's.
func (c *Cache) WrapGetCertificate(f func(*tls.ClientHelloInfo) (*tls.Certificate, error)) func(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	return wrapGet(c, f)
}

// WrapGetClientCertificate is WrapGetCertificate for a client's
// tls.Config.GetClientCertificate (mutual TLS).
func (c *Cache) WrapGetClientCertificate(f func(*tls.CertificateRequestInfo) (*tls.Certificate, error)) func(*tls.CertificateRequestInfo) (*tls.Certificate, error) {
	return wrapGet(c, f)
}

// wrapGet is WrapGetCertificate and WrapGetClientCertificate for the
// callback's argument type I (*tls.ClientHelloInfo or
// *tls.CertificateRequestInfo, whose Context is the handshake's).
func wrapGet[I interface{ Context() context.Context }](c *Cache, f func(I) (*tls.Certificate, error)) func(I) (*tls.Certificate, error) {
	if f == nil {
		return nil
	}
	return func(info I) (*tls.Certificate, error) {
		cert, err := f(info)
		if err != nil || cert == nil {
			return cert, err
		}
		return c.Certificate(info.Context(), cert), nil
	}
}

// Certificate returns cert with its private key replaced by the checked
// comb signer of its key, or cert itself when that is not possible (see
// WrapGetCertificate). A certificate already signed by the provider is
// returned as it is, and not counted. ctx bounds the wait for another
// caller's build of the same key (nil means no bound); when it is done
// first, cert is returned unchanged and counted as a fallback. cert is not
// modified, and must not be modified while the result is in use.
func (c *Cache) Certificate(ctx context.Context, cert *tls.Certificate) *tls.Certificate {
	if cert == nil {
		return nil
	}
	if _, ok := cert.PrivateKey.(*key); ok {
		return cert
	}
	k := c.lookup(ctx, cert)
	if k == nil {
		c.fallbacks.Add(1)
		return cert
	}
	out := *cert
	out.PrivateKey = k
	return &out
}

// lookup finds or builds the signer for cert's key, or returns nil when the
// certificate is to be returned unchanged.
func (c *Cache) lookup(ctx context.Context, cert *tls.Certificate) *key {
	priv, ok := cert.PrivateKey.(*ecdsa.PrivateKey)
	if !ok || priv == nil || priv.Curve != elliptic.P256() || len(cert.Certificate) == 0 || !combAllowed() {
		return nil
	}
	var pubBuf [65]byte
	if !encodePoint(&pubBuf, priv) {
		return nil
	}
	leafDER := cert.Certificate[0]

	c.mu.Lock()
	e := c.entries[string(pubBuf[:])]
	known := e != nil && e.k != nil && e.hasLeaf(leafDER)
	if known && e.priv == priv {
		// The fast path: this very key object and leaf were checked before.
		c.touch(e) // now the most recently used
		c.mu.Unlock()
		c.hits.Add(1)
		return e.k
	}
	c.mu.Unlock()

	// A leaf the cache has not seen with this key: check it against the
	// key, outside the lock. (A known leaf's public key is the entry's,
	// which is priv's.)
	var leaf *x509.Certificate
	if !known {
		if leaf = checkedLeaf(cert, priv); leaf == nil {
			return nil
		}
	}
	var d [32]byte
	defer clear(d[:])
	if !scalarBytes(&d, priv) {
		return nil
	}

	for {
		c.mu.Lock()
		e = c.entries[string(pubBuf[:])]
		if e == nil && leaf == nil {
			// The entry that knew the leaf has just left: check it now.
			c.mu.Unlock()
			if leaf = checkedLeaf(cert, priv); leaf == nil {
				return nil
			}
			continue
		}
		if e == nil {
			break
		}
		select {
		case <-e.done:
		default:
			// Another caller is building this key's table: wait for it.
			c.mu.Unlock()
			c.waits.Add(1)
			if !waitDone(ctx, e.done) {
				return nil
			}
			continue
		}
		if !sameScalar(&e.d, &d) {
			// Same public key, different private key: never sign with the
			// cached signer.
			c.mu.Unlock()
			return nil
		}
		e.priv = priv
		if leaf != nil {
			e.addLeaf(leafDER, leaf.NotAfter)
		}
		c.touch(e)
		c.mu.Unlock()
		c.hits.Add(1)
		return e.k
	}

	// Not in the cache: add an entry under construction, build outside the
	// lock, and publish.
	e = &entry{pub: string(pubBuf[:]), done: make(chan struct{}), d: d, used: true}
	c.entries[e.pub] = e
	c.pushFront(e)
	c.mu.Unlock()

	k, err := newCombKey(priv, describe(leaf))
	c.mu.Lock()
	if err != nil {
		c.failures.Add(1)
		c.unlink(e)
		close(e.done)
		c.mu.Unlock()
		return nil
	}
	c.builds.Add(1)
	e.k = k
	e.priv = priv
	e.addLeaf(leafDER, leaf.NotAfter)
	close(e.done)
	c.dropExpiredLocked(e)
	for len(c.entries) > c.size {
		c.unlink(c.head.prev)
		c.evictions.Add(1)
	}
	c.mu.Unlock()
	return k
}

// checkedLeaf returns cert's parsed leaf if priv is its key, else nil.
func checkedLeaf(cert *tls.Certificate, priv *ecdsa.PrivateKey) *x509.Certificate {
	leaf := cert.Leaf
	if leaf == nil || !bytes.Equal(leaf.Raw, cert.Certificate[0]) {
		var err error
		if leaf, err = x509.ParseCertificate(cert.Certificate[0]); err != nil {
			return nil
		}
	}
	if !priv.PublicKey.Equal(leaf.PublicKey) {
		return nil
	}
	return leaf
}

// waitDone waits for done, or for ctx to be done first (then false).
func waitDone(ctx context.Context, done chan struct{}) bool {
	if ctx == nil {
		<-done
		return true
	}
	select {
	case <-done:
		return true
	case <-ctx.Done():
		return false
	}
}

// Sweep drops the keys whose certificates have all expired and that have
// not been used since the previous pass (a pass is a Sweep or the addition
// of a key, which makes one anyway), and returns how many it dropped. A key
// still being served with expired certificates stays.
func (c *Cache) Sweep() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.dropExpiredLocked(nil)
}

// dropExpiredLocked is an expiry pass: it drops the built entries, other
// than keep, whose every leaf has expired and that have not been used
// since the last pass, and starts a new period of use for the others.
// Dropping an expired entry in use would rebuild its table at its next
// handshake, and an expired key may well be in use: internal services
// serve expired certificates to clients that skip verification.
func (c *Cache) dropExpiredLocked(keep *entry) int {
	now := c.now()
	n := 0
	for e := c.head.next; e != &c.head; {
		next := e.next
		if e != keep && e.k != nil {
			if !e.used && now.After(e.notAfter) {
				c.unlink(e)
				c.expired.Add(1)
				n++
			}
			e.used = false
		}
		e = next
	}
	return n
}

func (e *entry) hasLeaf(der []byte) bool {
	for i := 0; i < e.nLeaves; i++ {
		if bytes.Equal(e.leaves[i], der) {
			return true
		}
	}
	return false
}

// addLeaf remembers a leaf checked against the entry's key, forgetting the
// oldest when full.
func (e *entry) addLeaf(der []byte, notAfter time.Time) {
	if notAfter.After(e.notAfter) {
		e.notAfter = notAfter
	}
	if e.hasLeaf(der) {
		return
	}
	if e.nLeaves == maxLeaves {
		copy(e.leaves[:], e.leaves[1:])
		e.nLeaves--
	}
	e.leaves[e.nLeaves] = der
	e.nLeaves++
}

func (c *Cache) pushFront(e *entry) {
	e.prev, e.next = &c.head, c.head.next
	c.head.next.prev = e
	c.head.next = e
}

// touch marks e used and the most recently used.
func (c *Cache) touch(e *entry) {
	e.used = true
	if c.head.next == e {
		return
	}
	e.prev.next, e.next.prev = e.next, e.prev
	c.pushFront(e)
}

// unlink removes e from the list and the map, if it is still there, and
// erases its copy of the private scalar. Holders of e.k keep signing with
// it; the key's counters retire when the last of them lets it go.
func (c *Cache) unlink(e *entry) {
	if e.prev == nil {
		return
	}
	e.prev.next, e.next.prev = e.next, e.prev
	e.prev, e.next = nil, nil
	delete(c.entries, e.pub)
	clear(e.d[:])
}

// encodePoint writes the uncompressed encoding of priv's public point, or
// reports false if its coordinates do not fit (it is then no P-256 point).
// It reads the coordinates directly: PublicKey.Bytes allocates and validates.
func encodePoint(buf *[65]byte, priv *ecdsa.PrivateKey) bool {
	return ecdsasig.PublicKeyBytes(buf[:], &priv.PublicKey, 32) != nil
}

// scalarBytes writes priv's private scalar in 32 big-endian bytes, or
// reports false if it is out of range (the comb signer refuses such keys).
// Like crypto/ecdsa's own conversion it goes through math/big: its branches
// depend on the scalar's range and word length only, not on its bits.
func scalarBytes(d *[32]byte, priv *ecdsa.PrivateKey) bool {
	if priv.D == nil || priv.D.Sign() <= 0 || priv.D.BitLen() > 256 {
		return false
	}
	priv.D.FillBytes(d[:])
	return true
}

// sameScalar compares two private scalars in constant time.
func sameScalar(a, b *[32]byte) bool {
	return subtle.ConstantTimeCompare(a[:], b[:]) == 1
}
