//go:build !boringcrypto

package truststore

// goBoringCrypto reports a Go+BoringCrypto build (see fips_boring.go).
const goBoringCrypto = false
