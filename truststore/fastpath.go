package truststore

import (
	"crypto/x509"
	"time"
)

// This file is the fast path's outline; its steps live in files named for
// them: path.go builds the one path crypto/x509 could build, policy.go
// applies the per-certificate rules, signatures.go checks the signatures
// (link cache, anchor and hot tables, one-shot verification), parsed.go
// decides whether a struct is as x509.ParseCertificate leaves it, and
// keyid.go names keys for the caches.

// maxCerts bounds both the chain a peer sends and the path the fast path
// builds (anchor included).
const maxCerts = 8

// fastPath decides chain by the whitelist of the package documentation. It
// returns the single verified path (leaf first, anchor last) and accepted,
// or the first reason it does not handle the chain, in which case the
// caller must ask crypto/x509.
func (s *Store) fastPath(chain []*x509.Certificate, opts *VerifyOptions, now time.Time) ([]*x509.Certificate, reason) {
	if len(chain) > maxCerts {
		return nil, reasonTooMany
	}
	for _, c := range chain {
		if c == nil || !fromParser(c) {
			return nil, reasonNotParsed
		}
	}
	var pbuf [maxCerts]*x509.Certificate
	path, top, r := s.buildPath(chain, &pbuf)
	if r != accepted {
		return nil, r
	}
	// ids[i] names the key of issuer path[i].
	var ids [maxCerts]keyID
	if r := checkPath(path, top, opts, now, &ids); r != accepted {
		return nil, r
	}
	if r := s.verifyPath(path, top, &ids); r != accepted {
		return nil, r
	}
	return append([]*x509.Certificate(nil), path...), accepted
}
