package provider

import (
	"crypto/tls"
	"runtime"
	"testing"
	"time"

	"github.com/p256tls/p256tls/internal/testsupport/cputime"
)

// BenchmarkClientResumption runs resumed TLS 1.3 handshakes in-process over
// an in-memory pipe (P-256 leaf and intermediate under a root the store
// holds): crypto-tls is a client with RootCAs (its session check: the
// verified chain's validity now and its root in RootCAs; nothing verified
// on resumption), hooked a HookClientConfig client (the session's chain
// parsed from the session and verified by the store before it is offered,
// then verified again in VerifyConnection). Each handshake stores a new
// session, which the next one resumes. client-cpu-ns/op (Linux) is the
// median CPU time of the client's locked thread in Handshake and the Read
// that takes the new ticket.
//
//	go test ./provider -run '^$' -bench 'ClientResumption|SessionCacheGet' -count 6
func BenchmarkClientResumption(b *testing.B) {
	p := newTLSPKI(&testing.T{})
	server := &tls.Config{Certificates: []tls.Certificate{p.server}}
	for _, tc := range []struct {
		name string
		cfg  *tls.Config
	}{
		{"crypto-tls", &tls.Config{ServerName: "server.test", RootCAs: p.store.CertPool(), ClientSessionCache: tls.NewLRUClientSessionCache(4)}},
		{"hooked", HookClientConfig(&tls.Config{ServerName: "server.test", ClientSessionCache: tls.NewLRUClientSessionCache(4)}, p.store)},
	} {
		b.Run(tc.name, func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			handshake := func() (bool, time.Duration) {
				cc, sc := memPipe()
				defer cc.Close()
				cli, srv := tls.Client(cc, tc.cfg), tls.Server(sc, server)
				done := make(chan error, 1)
				go func() {
					err := srv.Handshake()
					if err == nil {
						_, err = srv.Write([]byte{1})
					}
					done <- err
				}()
				c0, _ := cputime.Thread()
				if err := cli.Handshake(); err != nil {
					b.Fatal(err)
				}
				cli.Read(make([]byte, 1)) // the new session ticket
				c1, _ := cputime.Thread()
				if err := <-done; err != nil {
					b.Fatal(err)
				}
				return cli.ConnectionState().DidResume, c1 - c0
			}
			handshake() // a full handshake: the first session
			_, cerr := cputime.Thread()
			var cpu []time.Duration
			for b.Loop() {
				resumed, d := handshake()
				if !resumed {
					b.Fatal("not resumed")
				}
				cpu = append(cpu, d)
			}
			if cerr == nil {
				b.ReportMetric(median(cpu), "client-cpu-ns/op")
			}
		})
	}
}

// BenchmarkSessionCacheGet is the hooked client's check of a session before
// it is offered (parse the recorded chain, verify it with the store), alone.
// cpu-ns/op (Linux) is the median CPU time of one Get.
func BenchmarkSessionCacheGet(b *testing.B) {
	p := newTLSPKI(&testing.T{})
	sc := newSessionCache(tls.NewLRUClientSessionCache(4), p.store, nil, "")
	cfg := &tls.Config{ServerName: "server.test", RootCAs: p.store.CertPool(), ClientSessionCache: sc}
	cc, sc2 := memPipe()
	cli, srv := tls.Client(cc, cfg), tls.Server(sc2, &tls.Config{Certificates: []tls.Certificate{p.server}})
	go func() { srv.Handshake(); srv.Write([]byte{1}) }()
	if err := cli.Handshake(); err != nil {
		b.Fatal(err)
	}
	sc.verified("server.test", cli.ConnectionState().PeerCertificates)
	cli.Read(make([]byte, 1))
	cc.Close()
	if _, ok := sc.Get("server.test"); !ok {
		b.Fatal("no session")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	_, cerr := cputime.Thread()
	var cpu []time.Duration
	b.ReportAllocs()
	for b.Loop() {
		c0, _ := cputime.Thread()
		sc.Get("server.test")
		c1, _ := cputime.Thread()
		cpu = append(cpu, c1-c0)
	}
	if cerr == nil {
		b.ReportMetric(median(cpu), "cpu-ns/op")
	}
}
