package provider

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"time"

	"github.com/p256tls/p256tls/truststore"
)

// Why InsecureSkipVerify is safe here. crypto/tls has exactly one switch
// that replaces its own chain verification: InsecureSkipVerify (on a client;
// ClientAuth RequireAnyClientCert on a server). Setting it alone would accept
// any certificate, so the hooks never set it without also installing a
// VerifyConnection that runs truststore.Store.Verify. crypto/tls calls VerifyConnection
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
	// Config's ServerName was empty or an IP address (trailing dots or
	// not). Test for it with errors.Is.
	ErrNoServerName = errors.New("provider: no server name to verify the server certificate against " +
		"(crypto/tls does not report an empty or IP-address ServerName to VerifyConnection); " +
		"connect with provider.Client or provider.Dialer, which bind the name to the connection, or use a DNS name")
	// ErrNilStore is the handshake error of a Config hooked with a nil
	// *truststore.Store (HookClientConfig, HookClientAuth, Client, Dialer):
	// such a Config refuses every peer instead of panicking or falling back
	// to crypto/tls's own roots.
	ErrNilStore     = errors.New("provider: the client or server Config was hooked with a nil truststore.Store; it refuses every handshake")
	errNoPeerCert   = errors.New("provider: the peer sent no certificate")
	errNilContext   = errors.New("provider: Dialer.DialContext with a nil Context")
	errHookedConfig = errors.New("provider: Client and Dialer take the application's Config, not one returned by HookClientConfig")
)

// HookClientConfig returns a clone of cfg (a new Config when cfg is nil)
// whose client certificates (mutual TLS) sign through the provider and that
// verifies the server's chain with store instead of RootCAs.
//
// Client certificates: every entry of cfg.Certificates goes through
// DefaultCache now (P-256 keys get their checked signer; any other
// certificate stays as it is), and cfg.GetClientCertificate is wrapped with
// DefaultCache's WrapGetClientCertificate. A client that keeps crypto/tls's
// own verification (RootCAs, or a VerifyPeerCertificate such as go-spiffe's)
// and only wants its certificate signed by the provider sets
// cfg.GetClientCertificate = provider.DefaultCache().WrapGetClientCertificate(cfg.GetClientCertificate)
// itself instead.
//
// Verification: it sets InsecureSkipVerify together with a VerifyConnection
// that runs store.Verify with the connection's server name and ServerAuth
// usage at cfg.Time (or now), on full and resumed handshakes alike. cfg.Time
// is read when hooking: set it on cfg, not on the returned Config. A nil
// store gives a Config whose every handshake fails with ErrNilStore.
//
// The name checked is always the one the connection was made for, read
// from ConnectionState.ServerName at each handshake, so the returned Config
// may be cloned and its ServerName changed (tls.Dial and tls.Dialer fill
// an empty one from the address). crypto/tls reports no name there when
// ServerName is empty or an IP address ("192.0.2.1", "::1", "[::1]",
// "fe80::1%eth0"), and the name at hooking time proves nothing about a
// clone's, so such a handshake fails with ErrNoServerName (test it with
// errors.Is); the hook never checks a name it was not given for the
// connection. So does an IP address with trailing dots ("127.0.0.1."),
// which crypto/tls reports without them but verifies, with them, against
// DNS SANs. To connect to an IP address, use Client (over a connection
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
// handshake). The application's own ConnectionState().VerifiedChains stays
// empty, as with any InsecureSkipVerify configuration.
//
// Encrypted Client Hello: when the server rejects ECH, crypto/tls calls
// neither VerifyConnection nor VerifyPeerCertificate; it verifies the
// certificate of the ECH public name against RootCAs, whatever
// InsecureSkipVerify says, before it returns the server's retry configs in
// an ECHRejectionError. RootCAs is therefore replaced by the store's
// anchors (crypto/tls reads it nowhere else here), so the store decides
// that certificate too, and a Config hooked with a nil store refuses it. A
// caller's EncryptedClientHelloRejectionVerify is kept and decides instead
// (crypto/tls then verifies no certificate; in Go 1.26 the callback sees
// no PeerCertificates).
//
// Sessions: crypto/tls skips its own checks of a session (its chains still
// valid now and trusted, its leaf naming the server) under
// InsecureSkipVerify. cfg.ClientSessionCache, if set (set it before
// hooking), is wrapped so that a session is offered only if the store
// accepts its chain for the connection's name at the current time, and
// removed otherwise: the handshake is then a full one, as with crypto/tls,
// and no QUIC 0-RTT data leaves for a server whose chain the store no
// longer accepts. The chain is recorded with the session
// (SessionState.Extra) when it is stored; sessions stored without it (by a
// Config not hooked) are not offered. A Config shared by connections
// records, per name, the chain it last verified: two connections to one
// name verified with different chains at once may swap records, which
// costs a full handshake or lets a stale session be offered and then
// refused, never more (docs/provider.md, "Resumption").
func HookClientConfig(cfg *tls.Config, store *truststore.Store) *tls.Config {
	c := hookClientCertificates(cfg)
	if store == nil {
		return refuseClient(c, ErrNilStore)
	}
	return hookClient(c, store, false)
}

// hookClientCertificates returns a clone of cfg (a new Config when cfg is
// nil) whose Certificates and GetClientCertificate sign through
// DefaultCache.
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

// refuseClient makes c, a private clone, fail every handshake with err
// before any caller callback runs, an ECH rejection's included.
func refuseClient(c *tls.Config, err error) *tls.Config {
	c.InsecureSkipVerify = true
	c.VerifyPeerCertificate = nil
	refuse := func(tls.ConnectionState) error { return err }
	c.VerifyConnection = refuse
	c.EncryptedClientHelloRejectionVerify = refuse
	c.ClientSessionCache = nil // no session offered (no QUIC 0-RTT data sent)
	return c
}

// hookClient hooks c, already a clone. With bound, every handshake is
// checked against c.ServerName as it is now (c must then serve exactly one
// connection); without, against ConnectionState.ServerName.
func hookClient(c *tls.Config, s *truststore.Store, bound bool) *tls.Config {
	c.InsecureSkipVerify = true
	// When a server rejects ECH, crypto/tls calls neither
	// VerifyPeerCertificate nor VerifyConnection: it verifies the public
	// name's certificate against RootCAs (the system roots when nil),
	// whatever InsecureSkipVerify says, before it returns the retry configs
	// (unless the caller's EncryptedClientHelloRejectionVerify decides). The
	// store's anchors decide there too. RootCAs is read nowhere else under
	// InsecureSkipVerify, so a bound Config (one connection, its ECH list
	// known now) gets the pool, a copy made per call, only when it uses ECH.
	if !bound || c.EncryptedClientHelloConfigList != nil {
		c.RootCAs = s.CertPool()
	}
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
			chains, err := verifyChains(s, certs, truststore.VerifyOptions{DNSName: boundName, CurrentTime: now(timeFn)})
			if err != nil {
				return err
			}
			return userVPC(raw, chains)
		}
	}
	var sessions *sessionCache
	if c.ClientSessionCache != nil {
		sessions = newSessionCache(c.ClientSessionCache, s, timeFn, boundName)
		c.ClientSessionCache = sessions
	}
	c.VerifyConnection = clientVerifier(s, boundName, userVC, timeFn, sessions)
	return c
}

// clientVerifier is the client's VerifyConnection, checking boundName when
// it is set and the connection's ServerName otherwise; see hookClient. A
// chain it accepts is recorded in sessions, if not nil, for the sessions
// of the connection. Not inlined, so that every closure it returns has the
// code clientVerifierPC names.
//
//go:noinline
func clientVerifier(s *truststore.Store, boundName string, userVC func(tls.ConnectionState) error, timeFn func() time.Time, sessions *sessionCache) func(tls.ConnectionState) error {
	return func(cs tls.ConnectionState) error {
		if len(cs.PeerCertificates) == 0 {
			return errNoPeerCert
		}
		// The bound name as crypto/tls verifies it: c.ServerName as set,
		// not the SNI form in cs.ServerName.
		name := cs.ServerName
		if boundName != "" {
			name = boundName
		} else if !cs.ECHAccepted && net.ParseIP(name) != nil {
			// cs.ServerName is the SNI form, which is never an address
			// (crypto/tls sends none) unless ServerName was one with
			// trailing dots: "127.0.0.1." is sent as "127.0.0.1" and
			// verified, by crypto/tls, against DNS SANs. Which one the
			// Config had is out of reach. (With ECH accepted, cs.ServerName
			// is ServerName as set, and verified as such.)
			return ErrNoServerName
		}
		if name == "" {
			return ErrNoServerName
		}
		chains, err := verifyChains(s, cs.PeerCertificates, truststore.VerifyOptions{
			DNSName:     name,
			KeyUsages:   []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
			CurrentTime: now(timeFn),
		})
		if err != nil {
			return err
		}
		if err := verifiedConnection(userVC, cs, chains); err != nil {
			return err
		}
		if sessions != nil {
			sessions.verified(name, cs.PeerCertificates)
		}
		return nil
	}
}

// verifyChains returns s.Verify(certs, opts)'s chains, or its error wrapped
// in the *tls.CertificateVerificationError that crypto/tls returns for a
// refused chain.
func verifyChains(s *truststore.Store, certs []*x509.Certificate, opts truststore.VerifyOptions) ([][]*x509.Certificate, error) {
	chains, err := s.Verify(certs, opts)
	if err != nil {
		return nil, &tls.CertificateVerificationError{UnverifiedCertificates: certs, Err: err}
	}
	return chains, nil
}

// verifiedConnection ends a hooked VerifyConnection whose verification
// passed with chains: it runs the caller's userVC, if any, on cs with
// VerifiedChains set to chains, and returns its error.
func verifiedConnection(userVC func(tls.ConnectionState) error, cs tls.ConnectionState, chains [][]*x509.Certificate) error {
	if userVC == nil {
		return nil
	}
	cs.VerifiedChains = chains
	return userVC(cs)
}

// HookClientAuth returns a clone of cfg (a new Config when cfg is nil) for a
// server that verifies client certificates (mutual TLS) with store, for
// ClientAuth usage, on full and resumed handshakes. Combine it with
// HookServerConfig or ServerConfig to serve provider identities as well. A
// nil store gives a Config whose every handshake fails with ErrNilStore.
//
// A cfg.ClientAuth of VerifyClientCertIfGiven or RequestClientCert makes the
// certificate optional (verified when sent); any other value requires one,
// NoClientCert (the zero value) included: asking for client certificates is
// what hooking does. crypto/tls's own verification is replaced by
// RequireAnyClientCert (or RequestClientCert) plus a VerifyConnection
// running s.Verify. ClientCAs, if nil, becomes the store's anchors, so the
// CertificateRequest names them. The caller's VerifyConnection and
// VerifyPeerCertificate are kept and run after a successful verification
// with the store's chains.
//
// Configs returned by the caller's GetConfigForClient are hooked the same
// way, except one whose ClientAuth is NoClientCert while cfg's is not: that
// host has chosen not to ask for client certificates, and is served as
// returned (no CertificateRequest). A returned NoClientCert equal to cfg's
// own (a clone of cfg, say) cannot be told from an inherited default and
// means "required", like cfg's; set cfg.ClientAuth explicitly (e.g.
// RequireAndVerifyClientCert) for hosts to opt out. With a nil store every
// host is refused.
func HookClientAuth(cfg *tls.Config, store *truststore.Store) *tls.Config {
	c := cloneConfig(cfg)
	outer := c.ClientAuth // before hooking
	c = hookServer(c, store)
	if get := c.GetConfigForClient; get != nil {
		c.GetConfigForClient = func(hello *tls.ClientHelloInfo) (*tls.Config, error) {
			sub, err := get(hello)
			if sub == nil || err != nil {
				return sub, err
			}
			if sub.ClientAuth == tls.NoClientCert && outer != tls.NoClientCert && store != nil {
				return sub, nil // this host asks for no client certificate
			}
			sub = sub.Clone()
			sub.GetConfigForClient = nil
			return hookServer(sub, store), nil
		}
	}
	return c
}

// hookServer hooks c, already a clone, to verify client certificates with
// s; a nil s makes every handshake fail with ErrNilStore.
func hookServer(c *tls.Config, s *truststore.Store) *tls.Config {
	if s == nil {
		c.ClientAuth = tls.RequestClientCert // no verification by crypto/tls: the refusal below is the error
		c.VerifyPeerCertificate = nil
		c.VerifyConnection = func(tls.ConnectionState) error { return ErrNilStore }
		return c
	}
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
	opts := func() truststore.VerifyOptions {
		return truststore.VerifyOptions{KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}, CurrentTime: now(timeFn)}
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
			chains, err := verifyChains(s, certs, opts())
			if err != nil {
				return err
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
			chains, err = verifyChains(s, cs.PeerCertificates, opts())
			if err != nil {
				return err
			}
		}
		return verifiedConnection(userVC, cs, chains)
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
