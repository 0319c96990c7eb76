package provider

import (
	"context"
	"crypto/tls"
	"net"
	"reflect"
	"strings"

	"github.com/p256tls/p256tls/truststore"
)

// Client returns a new TLS client side of conn, as tls.Client does, that
// verifies the server's chain with store for the name cfg.ServerName (a DNS
// name or an IP address, checked as crypto/x509's VerifyHostname checks
// it) and ServerAuth usage, on full and resumed handshakes. cfg is cloned
// and hooked for this connection alone, so the name is bound to it; cfg is
// not modified and may be reused. An empty ServerName fails the handshake
// with ErrNoServerName (tls.Client refuses it too); Dialer fills it from
// the address. cfg is the application's Config, not one returned by
// HookClientConfig (such a Config fails the handshake); its callbacks run
// as HookClientConfig describes, with VerifyPeerCertificate's chains
// verified for the bound name. Client certificates (cfg.Certificates,
// GetClientCertificate) sign through the provider as with
// HookClientConfig. A nil store fails the handshake with ErrNilStore;
// nothing panics. RootCAs and InsecureSkipVerify are ignored; a server's
// rejection of Encrypted Client Hello is verified with the store's anchors,
// and sessions from cfg.ClientSessionCache are offered only if the store
// accepts their chains for the bound name now, as HookClientConfig
// describes (the chain recorded is this connection's own). Use Client (or
// Dialer) to connect to an IP address.
func Client(conn net.Conn, cfg *tls.Config, store *truststore.Store) *tls.Conn {
	c, _ := bindClient(hookClientCertificates(cfg), store)
	return tls.Client(conn, c)
}

// Dialer dials TLS connections, as tls.Dialer does, whose server
// certificates are verified with Store: each connection is hooked with its
// own name, and client certificates sign through the provider (see
// Client). Its DialContext fits http.Transport's
// DialTLSContext. A Dialer may be used concurrently; its fields must not be
// changed while it is in use.
type Dialer struct {
	// NetDialer dials the underlying connection; nil means a zero
	// net.Dialer. Its Timeout and Deadline bound the handshake too.
	NetDialer *net.Dialer
	// Config is the application's client Config (nil means an empty one),
	// not one returned by HookClientConfig. When its ServerName is empty,
	// the host part of the address is used, as tls.Dial does: everything
	// before the last colon, so "[::1]:443" is checked as "[::1]".
	Config *tls.Config
	// Store verifies the servers' chains; it must be set (a nil Store is
	// ErrNilStore, before any dialing).
	Store *truststore.Store
}

// Dial connects to addr on the named network and runs the TLS handshake;
// see DialContext.
func (d *Dialer) Dial(network, addr string) (net.Conn, error) {
	return d.DialContext(context.Background(), network, addr)
}

// DialContext connects to addr on the named network and runs the TLS
// handshake, both bounded by ctx. The returned net.Conn is a *tls.Conn.
// On an error nothing is left open. A nil ctx, a nil Store, a hooked Config
// or a name that is empty after filling are errors before any dialing.
func (d *Dialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	if ctx == nil {
		return nil, errNilContext
	}
	c := hookClientCertificates(d.Config)
	if c.ServerName == "" {
		c.ServerName = addrHost(addr)
	}
	c, err := bindClient(c, d.Store)
	if err != nil {
		return nil, err
	}
	nd := d.NetDialer
	if nd == nil {
		nd = &net.Dialer{}
	}
	if nd.Timeout != 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, nd.Timeout)
		defer cancel()
	}
	if !nd.Deadline.IsZero() {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, nd.Deadline)
		defer cancel()
	}
	raw, err := nd.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	conn := tls.Client(raw, c)
	if err := conn.HandshakeContext(ctx); err != nil {
		raw.Close()
		return nil, err
	}
	return conn, nil
}

// addrHost is the part of addr before its last colon (all of it when it
// has none), as tls.Dial takes the server name from the address.
func addrHost(addr string) string {
	if i := strings.LastIndex(addr, ":"); i >= 0 {
		return addr[:i]
	}
	return addr
}

// clientVerifierPC identifies the VerifyConnection closures hookClient
// installs (every closure of one function literal shares its code).
var clientVerifierPC = reflect.ValueOf(clientVerifier(nil, "", nil, nil, nil)).Pointer()

// bindClient hooks c, a private clone, for one connection to c.ServerName.
// A nil s, an empty ServerName or an already hooked c gives a Config whose
// handshakes fail before any caller callback runs, and that error.
func bindClient(c *tls.Config, s *truststore.Store) (*tls.Config, error) {
	var refuse error
	switch {
	case s == nil:
		refuse = ErrNilStore
	case c.ServerName == "":
		refuse = ErrNoServerName
	case c.VerifyConnection != nil && reflect.ValueOf(c.VerifyConnection).Pointer() == clientVerifierPC:
		refuse = errHookedConfig
	}
	if refuse != nil {
		return refuseClient(c, refuse), refuse
	}
	return hookClient(c, s, true), nil
}
