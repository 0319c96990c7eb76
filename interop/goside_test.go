//go:build interop

package interop

import (
	"bufio"
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/tls"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/p256tls/p256tls/internal/p256/fault"
	"github.com/p256tls/p256tls/provider"
	"github.com/p256tls/p256tls/truststore"
)

// The provider's side of every case: a server serving a provider identity
// (optionally verifying client certificates with the trust store) and a
// client verifying with the trust store (optionally signing with a
// provider client identity). Both record what was negotiated.

// token returns a fresh random string for one exchange: the peer must
// echo it (or receive it back) for the application data to count as
// round-tripped.
func token() string {
	b := make([]byte, 8)
	rand.Read(b)
	return "tok" + hex.EncodeToString(b)
}

// recSigner wraps the provider's signer to record the signature scheme
// crypto/tls asked for. It forwards both Sign and SignMessage, so the
// provider's key does all the signing (its counters move).
type recSigner struct {
	inner crypto.Signer
	alg   string
	count *atomic.Uint64 // optional: counts every signature asked for
	mu    sync.Mutex
	used  []string
}

func (s *recSigner) Public() crypto.PublicKey { return s.inner.Public() }

func (s *recSigner) note(opts crypto.SignerOpts) {
	if s.count != nil {
		s.count.Add(1)
	}
	s.mu.Lock()
	s.used = append(s.used, schemeFor(s.alg, opts))
	s.mu.Unlock()
}

func (s *recSigner) Sign(r io.Reader, digest []byte, opts crypto.SignerOpts) ([]byte, error) {
	s.note(opts)
	return s.inner.Sign(r, digest, opts)
}

func (s *recSigner) SignMessage(r io.Reader, msg []byte, opts crypto.SignerOpts) ([]byte, error) {
	s.note(opts)
	return crypto.SignMessage(s.inner, r, msg, opts)
}

func (s *recSigner) schemes() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.used...)
}

// schemeFor names the TLS signature scheme a signature with opts by a key
// of algorithm alg corresponds to.
func schemeFor(alg string, opts crypto.SignerOpts) string {
	h := opts.HashFunc()
	hs := map[crypto.Hash]string{crypto.SHA1: "sha1", crypto.SHA256: "sha256", crypto.SHA384: "sha384", crypto.SHA512: "sha512", crypto.MD5SHA1: "md5sha1"}[h]
	switch alg {
	case "Ed25519":
		return "ed25519"
	case "RSA-2048", "RSA":
		if _, ok := opts.(*rsa.PSSOptions); ok {
			return "rsa_pss_rsae_" + hs
		}
		if h == crypto.MD5SHA1 {
			return "rsa_md5sha1 (TLS 1.0/1.1)"
		}
		return "rsa_pkcs1_" + hs
	}
	switch h {
	case crypto.SHA1:
		return "ecdsa_sha1"
	case crypto.SHA256:
		return "ecdsa_secp256r1_sha256"
	case crypto.SHA384:
		return "ecdsa_secp384r1_sha384"
	case crypto.SHA512:
		return "ecdsa_secp521r1_sha512"
	}
	return alg + "/" + h.String()
}

// wireSchemes maps TLS SignatureScheme code points to IANA names.
var wireSchemes = map[uint16]string{
	0x0201: "rsa_pkcs1_sha1", 0x0203: "ecdsa_sha1",
	0x0401: "rsa_pkcs1_sha256", 0x0501: "rsa_pkcs1_sha384", 0x0601: "rsa_pkcs1_sha512",
	0x0403: "ecdsa_secp256r1_sha256", 0x0503: "ecdsa_secp384r1_sha384", 0x0603: "ecdsa_secp521r1_sha512",
	0x0804: "rsa_pss_rsae_sha256", 0x0805: "rsa_pss_rsae_sha384", 0x0806: "rsa_pss_rsae_sha512",
	0x0807: "ed25519", 0x0808: "ed448",
}

func versionName(v uint16) string {
	switch v {
	case tls.VersionTLS13:
		return "1.3"
	case tls.VersionTLS12:
		return "1.2"
	case tls.VersionTLS11:
		return "1.1"
	case tls.VersionTLS10:
		return "1.0"
	}
	return fmt.Sprintf("0x%04x", v)
}

func groupName(g tls.CurveID) string {
	switch g {
	case tls.X25519:
		return "x25519"
	case tls.CurveP256:
		return "secp256r1"
	case tls.CurveP384:
		return "secp384r1"
	case tls.CurveP521:
		return "secp521r1"
	case tls.X25519MLKEM768:
		return "X25519MLKEM768"
	case 0:
		return ""
	}
	return g.String()
}

// recordState fills the row from a connection state (and the scheme, if
// known).
func (c *C) recordState(st tls.ConnectionState, scheme string) {
	c.Row.TLS = versionName(st.Version)
	c.Row.Suite = tls.CipherSuiteName(st.CipherSuite)
	c.Row.Group = groupName(st.CurveID)
	c.Row.Scheme = scheme
}

// recConn records the first bytes each way, to read the cleartext part of
// a TLS 1.2 handshake (ServerKeyExchange and client CertificateVerify carry
// their signature scheme in the clear).
type recConn struct {
	net.Conn
	mu      sync.Mutex
	in, out []byte
}

const recLimit = 1 << 16

func (r *recConn) Read(p []byte) (int, error) {
	n, err := r.Conn.Read(p)
	r.mu.Lock()
	if len(r.in) < recLimit {
		r.in = append(r.in, p[:n]...)
	}
	r.mu.Unlock()
	return n, err
}

func (r *recConn) Write(p []byte) (int, error) {
	r.mu.Lock()
	if len(r.out) < recLimit {
		r.out = append(r.out, p...)
	}
	r.mu.Unlock()
	return r.Conn.Write(p)
}

// cleartextMessages returns the handshake messages (type, body) of a byte
// stream of TLS records, up to the first ChangeCipherSpec.
func cleartextMessages(b []byte) (msgs [][]byte) {
	var hs []byte
	for len(b) >= 5 {
		typ, n := b[0], int(b[3])<<8|int(b[4])
		if len(b) < 5+n {
			break
		}
		body := b[5 : 5+n]
		b = b[5+n:]
		if typ == 20 {
			break
		}
		if typ == 22 {
			hs = append(hs, body...)
		}
	}
	for len(hs) >= 4 {
		n := int(hs[1])<<16 | int(hs[2])<<8 | int(hs[3])
		if len(hs) < 4+n {
			break
		}
		msgs = append(msgs, hs[:4+n])
		hs = hs[4+n:]
	}
	return msgs
}

// skeScheme returns the scheme of a TLS 1.2 ECDHE ServerKeyExchange.
func skeScheme(serverBytes []byte) string {
	for _, m := range cleartextMessages(serverBytes) {
		if m[0] != 12 {
			continue
		}
		b := m[4:]
		// curve_type(1) named_curve(2) point_len(1) point sig_alg(2)
		if len(b) < 4 || b[0] != 3 {
			return ""
		}
		pl := int(b[3])
		if len(b) < 4+pl+2 {
			return ""
		}
		code := uint16(b[4+pl])<<8 | uint16(b[5+pl])
		if s, ok := wireSchemes[code]; ok {
			return s
		}
		return fmt.Sprintf("0x%04x", code)
	}
	return ""
}

// certVerifyScheme returns the scheme of a TLS 1.2 client CertificateVerify.
func certVerifyScheme(clientBytes []byte) string {
	for _, m := range cleartextMessages(clientBytes) {
		if m[0] == 15 && len(m) >= 6 {
			code := uint16(m[4])<<8 | uint16(m[5])
			if s, ok := wireSchemes[code]; ok {
				return s
			}
			return fmt.Sprintf("0x%04x", code)
		}
	}
	return ""
}

// peerScheme names the scheme the peer signed with: read from the wire in
// TLS 1.2, and in TLS 1.3 implied by a P-256 key (the only TLS 1.3 scheme
// for it).
func peerScheme(st tls.ConnectionState, wire string) string {
	if st.Version == tls.VersionTLS13 {
		return "ecdsa_secp256r1_sha256"
	}
	if wire == "" && st.Version < tls.VersionTLS12 {
		return "ecdsa_sha1"
	}
	return wire
}

// ---- provider server ----

type serverOpts struct {
	cred       *credential
	min, max   uint16
	suites     []uint16
	clientAuth bool // verify client certificates with the trust store (required)
	faultFirst bool // corrupt s in the first connection's signature
	// extraConns lets the peer open connections besides the one that
	// carries the case's request (a browser's preconnects, favicon,
	// retries); expectOK then skips them, and the counters must match
	// the signatures actually asked for.
	extraConns bool
}

type serverConn struct {
	state       tls.ConnectionState
	err         error  // handshake error
	got         string // first line received
	scheme      string // the scheme our signer was asked for
	peerScheme  string // client CertificateVerify scheme (TLS 1.2, wire)
	faultActive bool
}

type goServer struct {
	c           *C
	ln          net.Listener
	id          *provider.Identity
	cfg         *tls.Config
	Port        int
	Addr        string // 127.0.0.1:port
	conns       chan *serverConn
	before      provider.Stats
	storeBefore truststore.Stats
	n           int
	extra       bool
	signs       atomic.Uint64 // signatures asked of our signer
	signsBefore uint64
	failed      atomic.Int64 // connections whose handshake failed
}

func (c *C) startServer(o serverOpts) *goServer {
	c.T.Helper()
	if o.cred == nil {
		o.cred = c.Env.PKI.serverP256
	}
	id := o.cred.identity()
	cfg := provider.ServerConfig(provider.NewIdentities(id))
	if o.clientAuth {
		cfg.ClientAuth = tls.RequireAndVerifyClientCert
		cfg = provider.HookClientAuth(cfg, c.Env.PKI.store)
	}
	cfg.MinVersion, cfg.MaxVersion = o.min, o.max
	if o.min == 0 {
		cfg.MinVersion = tls.VersionTLS10
	}
	cfg.CipherSuites = o.suites
	ln, err := net.Listen("tcp", ":0")
	if err != nil {
		c.Fatal(err)
	}
	s := &goServer{c: c, ln: ln, id: id, cfg: cfg, conns: make(chan *serverConn, 64), extra: o.extraConns}
	s.Port = ln.Addr().(*net.TCPAddr).Port
	s.Addr = "127.0.0.1:" + strconv.Itoa(s.Port)
	s.before = id.Stats()
	s.storeBefore = c.Env.PKI.store.Stats()
	c.Cleanup(func() { ln.Close() })
	go s.serve(o)
	return s
}

func (s *goServer) serve(o serverOpts) {
	first := true
	for {
		conn, err := s.ln.Accept()
		if err != nil {
			return
		}
		rc := &recConn{Conn: conn}
		sc := &serverConn{}
		cfg := s.cfg.Clone()
		get := cfg.GetCertificate
		var rs *recSigner
		cfg.GetCertificate = func(h *tls.ClientHelloInfo) (*tls.Certificate, error) {
			cert, err := get(h)
			if err != nil || cert == nil {
				return cert, err
			}
			cp := *cert
			rs = &recSigner{inner: cert.PrivateKey.(crypto.Signer), alg: s.id.Algorithm(), count: &s.signs}
			cp.PrivateKey = rs
			return &cp, nil
		}
		var restore func()
		if o.faultFirst && first {
			sc.faultActive = true
			restore = fault.Set(func(p fault.Point, limbs *[4]uint64) {
				if p == fault.S {
					limbs[0] ^= 1
				}
			})
		}
		first = false
		tc := tls.Server(rc, cfg)
		tc.SetDeadline(time.Now().Add(20 * time.Second))
		sc.err = tc.Handshake()
		if restore != nil {
			restore()
		}
		if rs != nil {
			sc.scheme = strings.Join(rs.schemes(), ",")
		}
		sc.state = tc.ConnectionState()
		if sc.err != nil {
			s.failed.Add(1)
		}
		rc.mu.Lock()
		sc.peerScheme = certVerifyScheme(rc.in)
		rc.mu.Unlock()
		if sc.err == nil {
			sc.got, sc.err = serveExchange(tc)
		}
		tc.Close()
		s.conns <- sc
	}
}

// serveExchange answers "ping X" with "pong X", and an HTTP GET /X with a
// 200 response whose body is "pong X".
func serveExchange(tc *tls.Conn) (string, error) {
	br := bufio.NewReader(tc)
	line, err := br.ReadString('\n')
	if err != nil {
		return line, fmt.Errorf("reading the request: %w", err)
	}
	line = strings.TrimRight(line, "\r\n")
	if strings.HasPrefix(line, "GET ") {
		html := false
		for {
			h, err := br.ReadString('\n')
			if err != nil {
				return line, fmt.Errorf("reading the request headers: %w", err)
			}
			if strings.TrimSpace(h) == "" {
				break
			}
			if k, v, ok := strings.Cut(h, ":"); ok && strings.EqualFold(k, "accept") && strings.Contains(v, "text/html") {
				html = true
			}
		}
		f := strings.Fields(line)
		tok := strings.TrimPrefix(f[1], "/")
		if a, ok := strings.CutPrefix(tok, "ack/"); ok {
			// A browser fetched the image named in the page below:
			// it has read the response.
			acks.Store(a, "tcp")
			_, err = io.WriteString(tc, "HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n")
			return "ack " + a, err
		}
		body, ctype := "pong "+tok+"\n", "text/plain"
		if html {
			body, ctype = "<!doctype html><title>pong "+tok+"</title><p>pong "+tok+"</p><img src=\"/ack/"+tok+"\">\n", "text/html"
		}
		_, err = fmt.Fprintf(tc, "HTTP/1.1 200 OK\r\nContent-Type: %s\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", ctype, len(body), body)
		return "ping " + tok, err
	}
	_, err = io.WriteString(tc, strings.Replace(line, "ping", "pong", 1)+"\n")
	return line, err
}

// acks holds the tokens whose page a browser has read (it fetched the
// image the page names), with the transport it used: "tcp" or "quic".
var acks sync.Map

// next waits for the next finished connection.
func (s *goServer) next() *serverConn {
	s.c.T.Helper()
	select {
	case sc := <-s.conns:
		s.n++
		return sc
	case <-s.c.Ctx.Done():
		s.c.Fatalf("the provider server saw no (further) connection in time")
		return nil
	}
}

// expectOK asserts that the next connection handshook and received
// "ping tok", records its parameters, and checks the signing counters.
func (s *goServer) expectOK(tok string) *serverConn {
	s.c.T.Helper()
	var sc *serverConn
	for skipped := 0; ; skipped++ {
		sc = s.next()
		if sc.err == nil && sc.got == "ping "+tok {
			break
		}
		if !s.extra || skipped >= 8 {
			if sc.err != nil {
				s.c.Fatalf("provider server: %v", sc.err)
			}
			s.c.Fatalf("provider server received %q, want %q", sc.got, "ping "+tok)
		}
	}
	s.c.recordState(sc.state, sc.scheme)
	if sc.state.DidResume {
		s.c.Fatalf("unexpected resumption")
	}
	n := s.signs.Load() - s.signsBefore
	if !s.extra && n != 1 {
		s.c.Fatalf("%d signatures asked for, want 1", n)
	}
	if s.extra && s.c.Row.Note == "" && n > 1 {
		s.c.Row.Note = strconv.FormatUint(n, 10) + " connections (the browser's own extra ones)"
	}
	s.expectSigned(n)
	return sc
}

// expectSigned asserts the identity's counters moved by n ≥ 1 signatures
// (n must equal those asked of our signer): by the checked comb for P-256
// (each checked, none faulty), by the standard signer otherwise.
func (s *goServer) expectSigned(n uint64) {
	s.c.T.Helper()
	if asked := s.signs.Load() - s.signsBefore; n == 0 || asked != n {
		s.c.Fatalf("%d signatures asked of the signer, want %d (at least one)", asked, n)
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

// expectStoreDecided asserts the trust store verified n client chains
// (fast path or crypto/x509), and notes which.
func (s *goServer) expectStoreDecided(n uint64) {
	s.c.T.Helper()
	if s.extra {
		// One chain per connection the browser made with its
		// certificate: all of them decided by the fast path.
		now := s.c.Env.PKI.store.Stats()
		fast, slow := now.FastAccepts-s.storeBefore.FastAccepts, now.SlowVerifies-s.storeBefore.SlowVerifies
		if fast < n || slow != 0 {
			s.c.Fatalf("trust store decided %d fast + %d slow chains, want at least %d, all fast", fast, slow, n)
		}
		s.storeBefore = now
		return
	}
	s.storeBefore = expectStore(s.c, s.storeBefore, n)
}

func expectStore(c *C, before truststore.Stats, n uint64) truststore.Stats {
	c.T.Helper()
	now := c.Env.PKI.store.Stats()
	fast, slow := now.FastAccepts-before.FastAccepts, now.SlowVerifies-before.SlowVerifies
	if fast+slow != n {
		c.Fatalf("trust store decided %d fast + %d slow chains, want %d", fast, slow, n)
	}
	if fast != n {
		c.Fatalf("the trust store's fast path accepted %d of %d chains (declines %v)", fast, n, now.Declines)
	}
	return now
}

// expectFailed asserts that the next connection failed its handshake with
// an error containing want, and that no application data arrived.
func (s *goServer) expectFailed(want string) *serverConn {
	s.c.T.Helper()
	sc := s.next()
	// A browser's own connections (closed unused: EOF) come first.
	for i := 0; s.extra && i < 8 && sc.err != nil && sc.got == "" && !strings.Contains(sc.err.Error(), want); i++ {
		sc = s.next()
	}
	if sc.err == nil {
		s.c.Fatalf("the provider server's handshake succeeded (received %q); want a failure (%s)", sc.got, want)
	}
	if sc.got != "" {
		s.c.Fatalf("application data arrived despite the failure: %q", sc.got)
	}
	if !strings.Contains(sc.err.Error(), want) {
		s.c.Fatalf("provider server error %q, want one containing %q", sc.err, want)
	}
	return sc
}

// expectFault asserts the next connection died because the checked signer
// caught the injected fault: one signature computed and withheld.
func (s *goServer) expectFault() {
	s.c.T.Helper()
	sc := s.next()
	if !sc.faultActive {
		s.c.Fatalf("internal: the fault was not armed")
	}
	if sc.err == nil || !strings.Contains(sc.err.Error(), "fault detected") {
		s.c.Fatalf("provider server error %v, want the checked signer's fault", sc.err)
	}
	now := s.id.Stats()
	d := provider.Stats{Signatures: now.Signatures - s.before.Signatures, Checks: now.Checks - s.before.Checks,
		FaultsDetected: now.FaultsDetected - s.before.FaultsDetected, Fallbacks: now.Fallbacks - s.before.Fallbacks}
	if asked := s.signs.Load() - s.signsBefore; s.extra && asked > 1 {
		// The browser's other connections signed too: exactly one of
		// the signatures asked for was withheld.
		if d != (provider.Stats{Signatures: asked, Checks: asked, FaultsDetected: 1}) {
			s.c.Fatalf("counters moved by %+v for %d signatures asked, want all checked and exactly one withheld", d, asked)
		}
		s.before, s.signsBefore = now, s.signs.Load()
		// Drain what the browser's other connections left.
		for len(s.conns) > 0 {
			<-s.conns
		}
		return
	}
	if d != (provider.Stats{Signatures: 1, Checks: 1, FaultsDetected: 1}) {
		s.c.Fatalf("counters moved by %+v, want one signature caught by the check", d)
	}
	s.before = now
	s.signsBefore++
}

// expectFaultThenOK is expectFault followed by expectOK for a peer that
// retries by itself and opens connections of its own: among the
// connections up to the one carrying tok, the first died of the fault;
// the counters show exactly one withheld signature among all asked for.
func (s *goServer) expectFaultThenOK(tok string) {
	s.c.T.Helper()
	first := s.next()
	if !first.faultActive || first.err == nil || !strings.Contains(first.err.Error(), "fault detected") {
		s.c.Fatalf("first connection: error %v, want the checked signer's fault", first.err)
	}
	var sc *serverConn
	for i := 0; i < 8; i++ {
		sc = s.next()
		if sc.err == nil && sc.got == "ping "+tok {
			break
		}
	}
	if sc.got != "ping "+tok {
		s.c.Fatalf("no connection carried the request")
	}
	s.c.recordState(sc.state, sc.scheme)
	asked := s.signs.Load() - s.signsBefore
	now := s.id.Stats()
	d := provider.Stats{Signatures: now.Signatures - s.before.Signatures, Checks: now.Checks - s.before.Checks,
		FaultsDetected: now.FaultsDetected - s.before.FaultsDetected, Fallbacks: now.Fallbacks - s.before.Fallbacks}
	if d != (provider.Stats{Signatures: asked, Checks: asked, FaultsDetected: 1}) || asked < 2 {
		s.c.Fatalf("counters moved by %+v for %d signatures asked, want all checked and exactly one withheld", d, asked)
	}
	s.before, s.signsBefore = now, s.signs.Load()
}

// ---- provider client ----

type clientOpts struct {
	serverName string // default hostName
	min, max   uint16
	suites     []uint16
	cert       *credential // mutual TLS: a provider client identity
	noData     bool        // handshake only
	http       bool        // send an HTTP GET instead of a ping line
	expectEcho func(tok string) string
	beforeSend func(tok string) // e.g. put the file a web server will serve
	// readOnly: after the handshake, only read (a TLS 1.3 server's
	// refusal of the client arrives after the client's handshake ends;
	// writing first could meet the closed socket before the alert).
	readOnly bool
}

type clientResult struct {
	state      tls.ConnectionState
	err        error
	reply      string
	wireScheme string // TLS 1.2 ServerKeyExchange scheme
	id         *provider.Identity
	scheme     string // our client identity's scheme
}

// dial connects a provider client (trust store verification) to addr and
// exchanges one ping, returning what happened.
func (c *C) dial(addr string, o clientOpts) *clientResult {
	c.T.Helper()
	if o.serverName == "" {
		o.serverName = hostName
	}
	cfg := &tls.Config{ServerName: o.serverName, MinVersion: o.min, MaxVersion: o.max, CipherSuites: o.suites}
	if o.min == 0 {
		cfg.MinVersion = tls.VersionTLS10
	}
	res := &clientResult{}
	var rs *recSigner
	if o.cert != nil {
		res.id = o.cert.identity()
		ids := provider.NewIdentities(res.id)
		cfg.GetClientCertificate = func(cri *tls.CertificateRequestInfo) (*tls.Certificate, error) {
			cert, err := ids.GetClientCertificate(cri)
			if err != nil || cert == nil || cert.PrivateKey == nil {
				return cert, err
			}
			cp := *cert
			rs = &recSigner{inner: cert.PrivateKey.(crypto.Signer), alg: res.id.Algorithm()}
			cp.PrivateKey = rs
			return &cp, nil
		}
	}
	cfg = provider.HookClientConfig(cfg, c.Env.PKI.store)
	d := net.Dialer{Timeout: 10 * time.Second}
	raw, err := d.DialContext(c.Ctx, "tcp", addr)
	if err != nil {
		res.err = err
		return res
	}
	rc := &recConn{Conn: raw}
	tc := tls.Client(rc, cfg)
	defer tc.Close()
	tc.SetDeadline(time.Now().Add(20 * time.Second))
	res.err = tc.HandshakeContext(c.Ctx)
	res.state = tc.ConnectionState()
	rc.mu.Lock()
	res.wireScheme = skeScheme(rc.in)
	rc.mu.Unlock()
	if rs != nil {
		res.scheme = strings.Join(rs.schemes(), ",")
	}
	if res.err != nil || o.noData {
		return res
	}
	if o.readOnly {
		tc.SetReadDeadline(time.Now().Add(10 * time.Second))
		n, err := tc.Read(make([]byte, 512))
		if err == nil {
			res.err = fmt.Errorf("the peer sent %d bytes unasked", n)
		} else {
			res.err = fmt.Errorf("reading: %w", err)
		}
		return res
	}
	tok := token()
	if o.beforeSend != nil {
		o.beforeSend(tok)
	}
	req := "ping " + tok + "\n"
	if o.http {
		req = "GET /" + tok + " HTTP/1.0\r\nHost: " + o.serverName + "\r\n\r\n"
	}
	if _, err := io.WriteString(tc, req); err != nil {
		res.err = fmt.Errorf("writing: %w", err)
		return res
	}
	want := "pong " + tok
	if o.expectEcho != nil {
		want = o.expectEcho(tok)
	}
	var got strings.Builder
	buf := make([]byte, 4096)
	var rerr error
	for !strings.Contains(got.String(), want) {
		n, err := tc.Read(buf)
		got.Write(buf[:n])
		if err != nil {
			rerr = err
			break
		}
	}
	res.reply = got.String()
	if !strings.Contains(res.reply, want) {
		res.err = fmt.Errorf("the peer's reply %q lacks %q (read: %v)", res.reply, want, rerr)
	}
	return res
}

// expectClientOK asserts a successful provider-client case: handshake,
// round trip, the trust store's fast path decided the chain; records the
// parameters (the peer's scheme, or with a client identity, ours).
func (c *C) expectClientOK(r *clientResult, storeBefore truststore.Stats) {
	c.T.Helper()
	if r.err != nil {
		c.Fatalf("provider client: %v", r.err)
	}
	scheme := peerScheme(r.state, r.wireScheme)
	if r.id != nil {
		scheme = r.scheme + " (ours)"
		st := r.id.Stats()
		if st != (provider.Stats{Signatures: 1, Checks: 1}) {
			c.Fatalf("client identity counters %+v, want one checked signature", st)
		}
	}
	c.recordState(r.state, scheme)
	expectStore(c, storeBefore, 1)
}

// expectClientFailed asserts the provider client's handshake failed with
// an error containing want.
func (c *C) expectClientFailed(r *clientResult, want string) {
	c.T.Helper()
	if r.err == nil {
		c.Fatalf("the provider client's handshake succeeded (reply %q); want a failure (%s)", r.reply, want)
	}
	if !strings.Contains(r.err.Error(), want) {
		c.Fatalf("provider client error %q, want one containing %q", r.err, want)
	}
}

// Common expected errors.
const (
	errUnknownCA    = "certificate signed by unknown authority"
	errWrongHost    = "not wrong.interop.test"
	errNoClientCert = "client didn't provide a certificate"
)
