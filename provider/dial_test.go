package provider

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"testing"
	"time"

	"github.com/p256tls/p256tls/truststore"
)

// TestDialByIPThroughStore: a provider client reaches a provider server by
// its IP address through Dialer and Client, which check the address against
// the leaf's IP SANs as crypto/tls does, while a hooked Config cloned to an
// IP address fails closed instead of checking the name it was hooked with.
func TestDialByIPThroughStore(t *testing.T) {
	store, err := truststore.New([]*x509.Certificate{ca(t).cert})
	if err != nil {
		t.Fatal(err)
	}
	// The leaf names server.test, 127.0.0.1 and ::1.
	srv := startServer(t, ServerConfig(NewIdentities(newIdentity(t, "P-256", "server.test"))))
	read := func(c net.Conn) error {
		defer c.Close()
		c.SetDeadline(time.Now().Add(10 * time.Second))
		buf := make([]byte, 3)
		if _, err := io.ReadFull(c, buf); err != nil {
			return err
		}
		if string(buf) != "ok\n" {
			return errors.New("unexpected reply")
		}
		return nil
	}

	d := &Dialer{Store: store, NetDialer: &net.Dialer{Timeout: 10 * time.Second}}
	c, err := d.Dial("tcp", srv.addr())
	if err != nil {
		t.Fatalf("Dialer to %s: %v", srv.addr(), err)
	}
	if err := read(c); err != nil {
		t.Fatal(err)
	}

	client := func(name string) error {
		raw, err := net.DialTimeout("tcp", srv.addr(), 10*time.Second)
		if err != nil {
			return err
		}
		c := Client(raw, &tls.Config{ServerName: name}, store)
		if err := c.Handshake(); err != nil {
			c.Close()
			return err
		}
		return read(c)
	}
	if err := client("127.0.0.1"); err != nil {
		t.Errorf("Client as 127.0.0.1: %v", err)
	}
	if err := client("127.0.0.2"); err == nil {
		t.Error("Client as 127.0.0.2: an address the leaf does not name was accepted")
	}

	stale := HookClientConfig(&tls.Config{ServerName: "server.test"}, store).Clone()
	stale.ServerName = "127.0.0.2"
	if _, err := handshake(srv.addr(), stale); !errors.Is(err, ErrNoServerName) {
		t.Errorf("hooked for server.test, cloned to 127.0.0.2: %v, want ErrNoServerName", err)
	}
}

// TestDialClientCertificates: Client and Dialer sign a P-256 client
// certificate of the caller's Config through the provider (mutual TLS), as
// HookClientConfig does; the caller's Config is left as it was.
func TestDialClientCertificates(t *testing.T) {
	store, err := truststore.New([]*x509.Certificate{ca(t).cert})
	if err != nil {
		t.Fatal(err)
	}
	srvCfg := ServerConfig(NewIdentities(newIdentity(t, "P-256", "server.test")))
	srv := startServer(t, HookClientAuth(srvCfg, store))
	raw := ca(t).issue(t, newKey(t, "P-256"), "client.test") // a plain *ecdsa.PrivateKey
	cfg := &tls.Config{Certificates: []tls.Certificate{raw}}
	done := func(c net.Conn) {
		defer c.Close()
		c.SetDeadline(time.Now().Add(10 * time.Second))
		buf := make([]byte, 3)
		if _, err := io.ReadFull(c, buf); err != nil {
			t.Errorf("reading the reply: %v", err)
		}
	}

	before := TotalStats()
	d := &Dialer{Config: cfg, Store: store, NetDialer: &net.Dialer{Timeout: 10 * time.Second}}
	c, err := d.Dial("tcp", srv.addr())
	if err != nil {
		t.Fatalf("Dialer with a client certificate: %v", err)
	}
	done(c)
	conn, err := net.DialTimeout("tcp", srv.addr(), 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	cc := cfg.Clone()
	cc.ServerName = "127.0.0.1"
	tc := Client(conn, cc, store)
	if err := tc.Handshake(); err != nil {
		t.Fatalf("Client with a client certificate: %v", err)
	}
	done(tc)
	// Each client handshake signed one CertificateVerify with the comb
	// (the server's own signatures come on top).
	if d := statsDelta(TotalStats(), before); d.Signatures < 4 || d.Checks != d.Signatures {
		t.Errorf("signatures %d, checks %d: want the two client and two server signatures, all checked", d.Signatures, d.Checks)
	}
	if _, ok := cfg.Certificates[0].PrivateKey.(*key); ok {
		t.Error("the caller's Config was modified")
	}
}
