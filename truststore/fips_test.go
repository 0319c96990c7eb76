package truststore

import (
	"crypto"
	"crypto/fips140"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net"
	"os"
	"testing"
	"time"

	"github.com/p256tls/p256tls/internal/testsupport/selfexec"
)

// TestFIPSKeyRules: both of crypto/tls's FIPS key rules, whichever this
// build applies, key by key (crypto/tls's defaults_fips140.go and
// defaults_boring.go). The matrix tests check the rule in force against
// crypto/tls itself: TestFIPS and TestFIPSOnly the Go Cryptographic
// Module's, TestBoringFIPSOnly (GOEXPERIMENT=boringcrypto) BoringCrypto's.
func TestFIPSKeyRules(t *testing.T) {
	rsaKey := func(k keyKind) crypto.PublicKey { return poolKey(k, 0).Public() }
	for _, k := range []struct {
		name           string
		pub            crypto.PublicKey
		native, boring bool
	}{
		{"RSA-1024", rsaKey(kRSA1024), false, false},
		{"RSA-2048", rsaKey(kRSA), true, true},
		{"RSA-2048 E=3", rsaKey(kRSAE3), true, true},
		{"RSA-2051", rsaKey(kRSA2051), true, false},
		{"RSA-2056", rsaKey(kRSA2056), true, false},
		{"RSA-3072", rsaKey(kRSA3072), true, true},
		{"RSA-4096", rsaKey(kRSA4096), true, true},
		{"RSA-8192", rsa8192PublicOnly().pub, true, false},
		{"P-224", poolKey(kP224, 0).Public(), false, false},
		{"P-256", poolKey(kP256, 0).Public(), true, true},
		{"P-384", poolKey(kP384, 0).Public(), true, true},
		{"P-521", poolKey(kP521, 0).Public(), true, true},
		{"Ed25519", poolKey(kEd25519, 0).Public(), true, false},
		{"none", nil, false, false},
	} {
		c := &x509.Certificate{PublicKey: k.pub}
		if got := fipsKeyAllowed(c, false); got != k.native {
			t.Errorf("%s: Go Cryptographic Module's rule: %v, want %v", k.name, got, k.native)
		}
		if got := fipsKeyAllowed(c, true); got != k.boring {
			t.Errorf("%s: BoringCrypto's rule: %v, want %v", k.name, got, k.boring)
		}
	}
}

// fipsChild reports whether this process is the child that runs test name
// with GODEBUG=fips140=mode. In the parent it re-runs the test binary for
// that one test in that mode, fails t if the child fails, logs the child's
// output and returns false (the caller returns). It skips t under the purego
// tag, where FIPS 140-3 mode cannot start, and in a Go+BoringCrypto build,
// where it cannot start either (with cgo) and crypto/tls applies
// BoringCrypto's rule instead (TestBoringFIPSOnly).
func fipsChild(t *testing.T, name, mode string) bool {
	t.Helper()
	if puregoBuild {
		t.Skip("FIPS 140-3 mode cannot start with the purego build tag; the default build runs this test")
	}
	if goBoringCrypto {
		t.Skip("GODEBUG=fips140 cannot start in a Go+BoringCrypto build (with cgo), and crypto/tls applies BoringCrypto's rule there: TestBoringFIPSOnly")
	}
	if os.Getenv("TRUSTSTORE_FIPS_CHILD") == mode {
		return true
	}
	cmd := selfexec.Command("-test.run=^"+name+"$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), "TRUSTSTORE_FIPS_CHILD="+mode, "GODEBUG=fips140="+mode)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("FIPS child: %v\n%s", err, out)
	}
	t.Logf("%s", out)
	return false
}

// TestFIPS re-runs itself with GODEBUG=fips140=on: chains with a key
// crypto/tls refuses in FIPS 140-3 mode must fail, on the fast path and on
// the slow one, although crypto/x509 accepts them; the chains of
// newFIPSMatrix (RSA-2048, 3072 and 4096 and P-384 issuers on the fast path,
// the others on crypto/x509) get crypto/tls's answer.
func TestFIPS(t *testing.T) {
	if !fipsChild(t, "TestFIPS", "on") {
		return
	}
	if !fips140.Enabled() {
		t.Fatal("fips140 not enabled in the child")
	}
	f := newFixture(t)
	// A P-224 leaf key under a P-256 chain: the fast path would accept.
	inter := issue(t, caTemplate("FIPS intermediate"), poolKey(kP256, 20), f.good)
	leaf := issue(t, leafTemplate("fips leaf", "www.example.com"), poolKey(kP224, 1), inter)
	chain := []*x509.Certificate{leaf.Cert, inter.Cert}
	opts := VerifyOptions{DNSName: "www.example.com", CurrentTime: t0}
	if _, r := f.store.fastPath(chain, &opts, t0); r != reasonFIPS {
		t.Errorf("fast path: %v, want %v", r, reasonFIPS)
	}
	if _, err := f.store.Verify(chain, opts); err == nil {
		t.Error("a P-224 leaf passed in FIPS mode")
	}
	// A P-224 anchor: the slow path's answer is filtered too.
	inter2 := issue(t, caTemplate("FIPS intermediate 2"), poolKey(kP256, 20), f.p224)
	leaf2 := issue(t, leafTemplate("fips leaf 2", "www.example.com"), poolKey(kP256, 21), inter2)
	chain2 := []*x509.Certificate{leaf2.Cert, inter2.Cert}
	pool := x509.NewCertPool()
	pool.AddCert(inter2.Cert)
	if _, err := leaf2.Cert.Verify(x509.VerifyOptions{Roots: f.store.pool, Intermediates: pool, DNSName: "www.example.com", CurrentTime: t0}); err != nil {
		t.Fatalf("crypto/x509 refuses the P-224 chain: %v", err)
	}
	if _, err := f.store.Verify(chain2, opts); err == nil {
		t.Error("a P-224 anchor passed in FIPS mode")
	}
	// An allowed chain still passes on the fast path.
	leaf3 := issue(t, leafTemplate("fips leaf 3", "www.example.com"), poolKey(kP256, 22), inter)
	if _, r := f.store.fastPath([]*x509.Certificate{leaf3.Cert, inter.Cert}, &opts, t0); r != accepted {
		t.Errorf("allowed chain: %v", r)
	}
	// RSA chains, other curves, Ed25519: see newFIPSMatrix.
	newFIPSMatrix(t).run(t, "fips140=on", func(c fipsCase) bool { return c.on })
}

// TestFIPSOnly re-runs itself with GODEBUG=fips140=only, where crypto/rsa
// refuses keys of fewer than 2048 bits, of an odd size, or with E ≤ 2^16
// (checkFIPS140OnlyPublicKey), so crypto/x509 refuses the links they sign:
// the matrix of newFIPSMatrix must give crypto/tls's answer (crypto/x509
// filtered by the FIPS key policy) in that mode, then again inside
// fips140.WithoutEnforcement (where crypto/rsa checks as in fips140=on), and
// again enforced, so nothing the bypass accepted is remembered.
func TestFIPSOnly(t *testing.T) {
	if !fipsChild(t, "TestFIPSOnly", "only") {
		return
	}
	if !fips140.Enabled() || !fips140.Enforced() {
		t.Fatal("fips140=only not in force in the child")
	}
	m := newFIPSMatrix(t)
	m.run(t, "enforced", func(c fipsCase) bool { return c.only })
	fips140.WithoutEnforcement(func() {
		if fips140.Enforced() {
			t.Fatal("fips140.Enforced inside WithoutEnforcement")
		}
		m.run(t, "bypassed", func(c fipsCase) bool { return c.on })
	})
	m.run(t, "enforced again", func(c fipsCase) bool { return c.only })
}

// fipsCase is one chain of the FIPS matrix: the sent chain, the fast
// path's reason where no FIPS filter applies (where a filter refuses a chain
// the fast path would accept, it declines with reasonFIPS), and whether
// crypto/tls accepts the chain in fips140=on mode, in fips140=only mode, and
// in a Go+BoringCrypto build with crypto/tls/fipsonly imported.
type fipsCase struct {
	name             string
	chain            []*x509.Certificate
	fast             reason
	on, only, boring bool
}

type fipsMatrix struct {
	store *Store
	cases []fipsCase
}

// newFIPSMatrix builds, for each RSA key of the pool (2048, 3072 and 4096
// bits with E = 65537, which the fast path verifies; 1024 and 2056 bits,
// E = 3, and an odd size, which it declines), a chain under an anchor with
// that key and one under an intermediate with it (SHA-256; also SHA-384,
// SHA-512, RSA-PSS, SHA-1 and a corrupted signature for some); leaves with
// RSA keys the FIPS policies refuse or allow (RSA-8192 among them, which
// BoringCrypto's refuses); P-224, P-384, P-521 and Ed25519 keys as anchor,
// intermediate or leaf (a P-224 intermediate is refused by both policies,
// Ed25519 by BoringCrypto's only); and a P-256 control. Certificates are made
// inside fips140.WithoutEnforcement, as crypto/rsa refuses to sign with some
// of the keys in fips140=only mode.
func newFIPSMatrix(t *testing.T) *fipsMatrix {
	t.Helper()
	m := &fipsMatrix{}
	fips140.WithoutEnforcement(func() {
		type rsaIssuer struct {
			name    string
			key     crypto.Signer
			handled bool // by the fast path
			on      bool // crypto/tls's FIPS policy: at least 2048 bits
			only    bool // crypto/rsa in fips140=only mode: also even size, E > 2^16
			boring  bool // BoringCrypto's policy: 2048, 3072 or 4096 bits
		}
		issuers := []rsaIssuer{
			{"RSA-2048", poolKey(kRSA, 1), true, true, true, true},
			{"RSA-3072", poolKey(kRSA3072, 0), true, true, true, true},
			{"RSA-4096", poolKey(kRSA4096, 1), true, true, true, true},
			{"RSA-1024", poolKey(kRSA1024, 0), false, false, false, false},
			{"RSA-2056", poolKey(kRSA2056, 0), false, true, true, false},
			{"RSA-2048 E=3", poolKey(kRSAE3, 0), false, true, false, true},
			{"RSA-2051", poolKey(kRSA2051, 0), false, true, false, false},
		}
		rootP256 := issue(t, caTemplate("FIPS matrix root P-256"), poolKey(kP256, 0), nil)
		anchors := []*x509.Certificate{rootP256.Cert}
		leafUnder := func(n *node, tag string, alg x509.SignatureAlgorithm) *node {
			lt := leafTemplate("fips leaf "+tag, "www.example.com")
			lt.SignatureAlgorithm = alg
			return issue(t, lt, poolKey(kP256, 21), n)
		}
		add := func(name string, leaf *node, sent []*x509.Certificate, fast reason, on, only, boring bool) {
			m.cases = append(m.cases, fipsCase{name, append([]*x509.Certificate{leaf.Cert}, sent...), fast, on, only, boring})
		}
		for _, is := range issuers {
			declined := reasonIssuerKey
			if is.handled {
				declined = accepted
			}
			// The key as an anchor, signing a P-256 intermediate.
			root := issue(t, caTemplate("FIPS matrix root "+is.name), is.key, nil)
			anchors = append(anchors, root.Cert)
			inter := issue(t, caTemplate("FIPS matrix P-256 intermediate under "+is.name), poolKey(kP256, 20), root)
			add("anchor "+is.name, leafUnder(inter, "a "+is.name, 0), []*x509.Certificate{inter.Cert}, declined, is.on, is.only, is.boring)
			// The key as an intermediate under the P-256 anchor, signing
			// the leaf.
			ri := issue(t, caTemplate("FIPS matrix intermediate "+is.name), is.key, rootP256)
			add("intermediate "+is.name, leafUnder(ri, "i "+is.name, 0), []*x509.Certificate{ri.Cert}, declined, is.on, is.only, is.boring)
			if is.handled {
				for _, alg := range []x509.SignatureAlgorithm{x509.SHA384WithRSA, x509.SHA512WithRSA} {
					add("intermediate "+is.name+" "+alg.String(), leafUnder(ri, alg.String()+" "+is.name, alg), []*x509.Certificate{ri.Cert}, accepted, true, true, true)
				}
			}
			if is.name == "RSA-2048" || is.name == "RSA-4096" {
				bad := leafUnder(ri, "corrupt "+is.name, 0)
				bad = &node{Cert: corrupt(t, bad.Cert), Key: bad.Key}
				add("intermediate "+is.name+" corrupt signature", bad, []*x509.Certificate{ri.Cert}, reasonSignature, false, false, false)
				badInter := &node{Cert: corrupt(t, inter.Cert), Key: inter.Key}
				add("anchor "+is.name+" corrupt signature", leafUnder(inter, "b "+is.name, 0), []*x509.Certificate{badInter.Cert}, reasonSignature, false, false, false)
			}
			if is.name == "RSA-2048" || is.name == "RSA-2048 E=3" {
				// RSA-PSS: crypto/x509 verifies it, the fast path never (the
				// leaf's algorithm is read before its issuer's key).
				add("intermediate "+is.name+" PSS", leafUnder(ri, "pss "+is.name, x509.SHA256WithRSAPSS), []*x509.Certificate{ri.Cert}, reasonSignatureAlgorithm, is.on, is.only, is.boring)
			}
			if is.name == "RSA-2048" {
				// SHA-1: crypto/x509 refuses it in every mode (and the
				// crypto/sha1 of fips140=only mode is never reached).
				add("intermediate "+is.name+" SHA-1", leafUnder(ri, "sha1 "+is.name, x509.SHA1WithRSA), []*x509.Certificate{ri.Cert}, reasonSignatureAlgorithm, false, false, false)
				// Leaf keys: crypto/tls's FIPS policies read every key of
				// the chain, the leaf's too, and only an RSA key's size.
				for _, lk := range []struct {
					name             string
					key              crypto.Signer
					on, only, boring bool
				}{
					{"RSA-1024", poolKey(kRSA1024, 0), false, false, false},
					{"RSA-2056", poolKey(kRSA2056, 0), true, true, false},
					{"RSA-2048 E=3", poolKey(kRSAE3, 0), true, true, true},
					{"RSA-8192", rsa8192PublicOnly(), true, true, false},
				} {
					leaf := issue(t, leafTemplate("fips leaf key "+lk.name, "www.example.com"), lk.key, ri)
					add("leaf key "+lk.name+" under "+is.name, leaf, []*x509.Certificate{ri.Cert}, accepted, lk.on, lk.only, lk.boring)
				}
			}
		}
		// Other curves and Ed25519: as an anchor, an intermediate under
		// the P-256 anchor, and a leaf key under a P-256 chain.
		p256Inter := issue(t, caTemplate("FIPS matrix P-256 intermediate"), poolKey(kP256, 20), rootP256)
		for _, k := range []struct {
			name             string
			key              crypto.Signer
			declined         reason // as an issuer, by the fast path
			on, only, boring bool
		}{
			{"P-224", poolKey(kP224, 0), reasonIssuerKey, false, false, false},
			{"P-384", poolKey(kP384, 2), accepted, true, true, true},
			{"P-521", poolKey(kP521, 1), reasonIssuerKey, true, true, true},
			{"Ed25519", poolKey(kEd25519, 1), reasonSignatureAlgorithm, true, true, false},
		} {
			root := issue(t, caTemplate("FIPS matrix root "+k.name), k.key, nil)
			anchors = append(anchors, root.Cert)
			inter := issue(t, caTemplate("FIPS matrix P-256 intermediate under "+k.name), poolKey(kP256, 20), root)
			add("anchor "+k.name, leafUnder(inter, "a "+k.name, 0), []*x509.Certificate{inter.Cert}, k.declined, k.on, k.only, k.boring)
			ki := issue(t, caTemplate("FIPS matrix intermediate "+k.name), k.key, rootP256)
			add("intermediate "+k.name, leafUnder(ki, "i "+k.name, 0), []*x509.Certificate{ki.Cert}, k.declined, k.on, k.only, k.boring)
			leaf := issue(t, leafTemplate("fips leaf key "+k.name, "www.example.com"), k.key, p256Inter)
			add("leaf key "+k.name, leaf, []*x509.Certificate{p256Inter.Cert}, accepted, k.on, k.only, k.boring)
		}
		add("P-256 control", leafUnder(p256Inter, "p256", 0), []*x509.Certificate{p256Inter.Cert}, accepted, true, true, true)
		s, err := New(anchors)
		if err != nil {
			t.Fatal(err)
		}
		m.store = s
	})
	return m
}

// publicOnly is a crypto.Signer that only has a public key: the key of a
// leaf certificate that never signs.
type publicOnly struct{ pub crypto.PublicKey }

func (k publicOnly) Public() crypto.PublicKey { return k.pub }

func (publicOnly) Sign(io.Reader, []byte, crypto.SignerOpts) ([]byte, error) {
	return nil, errors.New("publicOnly: no private key")
}

// rsa8192PublicOnly returns an RSA public key of 8192 bits, E = 65537,
// without its private half (generating one would take seconds): the
// modulus is 2^8191 + 1, which no certificate check reads beyond its size.
// crypto/tls accepts RSA keys of up to 8192 bits (tlsmaxrsasize).
func rsa8192PublicOnly() publicOnly {
	n := new(big.Int).Lsh(big.NewInt(1), 8191)
	n.SetBit(n, 0, 1)
	return publicOnly{&rsa.PublicKey{N: n, E: 65537}}
}

// run checks every case of the matrix: the fast path's reason, Verify's
// answer against crypto/tls's (a TLS client with the store's anchors, which
// verifies with crypto/x509 and applies its FIPS key policy) and against
// crypto/x509's, twice (the second time through the link cache). want gives
// crypto/tls's expected verdict in this mode.
func (m *fipsMatrix) run(t *testing.T, mode string, want func(fipsCase) bool) {
	t.Helper()
	opts := at("www.example.com")
	before := m.store.Stats().FastAccepts
	for _, c := range m.cases {
		fast := c.fast
		if fast == accepted && !want(c) {
			fast = reasonFIPS
		}
		for pass := range 2 {
			desc := fmt.Sprintf("%s, %s, pass %d", mode, c.name, pass)
			_, r := m.store.fastPath(c.chain, &opts, t0)
			if r != fast {
				t.Errorf("%s: fast path %v, want %v", desc, r, fast)
			}
			tchains, terr := tlsChainVerdict(t, m.store.pool, c.chain, opts.DNSName)
			xchains, xerr, _ := x509Verify(m.store, &scenario{chain: c.chain, opts: opts})
			chains, err := m.store.Verify(c.chain, opts)
			switch {
			case (err == nil) != (terr == nil):
				t.Errorf("%s: Verify: %v; crypto/tls: %v", desc, err, terr)
			case err == nil && !sameChainSet(chains, tchains):
				t.Errorf("%s: Verify's %d chains are not crypto/tls's %d", desc, len(chains), len(tchains))
			case (terr == nil) != want(c):
				t.Errorf("%s: crypto/tls: %v, want success %v (Go's FIPS rules changed? see fips.go, rsakey.go)", desc, terr, want(c))
			}
			if r == accepted && (xerr != nil || terr != nil) {
				t.Errorf("%s: fast accept, crypto/x509: %v, crypto/tls: %v", desc, xerr, terr)
			}
			// Verify refuses for the FIPS policy exactly where crypto/x509
			// accepts and crypto/tls does not.
			if policy := xerr == nil && terr != nil; policy != errors.Is(err, errNoFIPSChain) {
				t.Errorf("%s: Verify: %v; crypto/x509: %v (%d chains); crypto/tls: %v", desc, err, xerr, len(xchains), terr)
			}
		}
	}
	t.Logf("%s: %d matrix cases, twice each; %d fast-path accepts", mode, len(m.cases), m.store.Stats().FastAccepts-before)
}

// tlsChainVerdict returns crypto/tls's answer for the chain a server
// sends: the verified chains a client with roots as RootCAs passes to
// VerifyPeerCertificate, or the *tls.CertificateVerificationError of the
// handshake. The server signs with a P-256 key whatever the leaf's key
// (inside fips140.WithoutEnforcement): the client decides the chain from the
// Certificate message, before it reads the server's signature, and stops
// the handshake there.
func tlsChainVerdict(t *testing.T, roots *x509.CertPool, chain []*x509.Certificate, dns string) ([][]*x509.Certificate, error) {
	t.Helper()
	cc, sc := net.Pipe()
	cert := tls.Certificate{PrivateKey: poolKey(kP256, 21)}
	for _, c := range chain {
		cert.Certificate = append(cert.Certificate, c.Raw)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		fips140.WithoutEnforcement(func() {
			tls.Server(sc, &tls.Config{Certificates: []tls.Certificate{cert}}).Handshake()
		})
		sc.Close()
	}()
	var verified [][]*x509.Certificate
	called := false
	errDecided := errors.New("chain decided")
	err := tls.Client(cc, &tls.Config{
		RootCAs:    roots,
		ServerName: dns,
		Time:       func() time.Time { return t0 },
		VerifyPeerCertificate: func(_ [][]byte, chains [][]*x509.Certificate) error {
			called, verified = true, chains
			return errDecided
		},
	}).Handshake()
	cc.Close()
	<-done
	var cve *tls.CertificateVerificationError
	switch {
	case called:
		return verified, nil
	case errors.As(err, &cve):
		return nil, err
	}
	t.Fatalf("TLS handshake ended before the chain was decided: %v", err)
	return nil, nil
}
