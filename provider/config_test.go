package provider

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"github.com/p256tls/p256tls/truststore"
	"sync/atomic"
	"testing"
)

func TestHookServerConfigConvertsCertificates(t *testing.T) {
	p256 := ca(t).issue(t, newKey(t, "P-256"), "one.test")
	rsaCert := ca(t).issue(t, newKey(t, "RSA-2048"), "two.test")
	orig := &tls.Config{
		Certificates: []tls.Certificate{p256, rsaCert},
		NextProtos:   []string{"h2", "http/1.1"},
		MinVersion:   tls.VersionTLS12,
	}
	orig.NameToCertificate = map[string]*tls.Certificate{ //nolint:staticcheck // exercising the deprecated field on purpose
		"one.test": &orig.Certificates[0],
		"two.test": &orig.Certificates[1],
	}
	hooked, err := HookServerConfig(orig)
	if err != nil {
		t.Fatal(err)
	}
	if hooked == orig {
		t.Fatal("HookServerConfig returned its argument instead of a clone")
	}
	// The caller's configuration is untouched.
	if orig.Certificates[0].PrivateKey != p256.PrivateKey || orig.Certificates[1].PrivateKey != rsaCert.PrivateKey {
		t.Fatal("the caller's Certificates were modified")
	}
	for i, c := range hooked.Certificates {
		if _, ok := c.PrivateKey.(*key); !ok {
			t.Fatalf("Certificates[%d] signs with %T", i, c.PrivateKey)
		}
	}
	if hooked.NameToCertificate["two.test"] != &hooked.Certificates[1] { //nolint:staticcheck
		t.Fatal("NameToCertificate not remapped")
	}
	if len(hooked.NextProtos) != 2 || hooked.MinVersion != tls.VersionTLS12 {
		t.Fatal("other settings lost")
	}

	srv := startServer(t, hooked)
	for i, name := range []string{"one.test", "two.test"} {
		before := TotalStats()
		st, err := handshake(srv.addr(), clientConfig(name))
		if err != nil {
			t.Fatalf("%s: %v (server: %v)", name, err, srv.errors())
		}
		if !st.PeerCertificates[0].Equal(hooked.Certificates[i].Leaf) {
			t.Fatalf("%s: wrong certificate", name)
		}
		d := statsDelta(TotalStats(), before)
		if i == 0 && (d.Signatures != 1 || d.Checks != 1 || d.Fallbacks != 0) {
			t.Fatalf("P-256 counters moved by %+v", d)
		}
		if i == 1 && (d.Signatures != 0 || d.Fallbacks != 1) {
			t.Fatalf("RSA counters moved by %+v", d)
		}
	}

	// Hooking an already hooked configuration shares the keys.
	again, err := HookServerConfig(hooked)
	if err != nil {
		t.Fatal(err)
	}
	if again.Certificates[0].PrivateKey != hooked.Certificates[0].PrivateKey {
		t.Fatal("re-hooking built a second key")
	}
}

// TestHookServerConfigRefusesConflicts: HookServerConfig refuses a
// configuration with nothing to hook and a certificate whose key does not
// match, and leaves the caller's callbacks in place.
func TestHookServerConfigRefusesConflicts(t *testing.T) {
	cert := ca(t).issue(t, newKey(t, "P-256"), "localhost")
	cases := []struct {
		name string
		cfg  *tls.Config
		want error
	}{
		{"nil", nil, nil},
		{"nothing", &tls.Config{}, nil},
		{"bad certificate", &tls.Config{Certificates: []tls.Certificate{{Certificate: cert.Certificate, PrivateKey: newKey(t, "P-256")}}}, ErrKeyMismatch},
	}
	for _, c := range cases {
		got, err := HookServerConfig(c.cfg)
		if err == nil {
			t.Errorf("%s: accepted (%v)", c.name, got)
			continue
		}
		if c.want != nil && !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
}

// TestHookServerConfigWrapsCallbacks: GetCertificate and the configurations
// returned by GetConfigForClient are served through the cache, and the
// caller's callbacks and configurations are left as they were.
func TestHookServerConfigWrapsCallbacks(t *testing.T) {
	dyn := ca(t).issue(t, newKey(t, "P-256"), "dyn.test")
	static := ca(t).issue(t, newKey(t, "P-256"), "static.test")
	subCert := ca(t).issue(t, newKey(t, "P-256"), "sub.test")
	subDyn := ca(t).issue(t, newKey(t, "P-256"), "subdyn.test")
	rsaCert := ca(t).issue(t, newKey(t, "RSA-2048"), "rsa.test")

	var calls atomic.Int64
	getCert := func(hello *tls.ClientHelloInfo) (*tls.Certificate, error) {
		calls.Add(1)
		switch hello.ServerName {
		case "dyn.test":
			c := dyn
			return &c, nil
		case "rsa.test":
			c := rsaCert
			return &c, nil
		}
		return nil, nil // crypto/tls then chooses among Certificates
	}
	sub := &tls.Config{Certificates: []tls.Certificate{subCert}}
	subWithGet := &tls.Config{GetCertificate: fresh(subDyn)}
	getCfg := func(hello *tls.ClientHelloInfo) (*tls.Config, error) {
		switch hello.ServerName {
		case "sub.test":
			return sub, nil
		case "subdyn.test":
			return subWithGet, nil
		}
		return nil, nil
	}
	orig := &tls.Config{GetCertificate: getCert, GetConfigForClient: getCfg, Certificates: []tls.Certificate{static}}
	cfg, err := HookServerConfig(orig)
	if err != nil {
		t.Fatal(err)
	}
	if orig.Certificates[0].PrivateKey != static.PrivateKey || sub.Certificates[0].PrivateKey != subCert.PrivateKey {
		t.Fatal("the caller's configuration was modified")
	}
	srv := startServer(t, cfg)
	for _, name := range []string{"dyn.test", "static.test", "sub.test", "subdyn.test", "rsa.test"} {
		for i := 0; i < 2; i++ {
			before, cacheBefore := TotalStats(), DefaultCache().Stats()
			st, err := handshake(srv.addr(), clientConfig(name))
			if err != nil {
				t.Fatalf("%s: %v (server: %v)", name, err, srv.errors())
			}
			if got := st.PeerCertificates[0].DNSNames[0]; got != name {
				t.Fatalf("%s: served %s", name, got)
			}
			want := Stats{Signatures: 1, Checks: 1}
			if name == "rsa.test" {
				want = Stats{} // returned unchanged: signed by crypto/rsa, unseen
			}
			if d := statsDelta(TotalStats(), before); d != want {
				t.Fatalf("%s: counters moved by %+v, want %+v", name, d, want)
			}
			ca := DefaultCache().Stats()
			if name == "rsa.test" && ca.Fallbacks != cacheBefore.Fallbacks+1 {
				t.Fatalf("%s: fallback not counted: %+v", name, ca)
			}
			if name == "dyn.test" && i == 1 && ca.Hits != cacheBefore.Hits+1 {
				t.Fatalf("%s: second handshake was not a cache hit: %+v -> %+v", name, cacheBefore, ca)
			}
		}
	}
	if calls.Load() != 6 { // dyn, static, rsa: twice each (sub and subdyn use their own config)
		t.Fatalf("the caller's GetCertificate ran %d times", calls.Load())
	}
	if sub.Certificates[0].PrivateKey != subCert.PrivateKey || subWithGet.Certificates != nil {
		t.Fatal("a configuration returned by GetConfigForClient was modified")
	}
}

// TestHookClientConfigWrapsClientCertificates: mutual TLS where both sides'
// certificates arrive through callbacks, and a client with Certificates.
func TestHookClientConfigWrapsClientCertificates(t *testing.T) {
	serverCert := ca(t).issue(t, newKey(t, "P-256"), "mtls.test")
	clientCert := ca(t).issue(t, newKey(t, "P-256"), "client.test")
	scfg, err := HookServerConfig(&tls.Config{
		GetCertificate: fresh(serverCert),
		ClientAuth:     tls.RequireAndVerifyClientCert,
		ClientCAs:      ca(t).pool,
	})
	if err != nil {
		t.Fatal(err)
	}
	srv := startServer(t, scfg)
	store, err := truststore.New([]*x509.Certificate{ca(t).cert})
	if err != nil {
		t.Fatal(err)
	}
	byCallback := clientConfig("mtls.test")
	byCallback.GetClientCertificate = func(*tls.CertificateRequestInfo) (*tls.Certificate, error) {
		c := reparsed(t, clientCert)
		return &c, nil
	}
	byList := clientConfig("mtls.test")
	byList.Certificates = []tls.Certificate{clientCert}
	for name, cc := range map[string]*tls.Config{"GetClientCertificate": byCallback, "Certificates": byList} {
		hooked := HookClientConfig(cc, store)
		if name == "Certificates" && cc.Certificates[0].PrivateKey != clientCert.PrivateKey {
			t.Fatal("the caller's Certificates were modified")
		}
		for _, version := range []uint16{tls.VersionTLS12, tls.VersionTLS13} {
			hooked.MaxVersion = version
			before := TotalStats()
			if _, err := handshake(srv.addr(), hooked); err != nil {
				t.Fatalf("%s %s: %v (server: %v)", name, tls.VersionName(version), err, srv.errors())
			}
			if d := statsDelta(TotalStats(), before); d != (Stats{Signatures: 2, Checks: 2}) {
				t.Fatalf("%s %s: counters moved by %+v (want the server's and the client's signature)", name, tls.VersionName(version), d)
			}
		}
	}
	if c := HookClientConfig(nil, store); c == nil || c.GetClientCertificate != nil {
		t.Fatal("HookClientConfig(nil, store)")
	}
}
