package truststore

import (
	"bytes"
	"crypto/x509"
	"encoding/asn1"
)

// buildPath builds, in pbuf, the one path crypto/x509 could build from
// chain (leaf first, anchor last) and returns it with its anchor, or the
// first reason the fast path declines: the leaf is an anchor, two
// candidates share a subject, an issuer name has no candidate or more than
// one, the path loops or grows past maxCerts, or the anchor was sent and is
// not self-issued. chain holds non-nil parsed certificates, at most
// maxCerts of them.
func (s *Store) buildPath(chain []*x509.Certificate, pbuf *[maxCerts]*x509.Certificate) ([]*x509.Certificate, *anchor, reason) {
	leaf := chain[0]
	if s.anchorCopy(leaf) != nil {
		// crypto/x509 returns [[leaf]], whatever the struct's other fields.
		return nil, nil, reasonLeafIsAnchor
	}

	// The candidates crypto/x509 would consider: the sent certificates,
	// less faithful copies of anchors (see sentAnchor) and exact repeats (a
	// CertPool keeps one copy).
	var ibuf [maxCerts]*x509.Certificate
	inter := ibuf[:0]
	for _, c := range chain[1:] {
		if s.sentAnchor(c) || containsRaw(inter, c) {
			continue
		}
		inter = append(inter, c)
	}
	for i, c := range inter {
		if bytes.Equal(c.RawSubject, leaf.RawSubject) {
			return nil, nil, reasonSharedSubject
		}
		for _, d := range inter[:i] {
			if bytes.Equal(c.RawSubject, d.RawSubject) {
				return nil, nil, reasonSharedSubject
			}
		}
	}

	// Walk up by issuer name; every name must have exactly one candidate.
	path := append(pbuf[:0], leaf)
	var top *anchor
	for cur := leaf; top == nil; {
		as := s.bySubject[string(cur.RawIssuer)]
		n := len(as)
		var next *x509.Certificate
		for _, c := range inter {
			if bytes.Equal(c.RawSubject, cur.RawIssuer) {
				n++
				next = c
			}
		}
		switch {
		case n == 0:
			return nil, nil, reasonNoIssuer
		case n > 1:
			return nil, nil, reasonAmbiguousIssuer
		}
		if len(path) == maxCerts {
			return nil, nil, reasonTooMany
		}
		if len(as) == 1 {
			top = as[0]
			if bytes.Equal(top.cert.RawSubject, leaf.RawSubject) {
				return nil, nil, reasonSharedSubject
			}
			// crypto/x509 also tries a sent copy of the anchor as an
			// intermediate and climbs on by its issuer's name; only
			// when that name is the anchor's own does the climb stop
			// at once (the anchor is already in the chain).
			if !bytes.Equal(top.cert.RawIssuer, top.cert.RawSubject) && containsRaw(chain[1:], top.cert) {
				return nil, nil, reasonSentAnchorIssued
			}
			path = append(path, top.cert)
			break
		}
		for _, p := range path {
			if p == next {
				return nil, nil, reasonLoop
			}
		}
		path = append(path, next)
		cur = next
	}
	return path, top, accepted
}

// anchorCopy returns the anchor whose DER is c.Raw, if any: the anchor
// crypto/x509's CertPool sees in c, whatever c's other fields hold.
func (s *Store) anchorCopy(c *x509.Certificate) *anchor {
	return s.byRaw[string(c.Raw)]
}

// sentAnchor reports whether the sent certificate c is a copy of an anchor
// that crypto/x509 can never put in a chain other than the anchor's own:
// byte-identical DER (anchorCopy), and the fields by which crypto/x509
// climbs from it (RawIssuer), verifies with it (PublicKey, when the
// anchor's is a key keyIDOf names: ECDSA or RSA) and recognises it as
// already in the chain (RawSubject, RawSubjectPublicKeyInfo, the subject
// alternative name extension) equal to the anchor's. A struct that differs
// in those is an ordinary candidate; one that shares the anchor's name then
// makes the issuer ambiguous.
func (s *Store) sentAnchor(c *x509.Certificate) bool {
	a := s.anchorCopy(c)
	if a == nil || !bytes.Equal(c.RawSubject, a.cert.RawSubject) {
		return false
	}
	if a.idOK {
		// crypto/x509 checks signatures under the copy's own key.
		if id, ok := keyIDOf(c.PublicKey); !ok || id != a.id {
			return false
		}
	}
	return bytes.Equal(c.RawIssuer, a.cert.RawIssuer) &&
		bytes.Equal(c.RawSubjectPublicKeyInfo, a.cert.RawSubjectPublicKeyInfo) &&
		sameSAN(c, a.cert)
}

var oidSubjectAltName = asn1.ObjectIdentifier{2, 5, 29, 17}

// sameSAN reports whether crypto/x509's alreadyInChain sees the same
// subject alternative names in a and b: both without the extension, or the
// first one of each with equal values.
func sameSAN(a, b *x509.Certificate) bool {
	va, oka := sanValue(a)
	vb, okb := sanValue(b)
	return oka == okb && bytes.Equal(va, vb)
}

func sanValue(c *x509.Certificate) ([]byte, bool) {
	for _, e := range c.Extensions {
		if e.Id.Equal(oidSubjectAltName) {
			return e.Value, true
		}
	}
	return nil, false
}

func containsRaw(list []*x509.Certificate, c *x509.Certificate) bool {
	for _, d := range list {
		if bytes.Equal(d.Raw, c.Raw) {
			return true
		}
	}
	return false
}
