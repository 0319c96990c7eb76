package provider

import (
	"crypto/tls"
	"strings"
)

// Choosing an identity of the set for one handshake: by the client's
// server name (SNI) on a server, by the server's request on a client.

// GetCertificate chooses the identity for a handshake, for
// tls.Config.GetCertificate. The order is: identities whose name is exactly
// the requested server name, then those matching it with a wildcard
// (*.example.com), preferring among them one whose key and signature
// algorithms the client supports; failing a name match, the first identity
// the client supports; failing that, the first identity (the default).
//
// The returned certificate is shared and must not be modified.
func (s *Identities) GetCertificate(hello *tls.ClientHelloInfo) (*tls.Certificate, error) {
	sel := s.current()
	if sel == nil || len(sel.ids) == 0 {
		return nil, errNoIdentities
	}
	name := strings.ToLower(strings.TrimSuffix(hello.ServerName, "."))
	var exact, wild []*Identity
	if name != "" {
		exact = sel.names[name]
		if i := strings.IndexByte(name, '.'); i > 0 {
			wild = sel.names["*"+name[i:]]
		}
	}
	for _, group := range [2][]*Identity{exact, wild} {
		for _, id := range group {
			if hello.SupportsCertificate(&id.cert) == nil {
				return &id.cert, nil
			}
		}
	}
	if len(exact) > 0 {
		return &exact[0].cert, nil
	}
	if len(wild) > 0 {
		return &wild[0].cert, nil
	}
	for _, id := range sel.ids {
		if hello.SupportsCertificate(&id.cert) == nil {
			return &id.cert, nil
		}
	}
	return &sel.ids[0].cert, nil
}

// GetClientCertificate chooses, for a client's
// tls.Config.GetClientCertificate (mutual TLS), the first identity the
// server accepts; if none, it sends no certificate and lets the server
// decide.
func (s *Identities) GetClientCertificate(cri *tls.CertificateRequestInfo) (*tls.Certificate, error) {
	sel := s.current()
	if sel != nil {
		for _, id := range sel.ids {
			if cri.SupportsCertificate(&id.cert) == nil {
				return &id.cert, nil
			}
		}
	}
	return &tls.Certificate{}, nil
}
