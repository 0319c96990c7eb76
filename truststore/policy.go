package truststore

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/x509"
	"encoding/asn1"
	"time"
)

// checkPath applies the per-certificate rules of the package documentation
// to path (leaf first, anchor top last), as of now: no constraint
// extension and no unhandled critical one, validity, the issuers' basic
// constraints, key usage, path length and keys, the signature algorithms,
// the FIPS 140-3 key filter, the host name and the extended key usages. It
// fills ids[i] with the key id of every issuer path[i] (i ≥ 1), and returns
// accepted or the first rule that fails. Signatures are not checked here.
func checkPath(path []*x509.Certificate, top *anchor, opts *VerifyOptions, now time.Time, ids *[maxCerts]keyID) reason {
	last := len(path) - 1
	for i, c := range path {
		if len(c.UnhandledCriticalExtensions) > 0 {
			return reasonCriticalExtension
		}
		if r := constraintExtensions(c); r != accepted {
			return r
		}
		if now.Before(c.NotBefore) || now.After(c.NotAfter) {
			return reasonValidity
		}
		if i > 0 {
			if !c.BasicConstraintsValid || !c.IsCA {
				return reasonNotCA
			}
			if c.KeyUsage != 0 && c.KeyUsage&x509.KeyUsageCertSign == 0 {
				return reasonKeyUsage
			}
			if c.MaxPathLen >= 0 && i-1 > c.MaxPathLen {
				return reasonPathLen
			}
			fam := issuerFamily(c)
			if fam == famNone {
				return reasonIssuerKey
			}
			ok := top.idOK
			if i == last {
				ids[i] = top.id
			} else {
				ids[i], ok = keyIDOf(c.PublicKey)
			}
			if !ok {
				return reasonIssuerKeyInvalid
			}
			// crypto/x509 refuses a signature algorithm of another
			// family than the issuer's key.
			if _, sf := signatureAlgorithm(path[i-1].SignatureAlgorithm); sf != fam {
				return reasonSignatureAlgorithm
			}
		}
		if i < last {
			if _, sf := signatureAlgorithm(c.SignatureAlgorithm); sf == famNone {
				return reasonSignatureAlgorithm
			}
		}
	}
	if fipsRequired() && !keyFieldsSet(path) {
		return reasonFIPS
	}
	if fipsRequired() && !fipsChainAllowed(path) {
		return reasonFIPS
	}
	if opts.DNSName != "" && path[0].VerifyHostname(opts.DNSName) != nil {
		return reasonHostname
	}
	return checkEKU(path, opts.KeyUsages)
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

// family is the kind of key a signature algorithm needs, as far as the
// fast path verifies it.
type family uint8

const (
	famNone family = iota
	famECDSA
	famRSA
)

// issuerFamily returns the family of c's public key when the fast path
// verifies signatures by it: ECDSA on P-256 or P-384, or RSA as
// rsaKeyHandled admits it, with the PublicKeyAlgorithm of that key type
// (CheckSignatureFrom refuses UnknownPublicKeyAlgorithm). Else famNone.
func issuerFamily(c *x509.Certificate) family {
	switch {
	case issuerCurve(ecdsaKey(c)) && c.PublicKeyAlgorithm == x509.ECDSA:
		return famECDSA
	case rsaKeyHandled(rsaKey(c)) && c.PublicKeyAlgorithm == x509.RSA:
		return famRSA
	}
	return famNone
}

// issuerCurve reports whether pub is an ECDSA key on a curve the fast path
// verifies: P-256 or P-384.
func issuerCurve(pub *ecdsa.PublicKey) bool {
	return pub != nil && (pub.Curve == elliptic.P256() || pub.Curve == elliptic.P384())
}

// signatureAlgorithm returns the hash and key family of the signature
// algorithms the fast path verifies: ECDSA and RSA PKCS #1 v1.5 with
// SHA-256, SHA-384 or SHA-512. Everything else (RSA-PSS, SHA-1, MD5,
// Ed25519, ...) is famNone.
func signatureAlgorithm(alg x509.SignatureAlgorithm) (crypto.Hash, family) {
	switch alg {
	case x509.ECDSAWithSHA256:
		return crypto.SHA256, famECDSA
	case x509.ECDSAWithSHA384:
		return crypto.SHA384, famECDSA
	case x509.ECDSAWithSHA512:
		return crypto.SHA512, famECDSA
	case x509.SHA256WithRSA:
		return crypto.SHA256, famRSA
	case x509.SHA384WithRSA:
		return crypto.SHA384, famRSA
	case x509.SHA512WithRSA:
		return crypto.SHA512, famRSA
	}
	return 0, famNone
}
