package truststore

import (
	"crypto"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/x509"

	"github.com/p256tls/p256tls/internal/ecdsaverify/ecdsasig"
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

// strictSignature reports whether sig is a DER ECDSA-Sig-Value
// (SEQUENCE of two non-negative, minimally encoded INTEGERs and nothing
// else), by the one copy of crypto/ecdsa's rules (ecdsasig.ParseDER).
// Checking it here keeps a more lenient back end from accepting what
// crypto/x509 would refuse.
func strictSignature(sig []byte) bool {
	_, _, ok := ecdsasig.ParseDER(sig)
	return ok
}
