package truststore

import (
	"crypto/ecdsa"
	"crypto/rsa"
	"crypto/x509"
	"errors"
	"sync/atomic"
	"time"
)

// Store is a set of trust anchors with a key table for each P-256 and
// P-384 anchor, and the bounded caches that make repeated verification
// cheap. A Store is immutable after loading apart from its caches, and is
// safe for concurrent use.
type Store struct {
	cfg     config
	anchors []*anchor
	// bySubject indexes anchors by their exact RawSubject bytes.
	bySubject map[string][]*anchor
	// byRaw indexes anchors by their DER (Raw), by which crypto/x509's
	// CertPool recognises a certificate it holds; loading skips
	// duplicates, so one anchor per key.
	byRaw map[string]*anchor
	// byKey holds the table of every tabled anchor under its key id, so an
	// intermediate that shares an anchor's key (a cross-signed CA) reuses
	// the anchor's table.
	byKey   map[keyID]keyTable
	pool    *x509.CertPool
	skipped []SkippedEntry

	tables     int
	tableBytes int // held by the anchor tables
	loadTime   time.Duration

	// hot holds the tables of issuing keys that have no anchor table
	// (intermediates, and anchors beyond WithMaxTables).
	hot *hotCache
	// links holds (issuer key, child certificate) pairs whose signature
	// verified.
	links *lru[linkKey, struct{}]

	fastAccepts atomic.Uint64
	slowCalls   atomic.Uint64
	declines    [numReasons]atomic.Uint64
	linkHits    atomic.Uint64
}

type anchor struct {
	cert  *x509.Certificate
	id    keyID // of the public key, when idOK
	idOK  bool  // the key is a valid ECDSA or RSA key (see keyIDOf)
	table keyTable
}

type linkKey struct {
	issuer keyID
	child  [32]byte // SHA-256 of the child certificate's DER
}

// Option configures a Store at load.
type Option func(*config)

type config struct {
	maxTables    int // < 0: all
	hotThreshold int // <= 0: no hot tables
	hotTables    int
	linkCache    int
}

func defaultConfig() config {
	return config{maxTables: -1, hotThreshold: tablePayback, hotTables: 64, linkCache: 1024}
}

// WithMaxTables limits the number of anchor tables built at load to n (the
// first n P-256 or P-384 anchors in load order). A negative n, the default,
// builds a table for every P-256 and P-384 anchor; zero builds none.
func WithMaxTables(n int) Option { return func(c *config) { c.maxTables = n } }

// WithHotThreshold sets K, the number of signatures a P-256 or P-384
// issuing key that is not an anchor must have verified recently (as the
// admission sketch estimates) before it may get a table while the hot cache
// has room (default 3, the uses that repay a P-256 build). A full cache
// admits a key only in place of a table that has repaid its build, and only
// when the key is clearly more frequent (see the package documentation).
// K <= 0 disables hot tables.
func WithHotThreshold(k int) Option { return func(c *config) { c.hotThreshold = k } }

// WithHotTables bounds the number of hot intermediate tables (default 64);
// n <= 0 disables them.
func WithHotTables(n int) Option { return func(c *config) { c.hotTables = n } }

// WithLinkCache bounds the LRU of verified links (default 1024 entries);
// zero disables it.
func WithLinkCache(n int) Option { return func(c *config) { c.linkCache = n } }

// Stats describes a Store.
type Stats struct {
	Anchors    int           // trust anchors loaded
	Skipped    int           // bundle entries skipped (see Store.Skipped)
	Duplicates int           // of which duplicates of a loaded anchor
	Tables     int           // anchor key tables
	TableBytes int           // memory held by anchor and hot tables (estimate)
	LoadTime   time.Duration // time spent loading, tables included

	HotTables    int    // hot intermediate tables currently held (or being built)
	HotBuilt     uint64 // hot tables built so far
	HotEvicted   uint64 // hot tables dropped to make room for another key
	HotRefused   uint64 // admissions refused because the cache was full and no table could go
	HotHits      uint64 // signatures verified with a hot table
	Links        int    // verified links currently cached
	LinkHits     uint64 // signatures skipped thanks to the link cache
	FastAccepts  uint64 // Verify calls answered by the fast path
	SlowVerifies uint64 // Verify calls decided by x509.Certificate.Verify
	// Declines counts, per reason, the calls the fast path handed to
	// crypto/x509.
	Declines map[string]uint64
}

// Stats returns a snapshot of the store's counters.
func (s *Store) Stats() Stats {
	hs := s.hot.stats()
	st := Stats{
		Anchors:      len(s.anchors),
		Skipped:      len(s.skipped),
		Tables:       s.tables,
		LoadTime:     s.loadTime,
		HotTables:    hs.tables,
		HotBuilt:     hs.built,
		HotEvicted:   hs.evicted,
		HotRefused:   hs.refused,
		HotHits:      hs.hits,
		Links:        s.links.Len(),
		LinkHits:     s.linkHits.Load(),
		FastAccepts:  s.fastAccepts.Load(),
		SlowVerifies: s.slowCalls.Load(),
		Declines:     make(map[string]uint64),
	}
	st.TableBytes = s.tableBytes + hs.bytes
	for _, e := range s.skipped {
		if errors.Is(e.Reason, ErrDuplicate) {
			st.Duplicates++
		}
	}
	for r := reason(1); r < numReasons; r++ {
		if n := s.declines[r].Load(); n > 0 {
			st.Declines[r.String()] = n
		}
	}
	return st
}

// Skipped lists the entries that loading skipped, with the reason for each.
func (s *Store) Skipped() []SkippedEntry { return append([]SkippedEntry(nil), s.skipped...) }

// Anchors returns the trust anchors, in load order.
func (s *Store) Anchors() []*x509.Certificate {
	out := make([]*x509.Certificate, len(s.anchors))
	for i, a := range s.anchors {
		out[i] = a.cert
	}
	return out
}

// CertPool returns a new x509.CertPool holding the store's anchors.
func (s *Store) CertPool() *x509.CertPool { return s.pool.Clone() }

// ResetCaches empties the hot-table cache (tables and use counts) and the
// verified-link cache. The counters of Stats are kept.
func (s *Store) ResetCaches() {
	s.hot.clear()
	s.links.Clear()
}

// VerifyOptions are the options of Store.Verify; they have the meaning of
// the fields of the same names in x509.VerifyOptions.
type VerifyOptions struct {
	// DNSName, if set, is checked against the leaf with VerifyHostname.
	DNSName string
	// KeyUsages lists the acceptable extended key usages; empty means
	// ServerAuth, and ExtKeyUsageAny accepts any.
	KeyUsages []x509.ExtKeyUsage
	// CurrentTime is the time at which validity is checked; zero means now.
	CurrentTime time.Time
}

var errEmptyChain = errors.New("truststore: no certificate to verify")

// Verify verifies chain[0], the peer's leaf, with chain[1:] as the
// intermediates it sent, and returns the verified chains, each from the leaf
// to an anchor of the store. The answer is always the one
// x509.Certificate.Verify gives with the store's anchors as Roots, chain[1:]
// as Intermediates and the same options (see the package documentation),
// filtered as crypto/tls filters chains when crypto/fips140 is enabled
// and, in a Go+BoringCrypto build, always, by BoringCrypto's rule (as
// crypto/tls does when crypto/tls/fipsonly is imported, which cannot be
// observed; see fipsRequired); where crypto/x509 panics on a malformed certificate struct, Verify
// returns an error instead. chain and its certificates are only read; a
// nil certificate after the first is ignored as crypto/x509's pool would
// not hold it.
func (s *Store) Verify(chain []*x509.Certificate, opts VerifyOptions) ([][]*x509.Certificate, error) {
	if len(chain) == 0 || chain[0] == nil {
		return nil, errEmptyChain
	}
	now := opts.CurrentTime
	if now.IsZero() {
		now = time.Now()
	}
	path, r := s.fastPath(chain, &opts, now)
	if r == accepted {
		s.fastAccepts.Add(1)
		return [][]*x509.Certificate{path}, nil
	}
	s.declines[r].Add(1)
	return s.slowVerify(chain, &opts, now)
}

// errX509Panic is returned when crypto/x509 panics on the chain, as it
// does on some certificate structs that x509.ParseCertificate never makes
// (an issuer's *ecdsa.PublicKey that is nil, or has a nil Curve or X).
var errX509Panic = errors.New("truststore: crypto/x509 cannot verify a malformed certificate struct")

// slowVerify asks crypto/x509. A panic inside crypto/x509 becomes
// errX509Panic: Verify's contract covers any certificate struct, and
// crypto/x509 reads only the pools it is given, both private to this call
// or never written after load.
func (s *Store) slowVerify(chain []*x509.Certificate, opts *VerifyOptions, now time.Time) (chains [][]*x509.Certificate, err error) {
	s.slowCalls.Add(1)
	defer func() {
		if recover() != nil {
			chains, err = nil, errX509Panic
		}
	}()
	inter := x509.NewCertPool()
	for _, c := range chain[1:] {
		if c != nil {
			inter.AddCert(c)
		}
	}
	chains, err = chain[0].Verify(x509.VerifyOptions{
		Roots:         s.pool,
		Intermediates: inter,
		DNSName:       opts.DNSName,
		KeyUsages:     opts.KeyUsages,
		CurrentTime:   now,
	})
	if err != nil {
		return nil, err
	}
	return fipsFilter(chains)
}

// errNoFIPSChain is returned when every chain crypto/x509 found has a key
// that crypto/tls's FIPS chain filter refuses.
var errNoFIPSChain = errors.New("truststore: no FIPS compatible certificate chain")

// fipsFilter drops the chains that crypto/tls drops when its FIPS
// requirement holds (see fipsRequired).
func fipsFilter(chains [][]*x509.Certificate) ([][]*x509.Certificate, error) {
	if !fipsRequired() {
		return chains, nil
	}
	var ok [][]*x509.Certificate
	for _, ch := range chains {
		if keyFieldsSet(ch) && fipsChainAllowed(ch) {
			ok = append(ok, ch)
		}
	}
	if len(ok) == 0 {
		return nil, errNoFIPSChain
	}
	return ok, nil
}

// keyFieldsSet reports whether the public keys of chain have the fields
// the FIPS key filter reads: no nil *rsa.PublicKey or *ecdsa.PublicKey, no
// nil modulus or curve.
func keyFieldsSet(chain []*x509.Certificate) bool {
	for _, c := range chain {
		switch pub := c.PublicKey.(type) {
		case *rsa.PublicKey:
			if pub == nil || pub.N == nil {
				return false
			}
		case *ecdsa.PublicKey:
			if pub == nil || pub.Curve == nil {
				return false
			}
		}
	}
	return true
}
