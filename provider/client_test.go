package provider

import (
	"crypto/tls"
	"crypto/x509"
	"testing"

	"github.com/p256tls/p256tls/truststore"
)

// TestClientConfigThroughStore runs real handshakes between a provider
// identity and a provider client whose chains are verified by a trust store,
// and shows that a wrong name and an unknown anchor fail the handshake.
func TestClientConfigThroughStore(t *testing.T) {
	store, err := truststore.New([]*x509.Certificate{ca(t).cert})
	if err != nil {
		t.Fatal(err)
	}
	id := newIdentity(t, "P-256", "server.test")
	srv := startServer(t, ServerConfig(NewIdentities(id)))

	cfg := HookClientConfig(nil, store)
	if !cfg.InsecureSkipVerify || cfg.VerifyConnection == nil {
		t.Fatal("HookClientConfig must pair InsecureSkipVerify with a VerifyConnection")
	}
	cfg.ServerName = "server.test"
	if _, err := handshake(srv.addr(), cfg); err != nil {
		t.Fatalf("handshake through the store: %v", err)
	}

	wrong := HookClientConfig(&tls.Config{ServerName: "other.test"}, store)
	if _, err := handshake(srv.addr(), wrong); err == nil {
		t.Fatal("a wrong server name was accepted")
	}

	// An unrelated anchor: the server's chain must be refused.
	other := newIdentity(t, "P-256", "x.test")
	otherStore, err := truststore.New([]*x509.Certificate{other.Leaf})
	if err != nil {
		t.Fatal(err)
	}
	unknown := HookClientConfig(&tls.Config{ServerName: "server.test"}, otherStore)
	if _, err := handshake(srv.addr(), unknown); err == nil {
		t.Fatal("a chain to an unknown anchor was accepted")
	}
}

// TestHookClientAuthThroughStore: a mutual-TLS server verifies the client's
// provider identity through the store, and refuses a client without one.
func TestHookClientAuthThroughStore(t *testing.T) {
	store, err := truststore.New([]*x509.Certificate{ca(t).cert})
	if err != nil {
		t.Fatal(err)
	}
	srvCfg := ServerConfig(NewIdentities(newIdentity(t, "P-256", "server.test")))
	srv := startServer(t, HookClientAuth(srvCfg, store))

	client := newIdentity(t, "P-256", "client.test")
	cfg := clientConfig("server.test")
	cfg.Certificates = []tls.Certificate{*client.Certificate()}
	if _, err := handshake(srv.addr(), cfg); err != nil {
		t.Fatalf("mutual TLS through the store: %v", err)
	}
	if _, err := handshake(srv.addr(), clientConfig("server.test")); err == nil {
		t.Fatal("a client without a certificate was accepted")
	}
}
