package provider

import (
	"crypto/tls"
	"encoding/json"
	"expvar"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// expvarTestName is the name the expvar test publishes under.
const expvarTestName = "p256tls"

func TestExpvar(t *testing.T) {
	id := newIdentity(t, "Ed25519", "expvar.test")
	srv := startServer(t, ServerConfig(NewIdentities(id)))
	if _, err := handshake(srv.addr(), clientConfig("expvar.test")); err != nil {
		t.Fatal(err)
	}
	if expvar.Get(expvarTestName) != nil {
		t.Fatal("importing provider published an expvar")
	}
	expvar.Publish(expvarTestName, expvar.Func(ExpvarValue))
	v := expvar.Get(expvarTestName)
	var doc expvarDoc
	if err := json.Unmarshal([]byte(v.String()), &doc); err != nil {
		t.Fatalf("%s: %v", v.String(), err)
	}
	if doc.Total.Fallbacks == 0 || doc.Live == 0 {
		t.Fatalf("published %+v", doc)
	}
	found := false
	for _, k := range doc.Keys {
		if k.Name == "expvar.test" && k.Algorithm == "Ed25519" && k.Fallbacks == 1 {
			found = true
		}
	}
	if !found {
		t.Fatalf("identity missing from %s", v.String())
	}
	runtime.KeepAlive(id)
}

// TestNoImportSideEffects: the package imports neither expvar nor net/http,
// so importing it registers no handler and publishes nothing.
func TestNoImportSideEffects(t *testing.T) {
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goTool); err != nil {
		t.Skip("no go command")
	}
	out, err := exec.Command(goTool, "list", "-deps", ".").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if dep == "expvar" || dep == "net/http" {
			t.Errorf("provider depends on %s", dep)
		}
	}
}

// TestRegistryDoesNotLeak: an identity nobody refers to any more leaves the
// registry, and its counts stay in the total.
func TestRegistryDoesNotLeak(t *testing.T) {
	var c *counters
	var signed Stats
	func() {
		id := newIdentity(t, "P-384", "gone.test")
		c = id.k.c
		srv := startServer(t, ServerConfig(NewIdentities(id)))
		for i := 0; i < 3; i++ {
			if _, err := handshake(srv.addr(), clientConfig("gone.test")); err != nil {
				t.Fatal(err)
			}
		}
		srv.close()
		signed = id.Stats()
	}()
	if signed.Fallbacks != 3 {
		t.Fatalf("counted %+v", signed)
	}
	totalBefore := TotalStats()
	deadline := time.Now().Add(10 * time.Second)
	for {
		runtime.GC()
		reg.mu.Lock()
		_, live := reg.live[c]
		reg.mu.Unlock()
		if !live {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("an unreachable identity is still registered")
		}
		time.Sleep(10 * time.Millisecond)
	}
	after := TotalStats()
	if after.Fallbacks < totalBefore.Fallbacks || after.Signatures < totalBefore.Signatures {
		t.Fatalf("the total went down when an identity was collected: %+v -> %+v", totalBefore, after)
	}
}

// TestIdentitiesStats: a set sums its identities, once per key.
func TestIdentitiesStats(t *testing.T) {
	a := newIdentity(t, "RSA-2048", "a.test")
	b, err := NewIdentity(*a.Certificate())
	if err != nil {
		t.Fatal(err)
	}
	ids := NewIdentities(a, b)
	srv := startServer(t, ServerConfig(ids))
	for i := 0; i < 2; i++ {
		cfg := clientConfig("a.test")
		cfg.MaxVersion = tls.VersionTLS12
		if _, err := handshake(srv.addr(), cfg); err != nil {
			t.Fatal(err)
		}
	}
	if s := ids.Stats(); s.Fallbacks != 2 {
		t.Fatalf("set stats %+v", s)
	}
}
