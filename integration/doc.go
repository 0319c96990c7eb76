// Package integration tests the provider with the certificate sources real
// servers use: an ACME client (golang.org/x/crypto/acme/autocert,
// github.com/caddyserver/certmagic) against a real ACME server (Pebble, run
// in the test process on loopback), and SPIFFE X509-SVIDs
// (github.com/spiffe/go-spiffe/v2) that rotate during the test.
//
// It is a module of its own so that these dependencies stay out of the
// main module. Run it with
//
//	cd integration && go test -race -count=1 ./...
package integration
