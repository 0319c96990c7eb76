package provider

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/p256tls/p256tls/internal/testsupport/testpki"
)

// Test PKI, generated in-process (internal/testsupport/testpki).

type testCA struct {
	cert *x509.Certificate
	key  crypto.Signer
	pool *x509.CertPool
	pem  []byte
}

var (
	caOnce   sync.Once
	sharedCA *testCA
)

// ca returns a P-256 certificate authority shared by the tests of the
// process.
func ca(t testing.TB) *testCA {
	t.Helper()
	caOnce.Do(func() {
		tmpl := testpki.CATemplate("p256tls test CA", time.Now().Add(-time.Hour), time.Now().Add(24*time.Hour))
		n := testpki.MustIssue(t, tmpl, testpki.MustKey(t, testpki.P256), nil)
		pool := x509.NewCertPool()
		pool.AddCert(n.Cert)
		sharedCA = &testCA{cert: n.Cert, key: n.Key, pool: pool, pem: testpki.CertsPEM(n.Cert.Raw)}
	})
	if sharedCA == nil {
		t.Fatal("the shared test CA could not be made")
	}
	return sharedCA
}

// newKey returns a fresh key of the named algorithm (testpki's names); the
// RSA-2048 key is the same one for the whole process: RSA keys are slow to
// make.
func newKey(t testing.TB, alg string) crypto.Signer {
	t.Helper()
	if alg == testpki.RSA2048 {
		return testpki.MustPooled(t, alg, 0)
	}
	return testpki.MustKey(t, alg)
}

// issue makes a leaf certificate for key, signed by the test CA, valid for
// names (DNS names) and for the loopback addresses.
func (c *testCA) issue(t testing.TB, key crypto.Signer, names ...string) tls.Certificate {
	t.Helper()
	tmpl := testpki.LeafTemplate(firstOr(names, "p256tls test"), time.Now().Add(-time.Hour), time.Now().Add(24*time.Hour), names...)
	tmpl.IPAddresses = []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback}
	n := testpki.MustIssue(t, tmpl, key, &testpki.Node{Cert: c.cert, Key: c.key})
	return tls.Certificate{Certificate: [][]byte{n.Cert.Raw, c.cert.Raw}, PrivateKey: key, Leaf: n.Cert}
}

func firstOr(s []string, def string) string {
	if len(s) > 0 {
		return s[0]
	}
	return def
}

// newIdentity makes an identity of the named algorithm for names.
func newIdentity(t testing.TB, alg string, names ...string) *Identity {
	t.Helper()
	id, err := NewIdentity(ca(t).issue(t, newKey(t, alg), names...))
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// chainPEM encodes a certificate chain.
func chainPEM(cert tls.Certificate) []byte { return testpki.CertsPEM(cert.Certificate...) }

// keyPEM encodes a private key as "pkcs8", "sec1" or "pkcs1".
func keyPEM(t testing.TB, priv any, format string) []byte {
	t.Helper()
	var block *pem.Block
	switch format {
	case "pkcs8":
		der, err := x509.MarshalPKCS8PrivateKey(priv)
		if err != nil {
			t.Fatal(err)
		}
		block = &pem.Block{Type: "PRIVATE KEY", Bytes: der}
	case "sec1":
		der, err := x509.MarshalECPrivateKey(priv.(*ecdsa.PrivateKey))
		if err != nil {
			t.Fatal(err)
		}
		block = &pem.Block{Type: "EC PRIVATE KEY", Bytes: der}
	case "pkcs1":
		block = &pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(priv.(*rsa.PrivateKey))}
	default:
		t.Fatalf("unknown key format %q", format)
	}
	return pem.EncodeToMemory(block)
}

// writeFile writes data to dir/name and returns the path.
func writeFile(t testing.TB, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// writePair writes cert and its key (PKCS#8) as dir/prefix.crt and
// dir/prefix.key.
func writePair(t testing.TB, dir, prefix string, cert tls.Certificate) Files {
	t.Helper()
	return Files{
		CertFile: writeFile(t, dir, prefix+".crt", chainPEM(cert)),
		KeyFile:  writeFile(t, dir, prefix+".key", keyPEM(t, cert.PrivateKey, "pkcs8")),
	}
}

// A test server: accepts TCP connections on loopback, completes the TLS
// handshake, writes "ok\n" and closes.

type testServer struct {
	ln     net.Listener
	cfg    *tls.Config
	record bool // keep a copy of every byte the server writes

	wg     sync.WaitGroup
	mu     sync.Mutex
	errs   []error
	writes [][]byte
	served atomic.Int64
}

func startServer(t testing.TB, cfg *tls.Config) *testServer {
	return startServerOpts(t, cfg, false)
}

func startServerOpts(t testing.TB, cfg *tls.Config, record bool) *testServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &testServer{ln: ln, cfg: cfg, record: record}
	s.wg.Add(1)
	go s.serve()
	t.Cleanup(s.close)
	return s
}

func (s *testServer) addr() string { return s.ln.Addr().String() }

func (s *testServer) serve() {
	defer s.wg.Done()
	for {
		c, err := s.ln.Accept()
		if err != nil {
			return
		}
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.handle(c)
		}()
	}
}

type recordingConn struct {
	net.Conn
	buf bytes.Buffer
}

func (r *recordingConn) Write(p []byte) (int, error) {
	r.buf.Write(p)
	return r.Conn.Write(p)
}

func (s *testServer) handle(raw net.Conn) {
	defer raw.Close()
	raw.SetDeadline(time.Now().Add(20 * time.Second))
	var rec *recordingConn
	if s.record {
		rec = &recordingConn{Conn: raw}
		raw = rec
	}
	c := tls.Server(raw, s.cfg)
	err := c.Handshake()
	if err == nil {
		_, err = io.WriteString(c, "ok\n")
		if err == nil {
			s.served.Add(1)
		}
		c.Close()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil {
		s.errs = append(s.errs, err)
	}
	if rec != nil {
		s.writes = append(s.writes, rec.buf.Bytes())
	}
}

func (s *testServer) errors() []error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]error(nil), s.errs...)
}

func (s *testServer) close() {
	s.ln.Close()
	s.wg.Wait()
	s.cfg = nil // let the identities go (TestRegistryDoesNotLeak)
}

// clientConfig trusts the test CA and asks for serverName.
func clientConfig(serverName string) *tls.Config {
	return &tls.Config{RootCAs: sharedCA.pool, ServerName: serverName}
}

// handshake dials addr, completes a handshake, reads the server's "ok\n"
// and returns the connection state.
func handshake(addr string, cfg *tls.Config) (tls.ConnectionState, error) {
	d := &net.Dialer{Timeout: 10 * time.Second}
	c, err := tls.DialWithDialer(d, "tcp", addr, cfg)
	if err != nil {
		return tls.ConnectionState{}, err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(20 * time.Second))
	buf := make([]byte, 3)
	if _, err := io.ReadFull(c, buf); err != nil {
		return tls.ConnectionState{}, fmt.Errorf("reading the server's reply: %w", err)
	}
	if string(buf) != "ok\n" {
		return tls.ConnectionState{}, fmt.Errorf("server replied %q", buf)
	}
	return c.ConnectionState(), nil
}

// waitGoroutines waits (bounded) until at most n goroutines are running.
func waitGoroutines(t testing.TB, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > n {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			buf = buf[:runtime.Stack(buf, true)]
			t.Fatalf("%d goroutines left behind (want <= %d):\n%s", runtime.NumGoroutine(), n, buf)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// statsDelta returns after - before, field by field.
func statsDelta(after, before Stats) Stats {
	return Stats{
		Signatures:     after.Signatures - before.Signatures,
		Checks:         after.Checks - before.Checks,
		FaultsDetected: after.FaultsDetected - before.FaultsDetected,
		Fallbacks:      after.Fallbacks - before.Fallbacks,
	}
}
