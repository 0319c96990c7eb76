package provider

import (
	"context"
	"crypto/tls"

	"github.com/p256tls/p256tls/truststore"
)

// ClientConfig returns a new client configuration that verifies servers'
// chains with store: see HookClientConfig.
func ClientConfig(store *truststore.Store) *tls.Config {
	return truststore.ClientConfig(store)
}

// HookClientConfig returns a clone of cfg (nil means an empty configuration)
// whose client certificates (mutual TLS) sign through the provider and,
// when store is not nil, that verifies the server's chain with store
// instead of RootCAs, on full and resumed handshakes alike, always checking
// the connection's server name for ServerAuth usage.
//
// Client certificates: every entry of cfg.Certificates goes through
// DefaultCache now (P-256 keys get their checked signer; any other
// certificate stays as it is), and cfg.GetClientCertificate is wrapped with
// WrapGetClientCertificate. With store == nil nothing else changes: the
// configuration's own verification (RootCAs, or a VerifyPeerCertificate
// such as go-spiffe's) stays in force.
//
// Verification: it sets InsecureSkipVerify, and only ever together with a
// VerifyConnection that runs store.Verify: crypto/tls then skips its own
// chain verification but calls VerifyConnection on every handshake, resumed
// ones included, and fails the handshake when it returns an error. The pair
// therefore verifies exactly as much as crypto/tls would, with
// crypto/x509's answer as the authority (see truststore.Store.Verify). A
// caller's own VerifyConnection and VerifyPeerCertificate are kept and run
// after a successful verification. The details are
// truststore.HookClientConfig's. The name checked is the connection's own:
// an empty or IP-address ServerName fails the handshake with
// truststore.ErrNoServerName; use Client or Dialer (which bind the name to
// each connection) for IP addresses.
func HookClientConfig(cfg *tls.Config, store *truststore.Store) *tls.Config {
	c := hookClientCertificates(cfg)
	if store == nil {
		return c
	}
	return truststore.HookClientConfig(c, store)
}

// hookClientCertificates returns a clone of cfg whose Certificates and
// GetClientCertificate sign through DefaultCache.
func hookClientCertificates(cfg *tls.Config) *tls.Config {
	if cfg == nil {
		return &tls.Config{}
	}
	c := cfg.Clone()
	if len(c.Certificates) > 0 {
		converted := make([]tls.Certificate, len(c.Certificates))
		for i := range c.Certificates {
			converted[i] = *defaultCache.Certificate(context.Background(), &c.Certificates[i])
		}
		c.Certificates = converted
	}
	c.GetClientCertificate = defaultCache.WrapGetClientCertificate(c.GetClientCertificate)
	return c
}

// HookClientAuth returns a clone of cfg for a server that verifies client
// certificates (mutual TLS) with store, for ClientAuth usage, on full and
// resumed handshakes. The details are truststore.HookClientAuth's. Combine it
// with HookServerConfig to serve provider identities as well.
func HookClientAuth(cfg *tls.Config, store *truststore.Store) *tls.Config {
	return truststore.HookClientAuth(cfg, store)
}
