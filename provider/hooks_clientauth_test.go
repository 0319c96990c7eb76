package provider

import (
	"crypto/tls"
	"errors"
	"sync/atomic"
	"testing"
)

// TestHookClientAuthHostChoice: with GetConfigForClient, a host whose
// configuration has ClientAuth NoClientCert while the hooked Config's own is
// set otherwise has chosen not to ask for client certificates: no
// CertificateRequest is sent and a client without one is served. A host
// whose NoClientCert is the hooked Config's own (a clone of it, say) gets
// what hooking asks for: a required certificate. Other hosts are verified
// with the store, and a nil store refuses every host.
func TestHookClientAuthHostChoice(t *testing.T) {
	p := newTLSPKI(t)
	sub := func(auth tls.ClientAuthType) *tls.Config {
		return &tls.Config{Certificates: []tls.Certificate{p.server}, ClientAuth: auth}
	}
	cases := []struct {
		label       string
		outer, host tls.ClientAuthType
		nilStore    bool
		asked, ok   bool // without a client certificate
	}{
		{"required, host none", tls.RequireAndVerifyClientCert, tls.NoClientCert, false, false, true},
		{"optional, host none", tls.VerifyClientCertIfGiven, tls.NoClientCert, false, false, true},
		{"required, host required", tls.RequireAndVerifyClientCert, tls.RequireAndVerifyClientCert, false, true, false},
		{"required, host optional", tls.RequireAndVerifyClientCert, tls.VerifyClientCertIfGiven, false, true, true},
		{"none, host none", tls.NoClientCert, tls.NoClientCert, false, true, false},
		{"nil store, host none", tls.RequireAndVerifyClientCert, tls.NoClientCert, true, true, false}, // refused in VerifyConnection
	}
	for _, tc := range cases {
		t.Run(tc.label, func(t *testing.T) {
			outer := sub(tc.outer)
			outer.GetConfigForClient = func(*tls.ClientHelloInfo) (*tls.Config, error) { return sub(tc.host), nil }
			store := p.store
			if tc.nilStore {
				store = nil
			}
			server := HookClientAuth(outer, store)
			var asked atomic.Bool
			client := HookClientConfig(&tls.Config{ServerName: "server.test",
				GetClientCertificate: func(*tls.CertificateRequestInfo) (*tls.Certificate, error) {
					asked.Store(true)
					return &tls.Certificate{}, nil
				}}, p.store)
			_, cerr, serr := hookHandshake(t, client, server)
			if asked.Load() != tc.asked {
				t.Errorf("client certificate requested: %v, want %v", asked.Load(), tc.asked)
			}
			if (cerr == nil && serr == nil) != tc.ok {
				t.Errorf("without a client certificate: client %v, server %v; want success %v", cerr, serr, tc.ok)
			}
			if tc.nilStore && !errors.Is(serr, ErrNilStore) {
				t.Errorf("nil store: %v, want ErrNilStore", serr)
			}
			if !tc.asked || tc.nilStore {
				return
			}
			// The host that asks verifies with the store: its client
			// certificate passes, one without ClientAuth usage does not.
			for _, c := range []struct {
				cert tls.Certificate
				ok   bool
			}{{p.client, true}, {p.clientServer, false}} {
				cc := HookClientConfig(&tls.Config{ServerName: "server.test", Certificates: []tls.Certificate{c.cert}}, p.store)
				_, cerr, serr := hookHandshake(t, cc, server)
				if (cerr == nil && serr == nil) != c.ok {
					t.Errorf("client certificate %s: client %v, server %v; want success %v", c.cert.Leaf.Subject.CommonName, cerr, serr, c.ok)
				}
			}
		})
	}
}
