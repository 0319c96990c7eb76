package provider

import (
	"bytes"
	"crypto/ecdh"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"testing"
	"time"

	"github.com/p256tls/p256tls/internal/testsupport/testpki"
	"github.com/p256tls/p256tls/truststore"
)

// echKey is an ECH key for crypto/tls: an ECHConfig (draft-ietf-tls-esni,
// version 0xfe0d) for DHKEM(X25519, HKDF-SHA256) with HKDF-SHA256 and
// AES-128-GCM, and its private key.
func echKey(t *testing.T, id uint8, publicName string) tls.EncryptedClientHelloKey {
	t.Helper()
	priv, err := ecdh.X25519().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	pub := priv.PublicKey().Bytes()
	u16 := func(b []byte, v int) []byte { return append(b, byte(v>>8), byte(v)) }
	var body []byte
	body = append(body, id)
	body = u16(body, 0x0020) // kem_id
	body = u16(body, len(pub))
	body = append(body, pub...)
	body = u16(body, 4)                 // cipher_suites
	body = u16(u16(body, 0x0001), 0x01) // HKDF-SHA256, AES-128-GCM
	body = append(body, 0)              // maximum_name_length
	body = append(body, byte(len(publicName)))
	body = append(body, publicName...)
	body = u16(body, 0) // extensions
	cfg := u16(u16(nil, 0xfe0d), len(body))
	return tls.EncryptedClientHelloKey{Config: append(cfg, body...), PrivateKey: priv.Bytes(), SendAsRetry: true}
}

// echList is the ECHConfigList of keys.
func echList(keys ...tls.EncryptedClientHelloKey) []byte {
	var all []byte
	for _, k := range keys {
		all = append(all, k.Config...)
	}
	return append([]byte{byte(len(all) >> 8), byte(len(all))}, all...)
}

// echPKI is newTLSPKI plus a certificate for the ECH public name from the
// store's root and one from a root outside the store, and ECH keys.
type echPKI struct {
	*tlsPKI
	inStore, outside tls.Certificate
	outsideRoots     *x509.CertPool // the application's RootCAs: the outside root
	clientKey, other tls.EncryptedClientHelloKey
}

const echPublicName = "public.example"

func newECHPKI(t *testing.T) *echPKI {
	t.Helper()
	p := &echPKI{tlsPKI: newTLSPKI(t)}
	tm := func() *x509.Certificate {
		tm := testpki.LeafTemplate(echPublicName, time.Now().Add(-time.Hour), time.Now().Add(time.Hour), echPublicName)
		tm.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}
		return tm
	}
	p.inStore = p.issueLeaf(t, tm())
	root := testpki.MustIssue(t, testpki.CATemplate("outside root", time.Now().Add(-time.Hour), time.Now().Add(24*time.Hour)),
		testpki.MustKey(t, testpki.P256), nil)
	leaf := testpki.MustIssue(t, tm(), testpki.MustKey(t, testpki.P256), root)
	p.outside = tls.Certificate{Certificate: [][]byte{leaf.Cert.Raw}, PrivateKey: leaf.Key, Leaf: leaf.Cert}
	p.outsideRoots = x509.NewCertPool()
	p.outsideRoots.AddCert(root.Cert)
	p.clientKey = echKey(t, 1, echPublicName)
	p.other = echKey(t, 2, echPublicName)
	return p
}

// echServer is a crypto/tls server holding the ECH key k, serving cert for
// the public name and p.server for server.test.
func (p *echPKI) echServer(cert tls.Certificate, k tls.EncryptedClientHelloKey) *tls.Config {
	return &tls.Config{
		Certificates:             []tls.Certificate{p.server, cert},
		EncryptedClientHelloKeys: []tls.EncryptedClientHelloKey{k},
		MinVersion:               tls.VersionTLS13,
	}
}

// echClient is the application's Config: ECH with p.clientKey's config, the
// outside root as its RootCAs.
func (p *echPKI) echClient(name string) *tls.Config {
	return &tls.Config{ServerName: name, RootCAs: p.outsideRoots, MinVersion: tls.VersionTLS13,
		EncryptedClientHelloConfigList: echList(p.clientKey)}
}

// echClients are the three ways to hook a client Config with a store, each
// dialing addr and running the handshake.
func echClients(s *truststore.Store) map[string]func(addr string, cfg *tls.Config) error {
	conn := func(addr string, wrap func(net.Conn) *tls.Conn) error {
		c, err := net.DialTimeout("tcp", addr, 10*time.Second)
		if err != nil {
			return err
		}
		defer c.Close()
		c.SetDeadline(time.Now().Add(10 * time.Second))
		return wrap(c).Handshake()
	}
	return map[string]func(string, *tls.Config) error{
		"HookClientConfig": func(addr string, cfg *tls.Config) error {
			return conn(addr, func(c net.Conn) *tls.Conn { return tls.Client(c, HookClientConfig(cfg, s)) })
		},
		"Client": func(addr string, cfg *tls.Config) error {
			return conn(addr, func(c net.Conn) *tls.Conn { return Client(c, cfg, s) })
		},
		"Dialer": func(addr string, cfg *tls.Config) error {
			d := &Dialer{Config: cfg, Store: s, NetDialer: &net.Dialer{Timeout: 10 * time.Second}}
			c, err := d.Dial("tcp", addr)
			if err == nil {
				c.Close()
			}
			return err
		},
	}
}

// TestECHRejectionThroughStore: when the server rejects ECH (it holds a key
// the client's config does not), crypto/tls calls neither
// VerifyPeerCertificate nor VerifyConnection; it checks the public name's
// certificate against RootCAs, whatever InsecureSkipVerify says, and returns
// the server's retry configs in an ECHRejectionError only if that check
// passed. With the hooks the store's anchors must decide there too: the
// public name's certificate from the store's root gives the retry configs,
// one from the application's RootCAs (a root outside the store) is refused.
func TestECHRejectionThroughStore(t *testing.T) {
	p := newECHPKI(t)
	// crypto/tls with RootCAs: the reference for both certificates.
	for _, tc := range []struct {
		label string
		cert  tls.Certificate
		roots *x509.CertPool
	}{{"in store", p.inStore, p.store.CertPool()}, {"outside", p.outside, p.outsideRoots}} {
		cfg := p.echClient("server.test")
		cfg.RootCAs = tc.roots
		_, err := tcpHandshake(t, p.echServer(tc.cert, p.other), func(c net.Conn) *tls.Conn { return tls.Client(c, cfg) })
		var rej *tls.ECHRejectionError
		if !errors.As(err, &rej) || !bytes.Equal(rej.RetryConfigList, echList(p.other)) {
			t.Fatalf("crypto/tls, %s: %v, want an ECHRejectionError with the retry configs", tc.label, err)
		}
	}
	inStore := startServer(t, p.echServer(p.inStore, p.other)).addr()
	outside := startServer(t, p.echServer(p.outside, p.other)).addr()
	accepting := startServer(t, p.echServer(p.outside, p.clientKey)).addr()
	for name, client := range echClients(p.store) {
		t.Run(name, func(t *testing.T) {
			err := client(inStore, p.echClient("server.test"))
			var rej *tls.ECHRejectionError
			if !errors.As(err, &rej) || !bytes.Equal(rej.RetryConfigList, echList(p.other)) {
				t.Errorf("public name's certificate from the store: %v, want an ECHRejectionError with the retry configs", err)
			}
			err = client(outside, p.echClient("server.test"))
			var cve *tls.CertificateVerificationError
			if errors.As(err, &rej) || !errors.As(err, &cve) {
				t.Errorf("public name's certificate from outside the store: %v, want a CertificateVerificationError", err)
			}
			// The caller's EncryptedClientHelloRejectionVerify is kept: it
			// decides instead of RootCAs.
			mine := errors.New("mine")
			cfg := p.echClient("server.test")
			cfg.EncryptedClientHelloRejectionVerify = func(tls.ConnectionState) error { return mine }
			if err := client(inStore, cfg); !errors.Is(err, mine) {
				t.Errorf("caller's EncryptedClientHelloRejectionVerify: %v", err)
			}
			// ECH accepted: the inner name's certificate, through the store.
			err = client(accepting, p.echClient("server.test"))
			if err != nil {
				t.Errorf("ECH accepted: %v", err)
			}
			// With ECH accepted crypto/tls reports the Config's ServerName as
			// it is, an IP address included, and verifies the server for it.
			if err := client(accepting, p.echClient("127.0.0.1")); err != nil {
				t.Errorf("ECH accepted, an IP address: %v", err)
			}
		})
	}
}

// TestECHRejectionRefused: a Config the hooks refuse (a nil store, no name,
// an already hooked Config) refuses an ECH rejection too, rather than
// letting RootCAs (or the system roots) accept the public name and return
// its retry configs.
func TestECHRejectionRefused(t *testing.T) {
	p := newECHPKI(t)
	server := p.echServer(p.outside, p.other)
	cases := []struct {
		label string
		want  error
		conn  func(net.Conn) *tls.Conn
	}{
		{"HookClientConfig, nil store", ErrNilStore, func(c net.Conn) *tls.Conn { return tls.Client(c, HookClientConfig(p.echClient("server.test"), nil)) }},
		{"Client, nil store", ErrNilStore, func(c net.Conn) *tls.Conn { return Client(c, p.echClient("server.test"), nil) }},
		{"Client, no name", ErrNoServerName, func(c net.Conn) *tls.Conn { return Client(c, p.echClient(""), p.store) }},
		{"Client, hooked Config", errHookedConfig, func(c net.Conn) *tls.Conn {
			return Client(c, HookClientConfig(p.echClient("server.test"), p.store), p.store)
		}},
	}
	for _, tc := range cases {
		t.Run(tc.label, func(t *testing.T) {
			_, err := tcpHandshake(t, server, tc.conn)
			if !errors.Is(err, tc.want) {
				t.Errorf("ECH rejected by the server: %v, want %v", err, tc.want)
			}
		})
	}
}
