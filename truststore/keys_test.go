package truststore

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/fips140"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"errors"
	"math/big"
	"testing"
)

// Issuer keys that crypto/ecdsa refuses must never reach a cache: the link
// cache, an anchor's table or a hot table. Certificate structs are built
// by hand here, as a caller of Store.Verify may.

// withKey returns a copy of c with public key pub.
func withKey(c *x509.Certificate, pub any) *x509.Certificate {
	d := *c
	d.PublicKey = pub
	return &d
}

// badKeys are variants of pub that crypto/ecdsa refuses, by name.
func badKeys(pub *ecdsa.PublicKey) map[string]any {
	p := pub.Curve.Params().P
	return map[string]any{
		"neg-x":       &ecdsa.PublicKey{Curve: pub.Curve, X: new(big.Int).Neg(pub.X), Y: pub.Y},
		"neg-y":       &ecdsa.PublicKey{Curve: pub.Curve, X: pub.X, Y: new(big.Int).Neg(pub.Y)},
		"x-plus-p":    &ecdsa.PublicKey{Curve: pub.Curve, X: new(big.Int).Add(pub.X, p), Y: pub.Y},
		"y-plus-p":    &ecdsa.PublicKey{Curve: pub.Curve, X: pub.X, Y: new(big.Int).Add(pub.Y, p)},
		"x-2^300":     &ecdsa.PublicKey{Curve: pub.Curve, X: new(big.Int).Lsh(big.NewInt(1), 300), Y: pub.Y},
		"off-curve":   &ecdsa.PublicKey{Curve: pub.Curve, X: pub.X, Y: new(big.Int).Add(pub.Y, big.NewInt(1))},
		"p384-curve":  &ecdsa.PublicKey{Curve: elliptic.P384(), X: pub.X, Y: pub.Y},
		"nil-x":       &ecdsa.PublicKey{Curve: pub.Curve, Y: pub.Y},
		"nil-y":       &ecdsa.PublicKey{Curve: pub.Curve, X: pub.X},
		"nil-curve":   &ecdsa.PublicKey{X: pub.X, Y: pub.Y},
		"typed-nil":   (*ecdsa.PublicKey)(nil),
		"value":       *pub,
		"nil":         nil,
		"zero-point":  &ecdsa.PublicKey{Curve: pub.Curve, X: new(big.Int), Y: new(big.Int)},
		"zero-struct": &ecdsa.PublicKey{},
	}
}

// expectKey checks parity and that the fast path declines for one of the
// issuer-key reasons.
func expectKey(t *testing.T, s *Store, name string, chain []*x509.Certificate) {
	t.Helper()
	sc := &scenario{desc: []string{t.Name(), name}, chain: chain, opts: at("www.example.com")}
	_, why := compareWithX509(t, s, sc)
	if why != reasonIssuerKey && why != reasonIssuerKeyInvalid {
		t.Errorf("%s: fast path: %v, want an issuer-key decline", name, why)
	}
	if goBoringCrypto && (name == "neg-x" || name == "neg-y") {
		// BoringCrypto's ECDSA reads a coordinate's absolute value, so
		// crypto/x509 accepts these there, and Verify with it
		// (compareWithX509); the fast path still declines.
		return
	}
	if _, err := s.Verify(chain, sc.opts); err == nil {
		t.Errorf("%s: Verify accepted", name)
	}
}

func TestRuleIssuerKeyInvalidLinkCache(t *testing.T) {
	f := fx(t)
	leaf, inter, chain := chainUnder(t, f.good, nil, nil)
	// The genuine chain puts (inter's key, leaf) in the link cache.
	expect(t, f.store, chain, at("www.example.com"), accepted, true)
	expect(t, f.store, chain, at("www.example.com"), accepted, true)
	for name, k := range badKeys(inter.Cert.PublicKey.(*ecdsa.PublicKey)) {
		expectKey(t, f.store, name, []*x509.Certificate{leaf.Cert, withKey(inter.Cert, k)})
	}
	// The genuine key with PublicKeyAlgorithm Unknown: CheckSignatureFrom
	// refuses it.
	d := *inter.Cert
	d.PublicKeyAlgorithm = x509.UnknownPublicKeyAlgorithm
	expectKey(t, f.store, "unknown-algorithm", []*x509.Certificate{leaf.Cert, &d})
}

func TestRuleIssuerKeyInvalidAnchorTable(t *testing.T) {
	f := fx(t)
	// An intermediate with Root A's key (under Root B) verifies with Root
	// A's table.
	it := caTemplate("Intermediate with the anchor's key")
	inter := issue(t, it, f.good.Key, f.good2)
	leaf := issue(t, leafTemplate("leaf", "www.example.com"), poolKey(kP256, 21), inter)
	expect(t, f.store, []*x509.Certificate{leaf.Cert, inter.Cert}, at("www.example.com"), accepted, true)
	for name, k := range badKeys(inter.Cert.PublicKey.(*ecdsa.PublicKey)) {
		// A new leaf each time, so no link is cached.
		l := issue(t, leafTemplate("leaf", "www.example.com"), poolKey(kP256, 21), inter)
		expectKey(t, f.store, name, []*x509.Certificate{l.Cert, withKey(inter.Cert, k)})
	}
}

func TestRuleIssuerKeyInvalidHotTable(t *testing.T) {
	s, err := New([]*x509.Certificate{fx(t).good.Cert})
	if err != nil {
		t.Fatal(err)
	}
	f := fx(t)
	inter := issue(t, caTemplate("Hot intermediate"), poolKey(kP256, 22), f.good)
	for range 8 {
		l := issue(t, leafTemplate("leaf", "www.example.com"), poolKey(kP256, 21), inter)
		expect(t, s, []*x509.Certificate{l.Cert, inter.Cert}, at("www.example.com"), accepted, true)
	}
	if st := s.Stats(); st.HotBuilt != 1 {
		t.Fatalf("HotBuilt = %d, want 1", st.HotBuilt)
	}
	for name, k := range badKeys(inter.Cert.PublicKey.(*ecdsa.PublicKey)) {
		l := issue(t, leafTemplate("leaf", "www.example.com"), poolKey(kP256, 21), inter)
		expectKey(t, s, name, []*x509.Certificate{l.Cert, withKey(inter.Cert, k)})
	}
}

// A sent struct with an anchor's DER but other fields is not the anchor:
// crypto/x509 treats it as an intermediate, which may give a second chain
// (or a panic), so the fast path must not drop it as a copy.
func TestRuleSentAnchorStruct(t *testing.T) {
	f := fx(t)
	_, _, chain := chainUnder(t, f.good, nil, nil)
	opts := at("www.example.com")
	expect(t, f.store, append(chain, f.good.Cert), opts, accepted, true)
	// With a subject alternative name the anchor lacks: crypto/x509 no
	// longer sees the anchor as already in the chain and also returns
	// [leaf, I, copy, A].
	san := *f.good.Cert
	san.Extensions = append([]pkix.Extension{{Id: asn1.ObjectIdentifier{2, 5, 29, 17}, Value: []byte{0x30, 0x00}}}, san.Extensions...)
	expect(t, f.store, append(chain, &san), opts, reasonAmbiguousIssuer, true)
	if xchains, _, _ := x509Verify(f.store, &scenario{chain: append(chain, &san), opts: opts}); len(xchains) != 2 {
		t.Errorf("crypto/x509 returned %d chains, want 2", len(xchains))
	}
	// A subject alternative name extension with an empty value: present
	// is not absent.
	san0 := *f.good.Cert
	san0.Extensions = append([]pkix.Extension{{Id: asn1.ObjectIdentifier{2, 5, 29, 17}}}, san0.Extensions...)
	expect(t, f.store, append(chain, &san0), opts, reasonAmbiguousIssuer, true)
	// With another RawIssuer or RawSubjectPublicKeyInfo.
	ri := *f.good.Cert
	ri.RawIssuer = f.good2.Cert.RawSubject
	expect(t, f.store, append(chain, &ri), opts, reasonAmbiguousIssuer, true)
	rk := *f.good.Cert
	rk.RawSubjectPublicKeyInfo = f.good2.Cert.RawSubjectPublicKeyInfo
	expect(t, f.store, append(chain, &rk), opts, reasonAmbiguousIssuer, true)
	// With another RawSubject, the name of the leaf's issuer: crypto/x509
	// finds the copy under that name among the intermediates and returns
	// [leaf, copy, A], as the fast path does when it keeps the copy as a
	// candidate (dropped as a copy of A, the leaf would have no issuer).
	rs := *f.good.Cert
	rs.RawSubject = handMadeName(t)
	rsLeaf := issue(t, leafTemplate("leaf under a hand-made name", "www.example.com"), poolKey(kP256, 21), &node{Cert: &rs, Key: f.good.Key})
	expect(t, f.store, []*x509.Certificate{rsLeaf.Cert, &rs}, opts, accepted, true)
	// With a key crypto/x509 refuses, or panics on.
	for name, k := range badKeys(f.good.Cert.PublicKey.(*ecdsa.PublicKey)) {
		sc := &scenario{desc: []string{t.Name(), name}, chain: append(chain, withKey(f.good.Cert, k)), opts: opts}
		if _, why := compareWithX509(t, f.store, sc); why == accepted {
			t.Errorf("%s: fast path accepted", name)
		}
	}
}

// crypto/x509 panics on some issuer structs; Verify reports an error.
func TestVerifyX509Panic(t *testing.T) {
	f := fx(t)
	leaf, inter, _ := chainUnder(t, f.good, nil, nil)
	bad := withKey(inter.Cert, &ecdsa.PublicKey{Curve: elliptic.P256(), Y: big.NewInt(1)})
	if _, _, panicked := x509Verify(f.store, &scenario{chain: []*x509.Certificate{leaf.Cert, bad}, opts: at("")}); !panicked {
		t.Skip("crypto/x509 no longer panics on a nil X")
	}
	_, err := f.store.Verify([]*x509.Certificate{leaf.Cert, bad}, at(""))
	if !errors.Is(err, errX509Panic) {
		t.Fatalf("Verify: %v, want errX509Panic", err)
	}
}

// A sent copy of anchor A whose RawIssuer names anchor B, which has A's key:
// crypto/x509 climbs from the copy to B, a second chain.
func TestRuleSentAnchorRawIssuer(t *testing.T) {
	a := issue(t, caTemplate("Dual A"), poolKey(kP256, 44), nil)
	b := issue(t, caTemplate("Dual B"), poolKey(kP256, 44), nil)
	s, err := New([]*x509.Certificate{a.Cert, b.Cert})
	if err != nil {
		t.Fatal(err)
	}
	inter := issue(t, caTemplate("Dual intermediate"), poolKey(kP256, 20), a)
	leaf := issue(t, leafTemplate("dual leaf", "www.example.com"), poolKey(kP256, 21), inter)
	chain := []*x509.Certificate{leaf.Cert, inter.Cert}
	opts := at("www.example.com")
	expect(t, s, append(chain, a.Cert), opts, accepted, true)
	copyA := *a.Cert
	copyA.RawIssuer = b.Cert.RawSubject
	expect(t, s, append(chain, &copyA), opts, reasonAmbiguousIssuer, true)
	if xchains, _, _ := x509Verify(s, &scenario{chain: append(chain, &copyA), opts: opts}); len(xchains) != 2 {
		t.Errorf("crypto/x509 returned %d chains, want 2", len(xchains))
	}
}

// An anchor whose key has no valid id (which loading never makes) is never
// a fast-path issuer.
func TestRuleAnchorKeyInvalid(t *testing.T) {
	f := fx(t)
	s, err := New([]*x509.Certificate{f.good.Cert})
	if err != nil {
		t.Fatal(err)
	}
	_, _, chain := chainUnder(t, f.good, nil, nil)
	expect(t, s, chain, at("www.example.com"), accepted, true)
	s.anchors[0].idOK = false
	s.ResetCaches()
	expect(t, s, chain, at("www.example.com"), reasonIssuerKeyInvalid, true)
}

// TestFIPSMalformedLeafKey re-runs itself with GODEBUG=fips140=on: leaf key
// structs the FIPS filter cannot read (nil pointers, nil modulus or curve)
// are refused, on the fast path and on the slow one, without a panic.
func TestFIPSMalformedLeafKey(t *testing.T) {
	if !fipsChild(t, "TestFIPSMalformedLeafKey", "on") {
		return
	}
	if !fips140.Enabled() {
		t.Fatal("fips140 not enabled in the child")
	}
	checkMalformedLeafKeys(t)
}

// checkMalformedLeafKeys checks, where the FIPS filter applies, that leaf
// key structs it cannot read are refused on both paths.
func checkMalformedLeafKeys(t *testing.T) {
	f := fx(t)
	for _, root := range []*node{f.good, f.rsa} { // fast path, slow path
		leaf, _, chain := chainUnder(t, root, nil, nil)
		for _, k := range []any{(*rsa.PublicKey)(nil), &rsa.PublicKey{}, (*ecdsa.PublicKey)(nil), &ecdsa.PublicKey{}} {
			// crypto/x509 accepts (it never reads the leaf's key); the FIPS
			// filter refuses.
			if _, err := f.store.Verify([]*x509.Certificate{withKey(leaf.Cert, k), chain[1]}, at("www.example.com")); !errors.Is(err, errNoFIPSChain) {
				t.Errorf("%s: leaf key %#v with the FIPS filter: %v, want errNoFIPSChain", root.Cert.Subject.CommonName, k, err)
			}
		}
	}
}
