package provider

import (
	"crypto/tls"
	"crypto/x509"
	"net"
	"testing"
	"time"

	"github.com/p256tls/p256tls/internal/testsupport/testpki"
)

// TestHookClientConfigStaleName is the regression test of a stale host name:
// a Config hooked with one name, cloned and given an IP address (as per-host
// dialers do), must not verify the server against the name it was hooked
// with. crypto/tls reports no server name for an IP address, so the hook
// used to fall back to the hooking-time name and accept a leaf that names
// only that. crypto/tls with RootCAs refuses each case. It uses only the API
// that predates the fix, so that it runs (and fails) on the old code.
func TestHookClientConfigStaleName(t *testing.T) {
	p := newTLSPKI(t)
	leafFor := func(dns []string, ips []net.IP) tls.Certificate {
		tm := testpki.LeafTemplate("stale", time.Now().Add(-time.Hour), time.Now().Add(time.Hour), dns...)
		tm.IPAddresses = ips
		tm.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}
		return p.issueLeaf(t, tm)
	}
	dnsOnly := leafFor([]string{"good.example"}, nil)
	v4Only := leafFor(nil, []net.IP{net.IPv4(127, 0, 0, 1)})
	cases := []struct {
		name        string
		hooked, got string
		cert        tls.Certificate
	}{
		{"DNS to IPv4", "good.example", "127.0.0.1", dnsOnly},
		{"DNS to IPv6", "good.example", "::1", dnsOnly},
		{"DNS to bracketed IPv6", "good.example", "[::1]", dnsOnly},
		{"DNS to empty", "good.example", "", dnsOnly},
		{"IPv4 to another IPv4", "127.0.0.1", "127.0.0.2", v4Only},
		{"IPv4 to IPv6", "127.0.0.1", "::1", v4Only},
		{"IPv4 to empty", "127.0.0.1", "", v4Only},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			server := &tls.Config{Certificates: []tls.Certificate{tc.cert}}
			std := &tls.Config{RootCAs: p.store.CertPool(), ServerName: tc.got}
			if _, cerr, _ := hookHandshake(t, std, server); cerr == nil {
				t.Fatal("crypto/tls accepted: the case is wrong")
			}
			clone := HookClientConfig(&tls.Config{ServerName: tc.hooked}, p.store).Clone()
			clone.ServerName = tc.got
			if _, cerr, _ := hookHandshake(t, clone, server); cerr == nil {
				t.Fatalf("hooked with %q, dialed as %q: accepted a leaf for %q only", tc.hooked, tc.got, tc.hooked)
			}
		})
	}
}
