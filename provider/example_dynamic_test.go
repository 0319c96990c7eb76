package provider_test

import (
	"crypto/tls"

	"github.com/p256tls/p256tls/provider"
)

// Any GetCertificate: the certificates it returns sign through the
// provider, one table per key however many certificates it makes. The
// process's cache is shared with the hooks; NewCache makes a private one.
func ExampleCache_WrapGetCertificate() {
	load := func(hello *tls.ClientHelloInfo) (*tls.Certificate, error) {
		// Your own source: a secret store, a database, a file per name...
		c, err := tls.LoadX509KeyPair("/etc/tls/"+hello.ServerName+".pem", "/etc/tls/"+hello.ServerName+".key")
		return &c, err
	}
	cfg := &tls.Config{GetCertificate: provider.DefaultCache().WrapGetCertificate(load)}
	_ = cfg
}
