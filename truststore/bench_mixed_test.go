package truststore

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"fmt"
	"sync"
	"testing"
)

// BenchmarkVerifyMixed: the public web's ECDSA chains (issue 15), a P-256
// leaf with a DNS name under a P-384 intermediate, under an RSA-4096 anchor
// (anchor=rsa4096, Let's Encrypt's default ECDSA chain) or a P-384 anchor
// (anchor=p384), through Store.Verify beside x509.Certificate.Verify in the
// same run. path=x509 is crypto/x509 with a new leaf every time (it caches
// nothing); path=first the first chain through a new intermediate (a new
// intermediate and key every time, caches reset when the list wraps);
// path=leaf a new leaf under one intermediate whose link to the anchor is
// cached (and which has a hot table when its key earns one); path=same the
// same chain again, both links in the link cache.
//
//	go test -c -o ts.test ./truststore
//	for i in 1 2 3 4 5 6; do ./ts.test -test.run '^$' -test.bench BenchmarkVerifyMixed -test.benchtime 0.3s; done > mixed.txt
//	benchstat -col /path mixed.txt
func BenchmarkVerifyMixed(b *testing.B) {
	for _, anchor := range []string{"rsa4096", "p384"} {
		b.Run("anchor="+anchor, func(b *testing.B) {
			d := mixedSetup(b, anchor)
			opts := VerifyOptions{DNSName: "www.example.com", CurrentTime: t0}
			b.Run("path=x509", func(b *testing.B) {
				cpuPerOp(b, func() {
					for i := 0; b.Loop(); i++ {
						ch := d.leaf[i%len(d.leaf)]
						inter := x509.NewCertPool()
						inter.AddCert(ch[1])
						if _, err := ch[0].Verify(x509.VerifyOptions{Roots: d.pool, Intermediates: inter, DNSName: opts.DNSName, CurrentTime: t0}); err != nil {
							b.Fatal(err)
						}
					}
				})
			})
			b.Run("path=first", func(b *testing.B) {
				d.store.ResetCaches()
				cpuPerOp(b, func() {
					for i := 0; b.Loop(); i++ {
						if i%len(d.first) == 0 && i > 0 {
							b.StopTimer()
							d.store.ResetCaches()
							b.StartTimer()
						}
						if _, err := d.store.Verify(d.first[i%len(d.first)], opts); err != nil {
							b.Fatal(err)
						}
					}
				})
			})
			b.Run("path=leaf", func(b *testing.B) {
				d.store.ResetCaches()
				for _, ch := range d.leaf[:8] {
					d.store.Verify(ch, opts)
				}
				cpuPerOp(b, func() {
					for i := 0; b.Loop(); i++ {
						if _, err := d.store.Verify(d.leaf[i%len(d.leaf)], opts); err != nil {
							b.Fatal(err)
						}
					}
				})
			})
			b.Run("path=same", func(b *testing.B) {
				d.store.ResetCaches()
				ch := d.leaf[0]
				d.store.Verify(ch, opts)
				cpuPerOp(b, func() {
					for b.Loop() {
						if _, err := d.store.Verify(ch, opts); err != nil {
							b.Fatal(err)
						}
					}
				})
			})
			if st := d.store.Stats(); st.SlowVerifies != 0 {
				b.Fatalf("slow path taken: %+v", st)
			}
		})
	}
}

type mixedData struct {
	store *Store
	pool  *x509.CertPool
	first [][]*x509.Certificate // a new P-384 intermediate each
	leaf  [][]*x509.Certificate // one P-384 intermediate, a new leaf each
}

var mixedCache struct {
	sync.Mutex
	m map[string]*mixedData
}

func mixedSetup(b *testing.B, anchor string) *mixedData {
	mixedCache.Lock()
	defer mixedCache.Unlock()
	if d := mixedCache.m[anchor]; d != nil {
		return d
	}
	rootKey := poolKey(kRSA4096, 0)
	if anchor == "p384" {
		rootKey = poolKey(kP384, 0)
	}
	root := issue(b, caTemplate("Mixed root "+anchor), rootKey, nil)
	d := &mixedData{}
	var err error
	if d.store, err = New([]*x509.Certificate{root.Cert}); err != nil {
		b.Fatal(err)
	}
	d.pool = d.store.CertPool()
	newP384 := func() *ecdsa.PrivateKey {
		k, err := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
		if err != nil {
			b.Fatal(err)
		}
		return k
	}
	for i := range 128 {
		in := issue(b, caTemplate(fmt.Sprintf("Mixed intermediate %d", i)), newP384(), root)
		lf := issue(b, leafTemplate("mixed leaf", "www.example.com"), poolKey(kP256, 1), in)
		d.first = append(d.first, []*x509.Certificate{lf.Cert, in.Cert})
	}
	in := issue(b, caTemplate("Mixed intermediate"), newP384(), root)
	// More leaves than the link cache holds, so that no leaf link is still
	// cached when the list wraps.
	for range 2048 {
		lf := issue(b, leafTemplate("mixed leaf", "www.example.com"), poolKey(kP256, 2), in)
		d.leaf = append(d.leaf, []*x509.Certificate{lf.Cert, in.Cert})
	}
	if mixedCache.m == nil {
		mixedCache.m = map[string]*mixedData{}
	}
	mixedCache.m[anchor] = d
	return d
}
