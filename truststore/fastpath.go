package truststore

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/fips140"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/x509"
	"encoding/asn1"
	"time"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"

	"github.com/p256tls/p256tls/internal/ecdsaverify/ecdsasig"
)

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
	leaf := chain[0]
	if s.anchorCopy(leaf) != nil {
		return nil, reasonLeafIsAnchor
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
			return nil, reasonSharedSubject
		}
		for _, d := range inter[:i] {
			if bytes.Equal(c.RawSubject, d.RawSubject) {
				return nil, reasonSharedSubject
			}
		}
	}

	// Walk up by issuer name; every name must have exactly one candidate.
	var pbuf [maxCerts]*x509.Certificate
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
			return nil, reasonNoIssuer
		case n > 1:
			return nil, reasonAmbiguousIssuer
		}
		if len(path) == maxCerts {
			return nil, reasonTooMany
		}
		if len(as) == 1 {
			top = as[0]
			if bytes.Equal(top.cert.RawSubject, leaf.RawSubject) {
				return nil, reasonSharedSubject
			}
			// crypto/x509 also tries a sent copy of the anchor as an
			// intermediate and climbs on by its issuer's name; only
			// when that name is the anchor's own does the climb stop
			// at once (the anchor is already in the chain).
			if !bytes.Equal(top.cert.RawIssuer, top.cert.RawSubject) && containsRaw(chain[1:], top.cert) {
				return nil, reasonSentAnchorIssued
			}
			path = append(path, top.cert)
			break
		}
		for _, p := range path {
			if p == next {
				return nil, reasonLoop
			}
		}
		path = append(path, next)
		cur = next
	}

	// Per-certificate rules. ids[i] names the key of issuer path[i].
	last := len(path) - 1
	var ids [maxCerts]keyID
	for i, c := range path {
		if len(c.UnhandledCriticalExtensions) > 0 {
			return nil, reasonCriticalExtension
		}
		if r := constraintExtensions(c); r != accepted {
			return nil, r
		}
		if now.Before(c.NotBefore) || now.After(c.NotAfter) {
			return nil, reasonValidity
		}
		if i > 0 {
			if !c.BasicConstraintsValid || !c.IsCA {
				return nil, reasonNotCA
			}
			if c.KeyUsage != 0 && c.KeyUsage&x509.KeyUsageCertSign == 0 {
				return nil, reasonKeyUsage
			}
			if c.MaxPathLen >= 0 && i-1 > c.MaxPathLen {
				return nil, reasonPathLen
			}
			if !issuerCurve(ecdsaKey(c)) {
				return nil, reasonIssuerKey
			}
			if c.PublicKeyAlgorithm != x509.ECDSA {
				return nil, reasonIssuerKey // CheckSignatureFrom refuses Unknown
			}
			ok := top.idOK
			if i == last {
				ids[i] = top.id
			} else {
				ids[i], ok = keyIDOf(ecdsaKey(c))
			}
			if !ok {
				return nil, reasonIssuerKeyInvalid
			}
		}
		if i < last {
			if _, ok := signatureHash(c.SignatureAlgorithm); !ok {
				return nil, reasonSignatureAlgorithm
			}
		}
	}
	if fips140.Enabled() && !keyFieldsSet(path) {
		return nil, reasonFIPS
	}
	if fips140.Enabled() && !fipsChainAllowed(path) {
		return nil, reasonFIPS
	}
	if opts.DNSName != "" && leaf.VerifyHostname(opts.DNSName) != nil {
		return nil, reasonHostname
	}
	if r := checkEKU(path, opts.KeyUsages); r != accepted {
		return nil, r
	}

	// Signatures, from the anchor down.
	for i := last - 1; i >= 0; i-- {
		var issuerTable keyTable
		if i+1 == last {
			issuerTable = top.table
		}
		if r := s.verifyLink(path[i], path[i+1], ids[i+1], issuerTable); r != accepted {
			return nil, r
		}
	}
	return append([]*x509.Certificate(nil), path...), accepted
}

// anchorCopy returns the anchor byte-identical to c, if any.
func (s *Store) anchorCopy(c *x509.Certificate) *anchor {
	for _, a := range s.bySubject[string(c.RawSubject)] {
		if bytes.Equal(a.cert.Raw, c.Raw) {
			return a
		}
	}
	return nil
}

// sentAnchor reports whether the sent certificate c is a copy of an anchor
// that crypto/x509 can never put in a chain other than the anchor's own:
// byte-identical DER, and the fields by which crypto/x509 climbs from it
// (RawIssuer), verifies with it (PublicKey, when the anchor's is ECDSA) and
// recognises it as already in the chain (RawSubject, found by anchorCopy,
// RawSubjectPublicKeyInfo, the subject alternative name extension) equal to
// the anchor's. A struct that differs in those is an ordinary candidate;
// one that shares the anchor's name then makes the issuer ambiguous.
func (s *Store) sentAnchor(c *x509.Certificate) bool {
	a := s.anchorCopy(c)
	if a == nil {
		return false
	}
	if a.idOK {
		// crypto/x509 checks signatures under the copy's own key.
		if id, ok := keyIDOf(ecdsaKey(c)); !ok || id != a.id {
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

var (
	oidNameConstraints   = asn1.ObjectIdentifier{2, 5, 29, 30}
	oidPolicyMappings    = asn1.ObjectIdentifier{2, 5, 29, 33}
	oidPolicyConstraints = asn1.ObjectIdentifier{2, 5, 29, 36}
	oidInhibitAnyPolicy  = asn1.ObjectIdentifier{2, 5, 29, 54}
)

// constraintExtensions refuses a certificate that carries name constraints,
// policy mappings, policy constraints or inhibitAnyPolicy, whether as an
// extension or in the parsed fields crypto/x509 acts on.
func constraintExtensions(c *x509.Certificate) reason {
	if hasExtension(c, oidNameConstraints) || nameConstraintFields(c) {
		return reasonNameConstraints
	}
	if hasExtension(c, oidPolicyMappings) || len(c.PolicyMappings) > 0 {
		return reasonPolicyMappings
	}
	if hasExtension(c, oidPolicyConstraints) || policyConstraintFields(c) {
		return reasonPolicyConstraints
	}
	if hasExtension(c, oidInhibitAnyPolicy) || c.InhibitAnyPolicy > 0 || c.InhibitAnyPolicyZero {
		return reasonInhibitAnyPolicy
	}
	return accepted
}

func hasExtension(c *x509.Certificate, oid asn1.ObjectIdentifier) bool {
	for _, e := range c.Extensions {
		if e.Id.Equal(oid) {
			return true
		}
	}
	return false
}

func nameConstraintFields(c *x509.Certificate) bool {
	return len(c.PermittedDNSDomains)+len(c.ExcludedDNSDomains)+len(c.PermittedIPRanges)+
		len(c.ExcludedIPRanges)+len(c.PermittedEmailAddresses)+len(c.ExcludedEmailAddresses)+
		len(c.PermittedURIDomains)+len(c.ExcludedURIDomains) > 0
}

func policyConstraintFields(c *x509.Certificate) bool {
	return c.RequireExplicitPolicy > 0 || c.RequireExplicitPolicyZero || c.InhibitPolicyMapping > 0 || c.InhibitPolicyMappingZero
}

// issuerCurve reports whether pub is an ECDSA key on a curve the fast path
// verifies: P-256 or P-384.
func issuerCurve(pub *ecdsa.PublicKey) bool {
	return pub != nil && (pub.Curve == elliptic.P256() || pub.Curve == elliptic.P384())
}

// signatureHash returns the hash of the ECDSA signature algorithms the fast
// path verifies.
func signatureHash(alg x509.SignatureAlgorithm) (crypto.Hash, bool) {
	switch alg {
	case x509.ECDSAWithSHA256:
		return crypto.SHA256, true
	case x509.ECDSAWithSHA384:
		return crypto.SHA384, true
	case x509.ECDSAWithSHA512:
		return crypto.SHA512, true
	}
	return 0, false
}

// DER AlgorithmIdentifiers of ecdsa-with-SHA256/384/512 (parameters absent).
var (
	algECDSASHA256 = []byte{0x30, 0x0a, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x02}
	algECDSASHA384 = []byte{0x30, 0x0a, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x03}
	algECDSASHA512 = []byte{0x30, 0x0a, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x04}
)

// fromParser reports whether c looks as x509.ParseCertificate leaves it:
// Raw is the DER of a certificate whose TBS and signature are exactly
// RawTBSCertificate and Signature, and whose algorithm is the one in
// SignatureAlgorithm when that is an ECDSA one. The link cache is keyed by a
// hash of Raw, so this is what makes a cache hit mean the same as verifying
// RawTBSCertificate and Signature again.
func fromParser(c *x509.Certificate) bool {
	if len(c.Raw) == 0 || len(c.RawTBSCertificate) == 0 {
		return false
	}
	in := cryptobyte.String(c.Raw)
	var cert, tbs, alg cryptobyte.String
	var sig asn1.BitString
	if !in.ReadASN1(&cert, cbasn1.SEQUENCE) || !in.Empty() ||
		!cert.ReadASN1Element(&tbs, cbasn1.SEQUENCE) ||
		!cert.ReadASN1Element(&alg, cbasn1.SEQUENCE) ||
		!cert.ReadASN1BitString(&sig) || !cert.Empty() {
		return false
	}
	if !bytes.Equal(tbs, c.RawTBSCertificate) || sig.BitLength%8 != 0 || !bytes.Equal(sig.Bytes, c.Signature) {
		return false
	}
	switch c.SignatureAlgorithm {
	case x509.ECDSAWithSHA256:
		return bytes.Equal(alg, algECDSASHA256)
	case x509.ECDSAWithSHA384:
		return bytes.Equal(alg, algECDSASHA384)
	case x509.ECDSAWithSHA512:
		return bytes.Equal(alg, algECDSASHA512)
	}
	return true // not a fast-path algorithm: signatureHash refuses it
}

// strictSignature reports whether sig is a DER ECDSA-Sig-Value
// (SEQUENCE of two non-negative, minimally encoded INTEGERs and nothing
// else), by the one copy of crypto/ecdsa's rules (ecdsasig.ParseDER).
// Checking it here keeps a more lenient back end from accepting what
// crypto/x509 would refuse.
func strictSignature(sig []byte) bool {
	_, _, ok := ecdsasig.ParseDER(sig)
	return ok
}

// keyIDOf names an ECDSA public key by the SHA-256 of its uncompressed
// SEC 1 encoding, as ecdsa.PublicKey.Bytes makes it. Bytes refuses what
// crypto/ecdsa would refuse to verify with (a curve other than P-224,
// P-256, P-384 or P-521, negative or oversized coordinates, coordinates
// not reduced modulo p, a point off the curve), so two keys get one id only
// when they are the same valid key; ok is false for any other key, nil
// fields included, and then no cache may be consulted for it.
func keyIDOf(pub *ecdsa.PublicKey) (id keyID, ok bool) {
	if pub == nil || pub.X == nil || pub.Y == nil {
		return keyID{}, false
	}
	enc, err := pub.Bytes()
	if err != nil {
		return keyID{}, false
	}
	return sha256.Sum256(enc), true
}

// verifyLink checks the signature on child by issuer, whose key is P-256
// or P-384 and valid with id its keyIDOf, with the issuer's anchor table
// when it has one, else a hot table, else ordinary verification. Successes
// are remembered in the link cache; P-256 keys that keep verifying may earn
// a hot table (see hotCache).
func (s *Store) verifyLink(child, issuer *x509.Certificate, id keyID, table keyTable) reason {
	pub := ecdsaKey(issuer)
	lk := linkKey{issuer: id, child: sha256.Sum256(child.Raw)}
	if _, ok := s.links.Get(lk); ok {
		s.linkHits.Add(1)
		return accepted
	}
	if !strictSignature(child.Signature) {
		return reasonSignatureEncoding
	}
	h, _ := signatureHash(child.SignatureAlgorithm)
	var dbuf [64]byte
	var digest []byte
	switch h {
	case crypto.SHA256:
		d := sha256.Sum256(child.RawTBSCertificate)
		digest = append(dbuf[:0], d[:]...)
	case crypto.SHA384:
		d := sha512.Sum384(child.RawTBSCertificate)
		digest = append(dbuf[:0], d[:]...)
	default:
		d := sha512.Sum512(child.RawTBSCertificate)
		digest = append(dbuf[:0], d[:]...)
	}
	if table == nil {
		table = s.byKey[id]
	}
	var ok bool
	switch {
	case table != nil:
		ok = table.VerifyASN1(digest, child.Signature)
	case !isP256(pub):
		ok = verifyOnce(pub, digest, child.Signature)
	default:
		if t := s.hot.lookup(id); t != nil {
			ok = t.VerifyASN1(digest, child.Signature)
		} else {
			ok = verifyOnce(pub, digest, child.Signature)
			if ok {
				s.hot.note(id, pub)
			}
		}
	}
	if !ok {
		return reasonSignature
	}
	s.links.Put(lk, struct{}{})
	return accepted
}
