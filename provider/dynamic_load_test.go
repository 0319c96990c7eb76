package provider

import (
	"crypto/tls"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// dynamicServer serves, for each handshake, a new *tls.Certificate for one
// of certs (chosen round robin), through the cache c.
func dynamicServer(t *testing.T, c *Cache, certs []tls.Certificate) *testServer {
	var next atomic.Uint64
	get := func(*tls.ClientHelloInfo) (*tls.Certificate, error) {
		cert := certs[next.Add(1)%uint64(len(certs))]
		return &cert, nil
	}
	return startServer(t, &tls.Config{GetCertificate: c.WrapGetCertificate(get)})
}

// hammer runs n handshakes against srv from clients concurrent clients,
// alternating TLS 1.2 and 1.3, and returns the failures.
func hammer(srv *testServer, clients, n int) []error {
	var wg sync.WaitGroup
	var mu sync.Mutex
	var errs []error
	var left atomic.Int64
	left.Store(int64(n))
	for w := 0; w < clients; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for left.Add(-1) >= 0 {
				cfg := clientConfig("dyn.test")
				if left.Load()%2 == 0 {
					cfg.MaxVersion = tls.VersionTLS12
				}
				if _, err := handshake(srv.addr(), cfg); err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	return errs
}

// waitLiveKeys waits (bounded) until at most n signing keys are registered.
func waitLiveKeys(t *testing.T, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		runtime.GC()
		if liveKeys() <= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d signing keys alive, want <= %d", liveKeys(), n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestDynamicHandshakesConcurrent: a GetCertificate that returns a new
// *tls.Certificate on every call (half of them with a new private key
// object too), 64 concurrent clients, 2,000 handshakes: no failure, one
// table per distinct key, every signature checked and counted, no
// goroutine left behind.
func TestDynamicHandshakesConcurrent(t *testing.T) {
	const keys, clients, handshakes = 8, 64, 2000
	runtime.GC()
	goroutines := runtime.NumGoroutine()
	c := NewCache(16)
	var certs []tls.Certificate
	for i := 0; i < keys; i++ {
		cert := ca(t).issue(t, newKey(t, "P-256"), "dyn.test")
		certs = append(certs, cert, reparsed(t, cert))
	}
	srv := dynamicServer(t, c, certs)
	before := TotalStats()
	if errs := hammer(srv, clients, handshakes); len(errs) > 0 {
		t.Fatalf("%d of %d handshakes failed, first: %v", len(errs), handshakes, errs[0])
	}
	if errs := srv.errors(); len(errs) > 0 {
		t.Fatalf("server: %d errors, first: %v", len(errs), errs[0])
	}
	if d := statsDelta(TotalStats(), before); d != (Stats{Signatures: handshakes, Checks: handshakes}) {
		t.Fatalf("counters moved by %+v", d)
	}
	st := c.Stats()
	if st.Builds != keys || st.Hits != handshakes-keys || st.Fallbacks != 0 || st.Evictions != 0 || st.Entries != keys {
		t.Fatalf("cache: %+v", st)
	}
	srv.close()
	waitGoroutines(t, goroutines)
}

// TestDynamicMemoryBounded: more keys than the cache holds, rotating: the
// live tables are bounded by the cache's size, not by the handshakes or the
// keys seen.
func TestDynamicMemoryBounded(t *testing.T) {
	const size, keys, clients, handshakes = 4, 24, 16, 400
	c := NewCache(size)
	var certs []tls.Certificate
	for i := 0; i < keys; i++ {
		certs = append(certs, ca(t).issue(t, newKey(t, "P-256"), "dyn.test"))
	}
	runtime.GC()
	base := liveKeys()
	srv := dynamicServer(t, c, certs)
	if errs := hammer(srv, clients, handshakes); len(errs) > 0 {
		t.Fatalf("%d of %d handshakes failed, first: %v", len(errs), handshakes, errs[0])
	}
	srv.close()
	st := c.Stats()
	if st.Entries != size || st.Evictions != st.Builds-size || st.Builds < keys {
		t.Fatalf("cache: %+v", st)
	}
	// Only the cache's entries keep their keys alive.
	waitLiveKeys(t, base+size)
	t.Logf("cache %+v", st)
}
