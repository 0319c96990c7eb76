package provider

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/p256tls/p256tls/internal/testsupport/testpki"
)

// hostPKI is newTLSPKI's CA with leaves naming different hosts.
type hostPKI struct {
	*tlsPKI
	leaves map[string]tls.Certificate
}

func newHostPKI(t *testing.T) *hostPKI {
	t.Helper()
	p := &hostPKI{tlsPKI: newTLSPKI(t), leaves: map[string]tls.Certificate{}}
	mk := func(label string, dns []string, ips ...net.IP) {
		tm := testpki.LeafTemplate(label, time.Now().Add(-time.Hour), time.Now().Add(time.Hour), dns...)
		tm.IPAddresses = ips
		tm.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}
		p.leaves[label] = p.issueLeaf(t, tm)
	}
	v4, v6 := net.IPv4(127, 0, 0, 1), net.IPv6loopback
	mk("dns", []string{"good.example"})
	mk("v4", nil, v4)
	mk("v6", nil, v6)
	mk("all", []string{"good.example"}, v4, v6)
	mk("other", []string{"other.example"}, net.IPv4(127, 0, 0, 2))
	mk("dns-ip", []string{"127.0.0.1", "::1"}) // addresses spelled as DNS names
	return p
}

// outcome is one client handshake: its error and how often the caller's
// VerifyPeerCertificate ran with a chain.
type outcome struct {
	err      error
	vpcCalls int32
	resumed  bool
}

// tcpHandshake runs client over a loopback TCP connection against a
// crypto/tls server with server, reading one byte so that a session ticket
// arrives.
func tcpHandshake(t *testing.T, server *tls.Config, client func(net.Conn) *tls.Conn) (tls.ConnectionState, error) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	done := make(chan struct{})
	go func() {
		defer close(done)
		s, err := ln.Accept()
		if err != nil {
			return
		}
		s.SetDeadline(time.Now().Add(10 * time.Second))
		sc := tls.Server(s, server)
		if sc.Handshake() == nil {
			sc.Write([]byte{1})
		}
		sc.Close()
	}()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	c.SetDeadline(time.Now().Add(10 * time.Second))
	cc := client(c)
	err = cc.Handshake()
	if err == nil {
		cc.Read(make([]byte, 1))
	}
	cs := cc.ConnectionState()
	cc.Close()
	<-done
	return cs, err
}

// run handshakes with cfg through wrap (tls.Client for crypto/tls and
// hooked Configs, Client for a bound one), counting the caller's
// VerifyPeerCertificate calls when vpc is set.
func runHook(t *testing.T, server *tls.Config, cfg *tls.Config, vpc bool, wrap func(net.Conn, *tls.Config) *tls.Conn) outcome {
	t.Helper()
	var calls atomic.Int32
	if vpc {
		cfg = cfg.Clone()
		cfg.VerifyPeerCertificate = func(_ [][]byte, chains [][]*x509.Certificate) error {
			calls.Add(1)
			if len(chains) == 0 {
				t.Error("VerifyPeerCertificate without a verified chain")
			}
			return nil
		}
	}
	cs, err := tcpHandshake(t, server, func(c net.Conn) *tls.Conn { return wrap(c, cfg) })
	return outcome{err: err, vpcCalls: calls.Load(), resumed: err == nil && cs.DidResume}
}

func stdClient(c net.Conn, cfg *tls.Config) *tls.Conn { return tls.Client(c, cfg) }

// TestClientHostNameDifferential compares, for each connection name (DNS,
// IPv4, IPv6, empty), set before hooking or on a Clone after, and each
// leaf, the hooks' answer with crypto/tls's own (RootCAs, same names).
// Nothing may be accepted that crypto/tls refuses. HookClientConfig must
// agree with crypto/tls on DNS names and refuse the others with
// ErrNoServerName; Client must agree with crypto/tls everywhere, including
// on when the caller's VerifyPeerCertificate runs.
func TestClientHostNameDifferential(t *testing.T) {
	p := newHostPKI(t)
	names := []string{"good.example", "127.0.0.1", "::1", ""}
	leaves := []string{"dns", "v4", "v6", "all", "other"}
	type when struct {
		label  string
		hooked string // the name when hooking; "-" means the name is set before
	}
	var whens []when
	whens = append(whens, when{"before", "-"})
	for _, h := range names {
		whens = append(whens, when{"after hooking " + strconv.Quote(h), h})
	}
	accepted := 0
	for _, name := range names {
		for _, w := range whens {
			for _, leaf := range leaves {
				for _, vpc := range []bool{false, true} {
					label := strconv.Quote(name) + "/" + w.label + "/" + leaf
					if vpc {
						label += "/vpc"
					}
					t.Run(label, func(t *testing.T) {
						server := &tls.Config{Certificates: []tls.Certificate{p.leaves[leaf]}}
						std := runHook(t, server, &tls.Config{RootCAs: p.store.CertPool(), ServerName: name}, vpc, stdClient)

						// HookClientConfig, the name set before or on a Clone after.
						var hooked *tls.Config
						if w.hooked == "-" {
							hooked = HookClientConfig(&tls.Config{ServerName: name}, p.store)
						} else {
							hooked = HookClientConfig(&tls.Config{ServerName: w.hooked}, p.store).Clone()
							hooked.ServerName = name
						}
						// The VerifyPeerCertificate is installed before hooking.
						var hook outcome
						if vpc {
							var calls atomic.Int32
							base := &tls.Config{ServerName: name}
							if w.hooked != "-" {
								base.ServerName = w.hooked
							}
							base.VerifyPeerCertificate = func(_ [][]byte, chains [][]*x509.Certificate) error {
								if len(chains) > 0 {
									calls.Add(1)
								}
								return nil
							}
							hooked = HookClientConfig(base, p.store).Clone()
							hooked.ServerName = name
							hook = runHook(t, server, hooked, false, stdClient)
							hook.vpcCalls = calls.Load()
						} else {
							hook = runHook(t, server, hooked, false, stdClient)
						}
						if hook.err == nil && std.err != nil {
							t.Fatalf("HookClientConfig accepted what crypto/tls refuses: %v", std.err)
						}
						if net.ParseIP(name) != nil || name == "" {
							if !errors.Is(hook.err, ErrNoServerName) {
								t.Fatalf("HookClientConfig with %q: %v, want ErrNoServerName", name, hook.err)
							}
						} else if (hook.err == nil) != (std.err == nil) {
							t.Fatalf("HookClientConfig: %v; crypto/tls: %v", hook.err, std.err)
						}

						// Client, the name set on the Config (cloned after, or not).
						cfg := &tls.Config{ServerName: name}
						if w.hooked != "-" {
							cfg = (&tls.Config{ServerName: w.hooked}).Clone()
							cfg.ServerName = name
						}
						bound := runHook(t, server, cfg, vpc, func(c net.Conn, cfg *tls.Config) *tls.Conn { return Client(c, cfg, p.store) })
						if (bound.err == nil) != (std.err == nil) {
							t.Fatalf("Client: %v; crypto/tls: %v", bound.err, std.err)
						}
						if bound.vpcCalls != std.vpcCalls {
							t.Fatalf("caller's VerifyPeerCertificate ran %d times, with crypto/tls %d", bound.vpcCalls, std.vpcCalls)
						}
						if name == "" && !errors.Is(bound.err, ErrNoServerName) {
							t.Fatalf("Client without a name: %v, want ErrNoServerName", bound.err)
						}
						if std.err == nil {
							accepted++
						}
					})
				}
			}
		}
	}
	// The table must exercise acceptance: each of the three names, five
	// ways, by two leaves, with and without a VerifyPeerCertificate.
	if want := 3 * len(whens) * 2 * 2; accepted != want {
		t.Errorf("crypto/tls accepted %d cases, want %d", accepted, want)
	}
}

// TestClientNameForms checks Client against crypto/tls on the spellings
// crypto/x509 treats specially: a bracketed IPv6 address, a zone, a
// trailing dot, upper case, another address.
func TestClientNameForms(t *testing.T) {
	p := newHostPKI(t)
	names := []string{"[::1]", "::1%lo", "fe80::1%eth0", "good.example.", "GOOD.example", "good.example..", "127.0.0.2", "::ffff:127.0.0.1", "0:0:0:0:0:0:0:1", "127.0.0.1.", "::1."}
	for _, name := range names {
		for _, leaf := range []string{"dns", "v4", "v6", "all", "other", "dns-ip"} {
			t.Run(name+"/"+leaf, func(t *testing.T) {
				server := &tls.Config{Certificates: []tls.Certificate{p.leaves[leaf]}}
				var std outcome
				for _, vpc := range []bool{false, true} {
					std = runHook(t, server, &tls.Config{RootCAs: p.store.CertPool(), ServerName: name}, vpc, stdClient)
					bound := runHook(t, server, &tls.Config{ServerName: name}, vpc, func(c net.Conn, cfg *tls.Config) *tls.Conn { return Client(c, cfg, p.store) })
					if (bound.err == nil) != (std.err == nil) || bound.vpcCalls != std.vpcCalls {
						t.Fatalf("Client (VerifyPeerCertificate %v): %v (%d calls); crypto/tls: %v (%d)", vpc, bound.err, bound.vpcCalls, std.err, std.vpcCalls)
					}
				}
				hooked := runHook(t, server, HookClientConfig(&tls.Config{ServerName: name}, p.store), false, stdClient)
				if hooked.err == nil && std.err != nil && name != "good.example.." {
					t.Fatalf("HookClientConfig accepted what crypto/tls refuses: %v", std.err)
				}
				// An address with a trailing dot: crypto/tls sends and reports
				// it without the dot but checks the dotted name against DNS
				// SANs; the unbound hook cannot know which was dialed.
				if (name == "127.0.0.1." || name == "::1.") && !errors.Is(hooked.err, ErrNoServerName) {
					t.Fatalf("HookClientConfig with %q: %v, want ErrNoServerName", name, hooked.err)
				}
			})
		}
	}
}

// oneSlotCache is a ClientSessionCache that ignores its keys, like a faulty
// cache shared by connections to different names: every Get returns the
// last session put.
type oneSlotCache struct {
	mu sync.Mutex
	cs *tls.ClientSessionState
}

func (c *oneSlotCache) Get(string) (*tls.ClientSessionState, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cs, c.cs != nil
}

func (c *oneSlotCache) Put(_ string, cs *tls.ClientSessionState) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if cs != nil {
		c.cs = cs
	}
}

// TestClientResumedName: a session made for one name and found for a
// connection to another (through a cache that ignores its keys). crypto/tls,
// with RootCAs, offers it only if its leaf names the new server too, and
// otherwise verifies the new name in a full handshake; Client must do the
// same (its session cache checks the session's chain for the new name),
// and a session it resumes is verified again for the new name.
// HookClientConfig must never resume where crypto/tls does not.
func TestClientResumedName(t *testing.T) {
	p := newHostPKI(t)
	type step struct{ first, second, leaf string }
	steps := []step{
		{"good.example", "127.0.0.1", "dns"},
		{"good.example", "127.0.0.1", "all"},
		{"127.0.0.1", "::1", "v4"},
		{"127.0.0.1", "other.example", "v4"},
		{"good.example", "other.example", "dns"},
	}
	for _, st := range steps {
		t.Run(st.first+"→"+st.second+"/"+st.leaf, func(t *testing.T) {
			var resumedOnServer atomic.Int32
			server := &tls.Config{Certificates: []tls.Certificate{p.leaves[st.leaf]},
				VerifyConnection: func(cs tls.ConnectionState) error {
					if cs.DidResume {
						resumedOnServer.Add(1)
					}
					return nil
				}}
			stdCache, boundCache, hookCache := &oneSlotCache{}, &oneSlotCache{}, &oneSlotCache{}
			std1 := runHook(t, server, &tls.Config{RootCAs: p.store.CertPool(), ServerName: st.first, ClientSessionCache: stdCache}, false, stdClient)
			std2 := runHook(t, server, &tls.Config{RootCAs: p.store.CertPool(), ServerName: st.second, ClientSessionCache: stdCache}, false, stdClient)
			if std1.err != nil {
				t.Fatalf("crypto/tls, first connection: %v", std1.err)
			}
			bclient := func(c net.Conn, cfg *tls.Config) *tls.Conn { return Client(c, cfg, p.store) }
			b1 := runHook(t, server, &tls.Config{ServerName: st.first, ClientSessionCache: boundCache}, false, bclient)
			if b1.err != nil {
				t.Fatalf("Client, first connection: %v", b1.err)
			}
			resumedOnServer.Store(0)
			b2 := runHook(t, server, &tls.Config{ServerName: st.second, ClientSessionCache: boundCache}, false, bclient)
			if (resumedOnServer.Load() == 1) != std2.resumed {
				t.Fatalf("the server resumed Client's second connection %d times; crypto/tls's resumed: %v", resumedOnServer.Load(), std2.resumed)
			}
			if (b2.err == nil) != (std2.err == nil) || b2.resumed != std2.resumed {
				t.Fatalf("Client: %v (resumed %v); crypto/tls: %v (resumed %v)", b2.err, b2.resumed, std2.err, std2.resumed)
			}
			// HookClientConfig on a Clone: DNS names resume and are
			// verified again; an IP address is refused.
			h := HookClientConfig(&tls.Config{ServerName: st.first, ClientSessionCache: hookCache}, p.store)
			h1 := runHook(t, server, h, false, stdClient)
			if net.ParseIP(st.first) == nil && h1.err != nil {
				t.Fatalf("HookClientConfig, first connection: %v", h1.err)
			}
			if h1.err != nil {
				return
			}
			h2cfg := h.Clone()
			h2cfg.ServerName = st.second
			h2 := runHook(t, server, h2cfg, false, stdClient)
			if h2.err == nil && std2.err != nil {
				t.Fatalf("HookClientConfig, resumed, accepted what crypto/tls refuses: %v", std2.err)
			}
			if h2.resumed && !std2.resumed {
				t.Fatal("HookClientConfig resumed a session crypto/tls does not offer")
			}
			if net.ParseIP(st.second) != nil && !errors.Is(h2.err, ErrNoServerName) {
				t.Fatalf("HookClientConfig, resumed to %q: %v, want ErrNoServerName", st.second, h2.err)
			}
		})
	}
}

// listen serves leaf on addr until the test ends.
func listen(t *testing.T, network, addr string, leaf tls.Certificate) net.Listener {
	t.Helper()
	ln, err := net.Listen(network, addr)
	if err != nil {
		t.Skipf("no %s listener on %s: %v", network, addr, err)
	}
	t.Cleanup(func() { ln.Close() })
	cfg := &tls.Config{Certificates: []tls.Certificate{leaf}}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				c.SetDeadline(time.Now().Add(10 * time.Second))
				sc := tls.Server(c, cfg)
				if sc.Handshake() == nil {
					sc.Write([]byte{1})
				}
			}()
		}
	}()
	return ln
}

// TestDialer dials, as tls.Dialer with RootCAs does, with the name taken
// from the address or from Config.ServerName, and agrees with it.
func TestDialer(t *testing.T) {
	p := newHostPKI(t)
	for _, leaf := range []string{"dns", "v4", "v6", "all", "other"} {
		for _, network := range []string{"tcp4", "tcp6"} {
			local := "127.0.0.1:0"
			if network == "tcp6" {
				local = "[::1]:0"
			}
			for _, serverName := range []string{"", "good.example", "127.0.0.1", "::1"} {
				t.Run(leaf+"/"+network+"/"+strconv.Quote(serverName), func(t *testing.T) {
					ln := listen(t, "tcp", local, p.leaves[leaf])
					addr := ln.Addr().String()
					ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
					defer cancel()
					std := &tls.Dialer{Config: &tls.Config{RootCAs: p.store.CertPool(), ServerName: serverName}}
					sc, serr := std.DialContext(ctx, "tcp", addr)
					if serr == nil {
						sc.Close()
					}
					cfg := &tls.Config{ServerName: serverName}
					d := &Dialer{Config: cfg, Store: p.store}
					c, err := d.DialContext(ctx, "tcp", addr)
					if (err == nil) != (serr == nil) {
						t.Fatalf("Dialer: %v; tls.Dialer: %v", err, serr)
					}
					if err == nil {
						if _, ok := c.(*tls.Conn); !ok {
							t.Errorf("Dialer returned a %T", c)
						}
						c.Close()
					}
					if cfg.ServerName != serverName || cfg.InsecureSkipVerify || cfg.VerifyConnection != nil {
						t.Error("Dialer modified its Config")
					}
				})
			}
		}
	}
	// The whole address as the name when it has no colon (as tls.Dial).
	if got := addrHost("good.example"); got != "good.example" {
		t.Errorf("addrHost(no port) = %q", got)
	}
	if got := addrHost("[::1]:443"); got != "[::1]" {
		t.Errorf("addrHost([::1]:443) = %q", got)
	}
}

// TestDialerResumes: connections from one Dialer share the Config's session
// cache, resume, and are verified again on resumption.
func TestDialerResumes(t *testing.T) {
	p := newHostPKI(t)
	ln := listen(t, "tcp", "127.0.0.1:0", p.leaves["v4"])
	var calls atomic.Int32
	d := &Dialer{Store: p.store, NetDialer: &net.Dialer{Timeout: 10 * time.Second}, Config: &tls.Config{
		ClientSessionCache: tls.NewLRUClientSessionCache(4),
		VerifyConnection: func(cs tls.ConnectionState) error {
			if len(cs.VerifiedChains) == 1 {
				calls.Add(1)
			}
			return nil
		}}}
	for i := range 2 {
		c, err := d.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatalf("dial %d: %v", i, err)
		}
		c.Read(make([]byte, 1))
		if resumed := c.(*tls.Conn).ConnectionState().DidResume; resumed != (i == 1) {
			t.Errorf("dial %d: DidResume = %v", i, resumed)
		}
		c.Close()
	}
	if calls.Load() != 2 {
		t.Errorf("caller's VerifyConnection ran %d times with the store's chain, want 2", calls.Load())
	}
}

// TestClientMisuse: a hooked Config given to Client or Dialer, and a nil
// Store, fail with clear errors; nothing panics.
func TestClientMisuse(t *testing.T) {
	p := newHostPKI(t)
	server := &tls.Config{Certificates: []tls.Certificate{p.leaves["all"]}}
	for _, cfg := range []*tls.Config{
		HookClientConfig(&tls.Config{ServerName: "good.example"}, p.store),
		HookClientConfig(&tls.Config{ServerName: "good.example"}, p.store).Clone(),
		HookClientConfig(nil, p.store),
	} {
		c := cfg.Clone()
		c.ServerName = "good.example"
		_, err := tcpHandshake(t, server, func(conn net.Conn) *tls.Conn { return Client(conn, c, p.store) })
		if !errors.Is(err, errHookedConfig) {
			t.Errorf("Client with a hooked Config: %v", err)
		}
	}
	_, err := tcpHandshake(t, server, func(conn net.Conn) *tls.Conn {
		return Client(conn, &tls.Config{ServerName: "good.example"}, nil)
	})
	if !errors.Is(err, ErrNilStore) {
		t.Errorf("Client with a nil Store: %v", err)
	}
	nilClient := HookClientConfig(&tls.Config{ServerName: "good.example"}, nil)
	if _, err := tcpHandshake(t, server, func(conn net.Conn) *tls.Conn { return tls.Client(conn, nilClient) }); !errors.Is(err, ErrNilStore) {
		t.Errorf("HookClientConfig with a nil Store: %v", err)
	}
	nilServer := HookClientAuth(server, nil)
	_, cerr, serr := hookHandshake(t, HookClientConfig(&tls.Config{ServerName: "good.example"}, p.store), nilServer)
	if !errors.Is(serr, ErrNilStore) {
		t.Errorf("HookClientAuth with a nil Store: client %v, server %v", cerr, serr)
	}
	if _, err := (&Dialer{}).Dial("tcp", "127.0.0.1:1"); !errors.Is(err, ErrNilStore) {
		t.Errorf("Dialer with a nil Store: %v", err)
	}
	ln := listen(t, "tcp", "127.0.0.1:0", p.leaves["all"])
	var noCtx context.Context
	if _, err := (&Dialer{Store: p.store}).DialContext(noCtx, "tcp", ln.Addr().String()); !errors.Is(err, errNilContext) {
		t.Errorf("Dialer with a nil Context: %v", err)
	}
	hooked := &Dialer{Store: p.store, Config: HookClientConfig(nil, p.store)}
	if _, err := hooked.Dial("tcp", ln.Addr().String()); !errors.Is(err, errHookedConfig) {
		t.Errorf("Dialer with a hooked Config: %v", err)
	}
	// A plain caller VerifyConnection is not taken for a hook.
	mine := errors.New("mine")
	own := &tls.Config{ServerName: "good.example", VerifyConnection: func(tls.ConnectionState) error { return mine }}
	if _, err := tcpHandshake(t, server, func(conn net.Conn) *tls.Conn { return Client(conn, own, p.store) }); !errors.Is(err, mine) {
		t.Errorf("caller's VerifyConnection error lost: %v", err)
	}
}

// TestClientRefusesClientCertificate: a leaf for the dialed IP address but
// without ServerAuth usage is refused by the store's verification (not for
// a missing name).
func TestClientRefusesClientCertificate(t *testing.T) {
	p := newTLSPKI(t)
	server := &tls.Config{Certificates: []tls.Certificate{p.client}}
	_, err := tcpHandshake(t, server, func(c net.Conn) *tls.Conn {
		return Client(c, &tls.Config{ServerName: "127.0.0.1"}, p.store)
	})
	var cve *tls.CertificateVerificationError
	if !errors.As(err, &cve) {
		t.Fatalf("client certificate as server: %v, want a CertificateVerificationError", err)
	}
	_, err = tcpHandshake(t, &tls.Config{Certificates: []tls.Certificate{p.server}}, func(c net.Conn) *tls.Conn {
		return Client(c, &tls.Config{ServerName: "127.0.0.1"}, p.store)
	})
	if err != nil {
		t.Fatalf("server certificate for 127.0.0.1: %v", err)
	}
}

// TestDialerTimeouts: NetDialer's Timeout and Deadline bound the handshake,
// as with tls.Dialer, against a server that accepts and never answers.
func TestDialerTimeouts(t *testing.T) {
	p := newHostPKI(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var held []net.Conn
	var mu sync.Mutex
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			held = append(held, c)
			mu.Unlock()
		}
	}()
	defer func() {
		mu.Lock()
		for _, c := range held {
			c.Close()
		}
		mu.Unlock()
	}()
	for _, mk := range []func() *net.Dialer{
		func() *net.Dialer { return &net.Dialer{Timeout: 100 * time.Millisecond} },
		func() *net.Dialer { return &net.Dialer{Deadline: time.Now().Add(100 * time.Millisecond)} },
	} {
		nd := mk()
		done := make(chan error, 1)
		go func() {
			_, err := (&Dialer{NetDialer: nd, Store: p.store}).Dial("tcp", ln.Addr().String())
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil {
				t.Error("handshake with a silent server succeeded")
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%+v did not bound the handshake", nd)
		}
	}
}
