// Package truststore holds trust anchors with a precomputed key table for
// every P-256 anchor, and verifies peer certificate chains through a fast
// path whose every answer is one crypto/x509 would give.
//
// # Loading
//
// LoadFile reads a PEM bundle, LoadDir a directory of them, System the
// system's anchors (SSL_CERT_FILE and SSL_CERT_DIR first, then the usual
// Linux bundle paths), and New takes parsed certificates. An entry that is
// not a usable certificate (broken PEM, a certificate x509.ParseCertificate
// refuses, a duplicate, ...) is skipped without stopping the load and listed,
// with its position and reason, by Store.Skipped; a load that yields no
// anchor is an error (*LoadError). Tables for the P-256 anchors are built at
// load, in parallel over the available cores; WithMaxTables limits them.
//
// # The contract
//
// Store.Verify(chain, opts) answers exactly what
// chain[0].Verify(x509.VerifyOptions{Roots: the store's anchors,
// Intermediates: chain[1:], DNSName, KeyUsages, CurrentTime}) answers, after
// the FIPS 140-3 chain filter of crypto/tls when crypto/fips140 is enabled.
// The fast path accepts only chains crypto/x509 would accept, and returns
// the same single chain crypto/x509 would return; every chain it rejects or
// does not handle is decided by x509.Certificate.Verify itself. The fast
// path handles a chain only when all of these hold:
//
//   - every certificate is as x509.ParseCertificate leaves it (Raw is the
//     DER of RawTBSCertificate, the signature algorithm and Signature); the
//     anchor is one of the store's; at most 8 certificates are sent and the
//     path has at most 8;
//   - the leaf is not itself an anchor; every issuer name on the path
//     (RawIssuer, compared byte for byte) matches exactly one candidate
//     among the anchors and the sent certificates (a sent copy of an anchor
//     and repeated copies count once); no two certificates of the path or of
//     the sent set share a subject, so crypto/x509 can build one chain only;
//   - no certificate, anchor included, carries name constraints, policy
//     mappings, policy constraints or inhibitAnyPolicy, nor an unhandled
//     critical extension;
//   - every signature on the path is ECDSA with SHA-256, SHA-384 or SHA-512
//     by a P-256 or P-384 key, DER encoded;
//   - every certificate is valid at the verification time, compared at full
//     precision; every issuer has basic constraints with CA set, a KeyUsage
//     that is zero or includes CertSign, and a MaxPathLen that the
//     intermediates below it respect; the leaf matches DNSName when one is
//     asked; the extended key usages pass crypto/x509's rule (see checkEKU);
//     every signature verifies;
//   - with crypto/fips140 enabled, every key of the path is one crypto/tls
//     accepts in that mode.
//
// Verification uses the anchor's table, a hot table, or one-shot
// verification; no policy decision is ever cached.
//
// # Caches
//
// A P-256 issuing key that has verified K signatures (WithHotThreshold,
// default 2) gets a table in a bounded LRU (WithHotTables, default 64). A
// bounded LRU (WithLinkCache, default 1024) remembers the (issuer key,
// SHA-256 of the child's DER) pairs whose signature verified; only
// successes are cached.
//
// # TLS
//
// HookClientConfig and ClientConfig make a crypto/tls (or quic-go) client
// verify servers with a Store; HookClientAuth makes a server verify client
// certificates with one. See HookClientConfig for why pairing
// InsecureSkipVerify with VerifyConnection is safe.
package truststore
