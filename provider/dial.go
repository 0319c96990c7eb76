package provider

import (
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
// server name. The details are truststore.Client's.
func Client(conn net.Conn, cfg *tls.Config, store *truststore.Store) *tls.Conn {
	return truststore.Client(conn, cfg, store)
}

// Dialer dials TLS connections, as tls.Dialer does, verifying each server's
// chain with its Store for the name the connection is for (Config.ServerName,
// or the address's host when that is empty). Its DialContext fits
// http.Transport's DialTLSContext. It is truststore.Dialer.
type Dialer = truststore.Dialer
