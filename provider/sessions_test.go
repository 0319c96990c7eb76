package provider

import (
	"crypto/tls"
	"errors"
	"net"
	"strconv"
	"sync/atomic"
	"testing"
)

// TestSNIName compares sniName with the name crypto/tls reports to
// VerifyConnection for each ServerName.
func TestSNIName(t *testing.T) {
	p := newTLSPKI(t)
	server := &tls.Config{Certificates: []tls.Certificate{p.server}}
	for _, name := range []string{"server.test", "server.test.", "server.test..", "127.0.0.1", "127.0.0.1.", "::1", "::1.",
		"[::1]", "[::1].", "fe80::1%eth0", "[fe80::1%eth0]", "%", "[]", "a%b", "::ffff:127.0.0.1"} {
		var got string
		cfg := &tls.Config{ServerName: name, InsecureSkipVerify: true, VerifyConnection: func(cs tls.ConnectionState) error {
			got = cs.ServerName
			return nil
		}}
		if _, err := tcpHandshake(t, server, func(c net.Conn) *tls.Conn { return tls.Client(c, cfg) }); err != nil {
			t.Fatalf("%q: %v", name, err)
		}
		if s := sniName(name); s != got {
			t.Errorf("sniName(%q) = %q, crypto/tls reports %q", name, s, got)
		}
	}
}

// countingCache counts the Gets of a ClientSessionCache.
type countingCache struct {
	tls.ClientSessionCache
	gets atomic.Int32
}

func (c *countingCache) Get(key string) (*tls.ClientSessionState, bool) {
	c.gets.Add(1)
	return c.ClientSessionCache.Get(key)
}

// TestSessionCache checks the session cache of the hooked clients on its
// own: what it stores, what it offers and what it leaves in the cache.
func TestSessionCache(t *testing.T) {
	p := newTLSPKI(t)
	server := &tls.Config{Certificates: []tls.Certificate{p.server}}
	// A session made by crypto/tls (with RootCAs) in inner.
	inner := tls.NewLRUClientSessionCache(4)
	std := &tls.Config{ServerName: "server.test", RootCAs: p.store.CertPool(), ClientSessionCache: inner}
	cs, err := tcpHandshake(t, server, func(c net.Conn) *tls.Conn { return tls.Client(c, std) })
	if err != nil {
		t.Fatal(err)
	}
	chain := cs.PeerCertificates
	sc := newSessionCache(inner, p.store, nil, "")
	if _, ok := sc.Get("server.test"); ok {
		t.Error("a session with no recorded chain was offered")
	}
	if _, ok := inner.Get("server.test"); !ok {
		t.Error("a session with no recorded chain was removed")
	}
	session, _ := inner.Get("server.test")

	// Put without a verified chain for the name: not stored.
	fresh := tls.NewLRUClientSessionCache(4)
	sc = newSessionCache(fresh, p.store, nil, "")
	sc.Put("server.test", session)
	if _, ok := fresh.Get("server.test"); ok {
		t.Error("a session whose chain is unknown was stored")
	}
	// With one (trailing dots ignored on both sides): stored and offered.
	sc.verified("server.test.", chain)
	sc.Put("server.test..", session)
	if _, ok := sc.Get("server.test.."); !ok {
		t.Error("a session with a good chain was not offered")
	}
	// Under a name the chain does not match: refused and removed.
	sc.verified("other.test", chain)
	sc.Put("other.test", session)
	if _, ok := sc.Get("other.test"); ok {
		t.Error("a session offered for a name its leaf does not have")
	}
	if _, ok := fresh.Get("other.test"); ok {
		t.Error("a session the store refuses was left in the cache")
	}
	// Unbound, an address (the leaf has 127.0.0.1), with or without a
	// trailing dot: VerifyConnection would refuse the connection, so the
	// session is not offered.
	for _, key := range []string{"127.0.0.1", "127.0.0.1."} {
		sc.verified(key, chain)
		sc.Put(key, session)
		if _, ok := sc.Get(key); ok {
			t.Errorf("an unbound session offered for %q", key)
		}
	}
	// Bound to that address: offered.
	bound := newSessionCache(fresh, p.store, nil, "127.0.0.1")
	bound.verified("127.0.0.1", chain)
	bound.Put("127.0.0.1", session)
	if _, ok := bound.Get("127.0.0.1"); !ok {
		t.Error("a bound session not offered for its address")
	}

	// The names remembered are bounded.
	for i := range maxSessionNames + 10 {
		sc.verified("n"+strconv.Itoa(i)+".test", chain)
	}
	if n := len(sc.chains); n != maxSessionNames {
		t.Errorf("%d names remembered, want %d", n, maxSessionNames)
	}
}

// TestSessionChainMalformed: a recorded chain that does not parse is no
// chain (the session is not offered); the last of several entries counts,
// and other layers' entries are skipped.
func TestSessionChainMalformed(t *testing.T) {
	p := newTLSPKI(t)
	der := p.server.Certificate[0]
	good := append([]byte(sessionChainPrefix), byte(len(der)>>16), byte(len(der)>>8), byte(len(der)))
	good = append(good, der...)
	for _, tc := range []struct {
		label string
		extra [][]byte
		ok    bool
	}{
		{"good", [][]byte{good}, true},
		{"after another layer's", [][]byte{[]byte("quic-go"), good}, true},
		{"before another layer's", [][]byte{good, []byte("quic-go")}, true},
		{"a bad one last", [][]byte{good, []byte(sessionChainPrefix + "\x00\x00")}, false},
		{"short length", [][]byte{[]byte(sessionChainPrefix + "\x00\x00")}, false},
		{"length past the end", [][]byte{good[:len(good)-1]}, false},
		{"not a certificate", [][]byte{[]byte(sessionChainPrefix + "\x00\x00\x01\x30")}, false},
		{"empty", [][]byte{[]byte(sessionChainPrefix)}, false},
		{"none", nil, false},
	} {
		chain := sessionChain(tc.extra)
		if (chain != nil) != tc.ok || tc.ok && (len(chain) != 1 || !chain[0].Equal(p.server.Leaf)) {
			t.Errorf("%s: %v", tc.label, chain)
		}
	}
}

// TestRefusedConfigOffersNoSession: a Config the hooks refuse (nil store)
// does not look at the session cache, so no session (and no QUIC 0-RTT
// data) is offered.
func TestRefusedConfigOffersNoSession(t *testing.T) {
	p := newTLSPKI(t)
	server := &tls.Config{Certificates: []tls.Certificate{p.server}}
	cache := &countingCache{ClientSessionCache: tls.NewLRUClientSessionCache(4)}
	for _, conn := range []func(net.Conn) *tls.Conn{
		func(c net.Conn) *tls.Conn {
			return tls.Client(c, HookClientConfig(&tls.Config{ServerName: "server.test", ClientSessionCache: cache}, nil))
		},
		func(c net.Conn) *tls.Conn {
			return Client(c, &tls.Config{ServerName: "server.test", ClientSessionCache: cache}, nil)
		},
	} {
		if _, err := tcpHandshake(t, server, conn); !errors.Is(err, ErrNilStore) {
			t.Errorf("nil store: %v", err)
		}
	}
	if n := cache.gets.Load(); n != 0 {
		t.Errorf("the session cache was read %d times", n)
	}
}
