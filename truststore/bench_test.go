package truststore

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"fmt"
	"sync"
	"testing"
)

// Benchmarks of a leaf ← P-256 intermediate ← P-256 anchor chain with a DNS
// name, beside crypto/x509 in the same run:
//
//	go test -run '^$' -bench BenchmarkVerifyChain -count 10 ./truststore > bench.txt
//	benchstat -col /path bench.txt
//
// Besides wall time, each reports cpu-ns/op, the CPU time of the benchmark's
// thread, which a loaded machine disturbs far less.
var benchData struct {
	once sync.Once
	root *node
	chainBench
}

// chainBench is one chain benchmark's data: the store, its anchors as a
// pool for crypto/x509, cold chains (a new intermediate, and key, for every
// chain) and warm chains (one intermediate, a new leaf for every chain, more
// of them than the link cache holds, so that no leaf link is still cached
// when the list wraps).
type chainBench struct {
	store *Store
	pool  *x509.CertPool
	cold  [][]*x509.Certificate
	warm  [][]*x509.Certificate
}

// run runs the four paths of a chain benchmark, Store.Verify beside
// crypto/x509 in the same run: x509 (x509.Certificate.Verify on a new warm
// chain every time: it caches nothing), then, under names[0], a cold chain
// every time (caches reset when the list wraps), under names[1] a warm chain
// every time after prewarm of them have been verified (the intermediate's
// link cached, and its hot table built once its key earns one), and under
// names[2] the same chain again, both links in the link cache: the fast
// path's own cost (names, validity, usages, hashing) without any signature
// arithmetic. It fails if any verification fails or takes the slow path.
func (d *chainBench) run(b *testing.B, names [3]string, prewarm int) {
	opts := VerifyOptions{DNSName: "www.example.com", CurrentTime: t0}
	b.Run("path=x509", func(b *testing.B) {
		cpuPerOp(b, func() {
			for i := 0; b.Loop(); i++ {
				ch := d.warm[i%len(d.warm)]
				inter := x509.NewCertPool()
				inter.AddCert(ch[1])
				if _, err := ch[0].Verify(x509.VerifyOptions{Roots: d.pool, Intermediates: inter, DNSName: opts.DNSName, CurrentTime: t0}); err != nil {
					b.Fatal(err)
				}
			}
		})
	})
	b.Run("path="+names[0], func(b *testing.B) {
		d.store.ResetCaches()
		cpuPerOp(b, func() {
			for i := 0; b.Loop(); i++ {
				if i%len(d.cold) == 0 && i > 0 {
					b.StopTimer()
					d.store.ResetCaches()
					b.StartTimer()
				}
				if _, err := d.store.Verify(d.cold[i%len(d.cold)], opts); err != nil {
					b.Fatal(err)
				}
			}
		})
	})
	b.Run("path="+names[1], func(b *testing.B) {
		d.store.ResetCaches()
		for _, ch := range d.warm[:prewarm] {
			d.store.Verify(ch, opts)
		}
		cpuPerOp(b, func() {
			for i := 0; b.Loop(); i++ {
				if _, err := d.store.Verify(d.warm[i%len(d.warm)], opts); err != nil {
					b.Fatal(err)
				}
			}
		})
	})
	b.Run("path="+names[2], func(b *testing.B) {
		d.store.ResetCaches()
		ch := d.warm[0]
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
}

func benchSetup(b *testing.B) {
	benchData.once.Do(func() {
		benchData.root = issue(b, caTemplate("Bench root"), poolKey(kP256, 0), nil)
		benchData.chainBench = newChainBench(b, benchData.root, elliptic.P256(), "Bench", 512, 4096)
	})
}

// newChainBench builds a store with the one anchor root and, under it, cold
// chains (a leaf under a new intermediate with a new key on interCurve, for
// each of the cold chains) and warm chains (a new leaf each under one more
// such intermediate); every leaf is a P-256 key with the DNS name
// www.example.com. prefix starts the certificates' names.
func newChainBench(b *testing.B, root *node, interCurve elliptic.Curve, prefix string, cold, warm int) chainBench {
	var d chainBench
	var err error
	if d.store, err = New([]*x509.Certificate{root.Cert}); err != nil {
		b.Fatal(err)
	}
	d.pool = d.store.CertPool()
	newKey := func() *ecdsa.PrivateKey {
		k, err := ecdsa.GenerateKey(interCurve, rand.Reader)
		if err != nil {
			b.Fatal(err)
		}
		return k
	}
	for i := range cold {
		in := issue(b, caTemplate(fmt.Sprintf("%s intermediate %d", prefix, i)), newKey(), root)
		lf := issue(b, leafTemplate(prefix+" leaf", "www.example.com"), poolKey(kP256, 1), in)
		d.cold = append(d.cold, []*x509.Certificate{lf.Cert, in.Cert})
	}
	in := issue(b, caTemplate(prefix+" warm intermediate"), newKey(), root)
	for range warm {
		lf := issue(b, leafTemplate(prefix+" leaf", "www.example.com"), poolKey(kP256, 2), in)
		d.warm = append(d.warm, []*x509.Certificate{lf.Cert, in.Cert})
	}
	return d
}

func BenchmarkVerifyChain(b *testing.B) {
	benchSetup(b)
	benchData.run(b, [3]string{"cold", "warm", "cached"}, 4)
}

// BenchmarkLoadSystem loads the system bundle with its tables
// (tables=all) and without (tables=none, WithMaxTables(0)): the difference
// is the cost of the anchor tables, built over GOMAXPROCS workers.
func BenchmarkLoadSystem(b *testing.B) {
	for _, bc := range []struct {
		name string
		opts []Option
	}{{"all", nil}, {"none", []Option{WithMaxTables(0)}}} {
		b.Run("tables="+bc.name, func(b *testing.B) {
			var st Stats
			for b.Loop() {
				s, err := System(bc.opts...)
				if err != nil {
					b.Skip(err)
				}
				st = s.Stats()
			}
			b.ReportMetric(float64(st.Anchors), "anchors")
			b.ReportMetric(float64(st.Tables), "tables")
			b.ReportMetric(float64(st.TableBytes), "table-bytes")
		})
	}
}

// BenchmarkBackend measures the signature back ends the fast path uses on
// one certificate signature, beside crypto/ecdsa, for a P-256 and a P-384
// issuer: what cold and warm verification are made of, and what a table
// costs to build (tablePayback).
func BenchmarkBackend(b *testing.B) {
	benchSetup(b)
	for _, curve := range []string{"p256", "p384"} {
		var child, issuer *x509.Certificate
		if curve == "p256" {
			child, issuer = benchData.cold[0][1], benchData.root.Cert
		} else {
			d := mixedSetup(b, "p384")
			child, issuer = d.warm[0][0], d.warm[0][1]
		}
		pub := issuer.PublicKey.(*ecdsa.PublicKey)
		h, _ := signatureAlgorithm(child.SignatureAlgorithm)
		hh := h.New()
		hh.Write(child.RawTBSCertificate)
		digest := hh.Sum(nil)
		table, err := newKeyTable(pub)
		if err != nil {
			b.Fatal(err)
		}
		for _, bc := range []struct {
			name string
			f    func() bool
		}{
			{"ecdsa", func() bool { return ecdsa.VerifyASN1(pub, digest, child.Signature) }},
			{"verify", func() bool { return verifyOnce(pub, digest, child.Signature) }},
			{"table", func() bool { return table.VerifyASN1(digest, child.Signature) }},
			// What a hot table costs to build, for the admission rule's
			// break-even (see tablePayback).
			{"build", func() bool { t, err := newKeyTable(pub); return err == nil && t != nil }},
		} {
			b.Run("curve="+curve+"/impl="+bc.name, func(b *testing.B) {
				cpuPerOp(b, func() {
					for b.Loop() {
						if !bc.f() {
							b.Fatal("verification failed")
						}
					}
				})
			})
		}
	}
	// An RSA-4096 link (crypto/rsa, as crypto/x509 verifies it).
	d := mixedSetup(b, "rsa4096")
	child := d.warm[0][1]
	pub := d.store.Anchors()[0].PublicKey.(*rsa.PublicKey)
	h, _ := signatureAlgorithm(child.SignatureAlgorithm)
	hh := h.New()
	hh.Write(child.RawTBSCertificate)
	digest := hh.Sum(nil)
	b.Run("curve=rsa4096/impl=rsa", func(b *testing.B) {
		cpuPerOp(b, func() {
			for b.Loop() {
				if !verifyRSA(pub, h, digest, child.Signature) {
					b.Fatal("verification failed")
				}
			}
		})
	})
}

// BenchmarkHotChurn: leaf ← P-256 intermediate ← P-256 anchor chains with
// the link cache off, so that every verification checks both signatures.
// keys=256 takes the intermediates in turn, four times the default hot
// capacity (64); keys=1 uses one intermediate. hot=on is the default
// store, hot=off has WithHotThreshold(0); compare each pair:
//
//	go test -c -o ts.test ./truststore
//	for i in 1 2 3 4 5 6 7 8; do ./ts.test -test.run '^$' -test.bench BenchmarkHotChurn -test.benchtime 0.5s; done > churn.txt
//	benchstat -col /hot churn.txt
func BenchmarkHotChurn(b *testing.B) {
	benchSetup(b)
	d := &benchData
	opts := VerifyOptions{DNSName: "www.example.com", CurrentTime: t0}
	stores := map[string]*Store{}
	for name, o := range map[string][]Option{
		"on":  {WithLinkCache(0)},
		"off": {WithLinkCache(0), WithHotThreshold(0)},
	} {
		s, err := New([]*x509.Certificate{d.root.Cert}, o...)
		if err != nil {
			b.Fatal(err)
		}
		stores[name] = s
	}
	for _, keys := range []int{256, 1} {
		chains := d.cold[:keys]
		if keys == 1 {
			chains = d.warm[:1]
		}
		for _, hot := range []string{"on", "off"} {
			s := stores[hot]
			b.Run(fmt.Sprintf("keys=%d/hot=%s", keys, hot), func(b *testing.B) {
				s.ResetCaches()
				before := s.Stats()
				cpuPerOp(b, func() {
					for i := 0; b.Loop(); i++ {
						if _, err := s.Verify(chains[i%len(chains)], opts); err != nil {
							b.Fatal(err)
						}
					}
				})
				st := s.Stats()
				b.ReportMetric(float64(st.HotBuilt-before.HotBuilt), "builds")
				b.ReportMetric(float64(st.HotHits-before.HotHits)/float64(b.N), "hot-hits/op")
				if st.SlowVerifies != 0 {
					b.Fatalf("slow path taken: %+v", st)
				}
			})
		}
	}
}
