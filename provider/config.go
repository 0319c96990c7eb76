package provider

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
)

var (
	// ErrNothingToHook is HookServerConfig's error for a configuration
	// with no Certificates, GetCertificate or GetConfigForClient.
	ErrNothingToHook = errors.New("provider: nothing to hook: the tls.Config has no Certificates, GetCertificate or GetConfigForClient")
	// ErrUnlistedCertificate is wrapped by HookServerConfig's error for a
	// NameToCertificate entry that is not one of Certificates: serving it
	// would bypass the provider.
	ErrUnlistedCertificate = errors.New("provider: a NameToCertificate entry is not one of Certificates (it would bypass the provider)")
)

// ServerConfig returns a new server configuration that serves ids: each
// handshake chooses its identity with ids.GetCertificate, so reloads take
// effect on the next handshake. Everything else is crypto/tls's defaults;
// set fields on the result as usual (NextProtos, ClientAuth, ...). The
// result works with crypto/tls, net/http and quic-go.
func ServerConfig(ids *Identities) *tls.Config {
	return &tls.Config{GetCertificate: ids.GetCertificate}
}

// HookServerConfig returns a clone of cfg whose handshakes are signed by the
// provider; cfg itself is not modified (nil means an empty configuration,
// which has nothing to hook). The clone keeps every certificate source of
// cfg and converts each:
//   - every entry of cfg.Certificates is replaced by the provider identity
//     built from it (NewIdentity: P-256 keys get their table, now; other
//     keys keep their signer), and crypto/tls keeps choosing among them
//     exactly as before; NameToCertificate, if set, is remapped;
//   - cfg.GetCertificate (an ACME client's, a SPIFFE source's, your own) is
//     wrapped with DefaultCache().WrapGetCertificate: the certificates it
//     returns sign through DefaultCache's checked signers, one per key;
//   - cfg.GetConfigForClient is wrapped so that each configuration it
//     returns is served as a clone whose Certificates (and
//     NameToCertificate) go through DefaultCache and whose GetCertificate
//     is wrapped; the returned configuration itself is not modified.
//
// At least one of the three must be set (else ErrNothingToHook); a
// NameToCertificate entry that is not one of Certificates is an error
// wrapping ErrUnlistedCertificate, and a certificate NewIdentity refuses an
// error wrapping NewIdentity's. Callbacks are wrapped, never dropped: the
// caller's functions are still called for every handshake.
//
// To serve Identities from an existing configuration instead, set
// cfg.GetCertificate = ids.GetCertificate (or start from ServerConfig(ids)).
func HookServerConfig(cfg *tls.Config) (*tls.Config, error) {
	if cfg == nil {
		cfg = &tls.Config{}
	} else {
		cfg = cfg.Clone()
	}
	if len(cfg.Certificates) == 0 && cfg.GetCertificate == nil && cfg.GetConfigForClient == nil {
		return nil, ErrNothingToHook
	}
	if err := convertCertificates(cfg); err != nil {
		return nil, err
	}
	cfg.GetCertificate = defaultCache.WrapGetCertificate(cfg.GetCertificate)
	if get := cfg.GetConfigForClient; get != nil {
		cfg.GetConfigForClient = func(hello *tls.ClientHelloInfo) (*tls.Config, error) {
			sub, err := get(hello)
			if sub == nil || err != nil {
				return sub, err
			}
			return defaultCache.hookConfig(hello.Context(), sub), nil
		}
	}
	return cfg, nil
}

// convertCertificates replaces cfg.Certificates by provider identities and
// remaps cfg.NameToCertificate.
func convertCertificates(cfg *tls.Config) error {
	if len(cfg.Certificates) == 0 {
		return nil
	}
	old := cfg.Certificates
	converted := make([]tls.Certificate, len(old))
	for i := range old {
		id, err := NewIdentity(old[i])
		if err != nil {
			return fmt.Errorf("provider: Certificates[%d]: %w", i, unprefix(err))
		}
		converted[i] = *id.Certificate()
	}
	cfg.Certificates = converted
	if cfg.NameToCertificate != nil {
		remapped := make(map[string]*tls.Certificate, len(cfg.NameToCertificate))
		for name, c := range cfg.NameToCertificate {
			i := indexOfCertificate(old, c)
			if i < 0 {
				return fmt.Errorf("%w: NameToCertificate[%q]", ErrUnlistedCertificate, name)
			}
			remapped[name] = &converted[i]
		}
		cfg.NameToCertificate = remapped
	}
	return nil
}

// hookConfig returns a clone of sub (a configuration returned by a
// GetConfigForClient) whose certificates sign through the cache: its
// Certificates and NameToCertificate are converted (certificates the cache
// cannot convert stay as they are), its GetCertificate is wrapped. ctx
// bounds waits for builds.
func (c *Cache) hookConfig(ctx context.Context, sub *tls.Config) *tls.Config {
	sub = sub.Clone()
	if len(sub.Certificates) > 0 {
		old := sub.Certificates
		converted := make([]tls.Certificate, len(old))
		for i := range old {
			converted[i] = *c.Certificate(ctx, &old[i])
		}
		sub.Certificates = converted
		if sub.NameToCertificate != nil {
			remapped := make(map[string]*tls.Certificate, len(sub.NameToCertificate))
			for name, cert := range sub.NameToCertificate {
				if i := indexOfCertificate(old, cert); i >= 0 {
					remapped[name] = &converted[i]
				} else if cert != nil {
					remapped[name] = c.Certificate(ctx, cert)
				}
			}
			sub.NameToCertificate = remapped
		}
	}
	sub.GetCertificate = c.WrapGetCertificate(sub.GetCertificate)
	return sub
}

// indexOfCertificate finds c in certs, by address or else by leaf and key.
func indexOfCertificate(certs []tls.Certificate, c *tls.Certificate) int {
	for i := range certs {
		if &certs[i] == c {
			return i
		}
	}
	if c == nil || len(c.Certificate) == 0 {
		return -1
	}
	for i := range certs {
		if len(certs[i].Certificate) > 0 && bytes.Equal(certs[i].Certificate[0], c.Certificate[0]) &&
			publicKeysEqual(signerPublic(certs[i].PrivateKey), signerPublic(c.PrivateKey)) {
			return i
		}
	}
	return -1
}
