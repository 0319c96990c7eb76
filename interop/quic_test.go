//go:build interop

package interop

import (
	"context"
	"crypto"
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/quic-go/quic-go"

	"github.com/p256tls/p256tls/internal/p256/fault"
	"github.com/p256tls/p256tls/provider"
	"github.com/p256tls/p256tls/truststore"
)

// QUIC and HTTP/3, with quic-go on our side: a provider server (HTTP/3
// over quic-go, its tls.Config from provider.ServerConfig) and a provider
// client (http3.Transport with the trust store).

type quicRequest struct {
	state tls.ConnectionState
	tok   string
}

type quicServer struct {
	c      *C
	id     *provider.Identity
	Port   int
	reqs   chan quicRequest
	errs   chan error // handshake failures seen on accepted connections
	before provider.Stats
	store  truststore.Stats

	mu      sync.Mutex
	schemes []string

	extra       bool          // see serverOpts.extraConns
	signs       atomic.Uint64 // signatures asked of our signer
	signsBefore uint64
}

type quicServerOpts struct {
	cred       *credential
	clientAuth bool
	faultFirst bool
	extraConns bool
}

func (c *C) startQUICServer(o quicServerOpts) *quicServer {
	c.T.Helper()
	os.Setenv("QUIC_GO_DISABLE_RECEIVE_BUFFER_WARNING", "true")
	if o.cred == nil {
		o.cred = c.Env.PKI.serverP256
	}
	id := o.cred.identity()
	s := &quicServer{c: c, id: id, reqs: make(chan quicRequest, 64), errs: make(chan error, 64), extra: o.extraConns}
	cfg := provider.ServerConfig(provider.NewIdentities(id))
	if o.clientAuth {
		cfg.ClientAuth = tls.RequireAndVerifyClientCert
		cfg = provider.HookClientAuth(cfg, c.Env.PKI.store)
	}
	get := cfg.GetCertificate
	var faultOnce sync.Once
	cfg.GetCertificate = func(h *tls.ClientHelloInfo) (*tls.Certificate, error) {
		cert, err := get(h)
		if err != nil || cert == nil {
			return cert, err
		}
		cp := *cert
		rs := &recSigner{inner: cert.PrivateKey.(crypto.Signer), alg: id.Algorithm()}
		cp.PrivateKey = &quicSigner{rs, s, o.faultFirst, &faultOnce}
		return &cp, nil
	}
	cfg.NextProtos = []string{"h3"}
	udp, err := net.ListenUDP("udp", &net.UDPAddr{}) // both 127.0.0.1 and ::1
	if err != nil {
		c.Fatal(err)
	}
	s.Port = udp.LocalAddr().(*net.UDPAddr).Port
	ln, err := quic.ListenEarly(udp, cfg, &quic.Config{HandshakeIdleTimeout: 10 * time.Second, MaxIdleTimeout: 15 * time.Second})
	if err != nil {
		c.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for {
			conn, err := ln.Accept(ctx)
			if err != nil {
				return
			}
			go func() {
				select {
				case <-conn.HandshakeComplete():
					st := conn.ConnectionState().TLS
					h3Serve(ctx, conn, func(path string) string {
						tok := strings.TrimPrefix(path, "/")
						if a, ok := strings.CutPrefix(tok, "ack/"); ok {
							acks.Store(a, "quic") // a browser read the page
							return ""
						}
						s.reqs <- quicRequest{st, tok}
						// Text with the token, and an image a browser
						// fetches once it has read the page.
						return "<!doctype html><title>pong " + tok + "</title><p>pong " + tok + "</p><img src=\"/ack/" + tok + "\">\n"
					})
				case <-conn.Context().Done():
					s.errs <- context.Cause(conn.Context())
				}
			}()
		}
	}()
	c.Cleanup(func() {
		cancel()
		ln.Close()
		udp.Close()
	})
	s.before = id.Stats()
	s.store = c.Env.PKI.store.Stats()
	return s
}

// quicSigner records the scheme and, for the fault case, corrupts s in
// the first signature only.
type quicSigner struct {
	*recSigner
	s         *quicServer
	faultOn   bool
	faultOnce *sync.Once
}

func (q *quicSigner) SignMessage(r io.Reader, msg []byte, opts crypto.SignerOpts) ([]byte, error) {
	q.note(opts)
	q.s.signs.Add(1)
	q.s.mu.Lock()
	q.s.schemes = append(q.s.schemes, schemeFor(q.alg, opts))
	q.s.mu.Unlock()
	armed := false
	if q.faultOn {
		q.faultOnce.Do(func() { armed = true })
	}
	if armed {
		restore := fault.Set(func(p fault.Point, limbs *[4]uint64) {
			if p == fault.S {
				limbs[0] ^= 1
			}
		})
		defer restore()
	}
	return crypto.SignMessage(q.inner, r, msg, opts)
}

func (q *quicSigner) Sign(r io.Reader, digest []byte, opts crypto.SignerOpts) ([]byte, error) {
	return nil, fmt.Errorf("interop: unexpected Sign (TLS 1.3 signs messages)")
}

func (s *quicServer) expectRequest(tok string) quicRequest {
	s.c.T.Helper()
again:
	select {
	case r := <-s.reqs:
		if r.tok != tok {
			if s.extra {
				goto again // the browser's own request (favicon.ico)
			}
			s.c.Fatalf("the provider server got GET /%s, want /%s", r.tok, tok)
		}
		s.mu.Lock()
		scheme := strings.Join(s.schemes, ",")
		s.schemes = nil
		s.mu.Unlock()
		s.c.recordState(r.state, scheme)
		s.c.Row.Note = "HTTP/3 over QUIC"
		return r
	case err := <-s.errs:
		if s.extra {
			goto again
		}
		s.c.Fatalf("provider QUIC server: handshake failed: %v", err)
	case <-time.After(20 * time.Second):
		s.c.Fatalf("the provider QUIC server saw no request")
	}
	return quicRequest{}
}

func (s *quicServer) expectNoRequest() {
	s.c.T.Helper()
	select {
	case r := <-s.reqs:
		s.c.Fatalf("a request arrived (%s), want none", r.tok)
	default:
	}
}

func (s *quicServer) expectSigned(n uint64) {
	s.c.T.Helper()
	asked := s.signs.Load() - s.signsBefore
	if s.extra && asked >= 1 {
		n = asked
	}
	if asked != n {
		s.c.Fatalf("%d signatures asked of the signer, want %d", asked, n)
	}
	s.signsBefore = s.signs.Load()
	now := s.id.Stats()
	d := provider.Stats{Signatures: now.Signatures - s.before.Signatures, Checks: now.Checks - s.before.Checks,
		FaultsDetected: now.FaultsDetected - s.before.FaultsDetected, Fallbacks: now.Fallbacks - s.before.Fallbacks}
	want := provider.Stats{Fallbacks: n}
	if s.id.Checked() {
		want = provider.Stats{Signatures: n, Checks: n}
	}
	if d != want {
		s.c.Fatalf("signing counters moved by %+v, want %+v", d, want)
	}
	s.before = now
}

func (s *quicServer) expectFault() {
	s.c.T.Helper()
	now := s.id.Stats()
	d := provider.Stats{Signatures: now.Signatures - s.before.Signatures, Checks: now.Checks - s.before.Checks,
		FaultsDetected: now.FaultsDetected - s.before.FaultsDetected, Fallbacks: now.Fallbacks - s.before.Fallbacks}
	if asked := s.signs.Load() - s.signsBefore; s.extra && asked > 1 {
		// A browser's extra connections signed too: exactly one of
		// the signatures asked for was withheld.
		if d != (provider.Stats{Signatures: asked, Checks: asked, FaultsDetected: 1}) {
			s.c.Fatalf("counters moved by %+v for %d signatures asked, want all checked and exactly one withheld", d, asked)
		}
		s.before, s.signsBefore = now, s.signs.Load()
		return
	}
	if d != (provider.Stats{Signatures: 1, Checks: 1, FaultsDetected: 1}) {
		s.c.Fatalf("counters moved by %+v, want one signature caught by the check", d)
	}
	s.before = now
	s.signsBefore++
}

// quicGet fetches https://NAME:port/tok over HTTP/3 with a provider client
// (trust store; optionally a client identity).
func (c *C) quicGet(port int, name string, cert *credential, tok string) (*tls.ConnectionState, string, *provider.Identity, error) {
	cfg := &tls.Config{ServerName: name}
	var id *provider.Identity
	if cert != nil {
		id = cert.identity()
		ids := provider.NewIdentities(id)
		cfg.GetClientCertificate = ids.GetClientCertificate
	}
	cfg.NextProtos = []string{"h3"}
	cfg = provider.HookClientConfig(cfg, c.Env.PKI.store)
	st, body, err := h3Fetch(c, port, name, cfg, tok)
	return st, body, id, err
}

// h3Fetch dials 127.0.0.1:port over QUIC with cfg (whatever the name) and
// fetches /tok over HTTP/3.
func h3Fetch(c *C, port int, name string, cfg *tls.Config, tok string) (*tls.ConnectionState, string, error) {
	ctx, cancel := context.WithTimeout(c.Ctx, 15*time.Second)
	defer cancel()
	conn, err := quic.DialAddr(ctx, "127.0.0.1:"+strconv.Itoa(port), cfg, &quic.Config{HandshakeIdleTimeout: 10 * time.Second})
	if err != nil {
		return nil, "", err
	}
	defer conn.CloseWithError(0, "")
	st := conn.ConnectionState().TLS
	status, body, err := h3Get(ctx, conn, name+":"+strconv.Itoa(port), "/"+tok)
	if err == nil && status != "200" {
		err = fmt.Errorf("HTTP/3 status %q", status)
	}
	return &st, body, err
}

// ---- peers ----

var (
	ngtcp2Version = debVersion("ngtcp2-client")
	ngtcp2Client  = &peer{Name: "ngtcp2 gtlsclient", Stack: "ngtcp2", Package: "ngtcp2-client", Progs: []string{"gtlsclient"}, Version: func() string { return ngtcp2Version() + " (GnuTLS)" }}
	ngtcp2Server  = &peer{Name: "ngtcp2 gtlsserver", Stack: "ngtcp2", Package: "ngtcp2-server", Progs: []string{"gtlsserver"}, Version: func() string { return debVersion("ngtcp2-server")() + " (GnuTLS)" }}
	quicgoVersion = func() string { return "v0.65.0 (go.mod), " + goPeerClient.Version() }
	quicgoClient  = &peer{Name: "quic-go client", Stack: "quic-go", Package: "golang", Version: quicgoVersion}
	quicgoServer  = &peer{Name: "quic-go server", Stack: "quic-go", Package: "golang", Version: quicgoVersion}
)

// A QUIC client peer: fetch https://localhost:port/tok over HTTP/3 and
// return the body it printed or saved.
type quicClientRun func(c *C, port int, tok string, cert *credential, ciphers string) (string, error)

type quicClientCaps struct {
	NoVerify string // the client cannot be given a CA: no wrong-CA/name cases
	Ciphers  []string
	Rejected string
	// NoForeign: the client never sends a certificate whose issuer the
	// server did not name.
	NoForeign string
	// ExtraConns and Retries: as in clientCaps (browsers).
	ExtraConns, Retries bool
	NoEd25519           string
	// NoNegative: the client falls back to TCP when QUIC fails, so a
	// refused QUIC handshake shows as no failure.
	NoNegative string
	NoMTLS     string
}

func quicClientCases(p *peer, run quicClientRun, caps quicClientCaps) []Case {
	var cs []Case
	add := func(name, na string, neg bool, body func(c *C)) {
		cs = append(cs, Case{Peer: p, Role: roleQUICClient, Name: name, NA: na, Negative: neg, Run: body})
	}
	for _, k := range []string{"P-256", "RSA-2048", "P-384", "Ed25519"} {
		na := ""
		if k == "Ed25519" {
			na = caps.NoEd25519
		}
		add("HTTP/3 "+k, na, false, func(c *C) {
			cred := map[string]*credential{"P-256": c.Env.PKI.serverP256, "RSA-2048": c.Env.PKI.serverRSA, "P-384": c.Env.PKI.serverP384, "Ed25519": c.Env.PKI.serverEd25519}[k]
			s := c.startQUICServer(quicServerOpts{cred: cred, extraConns: caps.ExtraConns})
			tok := token()
			out, err := run(c, s.Port, tok, nil, "")
			wantPong(c, out, err, tok)
			s.expectRequest(tok)
			s.expectSigned(1)
		})
	}
	for _, ciph := range caps.Ciphers {
		add("HTTP/3 P-256 "+ciph, "", false, func(c *C) {
			s := c.startQUICServer(quicServerOpts{extraConns: caps.ExtraConns})
			tok := token()
			out, err := run(c, s.Port, tok, nil, ciph)
			wantPong(c, out, err, tok)
			r := s.expectRequest(tok)
			if got := tls.CipherSuiteName(r.state.CipherSuite); got != ciph {
				c.Fatalf("negotiated %s, want %s", got, ciph)
			}
			s.expectSigned(1)
		})
	}
	add("HTTP/3 client cert P-256", caps.NoMTLS, false, func(c *C) {
		s := c.startQUICServer(quicServerOpts{clientAuth: true})
		tok := token()
		out, err := run(c, s.Port, tok, c.Env.PKI.clientP256, "")
		wantPong(c, out, err, tok)
		r := s.expectRequest(tok)
		if len(r.state.PeerCertificates) == 0 || !r.state.PeerCertificates[0].Equal(c.Env.PKI.clientP256.cert) {
			c.Fatalf("the server did not see the client certificate")
		}
		s.expectSigned(1)
		s.store = expectStore(c, s.store, 1)
		c.Row.Scheme += "; client ecdsa_secp256r1_sha256"
	})
	add("negative: no client cert", caps.NoNegative, true, func(c *C) {
		s := c.startQUICServer(quicServerOpts{clientAuth: true})
		tok := token()
		out, err := run(c, s.Port, tok, nil, "")
		wantFail(c, out, err, tok, caps.Rejected)
		s.expectNoRequest()
		c.Row.Note = "server refused: no certificate"
	})
	foreignNA := caps.NoNegative
	if foreignNA == "" {
		foreignNA = caps.NoForeign
	}
	add("negative: foreign client cert", foreignNA, true, func(c *C) {
		s := c.startQUICServer(quicServerOpts{clientAuth: true})
		tok := token()
		out, err := run(c, s.Port, tok, c.Env.PKI.foreignClient, "")
		wantFail(c, out, err, tok, caps.Rejected)
		s.expectNoRequest()
		if d := c.Env.PKI.store.Stats().SlowVerifies - s.store.SlowVerifies; d != 1 {
			c.Fatalf("the trust store decided %d chains by crypto/x509, want 1 (the refused foreign chain)", d)
		}
		c.Row.Note = "trust store refused the chain"
	})
	add("negative: faulted signing", caps.NoNegative, true, func(c *C) {
		s := c.startQUICServer(quicServerOpts{faultFirst: true, extraConns: caps.ExtraConns})
		tok := token()
		out, err := run(c, s.Port, tok, nil, "")
		if caps.Retries && strings.Contains(out, "pong "+tok) {
			// The browser retried on its own: the request arrived, and
			// of all the signatures asked for exactly one was withheld.
			wantPong(c, out, err, tok)
			s.expectRequest(tok)
			if !s.extra {
				c.Fatalf("internal: Retries needs ExtraConns")
			}
			s.expectFault()
			c.Row.Note = "fault caught, no signature left; the browser's own retry succeeded"
			return
		}
		wantFail(c, out, err, tok, caps.Rejected)
		s.expectFault()
		s.expectNoRequest()
		tok = token()
		out, err = run(c, s.Port, tok, nil, "")
		wantPong(c, out, err, tok)
		s.expectRequest(tok)
		s.expectSigned(1)
		c.Row.Note = "fault caught, no signature left; next connection ok"
	})
	return cs
}

// A QUIC server peer serving HTTP/3 files from dir.
type quicServerStart func(c *C, port int, dir string, cred *credential, requestCert bool) *proc

type quicServerCaps struct {
	NoRequire string // the server cannot require a client certificate
}

func quicServerCases(p *peer, start quicServerStart, caps quicServerCaps) []Case {
	var cs []Case
	add := func(name, na string, neg bool, body func(c *C)) {
		cs = append(cs, Case{Peer: p, Role: roleQUICServer, Name: name, NA: na, Negative: neg, Run: body})
	}
	launch := func(c *C, cred *credential, req bool) (int, string) {
		port := freePort(c)
		dir := filepath.Join(c.TempDir(), "www")
		os.MkdirAll(dir, 0o755)
		pr := start(c, port, dir, cred, req)
		if pr != nil {
			c.WaitUDP(pr, port)
		}
		return port, dir
	}
	get := func(c *C, name string, cert *credential, wantFail string) {
		port, dir := launch(c, map[bool]*credential{true: c.Env.PKI.foreignServer, false: c.Env.PKI.peerServer}[wantFail == errUnknownCA], cert != nil)
		tok := token()
		os.WriteFile(filepath.Join(dir, tok), []byte("pong "+tok+"\n"), 0o644)
		before := c.Env.PKI.store.Stats()
		st, body, id, err := c.quicGet(port, name, cert, tok)
		if wantFail != "" {
			if err == nil {
				c.Fatalf("the provider client's request succeeded (%q), want a failure (%s)", body, wantFail)
			}
			if !strings.Contains(err.Error(), wantFail) {
				c.Fatalf("provider client error %q, want %q", err, wantFail)
			}
			c.Row.Note = "trust store refused"
			return
		}
		if err != nil {
			c.Fatalf("provider HTTP/3 client: %v", err)
		}
		if body != "pong "+tok+"\n" {
			c.Fatalf("body %q", body)
		}
		scheme := "ecdsa_secp256r1_sha256"
		if id != nil {
			if st := id.Stats(); st != (provider.Stats{Signatures: 1, Checks: 1}) {
				c.Fatalf("client identity counters %+v, want one checked signature", st)
			}
			scheme += "; ours ecdsa_secp256r1_sha256"
		}
		c.recordState(*st, scheme)
		c.Row.Note = "HTTP/3 over QUIC"
		expectStore(c, before, 1)
	}
	add("HTTP/3 chain leaf←P-256 int←P-256 root", "", false, func(c *C) { get(c, hostName, nil, "") })
	add("HTTP/3 provider client identity", "", false, func(c *C) { get(c, hostName, c.Env.PKI.clientP256, "") })
	add("negative: wrong CA", "", true, func(c *C) { get(c, hostName, nil, errUnknownCA) })
	add("negative: wrong host name", "", true, func(c *C) { get(c, "wrong.interop.test", nil, errWrongHost) })
	add("negative: no client cert", caps.NoRequire, true, func(c *C) {})
	return cs
}

func init() {
	register(func(e *Env) []Case {
		var cs []Case
		cs = append(cs, quicClientCases(ngtcp2Client, ngtcp2ClientRun, quicClientCaps{
			NoVerify: "ngtcp2's example client cannot be given a CA (it does not verify the chain)",
			Ciphers:  []string{"TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384", "TLS_CHACHA20_POLY1305_SHA256"},
			Rejected: `error|Error|ERR_|close`,
			// Seen: with a foreign certificate the server verified no
			// chain at all (the trust store's counters did not move).
			NoForeign: "gtlsclient sends no certificate whose issuer the server did not name, so a foreign one never reaches the server",
		})...)
		cs = append(cs, Case{Peer: ngtcp2Client, Role: roleQUICClient, Name: "negative: wrong CA", NA: "ngtcp2's example client cannot be given a CA (it does not verify the chain)"},
			Case{Peer: ngtcp2Client, Role: roleQUICClient, Name: "negative: wrong host name", NA: "ngtcp2's example client does not verify the server's name"})
		cs = append(cs, quicServerCases(ngtcp2Server, ngtcp2ServerRun, quicServerCaps{
			NoRequire: "gtlsserver --verify-client requests a certificate but neither requires nor verifies it",
		})...)
		cs = append(cs, quicClientCases(quicgoClient, quicgoClientRun, quicClientCaps{
			Rejected: `CRYPTO_ERROR|remote error|handshake|tls:`,
		})...)
		cs = append(cs, Case{Peer: quicgoClient, Role: roleQUICClient, Name: "negative: wrong CA", Negative: true, Run: func(c *C) {
			s := c.startQUICServer(quicServerOpts{})
			tok := token()
			out, err := quicgoFetch(c, s.Port, hostName, c.Env.PKI.ForeignPEM, tok, nil)
			wantFail(c, out, err, tok, "certificate signed by unknown authority")
			s.expectNoRequest()
			c.Row.Note = "peer refused the chain"
		}}, Case{Peer: quicgoClient, Role: roleQUICClient, Name: "negative: wrong host name", Negative: true, Run: func(c *C) {
			s := c.startQUICServer(quicServerOpts{})
			tok := token()
			out, err := quicgoFetch(c, s.Port, "wrong.interop.test", c.Env.PKI.RootPEM, tok, nil)
			wantFail(c, out, err, tok, "not wrong.interop.test")
			s.expectNoRequest()
			c.Row.Note = "peer refused the name"
		}})
		cs = append(cs, quicServerCases(quicgoServer, quicgoServerRun, quicServerCaps{})...)
		return cs
	})
}

func ngtcp2ClientRun(c *C, port int, tok string, cert *credential, ciphers string) (string, error) {
	dir := c.TempDir()
	args := []string{"-q", "--exit-on-all-streams-close", "--handshake-timeout=5s", "--timeout=5s", "--download=" + dir}
	if ciphers != "" {
		g := map[string]string{"TLS_AES_128_GCM_SHA256": "+AES-128-GCM", "TLS_AES_256_GCM_SHA384": "+AES-256-GCM", "TLS_CHACHA20_POLY1305_SHA256": "+CHACHA20-POLY1305"}[ciphers]
		args = append(args, "--ciphers=NORMAL:-VERS-ALL:+VERS-TLS1.3:-CIPHER-ALL:"+g)
	}
	if cert != nil {
		args = append(args, "--key="+cert.files.Key, "--cert="+cert.files.Chain)
	}
	args = append(args, "127.0.0.1", strconv.Itoa(port), "https://"+hostName+":"+strconv.Itoa(port)+"/"+tok)
	out, err := c.Run("", "gtlsclient", args...)
	body, _ := os.ReadFile(filepath.Join(dir, tok))
	if err == nil && len(body) == 0 {
		err = fmt.Errorf("no body downloaded")
	}
	return out + string(body), err
}

func ngtcp2ServerRun(c *C, port int, dir string, cred *credential, requestCert bool) *proc {
	args := []string{"-q", "-d", dir}
	if requestCert {
		args = append(args, "--verify-client")
	}
	args = append(args, "127.0.0.1", strconv.Itoa(port), cred.files.Key, cred.files.Chain)
	cmd, out := c.command("", "gtlsserver", args...)
	return c.Start(cmd, out)
}

// quicgoFetch is the plain quic-go HTTP/3 client (no provider).
func quicgoFetch(c *C, port int, name, ca, tok string, cert *credential) (string, error) {
	cfg := &tls.Config{RootCAs: poolFrom(c, ca), ServerName: name, NextProtos: []string{"h3"}}
	if cert != nil {
		cc := cert.tlsCertificate()
		cfg.GetClientCertificate = func(*tls.CertificateRequestInfo) (*tls.Certificate, error) { return &cc, nil }
	}
	_, body, err := h3Fetch(c, port, name, cfg, tok)
	if err != nil {
		return body + "\n" + err.Error(), err
	}
	return body, nil
}

func quicgoClientRun(c *C, port int, tok string, cert *credential, ciphers string) (string, error) {
	return quicgoFetch(c, port, hostName, c.Env.PKI.RootPEM, tok, cert)
}

// quicgoServerRun is the plain quic-go HTTP/3 server (no provider), in
// process, serving files from dir.
func quicgoServerRun(c *C, port int, dir string, cred *credential, requestCert bool) *proc {
	cfg := &tls.Config{Certificates: []tls.Certificate{cred.tlsCertificate()}, NextProtos: []string{"h3"}}
	if requestCert {
		cfg.ClientAuth = tls.RequireAndVerifyClientCert
		cfg.ClientCAs = poolFrom(c, c.Env.PKI.RootInterPEM)
	}
	udp, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1), Port: port})
	if err != nil {
		c.Fatal(err)
	}
	ln, err := quic.Listen(udp, cfg, &quic.Config{HandshakeIdleTimeout: 10 * time.Second})
	if err != nil {
		c.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for {
			conn, err := ln.Accept(ctx)
			if err != nil {
				return
			}
			go h3Serve(ctx, conn, func(path string) string {
				b, err := os.ReadFile(filepath.Join(dir, filepath.Base(path)))
				if err != nil {
					return "not found"
				}
				return string(b)
			})
		}
	}()
	c.Cleanup(func() { cancel(); ln.Close(); udp.Close() })
	return nil
}
