package provider

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"io"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Test PKI, generated in-process.

var serial atomic.Int64

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
	caOnce.Do(func() {
		k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			panic(err)
		}
		tmpl := &x509.Certificate{
			SerialNumber:          big.NewInt(serial.Add(1)),
			Subject:               pkix.Name{CommonName: "p256tls test CA"},
			NotBefore:             time.Now().Add(-time.Hour),
			NotAfter:              time.Now().Add(24 * time.Hour),
			IsCA:                  true,
			BasicConstraintsValid: true,
			KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
		}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &k.PublicKey, k)
		if err != nil {
			panic(err)
		}
		c, _ := x509.ParseCertificate(der)
		pool := x509.NewCertPool()
		pool.AddCert(c)
		sharedCA = &testCA{cert: c, key: k, pool: pool,
			pem: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})}
	})
	return sharedCA
}

var (
	rsaOnce sync.Once
	rsaKey  *rsa.PrivateKey
)

// newKey returns a fresh key of the named algorithm (RSA-2048 keys are
// generated once per process: they are slow to make).
func newKey(t testing.TB, alg string) crypto.Signer {
	t.Helper()
	var k crypto.Signer
	var err error
	switch alg {
	case "P-256":
		k, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	case "P-384":
		k, err = ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	case "P-521":
		k, err = ecdsa.GenerateKey(elliptic.P521(), rand.Reader)
	case "P-224":
		k, err = ecdsa.GenerateKey(elliptic.P224(), rand.Reader)
	case "Ed25519":
		_, k, err = ed25519.GenerateKey(rand.Reader)
	case "RSA-2048":
		rsaOnce.Do(func() { rsaKey, err = rsa.GenerateKey(rand.Reader, 2048) })
		k = rsaKey
	default:
		t.Fatalf("unknown algorithm %q", alg)
	}
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// issue makes a leaf certificate for key, signed by the test CA, valid for
// names (DNS names) and for the loopback addresses.
func (c *testCA) issue(t testing.TB, key crypto.Signer, names ...string) tls.Certificate {
	t.Helper()
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(serial.Add(1)),
		Subject:      pkix.Name{CommonName: firstOr(names, "p256tls test")},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth},
		DNSNames:     names,
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, c.cert, key.Public(), c.key)
	if err != nil {
		t.Fatal(err)
	}
	leaf, _ := x509.ParseCertificate(der)
	return tls.Certificate{Certificate: [][]byte{der, c.cert.Raw}, PrivateKey: key, Leaf: leaf}
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
func chainPEM(cert tls.Certificate) []byte {
	var b bytes.Buffer
	for _, der := range cert.Certificate {
		pem.Encode(&b, &pem.Block{Type: "CERTIFICATE", Bytes: der})
	}
	return b.Bytes()
}

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
