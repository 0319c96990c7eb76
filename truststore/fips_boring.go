//go:build boringcrypto

package truststore

// goBoringCrypto reports a Go+BoringCrypto build, whose crypto/tls filters
// chains by BoringCrypto's rule whenever crypto/tls/fipsonly is imported
// (see fipsRequired). It does not depend on crypto/boring.Enabled: without
// cgo BoringCrypto is not in use, yet crypto/tls/fipsonly can be imported
// and crypto/tls then filters by the same rule.
const goBoringCrypto = true
