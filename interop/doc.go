// Package interop holds the interoperability matrix of p256tls against
// independent TLS stacks (OpenSSL, GnuTLS, NSS, Java, wolfSSL, mbed TLS,
// Botan, rustls, ngtcp2, Go, quic-go, ...). The matrix is a test behind the
// build tag interop, so that go test ./... stays fast:
//
//	go test -tags interop ./interop/
//
// See docs/interop.md for the cases, the environment variables and the
// latest results. The package has no non-test code.
package interop
