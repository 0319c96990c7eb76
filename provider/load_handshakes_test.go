package provider

import (
	"crypto/tls"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

// TestManyHandshakes: 2,000 handshakes (500 with -short) from 64 concurrent
// clients against one P-256 identity. None may fail, every signature goes through the comb and
// its check, no goroutine is left behind, and the key's table is the one
// built at NewIdentity (tables per key, never per connection).
func TestManyHandshakes(t *testing.T) {
	const clients = 64
	total := int64(2000)
	if testing.Short() {
		total = 500
	}
	id := newIdentity(t, "P-256", "localhost")
	combSigner := id.k.comb
	goroutines := runtime.NumGoroutine()
	keys := liveKeys()

	srv := startServer(t, ServerConfig(NewIdentities(id)))
	cfg := clientConfig("localhost")
	before := id.Stats()
	var (
		next, failed atomic.Int64
		firstErr     atomic.Value
		wg           sync.WaitGroup
	)
	for i := 0; i < clients; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= total {
				if _, err := handshake(srv.addr(), cfg); err != nil {
					failed.Add(1)
					firstErr.CompareAndSwap(nil, err)
				}
			}
		}()
	}
	wg.Wait()
	srv.close()
	if n := failed.Load(); n != 0 {
		t.Fatalf("%d of %d handshakes failed; first: %v (server: %v)", n, total, firstErr.Load(), srv.errors())
	}
	if n := srv.served.Load(); n != total {
		t.Fatalf("server completed %d handshakes, want %d", n, total)
	}
	if d := statsDelta(id.Stats(), before); d != (Stats{Signatures: uint64(total), Checks: uint64(total)}) {
		t.Fatalf("counters moved by %+v, want %d checked comb signatures", d, total)
	}
	if id.k.comb != combSigner {
		t.Fatal("the key's table was replaced")
	}
	if n := liveKeys(); n > keys {
		t.Fatalf("%d signing keys registered after the handshakes, %d before: keys are being built per connection", n, keys)
	}
	waitGoroutines(t, goroutines)
	runtime.KeepAlive(id)
}

// TestMemoryPerIdentity bounds what one P-256 identity costs: its key
// table and signer, built once.
func TestMemoryPerIdentity(t *testing.T) {
	const n = 16
	certs := make([]tls.Certificate, n)
	for i := range certs {
		certs[i] = ca(t).issue(t, newKey(t, "P-256"), "mem.test")
	}
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	heapBefore := ms.HeapAlloc
	ids := make([]*Identity, n)
	for i := range ids {
		id, err := NewIdentity(certs[i])
		if err != nil {
			t.Fatal(err)
		}
		ids[i] = id
	}
	runtime.GC()
	runtime.ReadMemStats(&ms)
	per := (int64(ms.HeapAlloc) - int64(heapBefore)) / n
	t.Logf("about %d bytes per P-256 identity (table and signer)", per)
	if per > 64<<10 {
		t.Fatalf("a P-256 identity costs %d bytes", per)
	}
	runtime.KeepAlive(ids)
}
