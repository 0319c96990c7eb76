package provider

import (
	"crypto/tls"

	"github.com/p256tls/p256tls/truststore"
)

// ClientConfig returns a new client configuration that verifies servers'
// chains with store: see HookClientConfig.
func ClientConfig(store *truststore.Store) *tls.Config {
	return truststore.ClientConfig(store)
}

// HookClientConfig returns a clone of cfg (nil means an empty configuration)
// that verifies the server's chain with store instead of RootCAs, on full
// and resumed handshakes alike, always checking the connection's server name
// for ServerAuth usage.
//
// It sets InsecureSkipVerify, and only ever together with a VerifyConnection
// that runs store.Verify: crypto/tls then skips its own chain verification
// but calls VerifyConnection on every handshake, resumed ones included, and
// fails the handshake when it returns an error. The pair therefore verifies
// exactly as much as crypto/tls would, with crypto/x509's answer as the
// authority (see truststore.Store.Verify). A caller's own VerifyConnection
// and VerifyPeerCertificate are kept and run after a successful verification.
// The details are truststore.HookClientConfig's.
func HookClientConfig(cfg *tls.Config, store *truststore.Store) *tls.Config {
	return truststore.HookClientConfig(cfg, store)
}

// HookClientAuth returns a clone of cfg for a server that verifies client
// certificates (mutual TLS) with store, for ClientAuth usage, on full and
// resumed handshakes. The details are truststore.HookClientAuth's. Combine it
// with HookServerConfig to serve provider identities as well.
func HookClientAuth(cfg *tls.Config, store *truststore.Store) *tls.Config {
	return truststore.HookClientAuth(cfg, store)
}
