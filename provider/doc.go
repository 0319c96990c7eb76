// Package provider plugs p256tls into crypto/tls and quic-go: a server (or a
// client presenting a certificate) gets comb signing with a verify-after-sign
// check on every handshake by handing over a *tls.Config built here, with no
// other change to its code.
//
// An Identity is a certificate chain and its key. NewIdentity takes what
// tls.X509KeyPair returns; LoadIdentity reads PEM files. A P-256 key gets
// its precomputed table once, at NewIdentity, and signs through
// sign.Signer, which verifies each signature against the table before
// releasing it: a fault during signing fails that handshake instead of
// leaking the key. Any other key (RSA, P-384, P-521, Ed25519, a hardware
// crypto.Signer) keeps its standard signer, so every certificate works.
//
// Identities is the set a server serves, chosen by SNI like crypto/tls
// chooses among Certificates, reloadable from its files (Reload, Watch)
// without disturbing handshakes in flight. ServerConfig makes a new
// *tls.Config from it; HookServerConfig converts an existing one.
//
//	ids, err := provider.LoadIdentities(provider.Files{CertFile: "cert.pem", KeyFile: "key.pem"})
//	if err != nil {
//		log.Fatal(err)
//	}
//	srv := &http.Server{Addr: ":443", Handler: mux, TLSConfig: provider.ServerConfig(ids)}
//	log.Fatal(srv.ListenAndServeTLS("", ""))
//
// The same config works with quic-go (quic.ListenAddr, http3.Server).
//
// Certificates that arrive at run time (golang.org/x/crypto/acme/autocert,
// github.com/caddyserver/certmagic, go-spiffe X509-SVIDs, any
// GetCertificate or GetClientCertificate) get the same checked signing
// through HookServerConfig(cfg), WrapGetCertificate or
// WrapGetClientCertificate: a bounded Cache builds
// one signer and table per key, not per certificate or handshake.
//
//	cfg, err := provider.HookServerConfig(manager.TLSConfig()) // autocert, certmagic, go-spiffe
//
// Counters (Stats) are kept per key and summed per Identities and for the
// process (TotalStats). Importing the package has no side effects; publish
// the process view with package expvar yourself if you want it served
// (see ExpvarValue).
package provider
