package integration_test

import (
	"log"
	"net/http"

	"golang.org/x/crypto/acme/autocert"

	"github.com/p256tls/p256tls/provider"
)

// An HTTPS server whose certificates come from Let's Encrypt through
// autocert, with every handshake signed by the checked comb signer. (Not
// run: it serves on :443 and talks to Let's Encrypt.)
func Example_autocert() {
	m := &autocert.Manager{
		Prompt:     autocert.AcceptTOS,
		HostPolicy: autocert.HostWhitelist("example.com"),
		Cache:      autocert.DirCache("/var/lib/acme"),
	}
	cfg, err := provider.HookServerConfig(m.TLSConfig()) // the one line
	if err != nil {
		log.Fatal(err)
	}
	hello := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("hello\n")) })
	srv := &http.Server{Addr: ":443", Handler: hello, TLSConfig: cfg}
	log.Fatal(srv.ListenAndServeTLS("", ""))
}
