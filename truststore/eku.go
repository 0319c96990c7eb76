package truststore

import "crypto/x509"

// checkEKU applies crypto/x509's extended key usage rule to path (leaf
// first, anchor last): an empty request means ServerAuth; a request that
// includes ExtKeyUsageAny accepts any chain; otherwise, walking from the
// anchor down to the leaf, every certificate that lists usages (known or
// not) and does not list anyExtendedKeyUsage removes the requested usages
// it does not list, and the chain fails once none is left.
//
// Requests outside 0..63 and certificates listing a Server Gated Crypto
// usage are not handled (crypto/x509 has treated those as ServerAuth in
// some versions): the chain goes to crypto/x509.
func checkEKU(path []*x509.Certificate, requested []x509.ExtKeyUsage) reason {
	var want uint64
	if len(requested) == 0 {
		want = 1 << x509.ExtKeyUsageServerAuth
	}
	for _, u := range requested {
		if u == x509.ExtKeyUsageAny {
			return accepted
		}
		if u < 0 || u >= 64 {
			return reasonEKUUnhandled
		}
		want |= 1 << u
	}
	for i := len(path) - 1; i >= 0; i-- {
		c := path[i]
		if len(c.ExtKeyUsage) == 0 && len(c.UnknownExtKeyUsage) == 0 {
			continue // no extended key usage: no restriction
		}
		var has uint64
		anyUsage := false
		for _, u := range c.ExtKeyUsage {
			switch {
			case u == x509.ExtKeyUsageAny:
				anyUsage = true
			case u == x509.ExtKeyUsageNetscapeServerGatedCrypto, u == x509.ExtKeyUsageMicrosoftServerGatedCrypto:
				return reasonEKUUnhandled
			case u >= 0 && u < 64:
				has |= 1 << u
			}
		}
		if anyUsage {
			continue
		}
		want &= has
		if want == 0 {
			return reasonEKU
		}
	}
	return accepted
}
