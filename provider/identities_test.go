package provider

import (
	"context"
	"crypto/tls"
	"errors"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestSNISelection(t *testing.T) {
	def := newIdentity(t, "P-256", "default.test")
	exact := newIdentity(t, "P-256", "a.example.com")
	wild := newIdentity(t, "P-384", "*.example.com")
	other := newIdentity(t, "Ed25519", "other.test", "alias.test")
	// Two identities for one name: ECDSA first, RSA second. A client that
	// cannot use ECDSA must get the RSA one.
	dualEC := newIdentity(t, "P-256", "dual.test")
	dualRSA := newIdentity(t, "RSA-2048", "dual.test")
	ids := NewIdentities(def, exact, wild, other, dualEC, dualRSA)
	srv := startServer(t, ServerConfig(ids))

	cases := []struct {
		serverName string
		rsaOnly    bool
		want       *Identity
	}{
		{"a.example.com", false, exact},
		{"A.Example.COM", false, exact},
		{"b.example.com", false, wild},
		{"example.com", false, def}, // a wildcard covers one label only
		{"x.y.example.com", false, def},
		{"other.test", false, other},
		{"alias.test", false, other},
		{"unknown.test", false, def},
		{"", false, def},
		{"dual.test", false, dualEC},
		{"dual.test", true, dualRSA},
	}
	for _, c := range cases {
		cfg := &tls.Config{InsecureSkipVerify: true, ServerName: c.serverName}
		if c.rsaOnly {
			cfg.MaxVersion = tls.VersionTLS12
			cfg.CipherSuites = []uint16{tls.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256}
		}
		st, err := handshake(srv.addr(), cfg)
		if err != nil {
			t.Fatalf("%q: %v (server: %v)", c.serverName, err, srv.errors())
		}
		if got := st.PeerCertificates[0]; !got.Equal(c.want.Leaf) {
			t.Errorf("%q (rsaOnly=%v): got %v, want %v", c.serverName, c.rsaOnly, got.DNSNames, c.want.Leaf.DNSNames)
		}
	}

	// A trailing dot is the same name.
	hello := &tls.ClientHelloInfo{ServerName: "a.example.com."}
	if c, err := ids.GetCertificate(hello); err != nil || c.Leaf != exact.Leaf {
		t.Errorf("trailing dot: got %v, %v", c, err)
	}
	// An empty set fails cleanly.
	if _, err := NewIdentities().GetCertificate(hello); err == nil {
		t.Error("empty set: no error")
	}
	if got := ids.List(); len(got) != 6 || got[0] != def {
		t.Errorf("List: %v", got)
	}
}

func TestLoadIdentitiesAndReloadUnderLoad(t *testing.T) {
	dir := t.TempDir()
	first := ca(t).issue(t, newKey(t, "P-256"), "localhost")
	files := writePair(t, dir, "site", first)
	ids, err := LoadIdentities(files)
	if err != nil {
		t.Fatal(err)
	}
	old := ids.List()[0]
	if !old.Leaf.Equal(first.Leaf) {
		t.Fatal("loaded the wrong certificate")
	}
	srv := startServer(t, ServerConfig(ids))

	// Unchanged files: no new identity, no table rebuilt.
	if err := ids.Reload(); err != nil {
		t.Fatal(err)
	}
	if ids.List()[0] != old {
		t.Fatal("reload of unchanged files replaced the identity")
	}

	// Concurrent handshakes while the files are replaced and reloaded
	// several times. Every handshake must succeed, with one of the
	// certificates that were in service.
	const clients, perClient, rotations = 8, 15, 5
	var (
		mu     sync.Mutex
		leaves = map[string]bool{string(first.Leaf.Raw): true}
		failed atomic.Int64
		wg     sync.WaitGroup
	)
	for i := 0; i < clients; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < perClient; j++ {
				st, err := handshake(srv.addr(), clientConfig("localhost"))
				if err != nil {
					t.Errorf("handshake during reload: %v", err)
					failed.Add(1)
					return
				}
				mu.Lock()
				ok := leaves[string(st.PeerCertificates[0].Raw)]
				mu.Unlock()
				if !ok {
					t.Errorf("server presented a certificate that was never in service")
				}
			}
		}()
	}
	var last *Identity
	for r := 0; r < rotations; r++ {
		next := ca(t).issue(t, newKey(t, []string{"P-256", "P-384"}[r%2]), "localhost")
		mu.Lock()
		leaves[string(next.Leaf.Raw)] = true
		mu.Unlock()
		writePair(t, dir, "site", next)
		if err := ids.Reload(); err != nil {
			t.Fatal(err)
		}
		last = ids.List()[0]
		if !last.Leaf.Equal(next.Leaf) {
			t.Fatal("reload did not swap in the new certificate")
		}
		time.Sleep(5 * time.Millisecond)
	}
	wg.Wait()
	if failed.Load() != 0 {
		t.Fatalf("%d handshakes failed", failed.Load())
	}
	st, err := handshake(srv.addr(), clientConfig("localhost"))
	if err != nil {
		t.Fatal(err)
	}
	if !st.PeerCertificates[0].Equal(last.Leaf) {
		t.Fatal("after the reloads the server presents an old certificate")
	}
}

func TestReloadBadFileKeepsOldIdentity(t *testing.T) {
	dir := t.TempDir()
	a := writePair(t, dir, "a", ca(t).issue(t, newKey(t, "P-256"), "a.test"))
	b := writePair(t, dir, "b", ca(t).issue(t, newKey(t, "Ed25519"), "b.test"))
	ids, err := LoadIdentities(a, b)
	if err != nil {
		t.Fatal(err)
	}
	srv := startServer(t, ServerConfig(ids))
	oldB := ids.List()[1]

	// a gets a new, good pair; b's key file is garbage.
	newA := ca(t).issue(t, newKey(t, "P-256"), "a.test")
	writePair(t, dir, "a", newA)
	writeFile(t, dir, "b.key", []byte("-----BEGIN PRIVATE KEY-----\nnot base64!\n-----END PRIVATE KEY-----\n"))
	err = ids.Reload()
	if err == nil {
		t.Fatal("reload of a bad file: no error")
	}
	if !strings.Contains(err.Error(), b.KeyFile) || !strings.Contains(err.Error(), "keeping the previous identity") {
		t.Fatalf("error does not name the file or the outcome: %v", err)
	}
	list := ids.List()
	if !list[0].Leaf.Equal(newA.Leaf) {
		t.Fatal("the good pair was not reloaded")
	}
	if list[1] != oldB {
		t.Fatal("the bad pair lost its identity")
	}
	for _, name := range []string{"a.test", "b.test"} {
		if _, err := handshake(srv.addr(), clientConfig(name)); err != nil {
			t.Fatalf("%s after a bad reload: %v", name, err)
		}
	}

	// A key that does not match the certificate is bad too.
	writeFile(t, dir, "b.key", keyPEM(t, newKey(t, "Ed25519"), "pkcs8"))
	if err := ids.Reload(); !errors.Is(err, ErrKeyMismatch) {
		t.Fatalf("mismatched key on reload: %v", err)
	}
	// A missing file too.
	os.Remove(b.CertFile)
	if err := ids.Reload(); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing file on reload: %v", err)
	}
	if ids.List()[1] != oldB {
		t.Fatal("the bad pair lost its identity")
	}
	if _, err := handshake(srv.addr(), clientConfig("b.test")); err != nil {
		t.Fatal(err)
	}
}

func TestWatch(t *testing.T) {
	dir := t.TempDir()
	files := writePair(t, dir, "w", ca(t).issue(t, newKey(t, "P-256"), "localhost"))
	ids, err := LoadIdentities(files)
	if err != nil {
		t.Fatal(err)
	}
	old := ids.List()[0]
	srv := startServer(t, ServerConfig(ids))

	errs := make(chan error, 16)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	report := func(err error) {
		select {
		case errs <- err:
		default: // never block the watcher
		}
	}
	go func() { done <- ids.Watch(ctx, 5*time.Millisecond, report) }()
	defer func() {
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Errorf("Watch returned %v", err)
		}
	}()

	// A bad certificate file: the error is reported, the identity kept.
	// (Written to a temporary file and renamed, so that the watcher sees
	// one change, not a truncated file and then its contents.)
	tmp := writeFile(t, dir, "w.crt.tmp", []byte("garbage"))
	if err := os.Rename(tmp, files.CertFile); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-errs:
		if !errors.Is(err, ErrNoCertificate) || !strings.Contains(err.Error(), files.CertFile) {
			t.Fatalf("watch error: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the watcher did not report the bad file")
	}
	if ids.List()[0] != old {
		t.Fatal("bad file replaced the identity")
	}
	if _, err := handshake(srv.addr(), clientConfig("localhost")); err != nil {
		t.Fatal(err)
	}
	// The error is reported once per change, not at every poll.
	time.Sleep(50 * time.Millisecond)
	select {
	case err := <-errs:
		t.Fatalf("error reported again without a change: %v", err)
	default:
	}

	// Good files: picked up.
	next := ca(t).issue(t, newKey(t, "RSA-2048"), "localhost")
	writePair(t, dir, "w", next)
	deadline := time.Now().Add(10 * time.Second)
	for !ids.List()[0].Leaf.Equal(next.Leaf) {
		if time.Now().After(deadline) {
			t.Fatal("the watcher did not load the new files")
		}
		time.Sleep(5 * time.Millisecond)
	}
	st, err := handshake(srv.addr(), clientConfig("localhost"))
	if err != nil {
		t.Fatal(err)
	}
	if !st.PeerCertificates[0].Equal(next.Leaf) {
		t.Fatal("server still presents the old certificate")
	}
}

func TestStaticIdentitiesReload(t *testing.T) {
	id := newIdentity(t, "P-384", "static.test")
	ids := NewIdentities(id, nil)
	if err := ids.Reload(); err != nil {
		t.Fatal(err)
	}
	if got := ids.List(); len(got) != 1 || got[0] != id {
		t.Fatalf("List: %v", got)
	}

	// A nil or empty set fails handshakes cleanly instead of panicking.
	var none *Identities
	if _, err := none.GetCertificate(&tls.ClientHelloInfo{}); err == nil {
		t.Error("nil set: no error")
	}
	if err := none.Reload(); err != nil {
		t.Error(err)
	}
	if _, err := LoadIdentities(); err == nil {
		t.Error("LoadIdentities(): no error")
	}
}
