package provider

import (
	"bytes"
	"crypto/tls"
	"errors"
	"fmt"
)

// ErrCallbackSet is returned by HookServerConfig when the configuration
// already has a callback that the provider would have to replace or that
// would bypass it. The provider never overwrites a caller's callback.
var ErrCallbackSet = errors.New("provider: the tls.Config already sets a callback the provider needs")

// ServerConfig returns a new server configuration that serves ids: each
// handshake chooses its identity with ids.GetCertificate, so reloads take
// effect on the next handshake. Everything else is crypto/tls's defaults;
// set fields on the result as usual (NextProtos, ClientAuth, ...). The
// result works with crypto/tls, net/http and quic-go.
func ServerConfig(ids *Identities) *tls.Config {
	return &tls.Config{GetCertificate: ids.GetCertificate}
}

// HookServerConfig returns a clone of cfg whose handshakes are signed by the
// provider; cfg itself is not modified (nil means an empty configuration).
//
// With ids != nil, the clone gets GetCertificate = ids.GetCertificate; cfg
// must not already set GetCertificate or GetConfigForClient (ErrCallbackSet)
// nor hold Certificates (serve them through ids instead).
//
// With ids == nil, every entry of cfg.Certificates is replaced by the
// provider identity built from it (NewIdentity: P-256 keys get their table,
// other keys keep their signer), and crypto/tls keeps choosing among them
// exactly as before; NameToCertificate, if set, is remapped. cfg must then
// not set GetCertificate or GetConfigForClient, whose certificates would
// bypass the provider (ErrCallbackSet).
func HookServerConfig(cfg *tls.Config, ids *Identities) (*tls.Config, error) {
	if cfg == nil {
		cfg = &tls.Config{}
	} else {
		cfg = cfg.Clone()
	}
	if cfg.GetConfigForClient != nil {
		return nil, fmt.Errorf("%w: GetConfigForClient is set (the configurations it returns would bypass the provider; hook them instead)", ErrCallbackSet)
	}
	if cfg.GetCertificate != nil {
		return nil, fmt.Errorf("%w: GetCertificate is set (return provider identities from it, or pass them here instead)", ErrCallbackSet)
	}
	if ids != nil {
		if len(cfg.Certificates) > 0 || cfg.NameToCertificate != nil {
			return nil, errors.New("provider: the tls.Config holds Certificates and identities were given too; serve them all through the Identities, or pass nil identities to convert the Certificates")
		}
		cfg.GetCertificate = ids.GetCertificate
		return cfg, nil
	}
	if len(cfg.Certificates) == 0 {
		return nil, errors.New("provider: nothing to hook: the tls.Config has no Certificates and no identities were given")
	}
	old := cfg.Certificates
	converted := make([]tls.Certificate, len(old))
	for i := range old {
		id, err := NewIdentity(old[i])
		if err != nil {
			return nil, fmt.Errorf("provider: Certificates[%d]: %w", i, unprefix(err))
		}
		converted[i] = *id.Certificate()
	}
	cfg.Certificates = converted
	if cfg.NameToCertificate != nil {
		remapped := make(map[string]*tls.Certificate, len(cfg.NameToCertificate))
		for name, c := range cfg.NameToCertificate {
			i := indexOfCertificate(old, c)
			if i < 0 {
				return nil, fmt.Errorf("provider: NameToCertificate[%q] is not one of Certificates; it would bypass the provider", name)
			}
			remapped[name] = &converted[i]
		}
		cfg.NameToCertificate = remapped
	}
	return cfg, nil
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
