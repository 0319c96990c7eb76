package provider

import (
	"context"
	"crypto/tls"
	"net"

	"github.com/p256tls/p256tls/truststore"
)

// Client returns a new TLS client side of conn, as tls.Client does, that
// verifies the server's chain with store for the name cfg.ServerName (a DNS
// name or an IP address) and ServerAuth usage, on full and resumed
// handshakes. cfg is cloned and hooked for this connection alone, so the
// name checked is the one this connection is for. Use it (or Dialer) to
// connect to an IP address: a Config from HookClientConfig fails such
// handshakes, because crypto/tls does not tell its verifier an IP-address
// server name. Client certificates (cfg.Certificates, GetClientCertificate)
// sign through the provider as with HookClientConfig. cfg is not modified.
// The verification details are truststore.Client's.
func Client(conn net.Conn, cfg *tls.Config, store *truststore.Store) *tls.Conn {
	return truststore.Client(conn, hookClientCertificates(cfg), store)
}

// Dialer dials TLS connections, as tls.Dialer does, verifying each server's
// chain with Store for the name the connection is for (Config.ServerName,
// or the address's host when that is empty), with client certificates
// signed through the provider (see Client). Its DialContext fits
// http.Transport's DialTLSContext. A Dialer may be used concurrently; its
// fields must not be changed while it is in use.
type Dialer struct {
	// NetDialer dials the underlying connection; nil means a zero
	// net.Dialer. Its Timeout and Deadline bound the handshake too.
	NetDialer *net.Dialer
	// Config is the application's client Config (nil means an empty one),
	// not one returned by HookClientConfig.
	Config *tls.Config
	// Store verifies the servers' chains; it must be set.
	Store *truststore.Store
}

// Dial connects to addr on the named network and runs the TLS handshake;
// see DialContext.
func (d *Dialer) Dial(network, addr string) (net.Conn, error) {
	return d.DialContext(context.Background(), network, addr)
}

// DialContext connects to addr on the named network and runs the TLS
// handshake, both bounded by ctx; see truststore.Dialer.DialContext. The
// returned net.Conn is a *tls.Conn. On an error nothing is left open.
func (d *Dialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	td := truststore.Dialer{NetDialer: d.NetDialer, Config: hookClientCertificates(d.Config), Store: d.Store}
	return td.DialContext(ctx, network, addr)
}
