package provider

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"sync/atomic"
	"testing"
	"time"

	"github.com/p256tls/p256tls/internal/testsupport/testpki"
	"github.com/p256tls/p256tls/truststore"
	"github.com/quic-go/quic-go"
)

// tlsPKI is a root, an intermediate and leaves for handshakes, valid now.
type tlsPKI struct {
	root, inter    *testpki.Node
	server, client tls.Certificate
	clientServer   tls.Certificate // a client certificate with ServerAuth only
	store, other   *truststore.Store
}

func newTLSPKI(t *testing.T) *tlsPKI {
	t.Helper()
	now := time.Now()
	ca := func(cn string, idx int, parent *testpki.Node) *testpki.Node {
		tm := testpki.CATemplate(cn, now.Add(-time.Hour), now.Add(24*time.Hour))
		return testpki.MustIssue(t, tm, testpki.MustKey(t, testpki.P256), parent)
	}
	p := &tlsPKI{}
	p.root = ca("TLS root", 35, nil)
	p.inter = ca("TLS intermediate", 36, p.root)
	leaf := func(cn string, idx int, eku x509.ExtKeyUsage, dns ...string) tls.Certificate {
		tm := testpki.LeafTemplate(cn, now.Add(-time.Hour), now.Add(time.Hour), dns...)
		tm.IPAddresses = []net.IP{net.IPv4(127, 0, 0, 1)}
		tm.ExtKeyUsage = []x509.ExtKeyUsage{eku}
		return p.issueLeaf(t, tm)
	}
	p.server = leaf("server", 37, x509.ExtKeyUsageServerAuth, "server.test")
	p.client = leaf("client", 38, x509.ExtKeyUsageClientAuth)
	p.clientServer = leaf("client-server", 39, x509.ExtKeyUsageServerAuth)
	var err error
	if p.store, err = truststore.New([]*x509.Certificate{p.root.Cert}); err != nil {
		t.Fatal(err)
	}
	other := testpki.MustIssue(t, testpki.CATemplate("unrelated root", now.Add(-time.Hour), now.Add(24*time.Hour)),
		testpki.MustKey(t, testpki.P256), nil)
	if p.other, err = truststore.New([]*x509.Certificate{other.Cert}); err != nil {
		t.Fatal(err)
	}
	return p
}

// issueLeaf issues tm for a fresh P-256 key under the intermediate and
// returns it with the chain a server sends (leaf, intermediate).
func (p *tlsPKI) issueLeaf(t testing.TB, tm *x509.Certificate) tls.Certificate {
	t.Helper()
	n := testpki.MustIssue(t, tm, testpki.MustKey(t, testpki.P256), p.inter)
	return tls.Certificate{Certificate: [][]byte{n.Cert.Raw, p.inter.Cert.Raw}, PrivateKey: n.Key, Leaf: n.Cert}
}

// handshake runs a crypto/tls handshake over a pipe; it returns the client's
// and the server's errors.
func hookHandshake(t *testing.T, client, server *tls.Config) (*tls.Conn, error, error) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	s, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	cc, sc := tls.Client(c, client), tls.Server(s, server)
	serr := make(chan error, 1)
	go func() {
		err := sc.Handshake()
		if err == nil {
			// Let the client read the session ticket.
			sc.Write([]byte{1})
		}
		serr <- err
		sc.Close()
	}()
	cerr := cc.Handshake()
	if cerr == nil {
		b := make([]byte, 1)
		cc.Read(b)
	}
	cc.Close()
	return cc, cerr, <-serr
}

func TestTLSClient(t *testing.T) {
	p := newTLSPKI(t)
	server := &tls.Config{Certificates: []tls.Certificate{p.server}}
	var calls atomic.Int32
	var chainsSeen atomic.Int32
	base := &tls.Config{ServerName: "server.test", ClientSessionCache: tls.NewLRUClientSessionCache(4),
		VerifyConnection: func(cs tls.ConnectionState) error {
			calls.Add(1)
			if len(cs.VerifiedChains) == 1 && len(cs.VerifiedChains[0]) == 3 {
				chainsSeen.Add(1)
			}
			return nil
		}}
	client := HookClientConfig(base, p.store)
	if base.InsecureSkipVerify || client.ServerName != "server.test" {
		t.Fatal("HookClientConfig modified its argument or lost ServerName")
	}
	if _, cerr, serr := hookHandshake(t, client, server); cerr != nil || serr != nil {
		t.Fatalf("handshake: %v / %v", cerr, serr)
	}
	// Resumed: VerifyConnection runs again.
	conn, cerr, serr := hookHandshake(t, client, server)
	if cerr != nil || serr != nil {
		t.Fatalf("resumed handshake: %v / %v", cerr, serr)
	}
	if !conn.ConnectionState().DidResume {
		t.Error("second handshake did not resume")
	}
	if calls.Load() != 2 || chainsSeen.Load() != 2 {
		t.Errorf("caller's VerifyConnection: %d calls, %d with the store's chain", calls.Load(), chainsSeen.Load())
	}
	// A resumed session past its certificate's expiry fails.
	late := HookClientConfig(&tls.Config{ServerName: "server.test", ClientSessionCache: base.ClientSessionCache,
		Time: func() time.Time { return time.Now().Add(2 * time.Hour) }}, p.store)
	if _, cerr, _ := hookHandshake(t, late, server); cerr == nil {
		t.Error("resumed handshake with an expired certificate succeeded")
	}
	// An IP address as the server name: crypto/tls does not report it to
	// VerifyConnection, so the hook refuses it (Client binds it instead;
	// see hostname_test.go).
	ip := HookClientConfig(&tls.Config{ServerName: "127.0.0.1"}, p.store)
	if _, cerr, _ := hookHandshake(t, ip, server); !errors.Is(cerr, ErrNoServerName) {
		t.Errorf("IP server name: %v, want ErrNoServerName", cerr)
	}
	if st := p.store.Stats(); st.FastAccepts == 0 {
		t.Errorf("no fast accept: %+v", st)
	}
}

func TestTLSClientRejects(t *testing.T) {
	p := newTLSPKI(t)
	server := &tls.Config{Certificates: []tls.Certificate{p.server}}
	badSig := p.server
	// The leaf with the last byte of its signature (s's) flipped.
	badLeaf := append([]byte(nil), p.server.Leaf.Raw...)
	badLeaf[len(badLeaf)-1] ^= 1
	badSig.Leaf = nil
	badSig.Certificate = [][]byte{badLeaf, p.inter.Cert.Raw}
	cases := []struct {
		name   string
		client *tls.Config
		server *tls.Config
	}{
		{"wrong name", HookClientConfig(&tls.Config{ServerName: "other.test"}, p.store), server},
		{"no name", HookClientConfig(nil, p.store), server},
		{"expired", HookClientConfig(&tls.Config{ServerName: "server.test", Time: func() time.Time { return time.Now().Add(2 * time.Hour) }}, p.store), server},
		{"unknown anchor", HookClientConfig(&tls.Config{ServerName: "server.test"}, p.other), server},
		{"bad signature", HookClientConfig(&tls.Config{ServerName: "server.test"}, p.store), &tls.Config{Certificates: []tls.Certificate{badSig}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, cerr, _ := hookHandshake(t, tc.client, tc.server)
			if cerr == nil {
				t.Fatal("handshake succeeded")
			}
			t.Log(cerr)
		})
	}
	// A caller's VerifyConnection error is kept.
	mine := errors.New("mine")
	cfg := HookClientConfig(&tls.Config{ServerName: "server.test", VerifyConnection: func(tls.ConnectionState) error { return mine }}, p.store)
	if _, cerr, _ := hookHandshake(t, cfg, server); !errors.Is(cerr, mine) {
		t.Errorf("caller's VerifyConnection error lost: %v", cerr)
	}
}

func TestTLSClientAuth(t *testing.T) {
	p := newTLSPKI(t)
	var vpc atomic.Int32
	server := HookClientAuth(&tls.Config{Certificates: []tls.Certificate{p.server}, ClientAuth: tls.RequireAndVerifyClientCert,
		VerifyPeerCertificate: func(_ [][]byte, chains [][]*x509.Certificate) error {
			if len(chains) == 1 {
				vpc.Add(1)
			}
			return nil
		}}, p.store)
	client := func(certs ...tls.Certificate) *tls.Config {
		return HookClientConfig(&tls.Config{ServerName: "server.test", Certificates: certs}, p.store)
	}
	if _, cerr, serr := hookHandshake(t, client(p.client), server); cerr != nil || serr != nil {
		t.Fatalf("mutual TLS: %v / %v", cerr, serr)
	}
	if vpc.Load() != 1 {
		t.Error("caller's VerifyPeerCertificate did not see the store's chain")
	}
	if _, _, serr := hookHandshake(t, client(), server); serr == nil {
		t.Error("no client certificate accepted")
	}
	if _, _, serr := hookHandshake(t, client(p.clientServer), server); serr == nil {
		t.Error("client certificate without ClientAuth usage accepted")
	}
	otherStore := HookClientAuth(&tls.Config{Certificates: []tls.Certificate{p.server}}, p.other)
	if _, _, serr := hookHandshake(t, client(p.client), otherStore); serr == nil {
		t.Error("client certificate from an unknown anchor accepted")
	}
	// Optional client certificates.
	optional := HookClientAuth(&tls.Config{Certificates: []tls.Certificate{p.server}, ClientAuth: tls.VerifyClientCertIfGiven}, p.store)
	if _, cerr, serr := hookHandshake(t, client(), optional); cerr != nil || serr != nil {
		t.Errorf("optional, none given: %v / %v", cerr, serr)
	}
	if _, _, serr := hookHandshake(t, client(p.clientServer), optional); serr == nil {
		t.Error("optional: a bad certificate accepted")
	}
}

func TestQUICClient(t *testing.T) {
	if testing.Short() {
		t.Skip("QUIC handshake skipped in -short")
	}
	p := newTLSPKI(t)
	ln, err := quic.ListenAddr("127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{p.server}, NextProtos: []string{"test"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	go func() {
		for {
			c, err := ln.Accept(ctx)
			if err != nil {
				return
			}
			go func() {
				<-c.Context().Done()
			}()
		}
	}()
	dial := func(name string, s *truststore.Store) error {
		cfg := HookClientConfig(&tls.Config{ServerName: name, NextProtos: []string{"test"}}, s)
		c, err := quic.DialAddr(ctx, ln.Addr().String(), cfg, nil)
		if err != nil {
			return err
		}
		c.CloseWithError(0, "")
		return nil
	}
	if err := dial("server.test", p.store); err != nil {
		t.Fatalf("QUIC handshake: %v", err)
	}
	if err := dial("other.test", p.store); err == nil {
		t.Error("QUIC: wrong name accepted")
	}
	if err := dial("server.test", p.other); err == nil {
		t.Error("QUIC: unknown anchor accepted")
	}
}
