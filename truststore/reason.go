package truststore

// reason is why the fast path handed a chain to crypto/x509 (or accepted,
// the zero value, when it did not).
type reason uint8

const (
	accepted reason = iota
	reasonNotParsed
	reasonTooMany
	reasonLeafIsAnchor
	reasonSharedSubject
	reasonNoIssuer
	reasonAmbiguousIssuer
	reasonLoop
	reasonNameConstraints
	reasonPolicyMappings
	reasonPolicyConstraints
	reasonInhibitAnyPolicy
	reasonCriticalExtension
	reasonSignatureAlgorithm
	reasonIssuerKey
	reasonValidity
	reasonNotCA
	reasonKeyUsage
	reasonPathLen
	reasonHostname
	reasonEKU
	reasonEKUUnhandled
	reasonFIPS
	reasonSentAnchorIssued
	reasonIssuerKeyInvalid
	reasonSignatureEncoding
	reasonSignature
	numReasons
)

var reasonNames = [numReasons]string{
	accepted:                 "accepted",
	reasonNotParsed:          "not-parsed",
	reasonTooMany:            "too-many-certificates",
	reasonLeafIsAnchor:       "leaf-is-anchor",
	reasonSharedSubject:      "shared-subject",
	reasonNoIssuer:           "no-issuer",
	reasonAmbiguousIssuer:    "ambiguous-issuer",
	reasonLoop:               "loop",
	reasonNameConstraints:    "name-constraints",
	reasonPolicyMappings:     "policy-mappings",
	reasonPolicyConstraints:  "policy-constraints",
	reasonInhibitAnyPolicy:   "inhibit-any-policy",
	reasonCriticalExtension:  "unhandled-critical-extension",
	reasonSignatureAlgorithm: "signature-algorithm",
	reasonIssuerKey:          "issuer-key",
	reasonValidity:           "validity",
	reasonNotCA:              "issuer-not-ca",
	reasonKeyUsage:           "issuer-key-usage",
	reasonPathLen:            "path-length",
	reasonHostname:           "hostname",
	reasonEKU:                "extended-key-usage",
	reasonEKUUnhandled:       "extended-key-usage-unhandled",
	reasonFIPS:               "fips",
	reasonSentAnchorIssued:   "sent-anchor-not-self-issued",
	reasonIssuerKeyInvalid:   "issuer-key-invalid",
	reasonSignatureEncoding:  "signature-encoding",
	reasonSignature:          "signature",
}

func (r reason) String() string {
	if r < numReasons {
		return reasonNames[r]
	}
	return "unknown"
}
