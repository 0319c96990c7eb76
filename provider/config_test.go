package provider

import (
	"crypto/tls"
	"errors"
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
	hooked, err := HookServerConfig(orig, nil)
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
	again, err := HookServerConfig(hooked, nil)
	if err != nil {
		t.Fatal(err)
	}
	if again.Certificates[0].PrivateKey != hooked.Certificates[0].PrivateKey {
		t.Fatal("re-hooking built a second key")
	}
}

func TestHookServerConfigWithIdentities(t *testing.T) {
	ids := NewIdentities(newIdentity(t, "P-256", "localhost"))
	base := &tls.Config{NextProtos: []string{"x"}}
	cfg, err := HookServerConfig(base, ids)
	if err != nil {
		t.Fatal(err)
	}
	if base.GetCertificate != nil {
		t.Fatal("the caller's configuration was modified")
	}
	srv := startServer(t, cfg)
	if _, err := handshake(srv.addr(), clientConfig("localhost")); err != nil {
		t.Fatal(err)
	}
	// nil configuration.
	if cfg, err := HookServerConfig(nil, ids); err != nil || cfg.GetCertificate == nil {
		t.Fatalf("nil config: %v", err)
	}
}

func TestHookServerConfigRefusesConflicts(t *testing.T) {
	ids := NewIdentities(newIdentity(t, "P-256", "localhost"))
	cert := ca(t).issue(t, newKey(t, "P-256"), "localhost")
	getCert := func(*tls.ClientHelloInfo) (*tls.Certificate, error) { return nil, nil }
	getCfg := func(*tls.ClientHelloInfo) (*tls.Config, error) { return nil, nil }
	cases := []struct {
		name string
		cfg  *tls.Config
		ids  *Identities
		want error
	}{
		{"GetCertificate+ids", &tls.Config{GetCertificate: getCert}, ids, ErrCallbackSet},
		{"GetCertificate", &tls.Config{GetCertificate: getCert, Certificates: []tls.Certificate{cert}}, nil, ErrCallbackSet},
		{"GetConfigForClient+ids", &tls.Config{GetConfigForClient: getCfg}, ids, ErrCallbackSet},
		{"GetConfigForClient", &tls.Config{GetConfigForClient: getCfg, Certificates: []tls.Certificate{cert}}, nil, ErrCallbackSet},
		{"Certificates+ids", &tls.Config{Certificates: []tls.Certificate{cert}}, ids, nil},
		{"nothing", &tls.Config{}, nil, nil},
		{"bad certificate", &tls.Config{Certificates: []tls.Certificate{{Certificate: cert.Certificate, PrivateKey: newKey(t, "P-256")}}}, nil, ErrKeyMismatch},
	}
	for _, c := range cases {
		got, err := HookServerConfig(c.cfg, c.ids)
		if err == nil {
			t.Errorf("%s: accepted (%v)", c.name, got)
			continue
		}
		if c.want != nil && !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
		if c.cfg.GetCertificate != nil {
			if c, _ := c.cfg.GetCertificate(nil); c != nil {
				t.Errorf("callback replaced")
			}
		}
	}
}
