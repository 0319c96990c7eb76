package main

import (
	"encoding/json"
	"os/exec"
	"runtime"
	"strings"
	"testing"
)

// With openssl installed, -openssl adds its speed figures and an s_server
// column measured with the same clients.
func TestOpenSSLColumn(t *testing.T) {
	if _, err := exec.LookPath("openssl"); err != nil {
		t.Skip("openssl not installed")
	}
	if runtime.GOOS != "linux" {
		t.Skip("s_server CPU time is read from /proc")
	}
	o := parseOpts(t, "-openssl", "-transport", "tcp", "-duration", "100ms", "-rounds", "1", "-json")
	code, stdout, stderr := runBench(t, o)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stderr, stdout)
	}
	var doc struct {
		Machine    map[string]any
		Primitives []struct {
			Name      string
			OpenSSLNs *float64 `json:"openssl_ns"`
		}
		Handshakes []struct {
			Name         string
			Side         string
			Failures     int
			OpenSSLCPUus *float64 `json:"openssl_cpu_us"`
			Group        string
		}
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Machine["openssl"] == nil {
		t.Error("machine.openssl missing")
	}
	n := 0
	for _, p := range doc.Primitives {
		if p.OpenSSLNs != nil {
			n++
		}
	}
	if n != 3 {
		t.Errorf("%d primitive rows with an openssl figure, want 3 (two signs, ordinary verify)", n)
	}
	for _, h := range doc.Handshakes {
		// The GetCertificate row has no openssl column (s_server serves
		// its certificate from files).
		if h.Side == "server" && !strings.HasSuffix(h.Name, ", GetCertificate") && (h.OpenSSLCPUus == nil || *h.OpenSSLCPUus <= 0) {
			t.Errorf("server row has no openssl s_server figure")
		}
		if h.Group != "X25519" {
			t.Errorf("%s row negotiated %q, want X25519 under -openssl", h.Side, h.Group)
		}
	}
}
