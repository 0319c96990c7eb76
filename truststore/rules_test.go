package truststore

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"fmt"
	"math/big"
	"os"
	"testing"
	"time"
)

// One test per whitelist rule: each builds a chain that the rule, and only
// that rule, keeps off the fast path, checks the fast path's reason, and
// checks that Store.Verify still gives crypto/x509's answer. Removing a rule
// makes its test fail (scripts/mutants.d/truststore.txt).

var testFixture struct {
	f *fixture
}

func fx(t *testing.T) *fixture {
	t.Helper()
	if testFixture.f == nil {
		testFixture.f = newFixture(t)
	}
	return testFixture.f
}

// chainUnder issues an intermediate under root and a leaf for
// www.example.com under it, after the edits, and returns the leaf, the
// intermediate and the sent chain.
func chainUnder(t *testing.T, root *node, editInt, editLeaf func(*x509.Certificate)) (leaf, inter *node, chain []*x509.Certificate) {
	t.Helper()
	it := caTemplate("Intermediate " + t.Name())
	if editInt != nil {
		editInt(it)
	}
	inter = issue(t, it, poolKey(kP256, 20), root)
	lt := leafTemplate("leaf "+t.Name(), "www.example.com", "*.example.org")
	if editLeaf != nil {
		editLeaf(lt)
	}
	leaf = issue(t, lt, poolKey(kP256, 21), inter)
	return leaf, inter, []*x509.Certificate{leaf.Cert, inter.Cert}
}

func at(dns string) VerifyOptions { return VerifyOptions{DNSName: dns, CurrentTime: t0} }

// expect checks parity with crypto/x509 (compareWithX509), the fast path's
// reason, and crypto/x509's verdict.
func expect(t *testing.T, s *Store, chain []*x509.Certificate, opts VerifyOptions, want reason, x509OK bool) {
	t.Helper()
	sc := &scenario{desc: []string{t.Name()}, chain: chain, opts: opts}
	_, got := compareWithX509(t, s, sc)
	if got != want {
		t.Errorf("fast path: %v, want %v", got, want)
	}
	if _, err, panicked := x509Verify(s, sc); (err == nil && !panicked) != x509OK {
		t.Errorf("crypto/x509: %v (panic %v), want success %v", err, panicked, x509OK)
	}
}

func TestRuleControl(t *testing.T) {
	f := fx(t)
	_, _, chain := chainUnder(t, f.good, nil, nil)
	expect(t, f.store, chain, at("www.example.com"), accepted, true)
	expect(t, f.store, chain, at(""), accepted, true)
	_, _, chain = chainUnder(t, f.p384, nil, nil)
	expect(t, f.store, chain, at("www.example.com"), accepted, true)
}

func TestRuleNotParsed(t *testing.T) {
	f := fx(t)
	leaf, _, chain := chainUnder(t, f.good, nil, nil)
	other, _, _ := chainUnder(t, f.good, nil, func(c *x509.Certificate) { c.DNSNames = []string{"www.example.com", "evil.example.com"} })
	// Warm the link cache with the genuine chain.
	expect(t, f.store, chain, at("www.example.com"), accepted, true)
	// The same Raw with another TBS: crypto/x509 checks the signature over
	// RawTBSCertificate and refuses; a cache keyed by Raw must not answer.
	forged := *leaf.Cert
	forged.RawTBSCertificate = other.Cert.RawTBSCertificate
	forged.DNSNames = other.Cert.DNSNames
	expect(t, f.store, []*x509.Certificate{&forged, chain[1]}, at("evil.example.com"), reasonNotParsed, false)
	// The same Raw with another hash.
	forged = *leaf.Cert
	forged.SignatureAlgorithm = x509.ECDSAWithSHA384
	expect(t, f.store, []*x509.Certificate{&forged, chain[1]}, at("www.example.com"), reasonNotParsed, false)
	// An ECDSA signature labelled RSA.
	forged = *leaf.Cert
	forged.SignatureAlgorithm = x509.SHA256WithRSA
	expect(t, f.store, []*x509.Certificate{&forged, chain[1]}, at("www.example.com"), reasonNotParsed, false)
	// An RSA link, warmed, then labelled with another hash: crypto/rsa
	// refuses the DigestInfo, a cache keyed by Raw must not answer.
	_, in, rchain := chainUnder(t, f.rsa, func(c *x509.Certificate) { c.SignatureAlgorithm = x509.SHA384WithRSA }, nil)
	expect(t, f.store, rchain, at("www.example.com"), accepted, true)
	for _, alg := range []x509.SignatureAlgorithm{x509.SHA256WithRSA, x509.SHA512WithRSA} {
		rf := *in.Cert
		rf.SignatureAlgorithm = alg
		expect(t, f.store, []*x509.Certificate{rchain[0], &rf}, at("www.example.com"), reasonNotParsed, false)
	}
	// Not parsed at all.
	bare := &x509.Certificate{}
	expect(t, f.store, []*x509.Certificate{leaf.Cert, bare, chain[1]}, at("www.example.com"), reasonNotParsed, false)
}

func TestRuleTooMany(t *testing.T) {
	f := fx(t)
	parent := f.good
	var ints []*x509.Certificate
	for i := range 7 {
		n := issue(t, caTemplate("Long "+string(rune('a'+i))), poolKey(kP256, 22+i), parent)
		ints = append([]*x509.Certificate{n.Cert}, ints...)
		parent = n
	}
	leaf := issue(t, leafTemplate("long leaf", "www.example.com"), poolKey(kP256, 30), parent)
	chain := append([]*x509.Certificate{leaf.Cert}, ints...)
	// 8 sent, a path of 9 with the anchor.
	expect(t, f.store, chain, at("www.example.com"), reasonTooMany, true)
	// 9 sent.
	expect(t, f.store, append(chain, f.good.Cert), at("www.example.com"), reasonTooMany, true)
	// 9 sent, most of them unrelated, for a short path.
	_, _, short := chainUnder(t, f.good, nil, nil)
	for i := range 7 {
		short = append(short, issue(t, caTemplate("Unrelated "+string(rune('a'+i))), poolKey(kP256, 22+i), f.good).Cert)
	}
	expect(t, f.store, short, at("www.example.com"), reasonTooMany, true)
	expect(t, f.store, short[:8], at("www.example.com"), accepted, true)
	// 7 sent, a path of 8: handled.
	leaf7 := issue(t, leafTemplate("long leaf 7", "www.example.com"), poolKey(kP256, 30), &node{Cert: ints[1], Key: poolKey(kP256, 27)})
	expect(t, f.store, append([]*x509.Certificate{leaf7.Cert}, ints[1:]...), at("www.example.com"), accepted, true)
}

func TestRuleLeafIsAnchor(t *testing.T) {
	f := fx(t)
	chain := []*x509.Certificate{f.leafAnchor.Cert}
	expect(t, f.store, chain, at("anchor.example.com"), reasonLeafIsAnchor, true)
	// Hand-made structs with an anchor's DER and another RawSubject:
	// crypto/x509's pool recognises the leaf by its Raw bytes alone and
	// returns [[leaf]], where a lookup by subject would find no anchor,
	// climb to the anchor by RawIssuer and return [leaf, anchor].
	for _, a := range []struct {
		n   *node
		dns string
	}{{f.leafAnchor, "anchor.example.com"}, {f.good, ""}, {f.sub, ""}} {
		for _, subject := range [][]byte{f.good2.Cert.RawSubject, handMadeName(t)} {
			c := *a.n.Cert
			c.RawSubject = subject
			expect(t, f.store, []*x509.Certificate{&c}, at(a.dns), reasonLeafIsAnchor, true)
			expect(t, f.store, []*x509.Certificate{&c, f.good.Cert}, at(a.dns), reasonLeafIsAnchor, true)
		}
	}
}

// handMadeName returns the DER of a name no certificate of the fixture
// has.
func handMadeName(t *testing.T) []byte {
	t.Helper()
	der, err := asn1.Marshal(pkix.Name{CommonName: "Hand-made subject"}.ToRDNSequence())
	if err != nil {
		t.Fatal(err)
	}
	return der
}

func TestRuleSharedSubject(t *testing.T) {
	f := fx(t)
	// A leaf with the anchor's subject and key and no SAN: crypto/x509
	// sees the anchor as already in the chain and finds no chain.
	inter := issue(t, caTemplate("Intermediate shared"), poolKey(kP256, 20), f.good)
	lt := leafTemplate("x")
	lt.Subject = f.good.Cert.Subject
	leaf := issue(t, lt, f.good.Key, inter)
	expect(t, f.store, []*x509.Certificate{leaf.Cert, inter.Cert}, at(""), reasonSharedSubject, false)
	// Two sent certificates with one name.
	_, in2, chain := chainUnder(t, f.good, nil, nil)
	dt := caTemplate("decoy")
	dt.Subject = in2.Cert.Subject
	decoy := issue(t, dt, poolKey(kP256, 31), f.good)
	expect(t, f.store, append(chain, decoy.Cert), at("www.example.com"), reasonSharedSubject, true)
	// A sent certificate with the leaf's subject.
	leaf2, _, chain2 := chainUnder(t, f.good, nil, nil)
	st := caTemplate("x")
	st.Subject = leaf2.Cert.Subject
	same := issue(t, st, poolKey(kP256, 31), f.good2)
	expect(t, f.store, append(chain2, same.Cert), at("www.example.com"), reasonSharedSubject, true)
}

func TestRuleNoIssuer(t *testing.T) {
	f := fx(t)
	_, _, chain := chainUnder(t, f.unknown, nil, nil)
	expect(t, f.store, chain, at("www.example.com"), reasonNoIssuer, false)
}

func TestRuleAmbiguousIssuer(t *testing.T) {
	f := fx(t)
	// Root A cross-signed by Root B, sent along: crypto/x509 finds two
	// chains.
	xt := caTemplate("x")
	xt.Subject = f.good.Cert.Subject
	cross := issue(t, xt, f.good.Key, f.good2)
	_, _, chain := chainUnder(t, f.good, nil, nil)
	expect(t, f.store, append(chain, cross.Cert), at("www.example.com"), reasonAmbiguousIssuer, true)
	// Two anchors with one name.
	_, _, chain = chainUnder(t, f.twinA, nil, nil)
	expect(t, f.store, chain, at("www.example.com"), reasonAmbiguousIssuer, true)
}

func TestRuleLoop(t *testing.T) {
	f := fx(t)
	a0 := issue(t, caTemplate("Loop A"), poolKey(kP256, 32), nil)
	b := issue(t, caTemplate("Loop B"), poolKey(kP256, 33), a0)
	a := issue(t, caTemplate("Loop A"), poolKey(kP256, 32), b)
	a.Cert.Subject = pkix.Name{}
	leaf := issue(t, leafTemplate("loop leaf", "www.example.com"), poolKey(kP256, 34), a)
	expect(t, f.store, []*x509.Certificate{leaf.Cert, a.Cert, b.Cert}, at("www.example.com"), reasonLoop, false)
}

func TestRuleNameConstraints(t *testing.T) {
	f := fx(t)
	_, _, chain := chainUnder(t, f.good, func(c *x509.Certificate) { c.PermittedDNSDomains = []string{"example.com"} }, nil)
	expect(t, f.store, chain, at("foo.example.org"), reasonNameConstraints, false)
	_, _, chain = chainUnder(t, f.nc, nil, nil)
	expect(t, f.store, chain, at("foo.example.org"), reasonNameConstraints, false)
}

func TestRulePolicyMappings(t *testing.T) {
	f := fx(t)
	// On the anchor the extension is not processed; on an intermediate a
	// mapping of anyPolicy fails the chain.
	_, _, chain := chainUnder(t, f.pmap, nil, nil)
	expect(t, f.store, chain, at("www.example.com"), reasonPolicyMappings, true)
	_, _, chain = chainUnder(t, f.good, func(c *x509.Certificate) {
		c.ExtraExtensions = []pkix.Extension{policiesExt(oidPolicyA), policyMappingsExt(oidAnyPolicy, oidPolicyB)}
	}, nil)
	expect(t, f.store, chain, at("www.example.com"), reasonPolicyMappings, false)
}

func TestRulePolicyConstraints(t *testing.T) {
	f := fx(t)
	_, _, chain := chainUnder(t, f.polc, nil, nil)
	expect(t, f.store, chain, at("www.example.com"), reasonPolicyConstraints, true)
	// requireExplicitPolicy 0 on an intermediate, and a leaf without
	// policies: crypto/x509 refuses.
	_, _, chain = chainUnder(t, f.good, func(c *x509.Certificate) { c.ExtraExtensions = []pkix.Extension{policyConstraintsExt()} }, nil)
	expect(t, f.store, chain, at("www.example.com"), reasonPolicyConstraints, false)
}

func TestRuleInhibitAnyPolicy(t *testing.T) {
	f := fx(t)
	_, _, chain := chainUnder(t, f.inhibit, nil, nil)
	expect(t, f.store, chain, at("www.example.com"), reasonInhibitAnyPolicy, true)
	_, _, chain = chainUnder(t, f.good, func(c *x509.Certificate) { c.ExtraExtensions = []pkix.Extension{inhibitAnyPolicyExt()} }, nil)
	expect(t, f.store, chain, at("www.example.com"), reasonInhibitAnyPolicy, true)
}

func TestRuleCriticalExtension(t *testing.T) {
	f := fx(t)
	_, _, chain := chainUnder(t, f.good, nil, func(c *x509.Certificate) { c.ExtraExtensions = []pkix.Extension{criticalExt()} })
	expect(t, f.store, chain, at("www.example.com"), reasonCriticalExtension, false)
	_, _, chain = chainUnder(t, f.crit, nil, nil)
	expect(t, f.store, chain, at("www.example.com"), reasonCriticalExtension, false)
}

func TestRuleSignatureAlgorithm(t *testing.T) {
	f := fx(t)
	// A link signed with an RSA key under the name of an ECDSA anchor:
	// crypto/x509 refuses an algorithm of another family than the key
	// (verifying it as RSA would need an RSA key).
	ft := caTemplate("x")
	ft.Subject = f.good.Cert.Subject
	fake := issue(t, ft, poolKey(kRSA, 1), nil)
	_, _, chain := chainUnder(t, fake, nil, nil)
	expect(t, f.store, chain, at("www.example.com"), reasonSignatureAlgorithm, false)
	// And an ECDSA signature under the name of an RSA anchor.
	ft = caTemplate("x")
	ft.Subject = f.rsa.Cert.Subject
	fake = issue(t, ft, poolKey(kP256, 30), nil)
	_, _, chain = chainUnder(t, fake, nil, nil)
	expect(t, f.store, chain, at("www.example.com"), reasonSignatureAlgorithm, false)
	// Links signed by an Ed25519 anchor, and by an RSA anchor with RSA-PSS
	// (crypto/x509 accepts) and SHA-1 (it refuses).
	_, _, chain = chainUnder(t, f.ed, nil, nil)
	expect(t, f.store, chain, at("www.example.com"), reasonSignatureAlgorithm, true)
	for _, alg := range []x509.SignatureAlgorithm{x509.SHA256WithRSAPSS, x509.SHA384WithRSAPSS, x509.SHA512WithRSAPSS} {
		_, _, chain = chainUnder(t, f.rsa, func(c *x509.Certificate) { c.SignatureAlgorithm = alg }, nil)
		expect(t, f.store, chain, at("www.example.com"), reasonSignatureAlgorithm, true)
	}
	_, _, chain = chainUnder(t, f.rsa, func(c *x509.Certificate) { c.SignatureAlgorithm = x509.SHA1WithRSA }, nil)
	expect(t, f.store, chain, at("www.example.com"), reasonSignatureAlgorithm, false)
	// PKCS #1 v1.5 with SHA-256, SHA-384 and SHA-512 is taken.
	for _, alg := range []x509.SignatureAlgorithm{x509.SHA256WithRSA, x509.SHA384WithRSA, x509.SHA512WithRSA} {
		_, _, chain = chainUnder(t, f.rsa4096, func(c *x509.Certificate) { c.SignatureAlgorithm = alg }, nil)
		expect(t, f.store, chain, at("www.example.com"), accepted, true)
	}
}

// TestRuleRSAAlgorithmParameters: an RSA PKCS #1 v1.5 link whose
// AlgorithmIdentifier has no parameters (RFC 4055 asks verifiers to accept
// it; crypto/x509 does) is taken on the fast path like one with NULL
// parameters, for each hash; other parameters, which crypto/x509 ignores,
// go to crypto/x509.
func TestRuleRSAAlgorithmParameters(t *testing.T) {
	f := fx(t)
	for _, alg := range []x509.SignatureAlgorithm{x509.SHA256WithRSA, x509.SHA384WithRSA, x509.SHA512WithRSA} {
		t.Run(alg.String(), func(t *testing.T) {
			h, ai, _ := bareRSA(alg)
			leaf, inter, _ := chainUnder(t, f.rsa4096, func(x *x509.Certificate) { x.SignatureAlgorithm = alg }, nil)
			bare := withSignatureAI(t, inter.Cert, ai, f.rsa4096, h)
			if bare.SignatureAlgorithm != alg {
				t.Fatalf("parsed as %v", bare.SignatureAlgorithm)
			}
			chain := []*x509.Certificate{leaf.Cert, bare}
			expect(t, f.store, chain, at("www.example.com"), accepted, true)
			expect(t, f.store, chain, at("www.example.com"), accepted, true) // cached
			bad := withSignatureAI(t, inter.Cert, ai, f.rsa, h)              // signed by another key
			expect(t, f.store, []*x509.Certificate{leaf.Cert, bad}, at("www.example.com"), reasonSignature, false)
			// Parameters that are neither NULL nor absent.
			odd := append(append([]byte{0x30, byte(len(ai))}, ai[2:]...), 0x04, 0x00)
			other := withSignatureAI(t, inter.Cert, odd, f.rsa4096, h)
			expect(t, f.store, []*x509.Certificate{leaf.Cert, other}, at("www.example.com"), reasonNotParsed, true)
		})
	}
}

// TestRuleRSAKey: RSA issuers of 2048, 3072 and 4096 bits with E = 65537
// are verified on the fast path, anywhere on the path; other sizes and
// exponents, and structs whose key is not what the parser makes, go to
// crypto/x509.
func TestRuleRSAKey(t *testing.T) {
	f := fx(t)
	for _, root := range []*node{f.rsa, f.rsa4096} {
		_, _, chain := chainUnder(t, root, nil, nil)
		expect(t, f.store, chain, at("www.example.com"), accepted, true)
		expect(t, f.store, chain, at("www.example.com"), accepted, true) // cached
	}
	// RSA intermediates under ECDSA and RSA anchors, leaves signed by RSA.
	for _, k := range []keyKind{kRSA, kRSA3072, kRSA4096} {
		for _, root := range []*node{f.good, f.p384, f.rsa4096} {
			in := issue(t, caTemplate(fmt.Sprintf("RSA intermediate %d", k)), poolKey(k, 1), root)
			lf := issue(t, leafTemplate("leaf", "www.example.com"), poolKey(kP256, 21), in)
			expect(t, f.store, []*x509.Certificate{lf.Cert, in.Cert}, at("www.example.com"), accepted, true)
			expect(t, f.store, []*x509.Certificate{corrupt(t, lf.Cert), in.Cert}, at("www.example.com"), reasonSignature, false)
		}
	}
	for _, root := range []*node{f.rsa1024, f.rsa2056, f.rsaE3} {
		_, _, chain := chainUnder(t, root, nil, nil)
		expect(t, f.store, chain, at("www.example.com"), reasonIssuerKey, true)
	}
	for _, k := range []keyKind{kRSA1024, kRSA2056, kRSAE3} {
		in := issue(t, caTemplate(fmt.Sprintf("Odd RSA intermediate %d", k)), poolKey(k, 0), f.good)
		lf := issue(t, leafTemplate("leaf", "www.example.com"), poolKey(kP256, 21), in)
		expect(t, f.store, []*x509.Certificate{lf.Cert, in.Cert}, at("www.example.com"), reasonIssuerKey, true)
	}
	// Hand-made structs: after the genuine chain has warmed the link cache,
	// a negated or nil modulus, another exponent, or a PublicKeyAlgorithm
	// that is not RSA must not reach the cache or crypto/rsa.
	in := issue(t, caTemplate("RSA intermediate struct"), poolKey(kRSA, 1), f.good)
	lf := issue(t, leafTemplate("leaf", "www.example.com"), poolKey(kP256, 21), in)
	expect(t, f.store, []*x509.Certificate{lf.Cert, in.Cert}, at("www.example.com"), accepted, true)
	pub := in.Cert.PublicKey.(*rsa.PublicKey)
	for _, m := range []struct {
		edit   func(c *x509.Certificate)
		x509OK bool // crypto/x509's answer
	}{
		// crypto/rsa verifies with |N|.
		{func(c *x509.Certificate) { c.PublicKey = &rsa.PublicKey{N: new(big.Int).Neg(pub.N), E: pub.E} }, true},
		{func(c *x509.Certificate) { c.PublicKey = &rsa.PublicKey{E: pub.E} }, false},
		{func(c *x509.Certificate) { c.PublicKey = &rsa.PublicKey{N: pub.N, E: 3} }, false},
		{func(c *x509.Certificate) { c.PublicKey = &rsa.PublicKey{N: pub.N, E: 65539} }, false},
		{func(c *x509.Certificate) { c.PublicKey = (*rsa.PublicKey)(nil) }, false}, // crypto/x509 panics
		// CheckSignatureFrom only refuses UnknownPublicKeyAlgorithm.
		{func(c *x509.Certificate) { c.PublicKeyAlgorithm = x509.ECDSA }, true},
		{func(c *x509.Certificate) { c.PublicKeyAlgorithm = x509.UnknownPublicKeyAlgorithm }, false},
	} {
		forged := *in.Cert
		m.edit(&forged)
		expect(t, f.store, []*x509.Certificate{lf.Cert, &forged}, at("www.example.com"), reasonIssuerKey, m.x509OK)
	}
}

// TestRuleRSAKeyIDs: a key id names the RSA key, modulus and exponent
// both: the same modulus with another exponent is another key.
func TestRuleRSAKeyIDs(t *testing.T) {
	k := poolKey(kRSA, 0).(*rsa.PrivateKey)
	id, ok := keyIDOf(&k.PublicKey)
	if !ok {
		t.Fatal("no id for a valid RSA key")
	}
	for _, o := range []*rsa.PublicKey{
		{N: k.N, E: 3},
		{N: new(big.Int).Add(k.N, big.NewInt(2)), E: k.E},
		&poolKey(kRSA, 1).(*rsa.PrivateKey).PublicKey,
	} {
		if oid, ok := keyIDOf(o); !ok || oid == id {
			t.Errorf("key (E = %d, N = …%x) has id %x, ok %v", o.E, o.N.Bytes()[len(o.N.Bytes())-2:], oid[:4], ok)
		}
	}
	for _, bad := range []*rsa.PublicKey{nil, {E: 65537}, {N: new(big.Int).Neg(k.N), E: k.E}, {N: k.N}, {N: k.N, E: -1},
		{N: k.N, E: 1 << 31}, {N: new(big.Int).Lsh(big.NewInt(1), 8192), E: k.E}} {
		if _, ok := keyIDOf(bad); ok {
			t.Errorf("an id for the invalid RSA key %v", bad)
		}
	}
	if _, ok := keyIDOf(&rsa.PublicKey{N: new(big.Int).Lsh(big.NewInt(1), 8191), E: k.E}); !ok {
		t.Error("no id for an 8192-bit modulus")
	}
}

// TestRuleRSAGODEBUG: the link cache must not outlive a setting that
// changes crypto/rsa's answer. Under GODEBUG=rsa1024min=0 crypto/x509
// accepts a 512-bit RSA anchor, and refuses it again once the setting is
// gone; the fast path never takes such a key, so Verify follows.
func TestRuleRSAGODEBUG(t *testing.T) {
	t.Setenv("GODEBUG", "rsa1024min=0")
	k, err := rsa.GenerateKey(rand.Reader, 512)
	if err != nil {
		t.Fatal(err)
	}
	root := issue(t, caTemplate("Root RSA-512"), k, nil)
	s, err := New([]*x509.Certificate{root.Cert})
	if err != nil {
		t.Fatal(err)
	}
	_, _, chain := chainUnder(t, root, nil, nil)
	expect(t, s, chain, at("www.example.com"), reasonIssuerKey, true)
	os.Setenv("GODEBUG", "")
	expect(t, s, chain, at("www.example.com"), reasonIssuerKey, false)
}

func TestRuleIssuerKey(t *testing.T) {
	f := fx(t)
	for _, root := range []*node{f.p521, f.p224} {
		_, _, chain := chainUnder(t, root, nil, nil)
		expect(t, f.store, chain, at("www.example.com"), reasonIssuerKey, true)
	}
}

func TestRuleValidity(t *testing.T) {
	f := fx(t)
	leaf, _, chain := chainUnder(t, f.good, nil, nil)
	at := func(tm time.Time) VerifyOptions { return VerifyOptions{DNSName: "www.example.com", CurrentTime: tm} }
	na, nb := leaf.Cert.NotAfter, leaf.Cert.NotBefore
	expect(t, f.store, chain, at(na), accepted, true)
	expect(t, f.store, chain, at(nb), accepted, true)
	expect(t, f.store, chain, at(na.Add(time.Nanosecond)), reasonValidity, false)
	expect(t, f.store, chain, at(na.Add(500*time.Millisecond)), reasonValidity, false)
	expect(t, f.store, chain, at(nb.Add(-time.Nanosecond)), reasonValidity, false)
	expect(t, f.store, chain, at(nb.Add(-999*time.Millisecond)), reasonValidity, false)
	_, _, chain = chainUnder(t, f.expired, nil, nil)
	expect(t, f.store, chain, at(t0), reasonValidity, false)
}

func TestRuleIssuerNotCA(t *testing.T) {
	f := fx(t)
	_, _, chain := chainUnder(t, f.good, func(c *x509.Certificate) { c.IsCA = false }, nil)
	expect(t, f.store, chain, at("www.example.com"), reasonNotCA, false)
	_, _, chain = chainUnder(t, f.good, func(c *x509.Certificate) { c.IsCA, c.BasicConstraintsValid = false, false }, nil)
	expect(t, f.store, chain, at("www.example.com"), reasonNotCA, false)
	_, _, chain = chainUnder(t, f.notCA, nil, nil)
	expect(t, f.store, chain, at("www.example.com"), reasonNotCA, false)
}

func TestRuleIssuerKeyUsage(t *testing.T) {
	f := fx(t)
	_, _, chain := chainUnder(t, f.good, func(c *x509.Certificate) { c.KeyUsage = x509.KeyUsageDigitalSignature }, nil)
	expect(t, f.store, chain, at("www.example.com"), reasonKeyUsage, false)
	_, _, chain = chainUnder(t, f.ku, nil, nil)
	expect(t, f.store, chain, at("www.example.com"), reasonKeyUsage, false)
	_, _, chain = chainUnder(t, f.good, func(c *x509.Certificate) { c.KeyUsage = 0 }, nil)
	expect(t, f.store, chain, at("www.example.com"), accepted, true)
}

func TestRulePathLen(t *testing.T) {
	f := fx(t)
	_, _, chain := chainUnder(t, f.pathLen0, nil, nil)
	expect(t, f.store, chain, at("www.example.com"), reasonPathLen, false)
	// MaxPathLen 0 on the intermediate itself is fine.
	_, _, chain = chainUnder(t, f.good, func(c *x509.Certificate) { c.MaxPathLen, c.MaxPathLenZero = 0, true }, nil)
	expect(t, f.store, chain, at("www.example.com"), accepted, true)
}

func TestRuleHostname(t *testing.T) {
	f := fx(t)
	_, _, chain := chainUnder(t, f.good, nil, nil)
	expect(t, f.store, chain, at("other.example.net"), reasonHostname, false)
	expect(t, f.store, chain, at("a.b.example.org"), reasonHostname, false)
	expect(t, f.store, chain, at("x.example.org"), accepted, true)
}

func TestRuleEKUDefaultServerAuth(t *testing.T) {
	f := fx(t)
	_, _, chain := chainUnder(t, f.good, nil, func(c *x509.Certificate) { c.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth} })
	expect(t, f.store, chain, at("www.example.com"), reasonEKU, false)
	opts := at("www.example.com")
	opts.KeyUsages = []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}
	expect(t, f.store, chain, opts, accepted, true)
}

func TestRuleEKUAnyRequest(t *testing.T) {
	f := fx(t)
	_, _, chain := chainUnder(t, f.good, nil, func(c *x509.Certificate) { c.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageCodeSigning} })
	opts := at("www.example.com")
	opts.KeyUsages = []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageAny}
	expect(t, f.store, chain, opts, accepted, true)
}

func TestRuleEKUNarrowing(t *testing.T) {
	f := fx(t)
	// The anchor allows ClientAuth only.
	_, _, chain := chainUnder(t, f.eku, nil, nil)
	expect(t, f.store, chain, at("www.example.com"), reasonEKU, false)
	opts := at("www.example.com")
	opts.KeyUsages = []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}
	expect(t, f.store, chain, opts, accepted, true)
	// An intermediate with an unknown usage only allows nothing known.
	_, _, chain = chainUnder(t, f.good, func(c *x509.Certificate) { c.UnknownExtKeyUsage = []asn1.ObjectIdentifier{oidUnknownEKU} }, nil)
	expect(t, f.store, chain, at("www.example.com"), reasonEKU, false)
	// Each request is crossed out independently.
	_, _, chain = chainUnder(t, f.good, func(c *x509.Certificate) { c.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth} },
		func(c *x509.Certificate) { c.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth} })
	opts.KeyUsages = []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth, x509.ExtKeyUsageServerAuth}
	expect(t, f.store, chain, opts, reasonEKU, false)
}

func TestRuleEKUAnyInCertificate(t *testing.T) {
	f := fx(t)
	_, _, chain := chainUnder(t, f.good, func(c *x509.Certificate) { c.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageAny} }, nil)
	expect(t, f.store, chain, at("www.example.com"), accepted, true)
	_, _, chain = chainUnder(t, f.good, func(c *x509.Certificate) {
		c.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageNetscapeServerGatedCrypto}
	}, nil)
	expect(t, f.store, chain, at("www.example.com"), reasonEKUUnhandled, false)
}

func TestRuleSignature(t *testing.T) {
	f := fx(t)
	leaf, inter, good := chainUnder(t, f.good, nil, nil)
	expect(t, f.store, good, at("www.example.com"), accepted, true)
	bad := corrupt(t, leaf.Cert)
	chain := []*x509.Certificate{bad, inter.Cert}
	// Twice: a failed link must not be remembered as verified.
	expect(t, f.store, chain, at("www.example.com"), reasonSignature, false)
	expect(t, f.store, chain, at("www.example.com"), reasonSignature, false)
	// A corrupted intermediate, verified under the anchor's table.
	badInter := corrupt(t, inter.Cert)
	expect(t, f.store, []*x509.Certificate{leaf.Cert, badInter}, at("www.example.com"), reasonSignature, false)
}

func TestRuleSignatureEncoding(t *testing.T) {
	f := fx(t)
	leaf, inter, _ := chainUnder(t, f.good, nil, nil)
	expect(t, f.store, []*x509.Certificate{padSignature(t, leaf.Cert), inter.Cert}, at("www.example.com"), reasonSignatureEncoding, false)
}

func TestRuleSentAnchorNotSelfIssued(t *testing.T) {
	f := fx(t)
	// Root Sub is an anchor issued by the anchor Root A. Sent along, its
	// copy is also an intermediate under Root A: crypto/x509 returns
	// [leaf, I, Sub] and [leaf, I, Sub, A].
	_, _, chain := chainUnder(t, f.sub, nil, nil)
	expect(t, f.store, chain, at("www.example.com"), accepted, true)
	expect(t, f.store, append(chain, f.sub.Cert), at("www.example.com"), reasonSentAnchorIssued, true)
	if xchains, _, _ := x509Verify(f.store, &scenario{chain: append(chain, f.sub.Cert), opts: at("www.example.com")}); len(xchains) != 2 {
		t.Errorf("crypto/x509 returned %d chains, want 2", len(xchains))
	}
	// Its issuer is not an anchor: still declined (crypto/x509 finds one
	// chain, or two if the issuer is sent too).
	_, _, chain = chainUnder(t, f.subOrphan, nil, nil)
	expect(t, f.store, append(chain, f.subOrphan.Cert), at("www.example.com"), reasonSentAnchorIssued, true)
	expect(t, f.store, append(chain, f.subOrphan.Cert, f.offline.Cert), at("www.example.com"), reasonSentAnchorIssued, true)
	// A self-signed anchor sent along stays on the fast path.
	_, _, chain = chainUnder(t, f.good, nil, nil)
	expect(t, f.store, append(chain, f.good.Cert), at("www.example.com"), accepted, true)
}
