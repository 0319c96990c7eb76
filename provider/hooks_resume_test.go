package provider

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"sync/atomic"
	"testing"
	"time"

	"github.com/p256tls/p256tls/internal/testsupport/testpki"
	"github.com/p256tls/p256tls/truststore"
	"github.com/quic-go/quic-go"
)

// resumePKI serves one name with a chain that goes stale: its intermediate
// expires in 1 h, its leaf in 3 h. The server can rotate to a fresh chain
// (24 h) under the same root, or to one under another root; the clients'
// clock can be moved forward.
type resumePKI struct {
	*tlsPKI
	stale, fresh, foreign tls.Certificate
	foreignStore          *truststore.Store // trusts the other root only
	foreignRoots          *x509.CertPool
	cur                   atomic.Pointer[tls.Certificate]
	offset                atomic.Int64 // the clients' clock, ahead of time.Now
}

func newResumePKI(t *testing.T) *resumePKI {
	t.Helper()
	now := time.Now()
	p := &resumePKI{tlsPKI: newTLSPKI(t)}
	leaf := func(parent *testpki.Node, until time.Duration) tls.Certificate {
		tm := testpki.LeafTemplate("server.test", now.Add(-time.Hour), now.Add(until), "server.test")
		tm.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}
		n := testpki.MustIssue(t, tm, testpki.MustKey(t, testpki.P256), parent)
		return tls.Certificate{Certificate: [][]byte{n.Cert.Raw, parent.Cert.Raw}, PrivateKey: n.Key, Leaf: n.Cert}
	}
	short := testpki.MustIssue(t, testpki.CATemplate("short intermediate", now.Add(-time.Hour), now.Add(time.Hour)),
		testpki.MustKey(t, testpki.P256), p.root)
	p.stale = leaf(short, 3*time.Hour)
	p.fresh = leaf(p.inter, 24*time.Hour)
	root := testpki.MustIssue(t, testpki.CATemplate("foreign root", now.Add(-time.Hour), now.Add(48*time.Hour)),
		testpki.MustKey(t, testpki.P256), nil)
	inter := testpki.MustIssue(t, testpki.CATemplate("foreign intermediate", now.Add(-time.Hour), now.Add(48*time.Hour)),
		testpki.MustKey(t, testpki.P256), root)
	p.foreign = leaf(inter, 24*time.Hour)
	var err error
	if p.foreignStore, err = truststore.New([]*x509.Certificate{root.Cert}); err != nil {
		t.Fatal(err)
	}
	p.foreignRoots = p.foreignStore.CertPool()
	p.cur.Store(&p.stale)
	return p
}

func (p *resumePKI) now() time.Time { return time.Now().Add(time.Duration(p.offset.Load())) }

// server is one Config for the whole test, so that its session tickets
// stay valid, serving the current chain.
func (p *resumePKI) server(maxVersion uint16) *tls.Config {
	return &tls.Config{MaxVersion: maxVersion,
		GetCertificate: func(*tls.ClientHelloInfo) (*tls.Certificate, error) { return p.cur.Load(), nil }}
}

// resumeClient is one client of the comparison: a connection over c with
// a session cache and a clock shared by its connections.
type resumeClient struct {
	label string
	conn  func(c net.Conn) *tls.Conn
}

// resumeClients are crypto/tls with RootCAs (the reference), a Config
// hooked once with HookClientConfig, and Client, each with its own
// session cache; later connections use store and roots.
func (p *resumePKI) resumeClients(store func() *truststore.Store, roots func() *x509.CertPool) []resumeClient {
	base := func() *tls.Config {
		return &tls.Config{ServerName: "server.test", Time: p.now, ClientSessionCache: tls.NewLRUClientSessionCache(4)}
	}
	std := base()
	hooked := HookClientConfig(base(), store())
	bound := base()
	return []resumeClient{
		{"crypto/tls", func(c net.Conn) *tls.Conn {
			cfg := std.Clone()
			cfg.RootCAs = roots()
			return tls.Client(c, cfg)
		}},
		{"HookClientConfig", func(c net.Conn) *tls.Conn {
			if s := store(); s != p.store {
				// Hooked again with the new store: the same session cache.
				cfg := base()
				cfg.ClientSessionCache = hooked.ClientSessionCache
				return tls.Client(c, HookClientConfig(cfg, s))
			}
			return tls.Client(c, hooked)
		}},
		{"Client", func(c net.Conn) *tls.Conn { return Client(c, bound, store()) }},
	}
}

// TestResumeStaleSession: crypto/tls checks a session before offering it
// (the leaf's expiry always; under RootCAs also the session's verified
// chains at the current time, their roots still trusted, and the host
// name) and makes a full handshake when the session fails. Under
// InsecureSkipVerify it skips all but the leaf's expiry; the hooked
// clients must check the session's chain through the store instead, so
// that a stale session (an expired intermediate, an anchor no longer
// trusted) gives a full handshake where crypto/tls gives one, rather than a
// resumed handshake that VerifyConnection then fails. In each case the
// hooks must agree with crypto/tls on success and on resumption.
func TestResumeStaleSession(t *testing.T) {
	cases := []struct {
		label     string
		serve     func(p *resumePKI) *tls.Certificate // after the first connection
		offset    time.Duration
		foreign   bool // the second connection trusts the foreign root only
		ok, resum bool
	}{
		{"session still good", func(p *resumePKI) *tls.Certificate { return &p.stale }, 0, false, true, true},
		{"intermediate expired, chain rotated", func(p *resumePKI) *tls.Certificate { return &p.fresh }, 2 * time.Hour, false, true, false},
		{"intermediate expired, not rotated", func(p *resumePKI) *tls.Certificate { return &p.stale }, 2 * time.Hour, false, false, false},
		{"leaf expired, chain rotated", func(p *resumePKI) *tls.Certificate { return &p.fresh }, 4 * time.Hour, false, true, false},
		{"anchor no longer trusted, chain rotated", func(p *resumePKI) *tls.Certificate { return &p.foreign }, 0, true, true, false},
	}
	for _, v := range []uint16{tls.VersionTLS12, tls.VersionTLS13} {
		for _, tc := range cases {
			t.Run(tls.VersionName(v)+"/"+tc.label, func(t *testing.T) {
				p := newResumePKI(t)
				server := p.server(v)
				foreign := false
				store := func() *truststore.Store {
					if foreign {
						return p.foreignStore
					}
					return p.store
				}
				roots := func() *x509.CertPool {
					if foreign {
						return p.foreignRoots
					}
					return p.store.CertPool()
				}
				clients := p.resumeClients(store, roots)
				for _, c := range clients {
					if cs, err := tcpHandshake(t, server, c.conn); err != nil || cs.DidResume {
						t.Fatalf("%s, first connection: %v (resumed %v)", c.label, err, cs.DidResume)
					}
				}
				p.cur.Store(tc.serve(p))
				p.offset.Store(int64(tc.offset))
				foreign = tc.foreign
				for _, c := range clients {
					cs, err := tcpHandshake(t, server, c.conn)
					if (err == nil) != tc.ok || cs.DidResume != tc.resum {
						t.Errorf("%s: %v, resumed %v; want success %v, resumed %v", c.label, err, cs.DidResume, tc.ok, tc.resum)
					}
				}
			})
		}
	}
}

// TestResumeForeignSession: a session that the hook did not verify (one
// made by a crypto/tls client with RootCAs, sharing the cache) is not
// offered by a hooked client, as crypto/tls does not offer a session made
// under InsecureSkipVerify to a client that verifies.
func TestResumeForeignSession(t *testing.T) {
	p := newResumePKI(t)
	server := p.server(0)
	cache := tls.NewLRUClientSessionCache(4)
	std := &tls.Config{ServerName: "server.test", RootCAs: p.store.CertPool(), ClientSessionCache: cache}
	hooked := HookClientConfig(&tls.Config{ServerName: "server.test", ClientSessionCache: cache}, p.store)
	for i, step := range []struct {
		label string
		cfg   *tls.Config
	}{{"crypto/tls", std}, {"HookClientConfig after crypto/tls", hooked}, {"crypto/tls after HookClientConfig", std}} {
		cs, err := tcpHandshake(t, server, func(c net.Conn) *tls.Conn { return tls.Client(c, step.cfg) })
		if err != nil || cs.DidResume {
			t.Errorf("%d, %s: %v, resumed %v; want a full handshake", i, step.label, err, cs.DidResume)
		}
	}
}

// putCache is a ClientSessionCache that signals each session stored.
type putCache struct {
	tls.ClientSessionCache
	puts chan struct{}
}

func (c *putCache) Put(key string, cs *tls.ClientSessionState) {
	c.ClientSessionCache.Put(key, cs)
	if cs != nil {
		select {
		case c.puts <- struct{}{}:
		default:
		}
	}
}

// TestResumeQUICEarlyData: with quic-go, a client offering a session whose
// ticket allows 0-RTT sends application data before the server's
// certificate is seen, let alone verified: crypto/tls (RootCAs) does not
// offer a stale session, so a hooked client must not either; otherwise its
// data reaches a server the hook then refuses. A session still good is
// offered and 0-RTT is used, as with crypto/tls.
func TestResumeQUICEarlyData(t *testing.T) {
	if testing.Short() {
		t.Skip("QUIC handshakes skipped in -short")
	}
	t.Setenv("QUIC_GO_DISABLE_RECEIVE_BUFFER_WARNING", "true")
	type arrival struct {
		data  string
		early bool // the server accepted 0-RTT on that connection
	}
	cases := []struct {
		label  string
		rotate bool
		offset time.Duration
		early  bool
	}{
		{"session still good", false, 0, true},
		{"intermediate expired, chain rotated", true, 2 * time.Hour, false},
	}
	for _, tc := range cases {
		for _, hooked := range []bool{false, true} {
			label := tc.label + "/crypto-tls"
			if hooked {
				label = tc.label + "/HookClientConfig"
			}
			t.Run(label, func(t *testing.T) {
				p := newResumePKI(t)
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
				defer cancel()
				ln, err := quic.ListenAddrEarly("127.0.0.1:0", &tls.Config{NextProtos: []string{"test"},
					GetCertificate: func(*tls.ClientHelloInfo) (*tls.Certificate, error) { return p.cur.Load(), nil }},
					&quic.Config{Allow0RTT: true})
				if err != nil {
					t.Fatal(err)
				}
				defer ln.Close()
				arrivals := make(chan arrival, 4)
				go func() {
					for {
						conn, err := ln.Accept(ctx)
						if err != nil {
							return
						}
						go func() {
							a := arrival{early: conn.ConnectionState().Used0RTT}
							if str, err := conn.AcceptStream(ctx); err == nil {
								data, _ := io.ReadAll(str) // all that came before the connection closed
								a.data = string(data)
							}
							arrivals <- a
						}()
					}
				}()
				cache := &putCache{tls.NewLRUClientSessionCache(4), make(chan struct{}, 1)}
				cfg := &tls.Config{ServerName: "server.test", NextProtos: []string{"test"}, Time: p.now, ClientSessionCache: cache}
				if hooked {
					cfg = HookClientConfig(cfg, p.store)
				} else {
					cfg.RootCAs = p.store.CertPool()
				}
				send := func(msg string, ticket bool) (arrival, error) {
					conn, err := quic.DialAddrEarly(ctx, ln.Addr().String(), cfg, nil)
					if err != nil {
						return arrival{}, err
					}
					defer conn.CloseWithError(0, "")
					str, err := conn.OpenStream()
					if err != nil {
						return arrival{}, err
					}
					str.Write([]byte(msg))
					str.Close()
					var herr error
					select {
					case <-conn.HandshakeComplete():
					case <-conn.Context().Done():
						herr = context.Cause(conn.Context())
					}
					// What reached the server, the handshake failed or not.
					var a arrival
					select {
					case a = <-arrivals:
					case <-ctx.Done():
						return arrival{}, ctx.Err()
					}
					if herr != nil {
						return a, herr
					}
					if ticket { // before the connection closes
						select {
						case <-cache.puts:
						case <-ctx.Done():
							return arrival{}, errors.New("no session ticket stored")
						}
					}
					return a, nil
				}
				if a, err := send("first", true); err != nil || a.early || a.data != "first" {
					t.Fatalf("first connection: %v, %+v", err, a)
				}
				if tc.rotate {
					p.cur.Store(&p.fresh)
				}
				p.offset.Store(int64(tc.offset))
				a, err := send("second", false)
				if err != nil || a.data != "second" || a.early != tc.early {
					t.Fatalf("second connection: %v; the server accepted 0-RTT: %v, received %q; want success, 0-RTT %v", err, a.early, a.data, tc.early)
				}
			})
		}
	}
}
