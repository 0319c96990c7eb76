package truststore

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/pem"
	"errors"
	"fmt"
	mrand "math/rand/v2"
	"os"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"

	"github.com/p256tls/p256tls/internal/testsupport/testpki"
)

// This file generates certificate chains for the parity tests: a fixed set
// of anchors with every property the fast path cares about, and random
// scenarios (leaf, intermediates, what the peer sends, options) around them.

// t0 is the reference time of every generated certificate.
var t0 = time.Date(2031, 3, 14, 15, 9, 26, 535897932, time.UTC)

type keyKind int

const (
	kP256 keyKind = iota
	kP384
	kP521
	kRSA // 2048 bits, E = 65537
	kEd25519
	kP224
	kRSA3072
	kRSA4096
	kRSA1024 // crypto/x509 accepts it, the fast path declines it
	kRSA2056 // an unusual size: declined
	kRSAE3   // 2048 bits, E = 3: declined
	kRSA2051 // an odd size: declined (crypto/rsa refuses it in fips140=only mode)
)

// rsaTestKeys are the RSA keys of testdata/rsa-keys.pem by the name in
// each block's Name header: made once with rsa.GenerateKey (the E = 3 key
// from two primes p, q with p, q ≢ 1 mod 3, D = 3⁻¹ mod (p−1)(q−1)), so
// that no test run spends seconds generating RSA-4096 keys.
func rsaTestKeys() map[string]*rsa.PrivateKey {
	data, err := os.ReadFile("testdata/rsa-keys.pem")
	if err != nil {
		panic(err)
	}
	keys := map[string]*rsa.PrivateKey{}
	for {
		var b *pem.Block
		b, data = pem.Decode(data)
		if b == nil {
			break
		}
		k, err := x509.ParsePKCS1PrivateKey(b.Bytes)
		if err != nil {
			panic(fmt.Sprintf("%s: %v", b.Headers["Name"], err))
		}
		keys[b.Headers["Name"]] = k
	}
	return keys
}

var keyPool struct {
	once sync.Once
	keys map[keyKind][]crypto.Signer
}

func poolKey(k keyKind, i int) crypto.Signer {
	keyPool.once.Do(func() {
		keyPool.keys = make(map[keyKind][]crypto.Signer)
		// The ECDSA and Ed25519 keys are testpki's shared pool.
		for kind, p := range map[keyKind]struct {
			alg string
			n   int
		}{
			kP256: {testpki.P256, 48}, kP384: {testpki.P384, 6}, kP521: {testpki.P521, 3},
			kP224: {testpki.P224, 2}, kEd25519: {testpki.Ed25519, 3},
		} {
			for i := range p.n {
				k, err := testpki.Pooled(p.alg, i)
				if err != nil {
					panic(err)
				}
				keyPool.keys[kind] = append(keyPool.keys[kind], k)
			}
		}
		rk := rsaTestKeys()
		for kind, names := range map[keyKind][]string{
			kRSA:     {"rsa2048-0", "rsa2048-1"},
			kRSA3072: {"rsa3072-0"},
			kRSA4096: {"rsa4096-0", "rsa4096-1"},
			kRSA1024: {"rsa1024-0"},
			kRSA2056: {"rsa2056-0"},
			kRSAE3:   {"rsa2048e3-0"},
			kRSA2051: {"rsa2051-0"},
		} {
			for _, n := range names {
				if rk[n] == nil {
					panic("testdata/rsa-keys.pem has no key " + n)
				}
				keyPool.keys[kind] = append(keyPool.keys[kind], rk[n])
			}
		}
	})
	ks := keyPool.keys[k]
	return ks[i%len(ks)]
}

// node is a generated certificate and its private key.
type node = testpki.Node

// caTemplate is a well-formed CA certificate template valid around t0.
func caTemplate(cn string) *x509.Certificate {
	return testpki.CATemplate(cn, t0.Add(-30*24*time.Hour).Truncate(time.Second), t0.Add(365*24*time.Hour).Truncate(time.Second))
}

// leafTemplate is a well-formed server (and client) leaf template.
func leafTemplate(cn string, dns ...string) *x509.Certificate {
	return testpki.LeafTemplate(cn, t0.Add(-24*time.Hour).Truncate(time.Second), t0.Add(90*24*time.Hour).Truncate(time.Second), dns...)
}

// issue signs tmpl with key under parent (self-signed when parent is nil).
func issue(tb testing.TB, tmpl *x509.Certificate, key crypto.Signer, parent *node) *node {
	tb.Helper()
	return testpki.MustIssue(tb, tmpl, key, parent)
}

// corrupt returns c with one bit of its signature flipped.
func corrupt(tb testing.TB, c *x509.Certificate) *x509.Certificate {
	sig := append([]byte(nil), c.Signature...)
	sig[len(sig)-1] ^= 0x01
	return rebuild(tb, c, sig)
}

// padSignature returns c with its ECDSA signature re-encoded with a
// superfluous leading zero in r (valid BER, invalid DER).
func padSignature(tb testing.TB, c *x509.Certificate) *x509.Certificate {
	in := cryptobyte.String(c.Signature)
	var seq, r, s cryptobyte.String
	if !in.ReadASN1(&seq, cbasn1.SEQUENCE) || !seq.ReadASN1(&r, cbasn1.INTEGER) || !seq.ReadASN1(&s, cbasn1.INTEGER) {
		tb.Fatal("not an ECDSA signature")
	}
	var b cryptobyte.Builder
	b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
		b.AddASN1(cbasn1.INTEGER, func(b *cryptobyte.Builder) { b.AddUint8(0); b.AddBytes(r) })
		b.AddASN1(cbasn1.INTEGER, func(b *cryptobyte.Builder) { b.AddBytes(s) })
	})
	return rebuild(tb, c, b.BytesOrPanic())
}

// bareRSA returns the hash of an RSA PKCS #1 v1.5 algorithm and its
// AlgorithmIdentifier without parameters; ok is false for other algorithms.
func bareRSA(alg x509.SignatureAlgorithm) (h crypto.Hash, ai []byte, ok bool) {
	switch alg {
	case x509.SHA256WithRSA:
		return crypto.SHA256, algRSASHA256Bare, true
	case x509.SHA384WithRSA:
		return crypto.SHA384, algRSASHA384Bare, true
	case x509.SHA512WithRSA:
		return crypto.SHA512, algRSASHA512Bare, true
	}
	return 0, nil, false
}

// maybeBare returns n, signed by parent, re-signed half the time without
// AlgorithmIdentifier parameters when its algorithm is RSA PKCS #1 v1.5.
func maybeBare(tb testing.TB, r *mrand.Rand, sc *scenario, n, parent *node) *node {
	h, ai, ok := bareRSA(n.Cert.SignatureAlgorithm)
	if !ok || !pick(r, 50) {
		return n
	}
	sc.note("rsa-no-parameters")
	return &node{Cert: withSignatureAI(tb, n.Cert, ai, parent, h), Key: n.Key}
}

// withSignatureAI returns c with its signature AlgorithmIdentifier, in the
// TBS and outside it, replaced by the DER ai, re-signed by issuer's RSA key
// with PKCS #1 v1.5 over h (crypto/x509 would write the NULL parameters).
func withSignatureAI(tb testing.TB, c *x509.Certificate, ai []byte, issuer *node, h crypto.Hash) *x509.Certificate {
	tb.Helper()
	in := cryptobyte.String(c.RawTBSCertificate)
	var tbs, version, serial, old cryptobyte.String
	if !in.ReadASN1(&tbs, cbasn1.SEQUENCE) ||
		!tbs.ReadASN1Element(&version, cbasn1.Tag(0).Constructed().ContextSpecific()) ||
		!tbs.ReadASN1Element(&serial, cbasn1.INTEGER) ||
		!tbs.ReadASN1Element(&old, cbasn1.SEQUENCE) {
		tb.Fatal("cannot split TBS")
	}
	var b cryptobyte.Builder
	b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
		b.AddBytes(version)
		b.AddBytes(serial)
		b.AddBytes(ai)
		b.AddBytes(tbs) // the rest: issuer, validity, subject, key, extensions
	})
	newTBS := b.BytesOrPanic()
	d := h.New()
	d.Write(newTBS)
	sig, err := rsa.SignPKCS1v15(nil, issuer.Key.(*rsa.PrivateKey), h, d.Sum(nil))
	if err != nil {
		tb.Fatal(err)
	}
	var cb cryptobyte.Builder
	cb.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
		b.AddBytes(newTBS)
		b.AddBytes(ai)
		b.AddASN1BitString(sig)
	})
	out, err := x509.ParseCertificate(cb.BytesOrPanic())
	if err != nil {
		tb.Fatalf("reparse: %v", err)
	}
	return out
}

// rebuild re-encodes c with another signature value and parses it.
func rebuild(tb testing.TB, c *x509.Certificate, sig []byte) *x509.Certificate {
	in := cryptobyte.String(c.Raw)
	var cert, tbs, alg cryptobyte.String
	if !in.ReadASN1(&cert, cbasn1.SEQUENCE) || !cert.ReadASN1Element(&tbs, cbasn1.SEQUENCE) || !cert.ReadASN1Element(&alg, cbasn1.SEQUENCE) {
		tb.Fatal("cannot split certificate")
	}
	var b cryptobyte.Builder
	b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
		b.AddBytes(tbs)
		b.AddBytes(alg)
		b.AddASN1BitString(sig)
	})
	out, err := x509.ParseCertificate(b.BytesOrPanic())
	if err != nil {
		tb.Fatalf("reparse: %v", err)
	}
	return out
}

var (
	oidCriticalTest = asn1.ObjectIdentifier{1, 3, 6, 1, 4, 1, 55555, 1}
	oidUnknownEKU   = asn1.ObjectIdentifier{1, 3, 6, 1, 4, 1, 55555, 2}
	oidPolicyA      = asn1.ObjectIdentifier{1, 3, 6, 1, 4, 1, 55555, 3, 1}
	oidPolicyB      = asn1.ObjectIdentifier{1, 3, 6, 1, 4, 1, 55555, 3, 2}
	oidAnyPolicy    = asn1.ObjectIdentifier{2, 5, 29, 32, 0}
)

func criticalExt() pkix.Extension {
	return pkix.Extension{Id: oidCriticalTest, Critical: true, Value: []byte{0x05, 0x00}}
}

// policyConstraintsExt: requireExplicitPolicy = 0.
func policyConstraintsExt() pkix.Extension {
	return pkix.Extension{Id: oidPolicyConstraints, Critical: true, Value: []byte{0x30, 0x03, 0x80, 0x01, 0x00}}
}

// inhibitAnyPolicyExt: skipCerts = 0.
func inhibitAnyPolicyExt() pkix.Extension {
	return pkix.Extension{Id: oidInhibitAnyPolicy, Critical: true, Value: []byte{0x02, 0x01, 0x00}}
}

// policyMappingsExt maps issuerDomain to subjectDomain.
func policyMappingsExt(issuerDomain, subjectDomain asn1.ObjectIdentifier) pkix.Extension {
	type mapping struct{ A, B asn1.ObjectIdentifier }
	v, err := asn1.Marshal([]mapping{{issuerDomain, subjectDomain}})
	if err != nil {
		panic(err)
	}
	return pkix.Extension{Id: oidPolicyMappings, Critical: true, Value: v}
}

func policiesExt(oids ...asn1.ObjectIdentifier) pkix.Extension {
	type info struct{ ID asn1.ObjectIdentifier }
	var infos []info
	for _, o := range oids {
		infos = append(infos, info{o})
	}
	v, err := asn1.Marshal(infos)
	if err != nil {
		panic(err)
	}
	return pkix.Extension{Id: asn1.ObjectIdentifier{2, 5, 29, 32}, Value: v}
}

// fixture is a fixed set of anchors, most of them with one property the
// fast path must refuse, and a store holding them.
type fixture struct {
	good, good2, p384, rsa, ed, p521, p224 *node
	rsa4096, rsa1024, rsa2056, rsaE3       *node
	nc, eku, notCA, noBC, ku, pathLen0     *node
	expired, crit, twinA, twinB, polc      *node
	pmap, inhibit, leafAnchor, unknown     *node
	// Anchors that are not self-issued: sub is issued by the anchor good,
	// subOrphan by offline, which is not an anchor. crossSelf and crossByA
	// are one CA (subject and key) self-signed and cross-signed by good,
	// both anchors.
	sub, subOrphan, offline, crossSelf, crossByA *node
	all                                          []*node // in the store
	store                                        *Store
}

func newFixture(tb testing.TB, opts ...Option) *fixture {
	tb.Helper()
	f := &fixture{}
	mk := func(cn string, kind keyKind, idx int, edit func(*x509.Certificate)) *node {
		t := caTemplate(cn)
		if edit != nil {
			edit(t)
		}
		n := issue(tb, t, poolKey(kind, idx), nil)
		return n
	}
	f.good = mk("Root A", kP256, 0, nil)
	f.good2 = mk("Root B", kP256, 1, nil)
	f.p384 = mk("Root P-384", kP384, 0, nil)
	f.rsa = mk("Root RSA", kRSA, 0, nil)
	f.rsa4096 = mk("Root RSA-4096", kRSA4096, 0, nil)
	f.rsa1024 = mk("Root RSA-1024", kRSA1024, 0, nil)
	f.rsa2056 = mk("Root RSA-2056", kRSA2056, 0, nil)
	f.rsaE3 = mk("Root RSA e=3", kRSAE3, 0, nil)
	f.ed = mk("Root Ed25519", kEd25519, 0, nil)
	f.p521 = mk("Root P-521", kP521, 0, nil)
	f.p224 = mk("Root P-224", kP224, 0, nil)
	f.nc = mk("Root NC", kP256, 2, func(t *x509.Certificate) { t.PermittedDNSDomains = []string{"example.com"} })
	f.eku = mk("Root EKU", kP256, 3, func(t *x509.Certificate) { t.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth} })
	f.notCA = mk("Root NotCA", kP256, 4, func(t *x509.Certificate) { t.IsCA = false; t.KeyUsage = x509.KeyUsageDigitalSignature })
	f.noBC = mk("Root NoBC", kP256, 5, func(t *x509.Certificate) { t.BasicConstraintsValid = false; t.IsCA = false })
	f.ku = mk("Root KU", kP256, 6, func(t *x509.Certificate) { t.KeyUsage = x509.KeyUsageDigitalSignature })
	f.pathLen0 = mk("Root PL0", kP256, 7, func(t *x509.Certificate) { t.MaxPathLen = 0; t.MaxPathLenZero = true })
	f.expired = mk("Root Expired", kP256, 8, func(t *x509.Certificate) { t.NotAfter = t0.Add(-time.Hour) })
	f.crit = mk("Root Crit", kP256, 9, func(t *x509.Certificate) { t.ExtraExtensions = []pkix.Extension{criticalExt()} })
	f.twinA = mk("Root Twin", kP256, 10, nil)
	f.twinB = mk("Root Twin", kP256, 11, nil)
	f.polc = mk("Root PC", kP256, 12, func(t *x509.Certificate) { t.ExtraExtensions = []pkix.Extension{policyConstraintsExt()} })
	f.pmap = mk("Root PM", kP256, 13, func(t *x509.Certificate) {
		t.ExtraExtensions = []pkix.Extension{policyMappingsExt(oidAnyPolicy, oidPolicyA)}
	})
	f.inhibit = mk("Root IAP", kP256, 14, func(t *x509.Certificate) { t.ExtraExtensions = []pkix.Extension{inhibitAnyPolicyExt()} })
	la := leafTemplate("anchor.example.com", "anchor.example.com")
	f.leafAnchor = issue(tb, la, poolKey(kP256, 15), nil)
	f.unknown = mk("Root Unknown", kP256, 16, nil)
	f.sub = issue(tb, caTemplate("Root Sub"), poolKey(kP256, 17), f.good)
	f.offline = mk("Offline root", kP256, 18, nil)
	f.subOrphan = issue(tb, caTemplate("Root Sub orphan"), poolKey(kP256, 19), f.offline)
	f.crossSelf = mk("Root Cross", kP384, 1, nil)
	f.crossByA = issue(tb, caTemplate("Root Cross"), poolKey(kP384, 1), f.good)
	f.all = []*node{f.good, f.good2, f.p384, f.rsa, f.ed, f.p521, f.p224, f.nc, f.eku, f.notCA, f.noBC, f.ku,
		f.pathLen0, f.expired, f.crit, f.twinA, f.twinB, f.polc, f.pmap, f.inhibit, f.leafAnchor,
		f.sub, f.subOrphan, f.crossSelf, f.crossByA, f.rsa4096, f.rsa1024, f.rsa2056, f.rsaE3}
	var certs []*x509.Certificate
	for _, n := range f.all {
		certs = append(certs, n.Cert)
	}
	s, err := New(certs, opts...)
	if err != nil {
		tb.Fatal(err)
	}
	f.store = s
	return f
}

// scenario is one verification to compare.
type scenario struct {
	desc  []string
	chain []*x509.Certificate
	opts  VerifyOptions
}

func (sc *scenario) note(format string, args ...any) {
	sc.desc = append(sc.desc, fmt.Sprintf(format, args...))
}

// randomKind draws the key type of a generated certificate.
func randomKind(r *mrand.Rand) keyKind {
	switch x := r.IntN(100); {
	case x < 72:
		return kP256
	case x < 84:
		return kP384
	case x < 89:
		return kRSA
	case x < 90:
		return kRSA3072
	case x < 92:
		return kRSA4096
	case x < 93:
		return []keyKind{kRSA1024, kRSA2056, kRSAE3}[r.IntN(3)]
	case x < 96:
		return kEd25519
	default:
		return kP521
	}
}

// sigAlgFor picks a signature algorithm that key can make.
func sigAlgFor(r *mrand.Rand, key crypto.Signer) x509.SignatureAlgorithm {
	switch key.(type) {
	case *ecdsa.PrivateKey:
		return []x509.SignatureAlgorithm{x509.ECDSAWithSHA256, x509.ECDSAWithSHA256, x509.ECDSAWithSHA384, x509.ECDSAWithSHA512}[r.IntN(4)]
	case *rsa.PrivateKey:
		return []x509.SignatureAlgorithm{x509.SHA256WithRSA, x509.SHA256WithRSA, x509.SHA384WithRSA, x509.SHA512WithRSA,
			x509.SHA256WithRSAPSS, x509.SHA384WithRSAPSS, x509.SHA1WithRSA}[r.IntN(7)]
	}
	return x509.PureEd25519
}

// pick returns true with probability p percent.
func pick(r *mrand.Rand, p int) bool { return r.IntN(1000) < p*10 }

// edit applies random CA-side variations to an issuer template.
func editCA(r *mrand.Rand, sc *scenario, t *x509.Certificate) {
	switch {
	case pick(r, 3):
		t.KeyUsage = x509.KeyUsageDigitalSignature
		sc.note("ku-no-certsign")
	case pick(r, 4):
		t.KeyUsage = 0
		sc.note("ku-zero")
	}
	switch {
	case pick(r, 4):
		t.MaxPathLen, t.MaxPathLenZero = 0, true
		sc.note("pathlen0")
	case pick(r, 3):
		t.MaxPathLen = 1
		sc.note("pathlen1")
	}
	switch {
	case pick(r, 3):
		t.IsCA = false
		t.MaxPathLen, t.MaxPathLenZero = -1, false
		sc.note("not-ca")
	case pick(r, 2):
		t.BasicConstraintsValid, t.IsCA = false, false
		t.MaxPathLen, t.MaxPathLenZero = -1, false
		sc.note("no-bc")
	}
	if pick(r, 3) {
		t.PermittedDNSDomains = []string{"example.com"}
		sc.note("nc-permit")
	}
	if pick(r, 2) {
		t.ExcludedDNSDomains = []string{"bad.example.com"}
		sc.note("nc-exclude")
	}
	editCommon(r, sc, t)
}

// editCommon applies variations shared by leaves and issuers.
func editCommon(r *mrand.Rand, sc *scenario, t *x509.Certificate) {
	switch x := r.IntN(100); {
	case x < 4:
		t.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}
		sc.note("eku-client")
	case x < 8:
		t.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}
		sc.note("eku-server")
	case x < 11:
		t.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageAny}
		sc.note("eku-any")
	case x < 13:
		t.ExtKeyUsage = nil
		t.UnknownExtKeyUsage = []asn1.ObjectIdentifier{oidUnknownEKU}
		sc.note("eku-unknown")
	case x < 15:
		t.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageCodeSigning, x509.ExtKeyUsageNetscapeServerGatedCrypto}
		sc.note("eku-sgc")
	case x < 17:
		t.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageCodeSigning}
		sc.note("eku-code")
	case x < 19:
		t.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth}
		sc.note("eku-both")
	}
	if pick(r, 2) {
		t.ExtraExtensions = append(t.ExtraExtensions, criticalExt())
		sc.note("critical")
	}
	switch {
	case pick(r, 3):
		t.ExtraExtensions = append(t.ExtraExtensions, policiesExt(oidPolicyA))
		sc.note("policies")
	case pick(r, 1):
		t.ExtraExtensions = append(t.ExtraExtensions, policyConstraintsExt())
		sc.note("policy-constraints")
	case pick(r, 1):
		t.ExtraExtensions = append(t.ExtraExtensions, inhibitAnyPolicyExt())
		sc.note("inhibit-any")
	case pick(r, 1):
		t.ExtraExtensions = append(t.ExtraExtensions, policyMappingsExt(oidPolicyA, oidPolicyB))
		sc.note("policy-map")
	case pick(r, 1):
		t.ExtraExtensions = append(t.ExtraExtensions, policyMappingsExt(oidAnyPolicy, oidPolicyB))
		sc.note("policy-map-any")
	}
	switch {
	case pick(r, 2):
		t.NotAfter = t0.Add(-time.Duration(r.IntN(3600)+1) * time.Second)
		sc.note("expired")
	case pick(r, 2):
		t.NotBefore = t0.Add(time.Duration(r.IntN(3600)+1) * time.Second)
		sc.note("not-yet-valid")
	}
}

// randomScenario builds one scenario around f's anchors.
func randomScenario(tb testing.TB, r *mrand.Rand, f *fixture) *scenario {
	sc := &scenario{}
	// The anchor.
	root := f.good
	switch x := r.IntN(100); {
	case x < 50:
	case x < 57:
		root = f.good2
	case x < 61:
		root = f.p384
	case x < 65:
		root = f.rsa4096
	case x < 70:
		root = f.sub
	case x < 73:
		root = f.subOrphan
	default:
		others := []*node{f.rsa, f.rsa1024, f.rsa2056, f.rsaE3, f.ed, f.p521, f.p224, f.nc, f.eku, f.notCA, f.noBC, f.ku, f.pathLen0, f.expired,
			f.crit, f.twinA, f.twinB, f.polc, f.pmap, f.inhibit, f.unknown, f.crossSelf, f.crossByA}
		root = others[r.IntN(len(others))]
	}
	sc.note("root=%s", root.Cert.Subject.CommonName)

	// Intermediates, top down.
	nInt := []int{0, 1, 1, 1, 1, 2, 2, 3}[r.IntN(8)]
	if pick(r, 1) {
		nInt = 7 + r.IntN(3)
	}
	issuers := []*node{root}
	parent := root
	for i := range nInt {
		t := caTemplate(fmt.Sprintf("Intermediate %d.%d", i, r.Uint32()))
		editCA(r, sc, t)
		t.SignatureAlgorithm = sigAlgFor(r, parent.Key)
		key := poolKey(randomKind(r), r.IntN(64))
		if pick(r, 2) {
			key = poolKey(kP224, 0)
		}
		if parent == f.rsa4096 && pick(r, 50) {
			// Let's Encrypt's ECDSA chain: P-384 under RSA-4096.
			key = poolKey(kP384, r.IntN(64))
			sc.note("p384-under-rsa4096")
		}
		n := maybeBare(tb, r, sc, issue(tb, t, key, parent), parent)
		issuers = append(issuers, n)
		parent = n
	}

	// The leaf.
	var leaf *node
	handMade := false
	switch {
	case pick(r, 2):
		leaf = f.leafAnchor
		sc.note("leaf-is-anchor")
	case pick(r, 2):
		// A hand-made struct with an anchor's DER and another RawSubject
		// (and, for a CA, the leaves' names): crypto/x509 recognises an
		// anchor by its Raw bytes alone.
		c := *root.Cert
		if pick(r, 25) {
			c = *f.leafAnchor.Cert
		} else if pick(r, 70) {
			c.DNSNames = []string{"www.example.com", "*.example.org"}
		}
		c.RawSubject = []*node{f.good, f.good2, issuers[len(issuers)-1]}[r.IntN(3)].Cert.RawSubject
		leaf, handMade = &node{Cert: &c}, true
		sc.note("leaf-anchor-der-other-subject")
	case pick(r, 2):
		// Same subject and key as the anchor: crypto/x509 sees the anchor as
		// already in the chain when the path loops back to that name.
		t := leafTemplate("x", "www.example.com")
		t.Subject = root.Cert.Subject
		t.SignatureAlgorithm = sigAlgFor(r, parent.Key)
		leaf = issue(tb, t, root.Key, parent)
		sc.note("leaf-shares-anchor-subject")
	default:
		t := leafTemplate(fmt.Sprintf("leaf %d", r.Uint32()), "www.example.com", "*.example.org", "bad.example.com")
		if pick(r, 3) {
			t.DNSNames = nil
			sc.note("no-san")
		}
		editCommon(r, sc, t)
		t.SignatureAlgorithm = sigAlgFor(r, parent.Key)
		leaf = maybeBare(tb, r, sc, issue(tb, t, poolKey(randomKind(r), r.IntN(64)), parent), parent)
	}

	// Link mutations.
	certs := []*x509.Certificate{leaf.Cert}
	for i := len(issuers) - 1; i >= 1; i-- {
		certs = append(certs, issuers[i].Cert)
	}
	for i := range certs {
		if certs[i] == f.leafAnchor.Cert || i == 0 && handMade {
			continue
		}
		if pick(r, 2) {
			certs[i] = corrupt(tb, certs[i])
			sc.note("corrupt-%d", i)
		} else if _, ok := certs[i].PublicKey.(*ecdsa.PublicKey); ok && certs[i].SignatureAlgorithm >= x509.ECDSAWithSHA256 && certs[i].SignatureAlgorithm <= x509.ECDSAWithSHA512 && pick(r, 1) {
			certs[i] = padSignature(tb, certs[i])
			sc.note("ber-sig-%d", i)
		}
	}

	// What the peer sends.
	sent := append([]*x509.Certificate(nil), certs...)
	if len(sent) > 2 && pick(r, 3) {
		j := 1 + r.IntN(len(sent)-1)
		sent = append(sent[:j], sent[j+1:]...)
		sc.note("missing-intermediate")
	}
	if len(sent) > 2 && pick(r, 15) {
		r.Shuffle(len(sent)-1, func(i, j int) { sent[i+1], sent[j+1] = sent[j+1], sent[i+1] })
		sc.note("shuffled")
	}
	if len(sent) > 1 && pick(r, 3) {
		sent = append(sent, sent[1+r.IntN(len(sent)-1)])
		sc.note("duplicate")
	}
	selfIssued := bytes.Equal(root.Cert.RawIssuer, root.Cert.RawSubject)
	if pick(r, 5) || !selfIssued && pick(r, 40) {
		sent = append(sent, root.Cert)
		sc.note("anchor-sent")
	}
	if !selfIssued && pick(r, 20) {
		// The anchor's issuer as an intermediate: an anchor itself for
		// sub, a CA outside the store for subOrphan.
		up := f.good
		if root == f.subOrphan {
			up = f.offline
		}
		sent = append(sent, up.Cert)
		sc.note("anchor-issuer-sent")
	}
	if pick(r, 3) {
		// The anchor cross-signed by another anchor, sent.
		other := f.good2
		if root == f.good2 {
			other = f.good
		}
		t := caTemplate("x")
		t.Subject = root.Cert.Subject
		sent = append(sent, issue(tb, t, root.Key, other).Cert)
		sc.note("anchor-cross-signed-sent")
	}
	if pick(r, 3) {
		t := caTemplate(fmt.Sprintf("Unrelated %d", r.Uint32()))
		sent = append(sent, issue(tb, t, poolKey(kP256, r.IntN(48)), f.good).Cert)
		sc.note("unrelated")
	}
	if len(issuers) > 1 && pick(r, 4) {
		// A decoy with the name of the leaf's issuer and another key.
		top := issuers[len(issuers)-1]
		t := caTemplate("decoy")
		t.Subject = top.Cert.Subject
		d := issue(tb, t, poolKey(kP256, 40+r.IntN(8)), issuers[len(issuers)-2])
		if pick(r, 50) {
			sent = append(sent[:1], append([]*x509.Certificate{d.Cert}, sent[1:]...)...)
		} else {
			sent = append(sent, d.Cert)
		}
		sc.note("decoy")
	}
	if len(issuers) > 1 && pick(r, 4) {
		// Cross-sign the top intermediate by the other good anchor.
		first := issuers[1]
		other := f.good2
		if root == f.good2 {
			other = f.good
		}
		t := caTemplate("x")
		t.Subject = first.Cert.Subject
		x := issue(tb, t, first.Key, other)
		sent = append(sent, x.Cert)
		sc.note("cross-signed")
	}
	sc.chain = sent

	// Options.
	switch x := r.IntN(100); {
	case x < 60:
		sc.opts.DNSName = "www.example.com"
	case x < 72:
	case x < 80:
		sc.opts.DNSName = "foo.example.org"
	case x < 86:
		sc.opts.DNSName = "bad.example.com"
	case x < 92:
		sc.opts.DNSName = "other.example.net"
	default:
		sc.opts.DNSName = "anchor.example.com"
	}
	switch x := r.IntN(100); {
	case x < 55:
	case x < 70:
		sc.opts.KeyUsages = []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}
	case x < 80:
		sc.opts.KeyUsages = []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}
	case x < 86:
		sc.opts.KeyUsages = []x509.ExtKeyUsage{x509.ExtKeyUsageAny}
	case x < 93:
		sc.opts.KeyUsages = []x509.ExtKeyUsage{x509.ExtKeyUsageCodeSigning, x509.ExtKeyUsageServerAuth}
	default:
		sc.opts.KeyUsages = []x509.ExtKeyUsage{x509.ExtKeyUsageCodeSigning}
	}
	sc.opts.CurrentTime = t0.Add(time.Duration(r.Int64N(int64(2 * time.Hour))))
	if pick(r, 15) {
		// A validity edge of some certificate of the chain, at nanosecond
		// precision.
		c := certs[r.IntN(len(certs))]
		if r.IntN(2) == 0 {
			c = root.Cert
		}
		deltas := []time.Duration{0, 1, -1, 500 * time.Millisecond, -500 * time.Millisecond, time.Second - 1}
		d := deltas[r.IntN(len(deltas))]
		if r.IntN(2) == 0 {
			sc.opts.CurrentTime = c.NotAfter.Add(d)
		} else {
			sc.opts.CurrentTime = c.NotBefore.Add(d)
		}
		sc.note("edge %v", d)
	}
	return sc
}

// x509Verify runs x509.Certificate.Verify as Store.Verify's slow path
// does; panicked reports that crypto/x509 panicked (on a certificate struct
// ParseCertificate never makes).
func x509Verify(s *Store, sc *scenario) (chains [][]*x509.Certificate, err error, panicked bool) {
	defer func() {
		if recover() != nil {
			chains, err, panicked = nil, nil, true
		}
	}()
	inter := x509.NewCertPool()
	for _, c := range sc.chain[1:] {
		if c != nil {
			inter.AddCert(c)
		}
	}
	chains, err = sc.chain[0].Verify(x509.VerifyOptions{
		Roots: s.pool, Intermediates: inter, DNSName: sc.opts.DNSName,
		KeyUsages: sc.opts.KeyUsages, CurrentTime: sc.opts.CurrentTime,
	})
	return chains, err, false
}

// compareWithX509 runs Store.Verify, the fast path alone and
// x509.Certificate.Verify on sc: a fast accept must be a crypto/x509 accept
// with exactly the one chain crypto/x509 returns, and Verify must give
// crypto/x509's answer with the same set of chains (or errX509Panic where
// crypto/x509 panics). Where the FIPS chain filter applies (always in a
// Go+BoringCrypto build), crypto/x509's chains are filtered by it first: the
// filter's own reference is crypto/tls (TestFIPS, TestFIPSOnly,
// TestBoringFIPSOnly). It reports whether the fast path accepted.
func compareWithX509(tb testing.TB, s *Store, sc *scenario) (fast bool, why reason) {
	tb.Helper()
	xchains, xerr, xpanic := x509Verify(s, sc)
	if !xpanic && xerr == nil {
		xchains, xerr = fipsFilter(xchains)
	}
	path, why := s.fastPath(sc.chain, &sc.opts, sc.opts.CurrentTime)
	if why == accepted {
		if xpanic || xerr != nil {
			tb.Fatalf("fast path accepted a chain crypto/x509 rejects (%v, panic %v): %v", xerr, xpanic, sc.desc)
		}
		if !sameChainSet([][]*x509.Certificate{path}, xchains) {
			tb.Fatalf("fast path chain differs from crypto/x509's %d chains: %v", len(xchains), sc.desc)
		}
	}
	chains, err := s.Verify(sc.chain, sc.opts)
	if xpanic {
		if !errors.Is(err, errX509Panic) {
			tb.Fatalf("crypto/x509 panicked, Verify: %v: %v", err, sc.desc)
		}
		return why == accepted, why
	}
	if (err == nil) != (xerr == nil) {
		tb.Fatalf("Verify: %v, crypto/x509: %v: %v", err, xerr, sc.desc)
	}
	if !sameChainSet(chains, xchains) {
		tb.Fatalf("Verify returned %d chains, crypto/x509 %d, or other ones: %v", len(chains), len(xchains), sc.desc)
	}
	return why == accepted, why
}

// sameChainSet reports whether a and b hold the same chains (by DER),
// counted with multiplicity, in any order.
func sameChainSet(a, b [][]*x509.Certificate) bool {
	if len(a) != len(b) {
		return false
	}
	count := map[string]int{}
	key := func(ch []*x509.Certificate) string {
		var k []byte
		for _, c := range ch {
			h := sha256.Sum256(c.Raw)
			k = append(k, h[:]...)
		}
		return string(k)
	}
	for _, ch := range a {
		count[key(ch)]++
	}
	for _, ch := range b {
		if count[key(ch)]--; count[key(ch)] < 0 {
			return false
		}
	}
	return true
}
