package truststore

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
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
// peer proved it holds. The client hook refuses a connection with no
// ServerName, so the hostname is always checked; on a resumed connection the
// chain from the session is verified again, so expiry and hostname are
// re-checked as well.

var (
	errNoServerName = errors.New("truststore: no ServerName to verify the server certificate against")
	errNoPeerCert   = errors.New("truststore: the peer sent no certificate")
)

// HookClientConfig returns a clone of cfg (a new Config when cfg is nil)
// that verifies the server's chain with s instead of RootCAs: it sets
// InsecureSkipVerify together with a VerifyConnection that runs s.Verify
// with the connection's ServerName and ServerAuth usage at cfg.Time (or
// now), on full and resumed handshakes alike. A connection without a
// server name fails: the name is the connection's ServerName (crypto/tls's
// Dial fills it from the address), or, for an IP address, which crypto/tls
// does not report there, cfg.ServerName, which must then be set. cfg.Time
// is read when hooking: set it on cfg, not on the returned Config.
//
// Callbacks already in cfg are kept, never overwritten: the caller's
// VerifyConnection runs after a successful verification, with
// ConnectionState.VerifiedChains set to the store's chains; the caller's
// VerifyPeerCertificate runs with the chains verified by the store (against
// cfg.ServerName when set; the hostname is then checked in any case by
// VerifyConnection). RootCAs is ignored. The application's own
// ConnectionState().VerifiedChains stays empty, as with any
// InsecureSkipVerify configuration.
func HookClientConfig(cfg *tls.Config, s *Store) *tls.Config {
	if s == nil {
		panic("truststore: HookClientConfig with a nil Store")
	}
	c := cloneConfig(cfg)
	c.InsecureSkipVerify = true
	userVPC, userVC, timeFn := c.VerifyPeerCertificate, c.VerifyConnection, c.Time
	serverName := c.ServerName
	if userVPC != nil {
		c.VerifyPeerCertificate = func(raw [][]byte, _ [][]*x509.Certificate) error {
			certs, err := parseRaw(raw)
			if err != nil {
				return err
			}
			chains, err := s.Verify(certs, VerifyOptions{DNSName: serverName, CurrentTime: now(timeFn)})
			if err != nil {
				return &tls.CertificateVerificationError{UnverifiedCertificates: certs, Err: err}
			}
			return userVPC(raw, chains)
		}
	}
	c.VerifyConnection = func(cs tls.ConnectionState) error {
		if len(cs.PeerCertificates) == 0 {
			return errNoPeerCert
		}
		name := cs.ServerName
		if name == "" {
			// crypto/tls leaves ConnectionState.ServerName empty when the
			// configured name is an IP address.
			name = serverName
		}
		if name == "" {
			return errNoServerName
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
	return c
}

// ClientConfig returns a new client Config that verifies servers with s
// (see HookClientConfig).
func ClientConfig(s *Store) *tls.Config { return HookClientConfig(nil, s) }

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
