package truststore

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/x509"

	"github.com/p256tls/p256tls/internal/ecdsasig"
)

// verifyPath checks the signature of every link of path, from the anchor
// top down; ids[i] is the key id of issuer path[i] (see checkPath).
func (s *Store) verifyPath(path []*x509.Certificate, top *anchor, ids *[maxCerts]keyID) reason {
	last := len(path) - 1
	for i := last - 1; i >= 0; i-- {
		var issuerTable keyTable
		if i+1 == last {
			issuerTable = top.table
		}
		if r := s.verifyLink(path[i], path[i+1], ids[i+1], issuerTable); r != accepted {
			return r
		}
	}
	return accepted
}

// verifyLink checks the signature on child by issuer, whose key is one
// issuerFamily admits, valid, with id its keyIDOf, and of the family of
// child's signature algorithm (see checkPath): RSA by rsa.VerifyPKCS1v15;
// ECDSA with the issuer's anchor table when it has one, else a hot table,
// else ordinary verification. Successes are remembered in the link cache;
// P-256 and P-384 keys that keep verifying may earn a hot table (see
// hotCache).
func (s *Store) verifyLink(child, issuer *x509.Certificate, id keyID, table keyTable) reason {
	lk := linkKey{issuer: id, child: sha256.Sum256(child.Raw)}
	if _, ok := s.links.Get(lk); ok {
		s.linkHits.Add(1)
		return accepted
	}
	h, fam := signatureAlgorithm(child.SignatureAlgorithm)
	if fam == famECDSA && !strictSignature(child.Signature) {
		return reasonSignatureEncoding
	}
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
	var ok bool
	if fam == famRSA {
		ok = verifyRSA(rsaKey(issuer), h, digest, child.Signature)
	} else {
		ok = s.verifyECDSA(ecdsaKey(issuer), id, table, digest, child.Signature)
	}
	if !ok {
		return reasonSignature
	}
	s.links.Put(lk, struct{}{})
	return accepted
}

// verifyECDSA verifies sig over digest under pub, a valid P-256 or P-384
// key named id, with table when it is not nil, else the table of an
// anchor with that key, else a hot table, else ordinary verification, after
// which the key's use is counted towards a hot table.
func (s *Store) verifyECDSA(pub *ecdsa.PublicKey, id keyID, table keyTable, digest, sig []byte) bool {
	if table == nil {
		table = s.byKey[id]
	}
	switch {
	case table != nil:
		return table.VerifyASN1(digest, sig)
	case !tableCurve(pub):
		return verifyOnce(pub, digest, sig)
	}
	if t := s.hot.lookup(id); t != nil {
		return t.VerifyASN1(digest, sig)
	}
	ok := verifyOnce(pub, digest, sig)
	if ok {
		s.hot.note(id, pub)
	}
	return ok
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
