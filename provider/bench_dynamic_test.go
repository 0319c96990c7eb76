package provider

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/rand"
	"crypto/tls"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkHandshakeTLS13Dynamic measures what certificates arriving at run
// time cost: full TLS 1.3 handshakes (as BenchmarkHandshakeTLS13) whose
// server gets its certificate from an autocert-style GetCertificate, which
// returns a new *tls.Certificate on every call for the same
// *ecdsa.PrivateKey.
//
//   - AB-static compares that callback wrapped with DefaultCache().WrapGetCertificate
//     (the cache finds the key's checked signer on every handshake) with
//     the same key as a static provider identity in Certificates: the ratio
//     wrapped/static is what the cache costs.
//   - AB-stdlib compares it with the same callback unwrapped (the standard
//     library's unchecked signing): wrapped/stdlib is to be read beside
//     BenchmarkHandshakeTLS13/AB's provider/stdlib.
//
// Run them in one process with
// -bench 'HandshakeTLS13(Dynamic)?/AB' and take the medians over processes.
func BenchmarkHandshakeTLS13Dynamic(b *testing.B) {
	priv := newKey(b, "P-256").(*ecdsa.PrivateKey)
	raw := ca(b).issue(b, priv, "localhost")
	id, err := NewIdentity(raw)
	if err != nil {
		b.Fatal(err)
	}
	client := &tls.Config{RootCAs: ca(b).pool, ServerName: "localhost", MinVersion: tls.VersionTLS13}
	get := func(*tls.ClientHelloInfo) (*tls.Certificate, error) {
		// As autocert's: a new certificate value around the same key.
		return &tls.Certificate{Certificate: raw.Certificate, PrivateKey: priv, Leaf: raw.Leaf}, nil
	}
	static := &tls.Config{Certificates: []tls.Certificate{*id.Certificate()}, MinVersion: tls.VersionTLS13}
	unwrapped := &tls.Config{GetCertificate: get, MinVersion: tls.VersionTLS13}
	wrapped := &tls.Config{GetCertificate: DefaultCache().WrapGetCertificate(get), MinVersion: tls.VersionTLS13}
	b.Run("AB-static", func(b *testing.B) {
		runAB(b, client, [2]*tls.Config{static, wrapped}, [2]string{"static", "wrapped"})
	})
	b.Run("AB-stdlib", func(b *testing.B) {
		runAB(b, client, [2]*tls.Config{unwrapped, wrapped}, [2]string{"stdlib", "wrapped"})
	})
}

// BenchmarkCacheLookup is the cache's own work per handshake for a known
// key: the wrapped callback's cost above the caller's, with a new
// *tls.Certificate per call, for the same key object and for a new key
// object with the same value (a GetCertificate that parses its key on
// every call).
func BenchmarkCacheLookup(b *testing.B) {
	raw := ca(b).issue(b, newKey(b, "P-256"), "localhost")
	re := reparsed(b, raw)
	c := NewCache(0)
	for _, bc := range []struct {
		name string
		cert tls.Certificate
	}{{"same-key-object", raw}, {"new-key-object", re}} {
		c.Certificate(nil, &raw)
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				cert := bc.cert
				if c.Certificate(nil, &cert).PrivateKey == cert.PrivateKey {
					b.Fatal("not converted")
				}
			}
		})
	}
}

// BenchmarkCacheBuild is the one-time cost of a new key: its checked signer
// and table (sign.New with internal/keytab at width 7), which the first handshakes
// with that key wait for.
func BenchmarkCacheBuild(b *testing.B) {
	var certs []tls.Certificate
	for i := 0; i < 64; i++ {
		certs = append(certs, ca(b).issue(b, newKey(b, "P-256"), "localhost"))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c := NewCache(1)
		cert := certs[i%len(certs)]
		if c.Certificate(nil, &cert).PrivateKey == cert.PrivateKey {
			b.Fatal("not converted")
		}
	}
}

// BenchmarkCacheFirstBurst informs what concurrent first handshakes with a
// new key should do while its table is built: n callers at once each want
// one signature with a key the cache has never seen.
//
//   - wait (what the cache does): one caller builds, the others wait for
//     it, then all sign with the checked comb signer;
//   - stdlib-meanwhile (the alternative, simulated): one caller builds
//     and signs checked, the others sign at once with the standard,
//     unchecked signer.
//
// ns/op is the wall time until all n signatures exist (the burst's last
// handshake); first-sig-ns the median over bursts of the time to the
// first one.
func BenchmarkCacheFirstBurst(b *testing.B) {
	const n = 16
	var certs []tls.Certificate
	for i := 0; i < 32; i++ {
		certs = append(certs, ca(b).issue(b, newKey(b, "P-256"), "localhost"))
	}
	digest := make([]byte, 32)
	for _, policy := range []string{"wait", "stdlib-meanwhile"} {
		b.Run(policy, func(b *testing.B) {
			var firsts []time.Duration
			for i := 0; i < b.N; i++ {
				c := NewCache(1)
				cert := certs[i%len(certs)]
				var wg sync.WaitGroup
				var first atomic.Int64
				start := time.Now()
				for g := 0; g < n; g++ {
					wg.Add(1)
					go func() {
						defer wg.Done()
						cc := cert
						var s crypto.Signer
						if policy == "wait" || g == 0 {
							s = c.Certificate(nil, &cc).PrivateKey.(crypto.Signer)
						} else {
							s = cc.PrivateKey.(crypto.Signer)
						}
						if _, err := s.Sign(rand.Reader, digest, crypto.SHA256); err != nil {
							b.Error(err)
						}
						first.CompareAndSwap(0, int64(time.Since(start)))
					}()
				}
				wg.Wait()
				firsts = append(firsts, time.Duration(first.Load()))
			}
			b.ReportMetric(median(firsts), "first-sig-ns")
		})
	}
}
