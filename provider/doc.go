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
// through HookServerConfig(cfg), or a Cache's WrapGetCertificate and
// WrapGetClientCertificate: a bounded Cache builds one signer and table per
// key, not per certificate or handshake.
//
//	cfg, err := provider.HookServerConfig(manager.TLSConfig()) // autocert, certmagic, go-spiffe
//	cfg.GetClientCertificate = provider.DefaultCache().WrapGetClientCertificate(src.GetClientCertificate)
//
// Peers are verified with a truststore.Store: HookClientConfig (a client
// checking servers; it also signs the client's own certificates),
// HookClientAuth (a server checking client certificates), and Client and
// Dialer, which bind the name to each connection and so also reach servers
// by IP address. This is the package's TLS-facing half; truststore itself
// only holds anchors and verifies chains.
//
// Counters (Stats) are kept per key and summed per Identities and for the
// process (TotalStats). Importing the package has no side effects; publish
// the process view with package expvar yourself if you want it served
// (see ExpvarValue).
//
// # Exported identifiers, and why each exists
//
// Serving:
//   - Identity, NewIdentity, LoadIdentity: one certificate and key, checked
//     signing for P-256 (from a tls.Certificate or from PEM files).
//   - Identity.Certificate: the tls.Certificate to put in a Config;
//     Identity.Leaf, Algorithm, Checked, String, Stats: what it is and what
//     it signed, for logs and monitoring.
//   - Identities, NewIdentities, LoadIdentities, Files: the set a server
//     serves, chosen by SNI; Reload and Watch renew it from its files;
//     GetCertificate and GetClientCertificate plug it into a tls.Config
//     (cfg.GetCertificate = ids.GetCertificate on an existing one); List and
//     Stats inspect it.
//   - ServerConfig: a new server Config serving Identities.
//   - HookServerConfig: an existing server Config (Certificates,
//     GetCertificate, GetConfigForClient) converted in one call;
//     ErrNothingToHook, ErrUnlistedCertificate are its errors.
//
// Certificates that arrive at run time:
//   - Cache.WrapGetCertificate, Cache.WrapGetClientCertificate: wrap an
//     ACME, SPIFFE or other callback (the one way to do it; there is no
//     package-level copy).
//   - Cache, DefaultCache, NewCache: the bounded set of signers;
//     DefaultCache is the process's (512 keys), which the hooks, Client
//     and Dialer use (wrap your own callbacks with it to share their
//     signers); NewCache makes a private one of another size.
//   - Cache.Certificate: convert one tls.Certificate (what the wrappers do
//     per call), for code that holds certificates rather than callbacks.
//   - Cache.Sweep: free the tables of keys whose certificates have all
//     expired and that are no longer used, now rather than when the next
//     key arrives.
//   - Cache.Stats, CacheStats: what the cache did (hits, builds,
//     evictions, expired keys, fallbacks), for monitoring.
//
// Verifying peers with a truststore.Store:
//   - HookClientConfig, HookClientAuth, Client, Dialer (Dial, DialContext):
//     see above; ErrNoServerName and ErrNilStore are their handshake errors.
//
// Counters and errors:
//   - Stats, TotalStats: signing counters (signatures, checks, faults
//     detected, fallbacks), per identity (Identity.Stats), set
//     (Identities.Stats) or process; truststore.Stats counts verification
//     instead.
//   - ExpvarValue: the process view, for the program to publish with
//     package expvar under a name of its choice.
//   - ErrNoCertificate, ErrNoPrivateKey, ErrKeyMismatch, ErrEncryptedKey,
//     ErrUnsupportedKey: why an identity was refused (errors.Is); FileError:
//     which file, for LoadIdentity and LoadIdentities.
package provider
