package truststore

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"reflect"
	"strings"
	"time"
)

// Why InsecureSkipVerify is safe here. crypto/tls has exactly one switch
// that replaces its own chain verification: InsecureSkipVerify (on a client;
// ClientAuth RequireAnyClientCert on a server). Setting it alone would accept
// any certificate, so the hooks never set it without also installing a
// VerifyConnection that runs Store.Verify. crypto/tls calls VerifyConnection
// after every handshake, full or resumed, before the connection is usable,
// and a non-nil error aborts the handshake with a bad_certificate alert. The
// peer's CertificateVerify signature is still checked by crypto/tls itself
// under the leaf's key, so the leaf that Store.Verify checks is the key the
// peer proved it holds. The client hook refuses a connection whose server
// name it cannot see, so the hostname is always checked; on a resumed
// connection the chain from the session is verified again, so expiry and
// hostname are re-checked as well.
//
// Which name. crypto/tls verifies the server against the ServerName of the
// Config the connection was made with. Inside VerifyConnection that Config
// is out of reach: the callback is shared by every Clone of the hooked
// Config, and ConnectionState.ServerName is the SNI value, which crypto/tls
// leaves empty for an IP address (bracketed, with a zone or not). A name
// remembered when hooking is therefore no evidence of the name dialed (a
// per-host dialer clones the Config and sets ServerName to each address), so
// HookClientConfig checks ConnectionState.ServerName or nothing. Client and
// Dialer hook a private clone per connection, whose closure holds the one
// name that connection is for.

var (
	// ErrNoServerName is the handshake error of a hooked client Config
	// whose connection has no server name VerifyConnection can see: the
	// Config's ServerName was empty or an IP address.
	ErrNoServerName = errors.New("truststore: no server name to verify the server certificate against " +
		"(crypto/tls does not report an empty or IP-address ServerName to VerifyConnection); " +
		"connect with truststore.Client or truststore.Dialer, which bind the name to the connection, or use a DNS name")
	errNoPeerCert   = errors.New("truststore: the peer sent no certificate")
	errNilStore     = errors.New("truststore: Client or Dialer with a nil Store")
	errNilContext   = errors.New("truststore: Dialer.DialContext with a nil Context")
	errHookedConfig = errors.New("truststore: Client and Dialer take the application's Config, not one returned by HookClientConfig or ClientConfig")
)

// HookClientConfig returns a clone of cfg (a new Config when cfg is nil)
// that verifies the server's chain with s instead of RootCAs: it sets
// InsecureSkipVerify together with a VerifyConnection that runs s.Verify
// with the connection's server name and ServerAuth usage at cfg.Time (or
// now), on full and resumed handshakes alike. cfg.Time is read when
// hooking: set it on cfg, not on the returned Config.
//
// The name checked is always the one the connection was made for, read
// from ConnectionState.ServerName at each handshake, so the returned Config
// may be cloned and its ServerName changed (tls.Dial and tls.Dialer fill
// an empty one from the address). crypto/tls reports no name there when
// ServerName is empty or an IP address ("192.0.2.1", "::1", "[::1]",
// "fe80::1%eth0"), and the name at hooking time proves nothing about a
// clone's, so such a handshake fails with ErrNoServerName (test it with
// errors.Is); the hook never checks a name it was not given for the
// connection. To connect to an IP address, use Client (over a connection
// you dialed) or Dialer, which hook each connection with its own name;
// QUIC clients must use a DNS name. One spelling differs from crypto/tls:
// for a name that ends in two or more dots, which crypto/x509 matches only
// literally, the name checked is the SNI value, which has them removed.
//
// Callbacks already in cfg are kept, never overwritten: the caller's
// VerifyConnection runs after a successful verification, with
// ConnectionState.VerifiedChains set to the store's chains; the caller's
// VerifyPeerCertificate runs, on full handshakes, with the chains the store
// verified without a host name (that callback cannot see the name; the
// hostname is checked by VerifyConnection, which runs after it and on every
// handshake). RootCAs is ignored. The application's own
// ConnectionState().VerifiedChains stays empty, as with any
// InsecureSkipVerify configuration.
func HookClientConfig(cfg *tls.Config, s *Store) *tls.Config {
	if s == nil {
		panic("truststore: HookClientConfig with a nil Store")
	}
	return hookClient(cloneConfig(cfg), s, false)
}

// ClientConfig returns a new client Config that verifies servers with s
// (see HookClientConfig).
func ClientConfig(s *Store) *tls.Config { return HookClientConfig(nil, s) }

// Client returns a new TLS client side of conn, as tls.Client does, that
// verifies the server's chain with s for the name cfg.ServerName (a DNS
// name or an IP address, checked as crypto/x509's VerifyHostname checks
// it) and ServerAuth usage, on full and resumed handshakes. cfg is cloned
// and hooked for this connection alone, so the name is bound to it; cfg is
// not modified and may be reused. An empty ServerName fails the handshake
// with ErrNoServerName (tls.Client refuses it too); Dialer fills it from
// the address. cfg is the application's Config, not one returned by
// HookClientConfig (such a Config fails the handshake); its callbacks run
// as HookClientConfig describes, with VerifyPeerCertificate's chains
// verified for the bound name. A nil s fails the handshake; nothing
// panics. RootCAs and InsecureSkipVerify are ignored.
func Client(conn net.Conn, cfg *tls.Config, s *Store) *tls.Conn {
	c, _ := bindClient(cloneConfig(cfg), s)
	return tls.Client(conn, c)
}

// Dialer dials TLS connections, as tls.Dialer does, whose server
// certificates are verified with Store: each connection is hooked with its
// own name (see Client). Its DialContext fits http.Transport's
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
	// Store verifies the servers' chains; it must be set.
	Store *Store
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
	c := cloneConfig(d.Config)
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

// bindClient hooks c, a private clone, for one connection to c.ServerName.
// A nil s, an empty ServerName or an already hooked c gives a Config whose
// handshakes fail before any caller callback runs, and that error.
func bindClient(c *tls.Config, s *Store) (*tls.Config, error) {
	var refuse error
	switch {
	case s == nil:
		refuse = errNilStore
	case c.ServerName == "":
		refuse = ErrNoServerName
	case c.VerifyConnection != nil && reflect.ValueOf(c.VerifyConnection).Pointer() == clientVerifierPC:
		refuse = errHookedConfig
	}
	if refuse != nil {
		c.InsecureSkipVerify = true
		c.VerifyPeerCertificate = nil
		c.VerifyConnection = func(tls.ConnectionState) error { return refuse }
		return c, refuse
	}
	return hookClient(c, s, true), nil
}

// clientVerifierPC identifies the VerifyConnection closures hookClient
// installs (every closure of one function literal shares its code).
var clientVerifierPC = reflect.ValueOf(clientVerifier(nil, "", nil, nil)).Pointer()

// hookClient hooks c, already a clone. With bound, every handshake is
// checked against c.ServerName as it is now (c must then serve exactly one
// connection); without, against ConnectionState.ServerName.
func hookClient(c *tls.Config, s *Store, bound bool) *tls.Config {
	c.InsecureSkipVerify = true
	userVPC, userVC, timeFn := c.VerifyPeerCertificate, c.VerifyConnection, c.Time
	// Unbound, nothing of c.ServerName is kept: a Clone shares the
	// callbacks but not the name.
	boundName := ""
	if bound {
		boundName = c.ServerName
	}
	if userVPC != nil {
		// VerifyPeerCertificate cannot see the connection: unless the name
		// is bound, verify without one (VerifyConnection checks it next).
		c.VerifyPeerCertificate = func(raw [][]byte, _ [][]*x509.Certificate) error {
			certs, err := parseRaw(raw)
			if err != nil {
				return err
			}
			chains, err := s.Verify(certs, VerifyOptions{DNSName: boundName, CurrentTime: now(timeFn)})
			if err != nil {
				return &tls.CertificateVerificationError{UnverifiedCertificates: certs, Err: err}
			}
			return userVPC(raw, chains)
		}
	}
	c.VerifyConnection = clientVerifier(s, boundName, userVC, timeFn)
	return c
}

// clientVerifier is the client's VerifyConnection, checking boundName when
// it is set and the connection's ServerName otherwise; see hookClient. Not
// inlined, so that every closure it returns has the code clientVerifierPC
// names.
//
//go:noinline
func clientVerifier(s *Store, boundName string, userVC func(tls.ConnectionState) error, timeFn func() time.Time) func(tls.ConnectionState) error {
	return func(cs tls.ConnectionState) error {
		if len(cs.PeerCertificates) == 0 {
			return errNoPeerCert
		}
		// The bound name as crypto/tls verifies it: c.ServerName as set,
		// not the SNI form in cs.ServerName.
		name := cs.ServerName
		if boundName != "" {
			name = boundName
		}
		if name == "" {
			return ErrNoServerName
		}
		chains, err := s.Verify(cs.PeerCertificates, VerifyOptions{
			DNSName:     name,
			KeyUsages:   []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
			CurrentTime: now(timeFn),
		})
		if err != nil {
			return &tls.CertificateVerificationError{UnverifiedCertificates: cs.PeerCertificates, Err: err}
		}
		if userVC != nil {
			cs.VerifiedChains = chains
			return userVC(cs)
		}
		return nil
	}
}

// HookClientAuth returns a clone of cfg (a new Config when cfg is nil) for a
// server that verifies client certificates with s, for ClientAuth usage,
// on full and resumed handshakes.
//
// A cfg.ClientAuth of VerifyClientCertIfGiven or RequestClientCert makes the
// certificate optional (verified when sent); any other value requires one.
// crypto/tls's own verification is replaced by RequireAnyClientCert (or
// RequestClientCert) plus a VerifyConnection running s.Verify. ClientCAs, if
// nil, becomes the store's anchors, so the CertificateRequest names them.
// The caller's VerifyConnection and VerifyPeerCertificate are kept and run
// after a successful verification with the store's chains, and configs
// returned by the caller's GetConfigForClient are hooked the same way.
func HookClientAuth(cfg *tls.Config, s *Store) *tls.Config {
	if s == nil {
		panic("truststore: HookClientAuth with a nil Store")
	}
	c := hookServer(cloneConfig(cfg), s)
	if get := c.GetConfigForClient; get != nil {
		c.GetConfigForClient = func(hello *tls.ClientHelloInfo) (*tls.Config, error) {
			sub, err := get(hello)
			if sub == nil || err != nil {
				return sub, err
			}
			sub = sub.Clone()
			sub.GetConfigForClient = nil
			return hookServer(sub, s), nil
		}
	}
	return c
}

func hookServer(c *tls.Config, s *Store) *tls.Config {
	optional := c.ClientAuth == tls.VerifyClientCertIfGiven || c.ClientAuth == tls.RequestClientCert
	if optional {
		c.ClientAuth = tls.RequestClientCert
	} else {
		c.ClientAuth = tls.RequireAnyClientCert
	}
	if c.ClientCAs == nil {
		c.ClientCAs = s.CertPool()
	}
	userVPC, userVC, timeFn := c.VerifyPeerCertificate, c.VerifyConnection, c.Time
	opts := func() VerifyOptions {
		return VerifyOptions{KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}, CurrentTime: now(timeFn)}
	}
	if userVPC != nil {
		c.VerifyPeerCertificate = func(raw [][]byte, _ [][]*x509.Certificate) error {
			if len(raw) == 0 {
				if optional {
					return userVPC(raw, nil)
				}
				return errNoPeerCert
			}
			certs, err := parseRaw(raw)
			if err != nil {
				return err
			}
			chains, err := s.Verify(certs, opts())
			if err != nil {
				return &tls.CertificateVerificationError{UnverifiedCertificates: certs, Err: err}
			}
			return userVPC(raw, chains)
		}
	}
	c.VerifyConnection = func(cs tls.ConnectionState) error {
		var chains [][]*x509.Certificate
		if len(cs.PeerCertificates) == 0 {
			if !optional {
				return errNoPeerCert
			}
		} else {
			var err error
			chains, err = s.Verify(cs.PeerCertificates, opts())
			if err != nil {
				return &tls.CertificateVerificationError{UnverifiedCertificates: cs.PeerCertificates, Err: err}
			}
		}
		if userVC != nil {
			cs.VerifiedChains = chains
			return userVC(cs)
		}
		return nil
	}
	return c
}

func cloneConfig(cfg *tls.Config) *tls.Config {
	if cfg == nil {
		return &tls.Config{}
	}
	return cfg.Clone()
}

func now(timeFn func() time.Time) time.Time {
	if timeFn != nil {
		return timeFn()
	}
	return time.Now()
}

func parseRaw(raw [][]byte) ([]*x509.Certificate, error) {
	if len(raw) == 0 {
		return nil, errNoPeerCert
	}
	certs := make([]*x509.Certificate, len(raw))
	for i, der := range raw {
		c, err := x509.ParseCertificate(der)
		if err != nil {
			return nil, err
		}
		certs[i] = c
	}
	return certs, nil
}
