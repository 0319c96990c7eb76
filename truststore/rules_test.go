package truststore

import (
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
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
	return leaf, inter, []*x509.Certificate{leaf.cert, inter.cert}
}

func at(dns string) VerifyOptions { return VerifyOptions{DNSName: dns, CurrentTime: t0} }

// expect checks parity with crypto/x509 and the fast path's reason.
func expect(t *testing.T, s *Store, chain []*x509.Certificate, opts VerifyOptions, want reason, x509OK bool) {
	t.Helper()
	sc := &scenario{desc: []string{t.Name()}, chain: chain, opts: opts}
	_, got := compareWithX509(t, s, sc)
	if got != want {
		t.Errorf("fast path: %v, want %v", got, want)
	}
	_, err := s.Verify(chain, opts)
	if (err == nil) != x509OK {
		t.Errorf("Verify error %v, want success %v", err, x509OK)
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
	forged := *leaf.cert
	forged.RawTBSCertificate = other.cert.RawTBSCertificate
	forged.DNSNames = other.cert.DNSNames
	expect(t, f.store, []*x509.Certificate{&forged, chain[1]}, at("evil.example.com"), reasonNotParsed, false)
	// The same Raw with another hash.
	forged = *leaf.cert
	forged.SignatureAlgorithm = x509.ECDSAWithSHA384
	expect(t, f.store, []*x509.Certificate{&forged, chain[1]}, at("www.example.com"), reasonNotParsed, false)
	// Not parsed at all.
	bare := &x509.Certificate{}
	expect(t, f.store, []*x509.Certificate{leaf.cert, bare, chain[1]}, at("www.example.com"), reasonNotParsed, false)
}

func TestRuleTooMany(t *testing.T) {
	f := fx(t)
	parent := f.good
	var ints []*x509.Certificate
	for i := range 7 {
		n := issue(t, caTemplate("Long "+string(rune('a'+i))), poolKey(kP256, 22+i), parent)
		ints = append([]*x509.Certificate{n.cert}, ints...)
		parent = n
	}
	leaf := issue(t, leafTemplate("long leaf", "www.example.com"), poolKey(kP256, 30), parent)
	chain := append([]*x509.Certificate{leaf.cert}, ints...)
	// 8 sent, a path of 9 with the anchor.
	expect(t, f.store, chain, at("www.example.com"), reasonTooMany, true)
	// 9 sent.
	expect(t, f.store, append(chain, f.good.cert), at("www.example.com"), reasonTooMany, true)
	// 9 sent, most of them unrelated, for a short path.
	_, _, short := chainUnder(t, f.good, nil, nil)
	for i := range 7 {
		short = append(short, issue(t, caTemplate("Unrelated "+string(rune('a'+i))), poolKey(kP256, 22+i), f.good).cert)
	}
	expect(t, f.store, short, at("www.example.com"), reasonTooMany, true)
	expect(t, f.store, short[:8], at("www.example.com"), accepted, true)
	// 7 sent, a path of 8: handled.
	leaf7 := issue(t, leafTemplate("long leaf 7", "www.example.com"), poolKey(kP256, 30), &node{cert: ints[1], key: poolKey(kP256, 27)})
	expect(t, f.store, append([]*x509.Certificate{leaf7.cert}, ints[1:]...), at("www.example.com"), accepted, true)
}

func TestRuleLeafIsAnchor(t *testing.T) {
	f := fx(t)
	chain := []*x509.Certificate{f.leafAnchor.cert}
	expect(t, f.store, chain, at("anchor.example.com"), reasonLeafIsAnchor, true)
}

func TestRuleSharedSubject(t *testing.T) {
	f := fx(t)
	// A leaf with the anchor's subject and key and no SAN: crypto/x509
	// sees the anchor as already in the chain and finds no chain.
	inter := issue(t, caTemplate("Intermediate shared"), poolKey(kP256, 20), f.good)
	lt := leafTemplate("x")
	lt.Subject = f.good.cert.Subject
	leaf := issue(t, lt, f.good.key, inter)
	expect(t, f.store, []*x509.Certificate{leaf.cert, inter.cert}, at(""), reasonSharedSubject, false)
	// Two sent certificates with one name.
	_, in2, chain := chainUnder(t, f.good, nil, nil)
	dt := caTemplate("decoy")
	dt.Subject = in2.cert.Subject
	decoy := issue(t, dt, poolKey(kP256, 31), f.good)
	expect(t, f.store, append(chain, decoy.cert), at("www.example.com"), reasonSharedSubject, true)
	// A sent certificate with the leaf's subject.
	leaf2, _, chain2 := chainUnder(t, f.good, nil, nil)
	st := caTemplate("x")
	st.Subject = leaf2.cert.Subject
	same := issue(t, st, poolKey(kP256, 31), f.good2)
	expect(t, f.store, append(chain2, same.cert), at("www.example.com"), reasonSharedSubject, true)
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
	xt.Subject = f.good.cert.Subject
	cross := issue(t, xt, f.good.key, f.good2)
	_, _, chain := chainUnder(t, f.good, nil, nil)
	expect(t, f.store, append(chain, cross.cert), at("www.example.com"), reasonAmbiguousIssuer, true)
	// Two anchors with one name.
	_, _, chain = chainUnder(t, f.twinA, nil, nil)
	expect(t, f.store, chain, at("www.example.com"), reasonAmbiguousIssuer, true)
}

func TestRuleLoop(t *testing.T) {
	f := fx(t)
	a0 := issue(t, caTemplate("Loop A"), poolKey(kP256, 32), nil)
	b := issue(t, caTemplate("Loop B"), poolKey(kP256, 33), a0)
	a := issue(t, caTemplate("Loop A"), poolKey(kP256, 32), b)
	a.cert.Subject = pkix.Name{}
	leaf := issue(t, leafTemplate("loop leaf", "www.example.com"), poolKey(kP256, 34), a)
	expect(t, f.store, []*x509.Certificate{leaf.cert, a.cert, b.cert}, at("www.example.com"), reasonLoop, false)
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
	leaf, _, chain := chainUnder(t, f.good, nil, nil)
	// An ECDSA signature labelled RSA: crypto/x509 refuses it.
	forged := *leaf.cert
	forged.SignatureAlgorithm = x509.SHA256WithRSA
	expect(t, f.store, []*x509.Certificate{&forged, chain[1]}, at("www.example.com"), reasonSignatureAlgorithm, false)
	// Links signed by RSA and Ed25519 anchors: the intermediate's
	// signature is not ECDSA.
	for _, root := range []*node{f.rsa, f.ed} {
		_, _, chain = chainUnder(t, root, nil, nil)
		expect(t, f.store, chain, at("www.example.com"), reasonSignatureAlgorithm, true)
	}
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
	na, nb := leaf.cert.NotAfter, leaf.cert.NotBefore
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
	bad := corrupt(t, leaf.cert)
	chain := []*x509.Certificate{bad, inter.cert}
	// Twice: a failed link must not be remembered as verified.
	expect(t, f.store, chain, at("www.example.com"), reasonSignature, false)
	expect(t, f.store, chain, at("www.example.com"), reasonSignature, false)
	// A corrupted intermediate, verified under the anchor's table.
	badInter := corrupt(t, inter.cert)
	expect(t, f.store, []*x509.Certificate{leaf.cert, badInter}, at("www.example.com"), reasonSignature, false)
}

func TestRuleSignatureEncoding(t *testing.T) {
	f := fx(t)
	leaf, inter, _ := chainUnder(t, f.good, nil, nil)
	expect(t, f.store, []*x509.Certificate{padSignature(t, leaf.cert), inter.cert}, at("www.example.com"), reasonSignatureEncoding, false)
}

func TestRuleSentAnchorNotSelfIssued(t *testing.T) {
	f := fx(t)
	// Root Sub is an anchor issued by the anchor Root A. Sent along, its
	// copy is also an intermediate under Root A: crypto/x509 returns
	// [leaf, I, Sub] and [leaf, I, Sub, A].
	_, _, chain := chainUnder(t, f.sub, nil, nil)
	expect(t, f.store, chain, at("www.example.com"), accepted, true)
	expect(t, f.store, append(chain, f.sub.cert), at("www.example.com"), reasonSentAnchorIssued, true)
	if xchains, _, _ := x509Verify(f.store, &scenario{chain: append(chain, f.sub.cert), opts: at("www.example.com")}); len(xchains) != 2 {
		t.Errorf("crypto/x509 returned %d chains, want 2", len(xchains))
	}
	// Its issuer is not an anchor: still declined (crypto/x509 finds one
	// chain, or two if the issuer is sent too).
	_, _, chain = chainUnder(t, f.subOrphan, nil, nil)
	expect(t, f.store, append(chain, f.subOrphan.cert), at("www.example.com"), reasonSentAnchorIssued, true)
	expect(t, f.store, append(chain, f.subOrphan.cert, f.offline.cert), at("www.example.com"), reasonSentAnchorIssued, true)
	// A self-signed anchor sent along stays on the fast path.
	_, _, chain = chainUnder(t, f.good, nil, nil)
	expect(t, f.store, append(chain, f.good.cert), at("www.example.com"), accepted, true)
}
