package provider

import (
	"crypto"
	"crypto/tls"
	"crypto/x509"
	"strings"
	"testing"
)

var testAlgorithms = []string{"P-256", "P-384", "RSA-2048", "Ed25519"}

// wantSigned checks that d (a counter delta) records exactly n signatures
// made the way id should make them: through the comb and its check for
// P-256, through the standard signer for everything else.
func wantSigned(t *testing.T, id *Identity, d Stats, n uint64) {
	t.Helper()
	var want Stats
	if id.Algorithm() == "P-256" {
		if !id.Checked() {
			t.Fatalf("%v: a P-256 identity must sign with the checked comb signer", id)
		}
		want = Stats{Signatures: n, Checks: n}
	} else {
		if id.Checked() {
			t.Fatalf("%v: only P-256 identities use the comb", id)
		}
		want = Stats{Fallbacks: n}
	}
	if d != want {
		t.Fatalf("%v: counters moved by %+v, want %+v", id, d, want)
	}
}

func TestHandshakeMatrix(t *testing.T) {
	for _, alg := range testAlgorithms {
		id := newIdentity(t, alg, "localhost")
		srv := startServer(t, ServerConfig(NewIdentities(id)))
		for _, version := range []uint16{tls.VersionTLS12, tls.VersionTLS13} {
			t.Run(alg+"/"+tls.VersionName(version), func(t *testing.T) {
				cfg := clientConfig("localhost")
				cfg.MinVersion, cfg.MaxVersion = version, version
				before, totalBefore := id.Stats(), TotalStats()
				st, err := handshake(srv.addr(), cfg)
				if err != nil {
					t.Fatalf("handshake: %v (server: %v)", err, srv.errors())
				}
				if st.Version != version {
					t.Fatalf("negotiated %s", tls.VersionName(st.Version))
				}
				if version == tls.VersionTLS12 {
					suite := tls.CipherSuiteName(st.CipherSuite)
					want := "TLS_ECDHE_ECDSA_"
					if strings.HasPrefix(alg, "RSA") {
						want = "TLS_ECDHE_RSA_"
					}
					if !strings.HasPrefix(suite, want) {
						t.Fatalf("cipher suite %s, want %s...", suite, want)
					}
				}
				if got := st.PeerCertificates[0]; !got.Equal(id.Leaf) {
					t.Fatalf("server presented %v", got.Subject)
				}
				wantSigned(t, id, statsDelta(id.Stats(), before), 1)
				if d := statsDelta(TotalStats(), totalBefore); d != statsDelta(id.Stats(), before) {
					t.Fatalf("total moved by %+v, identity by %+v", d, statsDelta(id.Stats(), before))
				}
			})
		}
	}
}

// TestTLS12ECDSASuites runs every ECDHE-ECDSA suite crypto/tls offers
// against a P-256 identity. (A crypto/tls client always lets the server sign
// a SHA-256 digest; the SHA-384 and SHA-512 digests of TLS 1.2 are exercised
// with openssl -sigalgs in TestOpenSSL.)
func TestTLS12ECDSASuites(t *testing.T) {
	id := newIdentity(t, "P-256", "localhost")
	srv := startServer(t, ServerConfig(NewIdentities(id)))
	n := 0
	for _, cs := range tls.CipherSuites() {
		if !strings.HasPrefix(cs.Name, "TLS_ECDHE_ECDSA_") {
			continue
		}
		n++
		cfg := clientConfig("localhost")
		cfg.MaxVersion = tls.VersionTLS12
		cfg.CipherSuites = []uint16{cs.ID}
		before := id.Stats()
		st, err := handshake(srv.addr(), cfg)
		if err != nil {
			t.Fatalf("%s: %v (server: %v)", cs.Name, err, srv.errors())
		}
		if st.CipherSuite != cs.ID {
			t.Fatalf("negotiated %s, want %s", tls.CipherSuiteName(st.CipherSuite), cs.Name)
		}
		wantSigned(t, id, statsDelta(id.Stats(), before), 1)
	}
	if n < 3 {
		t.Fatalf("only %d ECDHE-ECDSA suites", n)
	}
}

func TestMutualTLS(t *testing.T) {
	for _, alg := range testAlgorithms {
		t.Run(alg, func(t *testing.T) {
			serverID := newIdentity(t, "P-256", "localhost")
			clientID := newIdentity(t, alg, "client.test")
			scfg := ServerConfig(NewIdentities(serverID))
			scfg.ClientAuth = tls.RequireAndVerifyClientCert
			scfg.ClientCAs = ca(t).pool
			var seen *x509.Certificate
			scfg.VerifyConnection = func(cs tls.ConnectionState) error {
				seen = cs.PeerCertificates[0]
				return nil
			}
			srv := startServer(t, scfg)
			for _, version := range []uint16{tls.VersionTLS12, tls.VersionTLS13} {
				ccfg := clientConfig("localhost")
				ccfg.MaxVersion = version
				ccfg.GetClientCertificate = func(*tls.CertificateRequestInfo) (*tls.Certificate, error) {
					return clientID.Certificate(), nil
				}
				before := clientID.Stats()
				if _, err := handshake(srv.addr(), ccfg); err != nil {
					t.Fatalf("%s: %v (server: %v)", tls.VersionName(version), err, srv.errors())
				}
				if seen == nil || !seen.Equal(clientID.Leaf) {
					t.Fatalf("server did not see the client identity")
				}
				wantSigned(t, clientID, statsDelta(clientID.Stats(), before), 1)

				// The same through Certificates and through an Identities.
				for _, c := range []*tls.Config{
					{RootCAs: ccfg.RootCAs, ServerName: "localhost", MaxVersion: version, Certificates: []tls.Certificate{*clientID.Certificate()}},
					{RootCAs: ccfg.RootCAs, ServerName: "localhost", MaxVersion: version, GetClientCertificate: NewIdentities(clientID).GetClientCertificate},
				} {
					before := clientID.Stats()
					if _, err := handshake(srv.addr(), c); err != nil {
						t.Fatalf("%s: %v", tls.VersionName(version), err)
					}
					wantSigned(t, clientID, statsDelta(clientID.Stats(), before), 1)
				}
			}
		})
	}
}

// opaqueSigner hides the concrete key type, as a hardware or KMS key does.
type opaqueSigner struct{ crypto.Signer }

// TestOpaqueP256SignerFallsBack: a P-256 key without its private scalar
// (only a crypto.Signer) cannot get a table; it still works, as a fallback.
func TestOpaqueP256SignerFallsBack(t *testing.T) {
	cert := ca(t).issue(t, newKey(t, "P-256"), "localhost")
	cert.PrivateKey = opaqueSigner{cert.PrivateKey.(crypto.Signer)}
	id, err := NewIdentity(cert)
	if err != nil {
		t.Fatal(err)
	}
	if id.Checked() || id.Algorithm() != "P-256" {
		t.Fatalf("Checked() = %v, Algorithm() = %q", id.Checked(), id.Algorithm())
	}
	srv := startServer(t, ServerConfig(NewIdentities(id)))
	for _, version := range []uint16{tls.VersionTLS12, tls.VersionTLS13} {
		cfg := clientConfig("localhost")
		cfg.MaxVersion = version
		before := id.Stats()
		if _, err := handshake(srv.addr(), cfg); err != nil {
			t.Fatal(err)
		}
		if d := statsDelta(id.Stats(), before); d != (Stats{Fallbacks: 1}) {
			t.Fatalf("counters moved by %+v", d)
		}
	}
}
