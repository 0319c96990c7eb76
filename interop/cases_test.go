//go:build interop

package interop

import (
	"crypto"
	"crypto/rand"
	"crypto/sha1"
	"crypto/tls"
	"crypto/x509"
	"regexp"
	"strings"
	"sync"

	"github.com/p256tls/p256tls/internal/testsupport/testpki"
	"github.com/p256tls/p256tls/provider"
)

// Generic case builders: a peer supplies a way to run its client or start
// its server with given options, and what it supports; the builders make
// the rows of the matrix from them.

const (
	suiteAES128 = "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256"
	suiteAES256 = "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384"
	suiteChaCha = "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256"
	suiteCBC    = "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA" // TLS 1.0/1.1
)

var suiteIDs = map[string]uint16{
	suiteAES128: tls.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
	suiteAES256: tls.TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,
	suiteChaCha: tls.TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,
	suiteCBC:    tls.TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA,
}

var tlsVersions = map[string]uint16{"1.3": tls.VersionTLS13, "1.2": tls.VersionTLS12, "1.1": tls.VersionTLS11, "1.0": tls.VersionTLS10}

// pc is what a peer client is asked to do.
type pc struct {
	Addr   string // 127.0.0.1:port
	Port   int
	Ver    string // "1.3", "1.2", "1.1", "1.0"
	Suite  string // IANA name, or "" for the peer's default
	Hash   string // "sha256", "sha384", "sha512": the only ECDSA scheme to offer, or ""
	CA     string // PEM file of the trusted root
	Name   string // the name to send and verify
	Cert   *credential
	Tok    string
	Line   string // "ping <tok>\n"
	RootCA *credential
	// Failed reports how many handshakes the provider server has seen
	// fail so far (for peers that give no sign of failing themselves).
	Failed func() int64
}

// clientCaps says what a peer client supports. An empty string in a "no"
// field means supported; otherwise it is the reason shown in the matrix.
type clientCaps struct {
	Versions  []string // offered versions (1.0/1.1 only where the peer still offers them)
	NoSuite   string   // cannot force a TLS 1.2 suite
	NoHash    string   // cannot force the TLS 1.2 signature hash
	NoHashFor map[string]string
	NoEd25519 string
	NoRSA     string
	NoP384    string
	NoMTLS    string
	NoChaCha  string
	NoRefusal string // the client cannot be made to refuse a bad chain or name
	// ExtraConns: the peer opens connections of its own (a browser);
	// Retries: it may retry a failed handshake by itself, so the fault
	// case may see the retry succeed in the same run.
	ExtraConns, Retries bool
	// NoForeign: the client sends no certificate whose issuer the server
	// did not name, so a foreign one never reaches the server.
	NoForeign string
	// Failure texts (regular expressions) the peer prints for each
	// negative case; "" accepts any failure.
	UnknownCA, WrongHost, Rejected string
}

type clientRun func(c *C, o pc) (string, error)

func clientCases(p *peer, run clientRun, caps clientCaps) []Case {
	var cs []Case
	ok := func(name string, cred func(e *Env) *credential, ver, suite, hash, na string) {
		cs = append(cs, Case{Peer: p, Role: roleClient, Name: name, NA: na, Run: func(c *C) {
			peerClientOK(c, run, cred(c.Env), ver, suite, hash, caps.ExtraConns)
		}})
	}
	has := func(v string) bool {
		for _, x := range caps.Versions {
			if x == v {
				return true
			}
		}
		return false
	}
	p256 := func(e *Env) *credential { return e.PKI.serverP256 }
	if has("1.3") {
		ok("TLS1.3 P-256", p256, "1.3", "", "", "")
		ok("TLS1.3 RSA-2048", func(e *Env) *credential { return e.PKI.serverRSA }, "1.3", "", "", caps.NoRSA)
		ok("TLS1.3 P-384", func(e *Env) *credential { return e.PKI.serverP384 }, "1.3", "", "", caps.NoP384)
		ok("TLS1.3 Ed25519", func(e *Env) *credential { return e.PKI.serverEd25519 }, "1.3", "", "", caps.NoEd25519)
	}
	if has("1.2") {
		for _, s := range []string{suiteAES128, suiteAES256, suiteChaCha} {
			na := caps.NoSuite
			if s == suiteChaCha && na == "" {
				na = caps.NoChaCha
			}
			ok("TLS1.2 P-256 "+s, p256, "1.2", s, "", na)
		}
		for _, h := range []string{"sha256", "sha384", "sha512"} {
			na := caps.NoHash
			if na == "" && caps.NoHashFor != nil {
				na = caps.NoHashFor[h]
			}
			ok("TLS1.2 P-256 ecdsa "+h, p256, "1.2", "", h, na)
		}
		ok("TLS1.2 RSA-2048", func(e *Env) *credential { return e.PKI.serverRSA }, "1.2", "", "", caps.NoRSA)
	}
	for _, v := range []string{"1.1", "1.0"} {
		if has(v) {
			ok("TLS"+v+" P-256", p256, v, "", "", sha1NA())
		}
	}
	cs = append(cs, Case{Peer: p, Role: roleMTLSClient, Name: "client cert P-256", NA: caps.NoMTLS, Run: func(c *C) {
		s := c.startServer(serverOpts{clientAuth: true, extraConns: caps.ExtraConns})
		o := c.pcFor(s, "")
		o.Cert = c.Env.PKI.clientP256
		out, err := run(c, o)
		wantPong(c, out, err, o.Tok)
		sc := s.expectOK(o.Tok)
		if len(sc.state.PeerCertificates) == 0 || !sc.state.PeerCertificates[0].Equal(c.Env.PKI.clientP256.cert) {
			c.Fatalf("the server did not see the peer's client certificate")
		}
		s.expectStoreDecided(1)
		c.Row.Scheme = sc.scheme + "; client " + peerScheme(sc.state, sc.peerScheme)
	}})
	neg := func(role, name, na string, body func(c *C)) {
		cs = append(cs, Case{Peer: p, Role: role, Name: name, NA: na, Negative: true, Run: body})
	}
	neg(roleClient, "negative: wrong CA", caps.NoRefusal, func(c *C) {
		s := c.startServer(serverOpts{extraConns: caps.ExtraConns})
		o := c.pcFor(s, "")
		o.CA = c.Env.PKI.ForeignPEM
		out, err := run(c, o)
		wantFail(c, out, err, o.Tok, caps.UnknownCA)
		s.expectFailed("")
		s.expectSigned(s.signs.Load() - s.signsBefore) // the server signed; the client refused the chain
		c.Row.Note = "peer refused the chain"
	})
	neg(roleClient, "negative: wrong host name", caps.NoRefusal, func(c *C) {
		s := c.startServer(serverOpts{extraConns: caps.ExtraConns})
		o := c.pcFor(s, "")
		o.Name = "wrong.interop.test"
		out, err := run(c, o)
		wantFail(c, out, err, o.Tok, caps.WrongHost)
		s.expectFailed("")
		c.Row.Note = "peer refused the name"
	})
	neg(roleMTLSClient, "negative: no client cert", caps.NoMTLS, func(c *C) {
		s := c.startServer(serverOpts{clientAuth: true, extraConns: caps.ExtraConns})
		o := c.pcFor(s, "")
		out, err := run(c, o)
		wantFail(c, out, err, o.Tok, caps.Rejected)
		s.expectFailed(errNoClientCert)
		c.Row.Note = "server refused: no certificate"
	})
	foreignNA := caps.NoMTLS
	if foreignNA == "" {
		foreignNA = caps.NoForeign
	}
	neg(roleMTLSClient, "negative: foreign client cert", foreignNA, func(c *C) {
		s := c.startServer(serverOpts{clientAuth: true, extraConns: caps.ExtraConns})
		o := c.pcFor(s, "")
		o.Cert = c.Env.PKI.foreignClient
		out, err := run(c, o)
		wantFail(c, out, err, o.Tok, caps.Rejected)
		s.expectFailed(errUnknownCA)
		c.Row.Note = "trust store refused the chain"
	})
	neg(roleClient, "negative: faulted signing", "", func(c *C) {
		s := c.startServer(serverOpts{faultFirst: true, extraConns: caps.ExtraConns})
		o := c.pcFor(s, "")
		out, err := run(c, o)
		if caps.Retries && strings.Contains(out, "pong "+o.Tok) {
			// The browser retried on its own: the first handshake died
			// of the fault, the retry carried the request.
			wantPong(c, out, err, o.Tok)
			s.expectFaultThenOK(o.Tok)
			c.Row.Note = "fault caught, no signature left; the browser's own retry succeeded"
			return
		}
		wantFail(c, out, err, o.Tok, caps.Rejected)
		s.expectFault()
		// The next connection succeeds.
		o.Tok = token()
		o.Line = "ping " + o.Tok + "\n"
		out, err = run(c, o)
		wantPong(c, out, err, o.Tok)
		s.expectOK(o.Tok)
		c.Row.Note = "fault caught, no signature left; next connection ok"
	})
	return cs
}

func (c *C) pcFor(s *goServer, ver string) pc {
	tok := token()
	return pc{Addr: s.Addr, Port: s.Port, Ver: ver, CA: c.Env.PKI.RootPEM, Name: hostName, Tok: tok, Line: "ping " + tok + "\n", RootCA: c.Env.PKI.root,
		Failed: s.failed.Load}
}

func peerClientOK(c *C, run clientRun, cred *credential, ver, suite, hash string, extra bool) {
	o := serverOpts{cred: cred}
	if suite != "" {
		o.suites = []uint16{suiteIDs[suite]}
	}
	if ver == "1.1" || ver == "1.0" {
		o.suites = []uint16{suiteIDs[suiteCBC]}
		if cred.cert.PublicKeyAlgorithm.String() == "RSA" {
			o.suites = []uint16{tls.TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA}
		}
	}
	o.extraConns = extra
	s := c.startServer(o)
	p := c.pcFor(s, ver)
	p.Suite, p.Hash = suite, hash
	out, err := run(c, p)
	wantPong(c, out, err, p.Tok)
	sc := s.expectOK(p.Tok)
	if got := versionName(sc.state.Version); got != ver {
		c.Fatalf("negotiated TLS %s, want %s", got, ver)
	}
	if suite != "" && tls.CipherSuiteName(sc.state.CipherSuite) != suite {
		c.Fatalf("negotiated %s, want %s", tls.CipherSuiteName(sc.state.CipherSuite), suite)
	}
	if hash != "" && !strings.HasSuffix(sc.scheme, "_"+hash) {
		c.Fatalf("signed with %s, want ECDSA with %s", sc.scheme, hash)
	}
}

// wantPong asserts the peer printed the server's reply.
func wantPong(c *C, out string, err error, tok string) {
	c.T.Helper()
	if !strings.Contains(out, "pong "+tok) {
		c.Fatalf("the peer did not receive the reply (err %v):\n%s", err, tail(out))
	}
}

// wantFail asserts the peer did not get the reply and, if pattern is set,
// printed a failure matching it.
func wantFail(c *C, out string, err error, tok, pattern string) {
	c.T.Helper()
	if strings.Contains(out, "pong "+tok) {
		c.Fatalf("the peer received the reply, want a failure:\n%s", tail(out))
	}
	if pattern != "" && !regexp.MustCompile(pattern).MatchString(out) {
		c.Fatalf("the peer's output does not match %q (err %v):\n%s", pattern, err, tail(out))
	}
}

func tail(s string) string {
	if len(s) > 3000 {
		return "...\n" + s[len(s)-3000:]
	}
	return s
}

// ---- peer servers ----

// ps is what a peer server is asked to do.
type ps struct {
	Port          int
	Ver           string // "1.3", "1.2" or "" for the peer's default
	Cred          *credential
	RequireClient bool
	ClientCA      string // PEM file to verify client certificates with
}

type serverCaps struct {
	Versions []string
	NoMTLS   string
	// Echo is what the peer answers to "ping tok" (nil: "pong tok" is not
	// what it does; the default is an exact echo of the line).
	Echo func(tok string) string
	HTTP bool // send an HTTP GET /tok instead of a ping line
	// Rejected is the provider client's error when the peer refuses it
	// (no client certificate).
	Rejected string
	// MTLSHTTP and MTLSEcho replace HTTP and Echo when the peer
	// requires a client certificate.
	MTLSHTTP bool
	MTLSEcho func(tok string) string
	// Prepare runs before the provider client sends its request (a web
	// server's peer writes the file GET /tok will fetch).
	Prepare func(c *C, tok string)
	// Ready is printed by the peer once it listens ("" = wait for the port).
	Ready string
}

type serverStart func(c *C, o ps) *proc

func serverCases(p *peer, start serverStart, caps serverCaps) []Case {
	var cs []Case
	echo := caps.Echo
	if echo == nil {
		echo = func(tok string) string { return "ping " + tok }
	}
	launch := func(c *C, o ps) {
		o.Port = freePort(c)
		if o.Cred == nil {
			o.Cred = c.Env.PKI.peerServer
		}
		if o.ClientCA == "" {
			o.ClientCA = c.Env.PKI.RootInterPEM
		}
		pr := start(c, o)
		if pr == nil {
			// an in-process server, already listening
		} else {
			if caps.Ready != "" {
				c.WaitOutput(pr, caps.Ready)
			}
			c.WaitPort(pr, o.Port)
		}
		c.peerPort = o.Port
		c.peerProc = pr
	}
	dialOpts := func(c *C, ver string, mtls bool) clientOpts {
		o := clientOpts{http: caps.HTTP, expectEcho: echo}
		if mtls && caps.MTLSEcho != nil {
			o.http, o.expectEcho = caps.MTLSHTTP, caps.MTLSEcho
		}
		if caps.Prepare != nil {
			o.beforeSend = func(tok string) { caps.Prepare(c, tok) }
		}
		if v, ok := tlsVersions[ver]; ok {
			o.min, o.max = v, v
		}
		return o
	}
	for _, v := range caps.Versions {
		cs = append(cs, Case{Peer: p, Role: roleServer, Name: "TLS" + v + " chain leaf←P-256 int←P-256 root", Run: func(c *C) {
			launch(c, ps{Ver: v})
			before := c.Env.PKI.store.Stats()
			r := c.dial(c.peerAddr(), dialOpts(c, v, false))
			c.expectClientOK(r, before)
			if versionName(r.state.Version) != v {
				c.Fatalf("negotiated TLS %s, want %s", versionName(r.state.Version), v)
			}
		}})
		cs = append(cs, Case{Peer: p, Role: roleMTLSServer, Name: "TLS" + v + " provider client identity", NA: caps.NoMTLS, Run: func(c *C) {
			launch(c, ps{Ver: v, RequireClient: true})
			before := c.Env.PKI.store.Stats()
			o := dialOpts(c, v, true)
			o.cert = c.Env.PKI.clientP256
			r := c.dial(c.peerAddr(), o)
			c.expectClientOK(r, before)
		}})
	}
	neg := func(role, name, na string, body func(c *C)) {
		cs = append(cs, Case{Peer: p, Role: role, Name: name, NA: na, Negative: true, Run: body})
	}
	neg(roleServer, "negative: wrong CA", "", func(c *C) {
		launch(c, ps{Cred: c.Env.PKI.foreignServer})
		r := c.dial(c.peerAddr(), dialOpts(c, "", false))
		c.expectClientFailed(r, errUnknownCA)
		c.Row.Note = "trust store refused the chain"
	})
	neg(roleServer, "negative: wrong host name", "", func(c *C) {
		launch(c, ps{})
		o := dialOpts(c, "", false)
		o.serverName = "wrong.interop.test"
		r := c.dial(c.peerAddr(), o)
		c.expectClientFailed(r, errWrongHost)
		c.Row.Note = "trust store refused the name"
	})
	neg(roleMTLSServer, "negative: no client cert", caps.NoMTLS, func(c *C) {
		launch(c, ps{RequireClient: true})
		o := dialOpts(c, "", true)
		o.readOnly = true
		r := c.dial(c.peerAddr(), o)
		if r.err == nil {
			c.Fatalf("the peer server accepted a client without a certificate (reply %q)", r.reply)
		}
		if caps.Rejected != "" && !regexp.MustCompile(caps.Rejected).MatchString(r.err.Error()) {
			c.Fatalf("provider client error %q, want %q", r.err, caps.Rejected)
		}
		c.Row.Note = "peer refused: " + r.err.Error()
	})
	return cs
}

func (c *C) peerAddr() string { return "127.0.0.1:" + itoa(c.peerPort) }

// sha1NA says why TLS 1.0/1.1 cases cannot run yet: they need a provider
// P-256 identity to sign a SHA-1 digest. It probes a fresh identity once;
// "" means it can, and the cases run (and must pass).
func sha1NA() string {
	sha1Once.Do(func() {
		k, err := testpki.NewKey(testpki.P256)
		if err != nil {
			sha1Reason = err.Error()
			return
		}
		n, err := testpki.Issue(&x509.Certificate{}, k, nil)
		if err != nil {
			sha1Reason = err.Error()
			return
		}
		id, err := provider.NewIdentity(tls.Certificate{Certificate: [][]byte{n.Cert.Raw}, PrivateKey: k})
		if err != nil {
			sha1Reason = err.Error()
			return
		}
		d := sha1.Sum([]byte("probe"))
		if _, err := id.Certificate().PrivateKey.(crypto.Signer).Sign(rand.Reader, d[:], crypto.SHA1); err != nil {
			sha1Reason = "this build's provider identities do not sign SHA-1 (TLS 1.0/1.1 ECDSA): " + err.Error()
		}
	})
	return sha1Reason
}

var (
	sha1Once   sync.Once
	sha1Reason string
)
