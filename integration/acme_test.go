package integration

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/tls"
	"crypto/x509"
	"net"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/caddyserver/certmagic"
	"golang.org/x/crypto/acme"
	"golang.org/x/crypto/acme/autocert"

	"github.com/p256tls/p256tls/provider"
)

// certLifetime is the validity of the certificates Pebble issues in these
// tests, in seconds: short, so that renewals and expiry happen during the
// test.
const certLifetime = 12

// challengeKeys records the distinct keys of the tls-alpn-01 challenge
// certificates an ACME client served to the validation authority, which
// also go through the provider (each is a new P-256 key, one table each).
type challengeKeys struct {
	mu      sync.Mutex
	keys    map[string]bool
	handled int
}

func (c *challengeKeys) count() (keys, handshakes int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.keys), c.handled
}

// observe wraps get to record the challenge certificates it returns.
func (c *challengeKeys) observe(get func(*tls.ClientHelloInfo) (*tls.Certificate, error)) func(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	return func(hello *tls.ClientHelloInfo) (*tls.Certificate, error) {
		cert, err := get(hello)
		if err == nil && cert != nil && slices.Contains(hello.SupportedProtos, acme.ALPNProto) {
			c.mu.Lock()
			if c.keys == nil {
				c.keys = make(map[string]bool)
			}
			c.keys[string(cert.Certificate[0])] = true
			c.handled++
			c.mu.Unlock()
		}
		return cert, err
	}
}

// memCache is an in-memory autocert.Cache.
type memCache struct {
	mu sync.Mutex
	m  map[string][]byte
}

func (c *memCache) Get(_ context.Context, key string) ([]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, ok := c.m[key]; ok {
		return v, nil
	}
	return nil, autocert.ErrCacheMiss
}

func (c *memCache) Put(_ context.Context, key string, data []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = make(map[string][]byte)
	}
	c.m[key] = data
	return nil
}

func (c *memCache) Delete(_ context.Context, key string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, key)
	return nil
}

func isP256(pub any) bool {
	k, ok := pub.(*ecdsa.PublicKey)
	return ok && k.Curve == elliptic.P256()
}

func samePublicKey(a, b *x509.Certificate) bool {
	return a.PublicKey.(interface{ Equal(crypto.PublicKey) bool }).Equal(b.PublicKey)
}

// serveUntil makes handshakes every 200 ms until done says the served leaf
// is the one wanted, or the time runs out; it returns the last leaf and the
// number of handshakes.
func serveUntil(t *testing.T, addr string, cfg *tls.Config, limit time.Duration, done func(*x509.Certificate) bool) (*x509.Certificate, int) {
	t.Helper()
	deadline := time.Now().Add(limit)
	n := 0
	for {
		leaf, err := handshake(addr, cfg)
		if err != nil {
			t.Fatalf("handshake %d: %v", n, err)
		}
		n++
		if done(leaf) {
			return leaf, n
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %v and %d handshakes, still serving %v (serial %v, until %v)", limit, n, leaf.DNSNames, leaf.SerialNumber, leaf.NotAfter)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// wantAllChecked fails unless d records exactly n checked signatures and no
// fallback.
// wantCached makes one more handshake and checks that it served want's key
// from the cache: a hit, no table built, the signature checked. (The
// provider's API has no per-key query; its counters are what a user sees.)
func wantCached(t *testing.T, addr string, cfg *tls.Config, want *x509.Certificate) {
	t.Helper()
	m := now()
	leaf, err := handshake(addr, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !samePublicKey(leaf, want) {
		t.Fatal("the server no longer serves the key in service")
	}
	d := m.since()
	wantAllChecked(t, "the key in service", d, 1)
	if d.cache.Builds != 0 || d.cache.Hits != 1 {
		t.Fatalf("the key in service is not cached: the cache moved by %+v", d.cache)
	}
}

func wantAllChecked(t *testing.T, what string, d delta, n int) {
	t.Helper()
	if d.stats != (provider.Stats{Signatures: uint64(n), Checks: uint64(n)}) || d.cache.Fallbacks != 0 {
		t.Fatalf("%s: counters moved by %+v, cache by %+v; want %d checked signatures, no fallback", what, d.stats, d.cache, n)
	}
}

// TestAutocertPebble: an autocert server hooked with HookServerConfig
// obtains its certificate from Pebble (tls-alpn-01, validated for real on
// loopback), serves it with checked comb signatures (the client verifies
// the chain against Pebble's root), renews it with the same key (the table
// is reused), then, with a new key (a new Manager with an empty cache, as
// after a lost cache), builds a new table; the old key's entry leaves the
// cache once its certificates have expired.
func TestAutocertPebble(t *testing.T) {
	const name = "acme.test"
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	pb := startPebble(t, ln.Addr().(*net.TCPAddr).Port, freePort(t), certLifetime)
	var challenges challengeKeys
	hooked := func() *tls.Config {
		m := &autocert.Manager{
			Prompt:      autocert.AcceptTOS,
			HostPolicy:  autocert.HostWhitelist(name),
			Cache:       &memCache{},
			Client:      &acme.Client{DirectoryURL: pb.directory, HTTPClient: pb.client},
			RenewBefore: certLifetime * time.Second * 3 / 4,
		}
		cfg := m.TLSConfig()
		cfg.GetCertificate = challenges.observe(cfg.GetCertificate)
		hooked, err := provider.HookServerConfig(cfg) // the one line
		if err != nil {
			t.Fatal(err)
		}
		return hooked
	}
	srv := startServer(t, ln, hooked())
	client := &tls.Config{RootCAs: pb.roots, ServerName: name}

	// 1. The first handshake obtains the certificate.
	m := now()
	first, err := handshake(srv.addr(), client)
	if err != nil {
		t.Fatalf("first handshake: %v (server: %v)", err, srv.errors())
	}
	for i := 0; i < 4; i++ {
		if leaf, err := handshake(srv.addr(), client); err != nil || !leaf.Equal(first) {
			t.Fatalf("handshake %d: %v", i, err)
		}
	}
	if !isP256(first.PublicKey) {
		t.Fatalf("served a %T key, not a P-256 one", first.PublicKey)
	}
	keys, validations := challenges.count()
	if validations == 0 {
		t.Fatal("Pebble did not validate through the server")
	}
	d := m.since()
	wantAllChecked(t, "issuance", d, 5+validations)
	if d.cache.Builds != uint64(1+keys) {
		t.Fatalf("%d tables built for 1 key and %d challenge keys", d.cache.Builds, keys)
	}
	t.Logf("issued serial %v until %v; %d validation handshakes; cache %+v", first.SerialNumber, first.NotAfter, validations, d.cache)

	// 2. Renewal by autocert, which keeps its key: the table is reused.
	m = now()
	renewed, n := serveUntil(t, srv.addr(), client, 4*certLifetime*time.Second, func(l *x509.Certificate) bool {
		return l.SerialNumber.Cmp(first.SerialNumber) != 0
	})
	if !samePublicKey(renewed, first) {
		t.Fatal("autocert renewed with a new key")
	}
	keys2, validations2 := challenges.count()
	d = m.since()
	wantAllChecked(t, "renewal", d, n+validations2-validations)
	if d.cache.Builds != uint64(keys2-keys) {
		t.Fatalf("renewal with the same key built %d tables (%d new challenge keys)", d.cache.Builds, keys2-keys)
	}
	t.Logf("renewed: serial %v until %v after %d handshakes; cache %+v", renewed.SerialNumber, renewed.NotAfter, n, d.cache)

	// 3. A new key: a new Manager with an empty cache.
	m = now()
	srv.cfg.Store(hooked())
	fresh, n := serveUntil(t, srv.addr(), client, 4*certLifetime*time.Second, func(l *x509.Certificate) bool {
		return !samePublicKey(l, first)
	})
	keys3, validations3 := challenges.count()
	d = m.since()
	wantAllChecked(t, "new key", d, n+validations3-validations2)
	if d.cache.Builds != uint64(1+keys3-keys2) {
		t.Fatalf("a new key built %d tables (%d new challenge keys)", d.cache.Builds, keys3-keys2)
	}
	if d.cache.Evictions != 0 || d.cache.Expired != 0 {
		t.Fatalf("the cache dropped a key (%+v); it must hold both", d.cache)
	}

	// 4. Keep serving (the new key's renewals come in) until the old key's
	// last certificate has expired: then its entry leaves the cache.
	oldUntil := renewed.NotAfter
	m = now()
	last, n := serveUntil(t, srv.addr(), client, 4*certLifetime*time.Second, func(*x509.Certificate) bool {
		return time.Now().After(oldUntil.Add(time.Second))
	})
	provider.DefaultCache().Sweep()
	// The old key is the only one whose certificates have all expired.
	if d = m.since(); d.cache.Expired == 0 {
		t.Fatalf("the expired key is still in the cache: cache moved by %+v", d.cache)
	}
	if !samePublicKey(last, fresh) {
		t.Fatal("the server no longer serves the new key")
	}
	wantCached(t, srv.addr(), client, fresh)
	if errs := srv.errors(); len(errs) > 0 {
		t.Fatalf("server errors: %v", errs)
	}
	t.Logf("after %d more handshakes the old key expired and left; cache %+v", n, provider.DefaultCache().Stats())
}

// TestCertmagicPebble: certmagic with its default P-256 keys obtains a
// certificate from Pebble (http-01 on a loopback port, validated for real),
// its TLSConfig hooked with HookServerConfig serves it with checked comb
// signatures; certmagic's renewal (with a new key) builds one new table, and
// the old key leaves the cache, once its certificate has expired, when the
// next key is added.
func TestCertmagicPebble(t *testing.T) {
	const name = "magic.test"
	httpPort := freePort(t)
	pb := startPebble(t, freePort(t), httpPort, certLifetime)

	var magic *certmagic.Config
	cache := certmagic.NewCache(certmagic.CacheOptions{
		GetConfigForCert: func(certmagic.Certificate) (*certmagic.Config, error) { return magic, nil },
		// certmagic's own maintenance renews (and reloads) the short-lived
		// certificates during the test.
		RenewCheckInterval: time.Second,
	})
	t.Cleanup(cache.Stop)
	magic = certmagic.New(cache, certmagic.Config{Storage: &certmagic.FileStorage{Path: t.TempDir()}})
	magic.Issuers = []certmagic.Issuer{certmagic.NewACMEIssuer(magic, certmagic.ACMEIssuer{
		CA:                      pb.directory,
		TestCA:                  pb.directory,
		Agreed:                  true,
		Email:                   "admin@magic.test", // else certmagic prompts for one
		DisableTLSALPNChallenge: true,
		ListenHost:              "127.0.0.1",
		AltHTTPPort:             httpPort,
		TrustedRoots:            pb.apiRoots,
	})}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := magic.ManageSync(ctx, []string{name}); err != nil {
		t.Fatal(err)
	}
	hooked, err := provider.HookServerConfig(magic.TLSConfig()) // the one line
	if err != nil {
		t.Fatal(err)
	}
	srv := startServer(t, nil, hooked)
	client := &tls.Config{RootCAs: pb.roots, ServerName: name}

	m := now()
	first, err := handshake(srv.addr(), client)
	if err != nil {
		t.Fatalf("handshake: %v (server: %v)", err, srv.errors())
	}
	for i := 0; i < 4; i++ {
		if leaf, err := handshake(srv.addr(), client); err != nil || !leaf.Equal(first) {
			t.Fatalf("handshake %d: %v", i, err)
		}
	}
	if !isP256(first.PublicKey) {
		t.Fatalf("served a %T key, not a P-256 one", first.PublicKey)
	}
	d := m.since()
	wantAllChecked(t, "issued", d, 5)
	if d.cache.Builds != 1 || d.cache.Hits != 4 {
		t.Fatalf("cache moved by %+v, want 1 build and 4 hits", d.cache)
	}

	// certmagic's renewal, with a new key.
	m = now()
	renewed, n := serveUntil(t, srv.addr(), client, 3*certLifetime*time.Second, func(l *x509.Certificate) bool {
		return l.SerialNumber.Cmp(first.SerialNumber) != 0
	})
	if samePublicKey(renewed, first) || !isP256(renewed.PublicKey) {
		t.Fatal("certmagic renewed without a new P-256 key")
	}
	d = m.since()
	wantAllChecked(t, "renewed", d, n)
	if d.cache.Builds != 1 {
		t.Fatalf("the renewal built %d tables, want 1", d.cache.Builds)
	}

	// The old key leaves the cache once its certificate has expired and the
	// next key comes in (certmagic renews before expiry, with a new key).
	oldUntil := first.NotAfter
	m = now()
	for time.Now().Before(oldUntil.Add(time.Second)) {
		time.Sleep(100 * time.Millisecond)
	}
	last, _ := serveUntil(t, srv.addr(), client, 3*certLifetime*time.Second, func(l *x509.Certificate) bool {
		return !samePublicKey(l, renewed)
	})
	// Adding the newest key dropped the expired one.
	// The first key's certificate has expired by then (the second's may
	// have too: both entries may leave).
	if d = m.since(); d.cache.Expired == 0 {
		t.Fatalf("the expired key is still in the cache: cache moved by %+v", d.cache)
	}
	wantCached(t, srv.addr(), client, last)
	if errs := srv.errors(); len(errs) > 0 {
		t.Fatalf("server errors: %v", errs)
	}
}
