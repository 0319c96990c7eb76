package provider

import (
	"crypto/ecdsa"
	"crypto/tls"
	"strings"
	"testing"
)

// TLS 1.0 and 1.1 sign ECDSA handshakes over a SHA-1 digest (crypto/tls
// passes crypto.SHA1), and TLS 1.2 does for the ECDSAWithSHA1 scheme under
// GODEBUG=tlssha1=1. A P-256 identity must negotiate exactly what its raw
// *ecdsa.PrivateKey negotiates, with every signature made by the comb and
// checked.

var legacyVersions = []uint16{tls.VersionTLS10, tls.VersionTLS11}

// rawAndIdentity returns a P-256 certificate with its raw key and the
// provider identity built from the same certificate.
func rawAndIdentity(t *testing.T, names ...string) (tls.Certificate, *Identity) {
	t.Helper()
	cert := ca(t).issue(t, newKey(t, "P-256"), names...)
	if _, ok := cert.PrivateKey.(*ecdsa.PrivateKey); !ok {
		t.Fatalf("key is a %T", cert.PrivateKey)
	}
	id, err := NewIdentity(cert)
	if err != nil {
		t.Fatal(err)
	}
	return cert, id
}

// legacyServer serves certs (crypto/tls chooses) from version up.
func legacyServer(t *testing.T, version uint16, certs ...tls.Certificate) *testServer {
	t.Helper()
	return startServer(t, &tls.Config{Certificates: certs, MinVersion: version})
}

// TestLegacyTLSServer: a crypto/tls client at TLS 1.0 and 1.1 against a
// server presenting a P-256 identity, beside the same certificate with its
// raw key.
func TestLegacyTLSServer(t *testing.T) {
	raw, id := rawAndIdentity(t, "localhost")
	rawSrv := legacyServer(t, tls.VersionTLS10, raw)
	idSrv := startServer(t, func() *tls.Config {
		cfg := ServerConfig(NewIdentities(id))
		cfg.MinVersion = tls.VersionTLS10
		return cfg
	}())
	for _, version := range legacyVersions {
		t.Run(tls.VersionName(version), func(t *testing.T) {
			cfg := clientConfig("localhost")
			cfg.MinVersion, cfg.MaxVersion = version, version
			// The raw key works: this is what the identity must match.
			if st, err := handshake(rawSrv.addr(), cfg); err != nil || st.Version != version {
				t.Fatalf("raw key: %v, %s (server: %v)", err, tls.VersionName(st.Version), rawSrv.errors())
			}
			before, totalBefore := id.Stats(), TotalStats()
			st, err := handshake(idSrv.addr(), cfg)
			if err != nil {
				t.Fatalf("identity: %v (server: %v)", err, idSrv.errors())
			}
			if st.Version != version {
				t.Fatalf("negotiated %s", tls.VersionName(st.Version))
			}
			if suite := tls.CipherSuiteName(st.CipherSuite); !strings.HasPrefix(suite, "TLS_ECDHE_ECDSA_") {
				t.Fatalf("cipher suite %s", suite)
			}
			if !st.PeerCertificates[0].Equal(id.Leaf) {
				t.Fatal("server presented another certificate")
			}
			d := statsDelta(id.Stats(), before)
			wantSigned(t, id, d, 1)
			if td := statsDelta(TotalStats(), totalBefore); td != d {
				t.Fatalf("total moved by %+v, identity by %+v", td, d)
			}
		})
	}
}

// TestLegacyTLSClientAuth: the identity as the client certificate of mutual
// TLS 1.0 and 1.1 (the client's CertificateVerify is a SHA-1 signature),
// through GetClientCertificate, Certificates and an Identities.
func TestLegacyTLSClientAuth(t *testing.T) {
	serverCert, _ := rawAndIdentity(t, "localhost")
	raw, id := rawAndIdentity(t, "client.test")
	scfg := &tls.Config{
		Certificates: []tls.Certificate{serverCert},
		MinVersion:   tls.VersionTLS10,
		ClientAuth:   tls.RequireAndVerifyClientCert,
		ClientCAs:    ca(t).pool,
	}
	var seen []byte
	scfg.VerifyConnection = func(cs tls.ConnectionState) error {
		seen = cs.PeerCertificates[0].Raw
		return nil
	}
	srv := startServer(t, scfg)
	for _, version := range legacyVersions {
		t.Run(tls.VersionName(version), func(t *testing.T) {
			base := func() *tls.Config {
				c := clientConfig("localhost")
				c.MinVersion, c.MaxVersion = version, version
				return c
			}
			rawCfg := base()
			rawCfg.Certificates = []tls.Certificate{raw}
			if _, err := handshake(srv.addr(), rawCfg); err != nil {
				t.Fatalf("raw key: %v (server: %v)", err, srv.errors())
			}
			viaCallback := base()
			viaCallback.GetClientCertificate = func(*tls.CertificateRequestInfo) (*tls.Certificate, error) {
				return id.Certificate(), nil
			}
			viaCerts := base()
			viaCerts.Certificates = []tls.Certificate{*id.Certificate()}
			viaIdentities := base()
			viaIdentities.GetClientCertificate = NewIdentities(id).GetClientCertificate
			for i, cfg := range []*tls.Config{viaCallback, viaCerts, viaIdentities} {
				seen = nil
				before := id.Stats()
				st, err := handshake(srv.addr(), cfg)
				if err != nil {
					t.Fatalf("config %d: %v (server: %v)", i, err, srv.errors())
				}
				if st.Version != version || string(seen) != string(id.Leaf.Raw) {
					t.Fatalf("config %d: %s, server saw the client identity: %v", i, tls.VersionName(st.Version), string(seen) == string(id.Leaf.Raw))
				}
				wantSigned(t, id, statsDelta(id.Stats(), before), 1)
			}
		})
	}
}

// TestTLS12SHA1Scheme: with GODEBUG=tlssha1=1, TLS 1.2 may negotiate
// ECDSAWithSHA1. The certificates below allow nothing else, so each
// handshake signs a SHA-1 digest (without the setting it fails, which shows
// that no other scheme was available).
func TestTLS12SHA1Scheme(t *testing.T) {
	t.Setenv("GODEBUG", "tlssha1=1")
	only := []tls.SignatureScheme{tls.ECDSAWithSHA1}

	serverRaw, _ := rawAndIdentity(t, "localhost")
	serverRaw.SupportedSignatureAlgorithms = only
	serverID, err := NewIdentity(serverRaw)
	if err != nil {
		t.Fatal(err)
	}
	clientRaw, _ := rawAndIdentity(t, "client.test")
	clientRaw.SupportedSignatureAlgorithms = only
	clientID, err := NewIdentity(clientRaw)
	if err != nil {
		t.Fatal(err)
	}
	if got := clientID.Certificate().SupportedSignatureAlgorithms; len(got) != 1 || got[0] != tls.ECDSAWithSHA1 {
		t.Fatalf("identity's SupportedSignatureAlgorithms = %v", got)
	}

	scfg := func(c tls.Certificate, clientAuth bool) *tls.Config {
		cfg := &tls.Config{Certificates: []tls.Certificate{c}, MaxVersion: tls.VersionTLS12}
		if clientAuth {
			cfg.ClientAuth = tls.RequireAndVerifyClientCert
			cfg.ClientCAs = ca(t).pool
		}
		return cfg
	}
	ccfg := func(client *tls.Certificate) *tls.Config {
		cfg := clientConfig("localhost")
		cfg.MaxVersion = tls.VersionTLS12
		if client != nil {
			cfg.Certificates = []tls.Certificate{*client}
		}
		return cfg
	}

	t.Run("server", func(t *testing.T) {
		rawSrv := startServer(t, scfg(serverRaw, false))
		if _, err := handshake(rawSrv.addr(), ccfg(nil)); err != nil {
			t.Fatalf("raw key: %v (server: %v)", err, rawSrv.errors())
		}
		srv := startServer(t, scfg(*serverID.Certificate(), false))
		before := serverID.Stats()
		st, err := handshake(srv.addr(), ccfg(nil))
		if err != nil {
			t.Fatalf("identity: %v (server: %v)", err, srv.errors())
		}
		if st.Version != tls.VersionTLS12 {
			t.Fatalf("negotiated %s", tls.VersionName(st.Version))
		}
		wantSigned(t, serverID, statsDelta(serverID.Stats(), before), 1)
	})
	t.Run("client", func(t *testing.T) {
		srv := startServer(t, scfg(*serverID.Certificate(), true))
		if _, err := handshake(srv.addr(), ccfg(&clientRaw)); err != nil {
			t.Fatalf("raw key: %v (server: %v)", err, srv.errors())
		}
		sBefore, cBefore := serverID.Stats(), clientID.Stats()
		if _, err := handshake(srv.addr(), ccfg(clientID.Certificate())); err != nil {
			t.Fatalf("identity: %v (server: %v)", err, srv.errors())
		}
		wantSigned(t, serverID, statsDelta(serverID.Stats(), sBefore), 1)
		wantSigned(t, clientID, statsDelta(clientID.Stats(), cBefore), 1)
	})
	t.Run("without tlssha1", func(t *testing.T) {
		t.Setenv("GODEBUG", "tlssha1=0")
		srv := startServer(t, scfg(*serverID.Certificate(), false))
		before := serverID.Stats()
		if _, err := handshake(srv.addr(), ccfg(nil)); err == nil {
			t.Fatal("a SHA-1-only certificate negotiated TLS 1.2 without tlssha1=1")
		}
		if d := statsDelta(serverID.Stats(), before); d != (Stats{}) {
			t.Fatalf("counters moved by %+v", d)
		}
	})
}

// TestOpenSSLLegacyTLS: openssl s_client -tls1 and -tls1_1 (at security
// level 0, which OpenSSL 3 needs for SHA-1 signatures and these versions)
// against a server presenting a P-256 identity. A local OpenSSL that
// cannot do this against the raw key either is skipped with its output.
func TestOpenSSLLegacyTLS(t *testing.T) {
	openssl := lookPath(t, "openssl")
	raw, id := rawAndIdentity(t, "localhost")
	rawSrv := legacyServer(t, tls.VersionTLS10, raw)
	idSrv := legacyServer(t, tls.VersionTLS10, *id.Certificate())
	caFile := writeFile(t, t.TempDir(), "ca.pem", ca(t).pem)
	for _, c := range []struct{ flag, name string }{{"-tls1", "TLSv1"}, {"-tls1_1", "TLSv1.1"}} {
		t.Run(c.name, func(t *testing.T) {
			connect := func(addr string) (string, error) {
				return run(t, "", openssl, "s_client", "-connect", addr, "-servername", "localhost",
					"-CAfile", caFile, "-verify_return_error", "-verify_hostname", "localhost",
					"-ign_eof", c.flag, "-cipher", "DEFAULT:@SECLEVEL=0")
			}
			want := []string{"Protocol  : " + c.name + "\n", "Cipher    : ECDHE-ECDSA-", "Verify return code: 0 (ok)", "\nok\n"}
			ok := func(out string) bool {
				for _, w := range want {
					if !strings.Contains(out, w) {
						return false
					}
				}
				return true
			}
			if out, err := connect(rawSrv.addr()); err != nil || !ok(out) {
				t.Skipf("the local OpenSSL does not complete %s with the raw P-256 key either (%v):\n%s", c.name, err, out)
			}
			before := id.Stats()
			out, err := connect(idSrv.addr())
			if err != nil || !ok(out) {
				t.Fatalf("openssl %s against the identity: %v (server: %v)\n%s", c.flag, err, idSrv.errors(), out)
			}
			wantSigned(t, id, statsDelta(id.Stats(), before), 1)
		})
	}
}
