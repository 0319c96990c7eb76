package provider

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"math/big"
	"net/url"
	"sync"
	"testing"
	"time"
)

// fresh returns a new *tls.Certificate per call, sharing cert's fields, as
// autocert, certmagic and go-spiffe do.
func fresh(cert tls.Certificate) func(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	return func(*tls.ClientHelloInfo) (*tls.Certificate, error) {
		c := cert
		return &c, nil
	}
}

// reparsed returns a copy of cert whose private key is a new object with
// the same value (as a GetCertificate that parses its key on every call).
func reparsed(t testing.TB, cert tls.Certificate) tls.Certificate {
	t.Helper()
	der, err := x509.MarshalPKCS8PrivateKey(cert.PrivateKey)
	if err != nil {
		t.Fatal(err)
	}
	k, err := x509.ParsePKCS8PrivateKey(der)
	if err != nil {
		t.Fatal(err)
	}
	cert.PrivateKey = k
	return cert
}

func wantCacheStats(t *testing.T, c *Cache, want CacheStats) {
	t.Helper()
	got := c.Stats()
	want.Size = c.size
	if got != want {
		t.Fatalf("cache stats %+v, want %+v", got, want)
	}
}

// signWith signs a digest with cert's key and verifies the signature with
// crypto/ecdsa against want.
func signWith(t *testing.T, cert *tls.Certificate, want *ecdsa.PublicKey) {
	t.Helper()
	digest := sha256.Sum256([]byte("p256tls"))
	sig, err := cert.PrivateKey.(crypto.Signer).Sign(rand.Reader, digest[:], crypto.SHA256)
	if err != nil {
		t.Fatal(err)
	}
	if !ecdsa.VerifyASN1(want, digest[:], sig) {
		t.Fatal("the signature does not verify under the certificate's key")
	}
}

func TestWrapGetCertificateHandshakes(t *testing.T) {
	cert := ca(t).issue(t, newKey(t, "P-256"), "dyn.test")
	c := NewCache(0)
	srv := startServer(t, &tls.Config{GetCertificate: c.WrapGetCertificate(fresh(cert))})
	for _, version := range []uint16{tls.VersionTLS12, tls.VersionTLS13} {
		cfg := clientConfig("dyn.test")
		cfg.MaxVersion = version
		before := TotalStats()
		for i := 0; i < 3; i++ {
			if _, err := handshake(srv.addr(), cfg); err != nil {
				t.Fatalf("%s: %v (server: %v)", tls.VersionName(version), err, srv.errors())
			}
		}
		if d := statsDelta(TotalStats(), before); d != (Stats{Signatures: 3, Checks: 3}) {
			t.Fatalf("%s: total counters moved by %+v", tls.VersionName(version), d)
		}
	}
	wantCacheStats(t, c, CacheStats{Hits: 5, Builds: 1, Entries: 1})
	if DefaultCache().size != defaultCacheSize {
		t.Fatalf("default cache size %d", DefaultCache().size)
	}
}

func TestCacheCertificate(t *testing.T) {
	cert := ca(t).issue(t, newKey(t, "P-256"), "dyn.test")
	pub := &cert.PrivateKey.(*ecdsa.PrivateKey).PublicKey
	c := NewCache(4)

	got := c.Certificate(context.Background(), &cert)
	k, ok := got.PrivateKey.(*key)
	if !ok || k.comb == nil {
		t.Fatalf("PrivateKey is %T, want the comb signer", got.PrivateKey)
	}
	if got == &cert || cert.PrivateKey == got.PrivateKey {
		t.Fatal("the caller's certificate was modified or returned")
	}
	if &got.Certificate[0][0] != &cert.Certificate[0][0] || got.Leaf != cert.Leaf {
		t.Fatal("the copy does not share the chain and leaf")
	}
	signWith(t, got, pub)

	// The same key object, a new *tls.Certificate: the same signer.
	again := cert
	if g := c.Certificate(context.Background(), &again); g.PrivateKey != k {
		t.Fatal("a new *tls.Certificate with the same key got another signer")
	}
	// A new key object with the same value: the same signer.
	re := reparsed(t, cert)
	if g := c.Certificate(context.Background(), &re); g.PrivateKey != k {
		t.Fatal("a re-parsed private key got another signer")
	}
	// ... and the fast path afterwards, for the old object too.
	if g := c.Certificate(context.Background(), &cert); g.PrivateKey != k {
		t.Fatal("the first key object lost its signer")
	}
	// A provider certificate passes as it is, uncounted.
	if g := c.Certificate(context.Background(), got); g != got {
		t.Fatal("a provider certificate was not returned as it is")
	}
	wantCacheStats(t, c, CacheStats{Hits: 3, Builds: 1, Entries: 1})
	if c.Certificate(context.Background(), nil) != nil {
		t.Fatal("nil certificate")
	}
}

// TestCacheFallbacks: every certificate the comb signer cannot take is
// returned unchanged, counted, and never cached.
func TestCacheFallbacks(t *testing.T) {
	c := NewCache(4)
	p256 := ca(t).issue(t, newKey(t, "P-256"), "dyn.test")
	other := ca(t).issue(t, newKey(t, "P-256"), "other.test")

	mismatch := p256
	mismatch.PrivateKey = other.PrivateKey
	opaque := p256
	opaque.PrivateKey = opaqueSigner{p256.PrivateKey.(crypto.Signer)}
	badLeaf := p256
	badLeaf.Certificate = [][]byte{[]byte("not a certificate")}
	badLeaf.Leaf = nil
	noChain := p256
	noChain.Certificate = nil

	// A private key object whose public key is p256's but whose scalar is
	// not: sign.New refuses it (d·G ≠ Q).
	forged := p256
	pk := p256.PrivateKey.(*ecdsa.PrivateKey)
	forged.PrivateKey = &ecdsa.PrivateKey{PublicKey: pk.PublicKey, D: new(big.Int).Add(pk.D, big.NewInt(1))}

	cases := map[string]tls.Certificate{
		"P-384":     ca(t).issue(t, newKey(t, "P-384"), "dyn.test"),
		"RSA-2048":  ca(t).issue(t, newKey(t, "RSA-2048"), "dyn.test"),
		"Ed25519":   ca(t).issue(t, newKey(t, "Ed25519"), "dyn.test"),
		"mismatch":  mismatch,
		"opaque":    opaque,
		"bad leaf":  badLeaf,
		"no chain":  noChain,
		"forged":    forged,
		"no key":    {Certificate: p256.Certificate, Leaf: p256.Leaf},
		"zero D":    {Certificate: p256.Certificate, Leaf: p256.Leaf, PrivateKey: &ecdsa.PrivateKey{PublicKey: pk.PublicKey, D: new(big.Int)}},
		"P-224 key": {Certificate: p256.Certificate, PrivateKey: newKey(t, "P-224")},
	}
	n := uint64(0)
	for name, cert := range cases {
		cert := cert
		if got := c.Certificate(context.Background(), &cert); got != &cert {
			t.Fatalf("%s: the certificate was not returned unchanged", name)
		}
		n++
	}
	wantCacheStats(t, c, CacheStats{Fallbacks: n, BuildFailures: 1})

	// With p256 cached, the forged key still never signs with its signer.
	if got := c.Certificate(context.Background(), &p256); got == &p256 {
		t.Fatal("p256 was not converted")
	}
	for i := 0; i < 2; i++ {
		if got := c.Certificate(context.Background(), &forged); got != &forged {
			t.Fatal("a different private key for a cached public key got the cached signer")
		}
	}
	// ... nor does a key that does not match the leaf, after p256's leaf
	// was seen.
	if got := c.Certificate(context.Background(), &mismatch); got != &mismatch {
		t.Fatal("a key that does not match its leaf was converted")
	}
	// ... nor the cached key object itself with another certificate's leaf.
	foreign := tls.Certificate{Certificate: other.Certificate, Leaf: other.Leaf, PrivateKey: p256.PrivateKey}
	if got := c.Certificate(context.Background(), &foreign); got != &foreign {
		t.Fatal("a cached key with a leaf that is not its own was converted")
	}
	wantCacheStats(t, c, CacheStats{Fallbacks: n + 4, BuildFailures: 1, Builds: 1, Entries: 1})
}

func TestWrapCallbacksPassThrough(t *testing.T) {
	dc := DefaultCache()
	if dc.WrapGetCertificate(nil) != nil || dc.WrapGetClientCertificate(nil) != nil {
		t.Fatal("a nil callback must stay nil")
	}
	errBoom := errFor("boom")
	gc := dc.WrapGetCertificate(func(*tls.ClientHelloInfo) (*tls.Certificate, error) { return nil, errBoom })
	if c, err := gc(&tls.ClientHelloInfo{}); c != nil || err != errBoom {
		t.Fatalf("got %v, %v", c, err)
	}
	gcc := dc.WrapGetClientCertificate(func(*tls.CertificateRequestInfo) (*tls.Certificate, error) { return nil, nil })
	if c, err := gcc(&tls.CertificateRequestInfo{}); c != nil || err != nil {
		t.Fatalf("got %v, %v", c, err)
	}
	empty := &tls.Certificate{}
	gcc = dc.WrapGetClientCertificate(func(*tls.CertificateRequestInfo) (*tls.Certificate, error) { return empty, nil })
	if c, err := gcc(&tls.CertificateRequestInfo{}); c != empty || err != nil {
		t.Fatalf("got %v, %v", c, err)
	}
}

type errFor string

func (e errFor) Error() string { return string(e) }

// TestCacheLRU: the least recently used key leaves first, and an evicted
// signer keeps working for whoever holds it.
func TestCacheLRU(t *testing.T) {
	c := NewCache(2)
	var certs [3]tls.Certificate
	for i := range certs {
		certs[i] = ca(t).issue(t, newKey(t, "P-256"), "dyn.test")
	}
	ctx := context.Background()
	k0 := c.Certificate(ctx, &certs[0]).PrivateKey
	c.Certificate(ctx, &certs[1])
	c.Certificate(ctx, &certs[0]) // 0 is now the most recent
	c.Certificate(ctx, &certs[2]) // evicts 1
	wantCacheStats(t, c, CacheStats{Hits: 1, Builds: 3, Evictions: 1, Entries: 2})
	for i, want := range []bool{true, false, true} {
		if got := c.holds(certs[i].PrivateKey.(crypto.Signer).Public()); got != want {
			t.Fatalf("holds(key %d) = %v, want %v", i, got, want)
		}
	}
	if c.holds(newKey(t, "P-384").Public()) || c.holds(nil) {
		t.Fatal("holds accepted a key that is not P-256")
	}
	wantCacheStats(t, c, CacheStats{Hits: 1, Builds: 3, Evictions: 1, Entries: 2})
	if c.Certificate(ctx, &certs[0]).PrivateKey != k0 {
		t.Fatal("the most recently used key was evicted")
	}
	c.Certificate(ctx, &certs[1]) // rebuilt; evicts 2
	wantCacheStats(t, c, CacheStats{Hits: 2, Builds: 4, Evictions: 2, Entries: 2})
	signWith(t, &tls.Certificate{PrivateKey: k0}, &certs[0].PrivateKey.(*ecdsa.PrivateKey).PublicKey)
}

// TestCacheRenewalSameKey: a new leaf for a cached key (autocert keeps its
// key across renewals) reuses the table; the leaf's key is still checked.
func TestCacheRenewalSameKey(t *testing.T) {
	c := NewCache(4)
	priv := newKey(t, "P-256")
	ctx := context.Background()
	first := ca(t).issue(t, priv, "dyn.test")
	k := c.Certificate(ctx, &first).PrivateKey
	for i := 0; i < maxLeaves+2; i++ {
		renewed := ca(t).issue(t, priv, "dyn.test")
		renewed.Leaf = nil // parsed by the cache
		if c.Certificate(ctx, &renewed).PrivateKey != k {
			t.Fatal("a renewed certificate with the same key got a new signer")
		}
		// The renewed leaf, seen again, with a new key object: found.
		re := reparsed(t, renewed)
		if c.Certificate(ctx, &re).PrivateKey != k {
			t.Fatal("a renewed certificate with the same key got a new signer")
		}
	}
	wantCacheStats(t, c, CacheStats{Hits: 2 * (maxLeaves + 2), Builds: 1, Entries: 1})
	e := c.entries[c.head.next.pub]
	if e.nLeaves != maxLeaves {
		t.Fatalf("%d leaves remembered, want %d", e.nLeaves, maxLeaves)
	}
}

// TestCacheExpiry: entries whose certificates have all expired leave when
// a key is added, or on Sweep, once unused since the previous such pass.
func TestCacheExpiry(t *testing.T) {
	c := NewCache(8)
	now := time.Now()
	c.now = func() time.Time { return now }
	ctx := context.Background()
	a := ca(t).issue(t, newKey(t, "P-256"), "a.test") // valid 24 h
	b := ca(t).issue(t, newKey(t, "P-256"), "b.test")
	c.Certificate(ctx, &a)
	now = now.Add(23 * time.Hour)
	c.Certificate(ctx, &b) // a is still valid
	wantCacheStats(t, c, CacheStats{Builds: 2, Entries: 2})
	// a gets a renewed leaf (same key) valid 24 h from now's issue time.
	now = now.Add(2 * time.Hour) // a's and b's first leaves have expired
	// a has not been used since the pass b's build made: it leaves; b (its
	// build was a use) leaves at the next pass.
	if n := c.Sweep(); n != 1 || !c.holds(b.PrivateKey.(crypto.Signer).Public()) {
		t.Fatalf("Sweep dropped %d, want 1, a", n)
	}
	if n := c.Sweep(); n != 1 {
		t.Fatalf("Sweep dropped %d, want 1, b", n)
	}
	wantCacheStats(t, c, CacheStats{Builds: 2, Expired: 2})

	// A renewal keeps an entry alive: its latest-expiring leaf counts, in
	// whatever order the leaves are seen.
	now = time.Now()
	renewed := ca(t).issue(t, a.PrivateKey.(crypto.Signer), "a.test")
	renewed.Leaf.NotAfter = now.Add(72 * time.Hour) // as if issued later
	c.Certificate(ctx, &renewed)
	c.Certificate(ctx, &a)
	if n := c.Sweep(); n != 0 { // nothing has expired; a is no longer in use since
		t.Fatalf("Sweep dropped %d, want 0", n)
	}
	now = now.Add(48 * time.Hour)
	c.Certificate(ctx, &b) // drops nothing: a's renewed leaf is valid
	wantCacheStats(t, c, CacheStats{Builds: 4, Hits: 1, Expired: 2, Entries: 2})
	now = now.Add(48 * time.Hour)
	x := ca(t).issue(t, newKey(t, "P-256"), "x.test")
	c.Certificate(ctx, &x) // drops a; keeps b (built since the last pass) and x, expired too
	wantCacheStats(t, c, CacheStats{Builds: 5, Hits: 1, Expired: 3, Entries: 2})
	y := ca(t).issue(t, newKey(t, "P-256"), "y.test")
	c.Certificate(ctx, &y) // drops b
	wantCacheStats(t, c, CacheStats{Builds: 6, Hits: 1, Expired: 4, Entries: 2})
}

// TestCacheExpiredInService: a key whose certificates have all expired but
// that is still being served (an internal service whose clients skip
// verification) keeps its table: a wrapped callback alternating two such
// certificates builds two tables, not one per call, and such a key survives
// any number of passes made by new keys. Once it has not been used since a
// pass, the next pass drops it.
func TestCacheExpiredInService(t *testing.T) {
	c := NewCache(8)
	c.now = func() time.Time { return time.Now().Add(48 * time.Hour) } // every test leaf has expired
	certs := [2]tls.Certificate{ca(t).issue(t, newKey(t, "P-256"), "a.test"), ca(t).issue(t, newKey(t, "P-256"), "b.test")}
	calls := 0
	get := c.WrapGetCertificate(func(*tls.ClientHelloInfo) (*tls.Certificate, error) {
		cert := certs[calls%2]
		calls++
		return &cert, nil
	})
	for range 100 {
		if _, err := get(&tls.ClientHelloInfo{}); err != nil {
			t.Fatal(err)
		}
	}
	wantCacheStats(t, c, CacheStats{Builds: 2, Hits: 98, Entries: 2})

	// a stays in service while new keys come in; b is no longer served.
	ctx := context.Background()
	a, b := certs[0].PrivateKey.(crypto.Signer).Public(), certs[1].PrivateKey.(crypto.Signer).Public()
	for i := range 4 {
		n := ca(t).issue(t, newKey(t, "P-256"), "new.test")
		c.Certificate(ctx, &n)
		c.Certificate(ctx, &certs[0])
		if !c.holds(a) {
			t.Fatalf("pass %d dropped a key in service", i)
		}
		if c.holds(b) != (i == 0) {
			t.Fatalf("after pass %d, holds(b) = %v: b must leave at the first pass that finds it unused", i, c.holds(b))
		}
	}
	// Each new key has expired too and is used only at its build: it
	// survives the next pass and leaves at the one after (b and the first
	// two new keys have left).
	wantCacheStats(t, c, CacheStats{Builds: 6, Hits: 102, Expired: 3, Entries: 3})
	// Sweep is a pass as well: the third new key leaves; a (served since the
	// last pass) and the newest stay, then leave at the next.
	if n := c.Sweep(); n != 1 || !c.holds(a) {
		t.Fatalf("Sweep dropped %d (holds a: %v), want 1 and a kept", n, c.holds(a))
	}
	if n := c.Sweep(); n != 2 || c.holds(a) {
		t.Fatalf("Sweep dropped %d (holds a: %v), want 2, a among them", n, c.holds(a))
	}
}

// TestCacheSingleFlight: concurrent first callers with one new key build
// its table once.
func TestCacheSingleFlight(t *testing.T) {
	const n = 16
	for round := 0; round < 5; round++ {
		c := NewCache(4)
		cert := ca(t).issue(t, newKey(t, "P-256"), "dyn.test")
		var start, done sync.WaitGroup
		start.Add(n)
		keys := make([]any, n)
		for i := 0; i < n; i++ {
			done.Add(1)
			go func() {
				defer done.Done()
				cc := reparsed(t, cert)
				start.Done()
				start.Wait()
				keys[i] = c.Certificate(context.Background(), &cc).PrivateKey
			}()
		}
		done.Wait()
		for i := range keys {
			if keys[i] != keys[0] {
				t.Fatal("concurrent callers got different signers")
			}
		}
		st := c.Stats()
		if st.Builds != 1 || st.Hits != n-1 || st.Fallbacks != 0 {
			t.Fatalf("round %d: %+v", round, st)
		}
	}
}

// TestCacheWaitCanceled: a caller waiting for another's build gives up when
// its handshake's context is done, and falls back.
func TestCacheWaitCanceled(t *testing.T) {
	c := NewCache(4)
	cert := ca(t).issue(t, newKey(t, "P-256"), "dyn.test")
	var buf [65]byte
	encodePoint(&buf, cert.PrivateKey.(*ecdsa.PrivateKey))
	e := &entry{pub: string(buf[:]), done: make(chan struct{})}
	c.entries[e.pub] = e
	c.pushFront(e)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if got := c.Certificate(ctx, &cert); got != &cert {
		t.Fatal("a canceled wait did not fall back")
	}
	wantCacheStats(t, c, CacheStats{Waits: 1, Fallbacks: 1, Entries: 1})
	// When the build fails, the waiter builds for itself.
	go func() {
		time.Sleep(20 * time.Millisecond)
		c.mu.Lock()
		c.unlink(e)
		close(e.done)
		c.mu.Unlock()
	}()
	if got := c.Certificate(nil, &cert); got == &cert {
		t.Fatal("the waiter did not build after the failed build")
	}
	wantCacheStats(t, c, CacheStats{Waits: 2, Fallbacks: 1, Builds: 1, Entries: 1})
}

func TestEncodePoint(t *testing.T) {
	priv, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	var buf [65]byte
	if !encodePoint(&buf, priv) {
		t.Fatal("refused a P-256 key")
	}
	want, _ := priv.PublicKey.Bytes()
	if string(buf[:]) != string(want) {
		t.Fatal("encoding differs from crypto/ecdsa's")
	}
	bad := *priv
	bad.PublicKey.X = new(big.Int).Lsh(big.NewInt(1), 256)
	if encodePoint(&buf, &bad) {
		t.Fatal("accepted a 257-bit coordinate")
	}
	bad.PublicKey.X = nil
	if encodePoint(&buf, &bad) {
		t.Fatal("accepted a nil coordinate")
	}
}

// TestDescribeSPIFFE: a leaf with only a URI SAN (an X509-SVID) is named
// by its SPIFFE ID in the expvar view.
func TestDescribeSPIFFE(t *testing.T) {
	id, _ := url.Parse("spiffe://example.org/server")
	leaf := &x509.Certificate{URIs: []*url.URL{id}, SerialNumber: big.NewInt(7)}
	if got := describe(leaf); got != "spiffe://example.org/server" {
		t.Fatalf("describe = %q", got)
	}
	if got := describe(&x509.Certificate{SerialNumber: big.NewInt(7)}); got != "serial 7" {
		t.Fatalf("describe = %q", got)
	}
}
