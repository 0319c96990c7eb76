// Package truststore holds trust anchors with a precomputed key table for
// every P-256 and P-384 anchor, and verifies peer certificate chains
// (ECDSA, RSA and mixed) through a fast path whose every answer is one
// crypto/x509 would give.
//
// # Loading
//
// LoadFile reads a PEM bundle, LoadDir a directory of them, System the
// system's anchors (SSL_CERT_FILE and SSL_CERT_DIR first, then the usual
// Linux bundle paths), and New takes parsed certificates. An entry that is
// not a usable certificate (broken PEM, a certificate x509.ParseCertificate
// refuses, a duplicate, ...) is skipped without stopping the load and listed,
// with its position and reason, by Store.Skipped; a load that yields no
// anchor is an error (*LoadError). Tables for the P-256 and P-384 anchors
// (8 KiB and 15 KiB each) are built at load, in parallel over the available
// cores; WithMaxTables limits their number.
//
// # The contract
//
// Store.Verify(chain, opts) answers exactly what
// chain[0].Verify(x509.VerifyOptions{Roots: the store's anchors,
// Intermediates: chain[1:], DNSName, KeyUsages, CurrentTime}) answers, after
// crypto/tls's FIPS chain filter when crypto/fips140 is enabled and, in a
// Go+BoringCrypto build, always (by BoringCrypto's rule, as crypto/tls does
// when crypto/tls/fipsonly is imported, which cannot be observed).
// The fast path accepts only chains crypto/x509 would accept, and returns
// the same single chain crypto/x509 would return; every chain it rejects or
// does not handle is decided by x509.Certificate.Verify itself. The fast
// path handles a chain only when all of these hold:
//
//   - every certificate is as x509.ParseCertificate leaves it (Raw is the
//     DER of RawTBSCertificate, the signature algorithm and Signature); the
//     anchor is one of the store's; at most 8 certificates are sent and the
//     path has at most 8;
//   - the leaf is not itself an anchor (its Raw is no anchor's DER, as
//     crypto/x509's pool decides, whatever its other fields); every issuer
//     name on the path (RawIssuer, compared byte for byte) matches exactly
//     one candidate among the anchors and the sent certificates (a sent copy
//     of an anchor and repeated copies count once; a struct with an
//     anchor's DER but another key, RawSubject, RawIssuer,
//     RawSubjectPublicKeyInfo or subject alternative name extension is not a
//     copy); no two certificates of the path or of the sent set share a
//     subject, so crypto/x509 can build one chain only;
//   - the anchor is self-issued or was not sent (crypto/x509 climbs on from
//     a sent copy of an anchor that is not, and may return two chains);
//   - no certificate, anchor included, carries name constraints, policy
//     mappings, policy constraints or inhibitAnyPolicy, nor an unhandled
//     critical extension;
//   - every signature on the path is ECDSA with SHA-256, SHA-384 or SHA-512
//     by a P-256 or P-384 key, DER encoded, or RSA PKCS #1 v1.5 with
//     SHA-256, SHA-384 or SHA-512 (NULL parameters) by an RSA key of 2048,
//     3072 or 4096 bits with exponent 65537; the signature algorithm's key
//     type is the issuer's; every ECDSA issuer key is one
//     ecdsa.PublicKey.Bytes accepts (no negative, oversized or unreduced
//     coordinate, no point off the curve, no nil field), every RSA one has
//     a positive modulus, and the issuer's PublicKeyAlgorithm is its key's
//     type (RSA-PSS, SHA-1, Ed25519, other curves, sizes and exponents go
//     to crypto/x509);
//   - every certificate is valid at the verification time, compared at full
//     precision; every issuer has basic constraints with CA set, a KeyUsage
//     that is zero or includes CertSign, and a MaxPathLen that the
//     intermediates below it respect; the leaf matches DNSName when one is
//     asked; the extended key usages pass crypto/x509's rule (see checkEKU);
//     every signature verifies;
//   - where the FIPS filter applies, every key of the path is one
//     crypto/tls's filter accepts.
//
// ECDSA signatures are verified with the anchor's table, a hot table, or
// one-shot verification; RSA signatures with rsa.VerifyPKCS1v15, the call
// crypto/x509 makes, on keys for which no GODEBUG or FIPS 140 setting
// changes its answer (see rsaKeyHandled). No policy decision is ever
// cached. Nothing reachable from
// Verify panics on any certificate struct: where crypto/x509 itself panics
// (an issuer whose *ecdsa.PublicKey is nil or has a nil Curve or X, for
// instance), Verify returns an error.
//
// # Caches
//
// Every cache is keyed by the SHA-256 of a validated key encoding (see the
// rules above; for RSA keys, E and N), never by the struct's numbers as
// given.
//
// Hot tables: a P-256 table costs about 1.35 one-shot verifications to
// build and saves about 0.65 of one per use, so it repays its build after 3
// uses (a P-384 one after 2: 1.2 and 0.68). Uses of P-256 and P-384 issuing
// keys that have no anchor table (intermediates, and anchors left without
// one by WithMaxTables) are counted in a small
// count-min sketch halved every 10×capacity observations. A key gets a
// table when its estimate reaches K (WithHotThreshold, default 3) and the
// cache (WithHotTables, default 64) has room; when the cache is full, only
// if its least recently used table has served 3 verifications since its
// build (or none for a whole window) and the key's estimate exceeds that
// table's key's by at least 3. So keys taken in turn, more than the cache
// holds, leave the first tables in place instead of churning them.
//
// Links: a bounded LRU (WithLinkCache, default 1024) remembers the (issuer
// key, SHA-256 of the child's DER) pairs whose signature verified, ECDSA
// and RSA alike; only successes are cached.
//
// # TLS
//
// The tls.Config hooks that verify peers with a Store (HookClientConfig,
// HookClientAuth, Client, Dialer) live in package provider, the one
// TLS-facing package; this package holds the Store and its verification.
//
// # Exported identifiers, and why each exists
//
//   - Store: the anchors, their tables and caches; safe for concurrent use.
//   - New, LoadFile, LoadDir, System: the four places anchors come from
//     (parsed certificates, a PEM bundle, a directory, the system's).
//   - Option, WithMaxTables, WithHotThreshold, WithHotTables, WithLinkCache:
//     the memory and cache bounds, set at load.
//   - Store.Verify, VerifyOptions: the chain verification, crypto/x509's
//     answer (DNSName, KeyUsages, CurrentTime as in x509.VerifyOptions).
//   - Store.Anchors, Store.CertPool: the anchors as crypto/x509 sees them
//     (a server's ClientCAs, a fallback RootCAs).
//   - Store.Skipped, SkippedEntry, ErrDuplicate: what a load left out, and
//     why, without failing it.
//   - LoadError, ErrNoCertificates: a load that yielded no store.
//   - Store.Stats, Stats: verification counters (fast path, crypto/x509
//     calls and why, tables and caches); provider.Stats counts signing.
//   - Store.ResetCaches: drops the hot tables and verified links (tests,
//     benchmarks, or after a change of trust policy elsewhere).
package truststore
