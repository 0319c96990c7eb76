package integration

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"math/big"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/spiffe/go-spiffe/v2/bundle/x509bundle"
	"github.com/spiffe/go-spiffe/v2/spiffeid"
	"github.com/spiffe/go-spiffe/v2/spiffetls/tlsconfig"
	"github.com/spiffe/go-spiffe/v2/svid/x509svid"

	"github.com/p256tls/p256tls/provider"
)

var serial atomic.Int64

// spiffeCA is the signing authority of a test trust domain.
type spiffeCA struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
}

func newSpiffeCA(t *testing.T, td spiffeid.TrustDomain) *spiffeCA {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(serial.Add(1)),
		Subject:               pkix.Name{CommonName: "test SPIFFE CA"},
		URIs:                  []*url.URL{td.ID().URL()},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(24 * time.Hour),
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return &spiffeCA{cert: cert, key: key}
}

// issue makes an X509-SVID for id with a new P-256 key (as SPIRE does at
// each rotation), valid for an hour, parsed and validated by go-spiffe.
func (ca *spiffeCA) issue(t testing.TB, id spiffeid.ID) *x509svid.SVID {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Error(err)
		return nil
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(serial.Add(1)),
		URIs:         []*url.URL{id.URL()},
		NotBefore:    time.Now().Add(-time.Minute),
		NotAfter:     time.Now().Add(time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	if err != nil {
		t.Error(err)
		return nil
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Error(err)
		return nil
	}
	svid, err := x509svid.ParseRaw(der, keyDER)
	if err != nil {
		t.Error(err)
		return nil
	}
	return svid
}

// rotatingSource is an x509svid.Source whose SVID is replaced by rotate,
// like the Workload API's X509Source when SPIRE pushes a new SVID.
type rotatingSource struct {
	ca      *spiffeCA
	id      spiffeid.ID
	mu      sync.Mutex
	current *x509svid.SVID
	calls   atomic.Int64
}

func newRotatingSource(t *testing.T, ca *spiffeCA, id spiffeid.ID) *rotatingSource {
	s := &rotatingSource{ca: ca, id: id}
	s.rotate(t)
	return s
}

func (s *rotatingSource) GetX509SVID() (*x509svid.SVID, error) {
	s.calls.Add(1)
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.current, nil
}

func (s *rotatingSource) rotate(t testing.TB) *x509svid.SVID {
	svid := s.ca.issue(t, s.id)
	if svid == nil {
		return nil
	}
	s.mu.Lock()
	s.current = svid
	s.mu.Unlock()
	return svid
}

func (s *rotatingSource) leaf() *x509.Certificate {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.current.Certificates[0]
}

// TestSPIFFEMutualTLS: go-spiffe's MTLSServerConfig and MTLSClientConfig,
// hooked, over SVID sources that rotate: every handshake is mutual, both
// sides' signatures come from the checked comb signer and are counted, each
// rotation's new key gets one table, and the newest SVID is served at once.
func TestSPIFFEMutualTLS(t *testing.T) {
	td := spiffeid.RequireTrustDomainFromString("example.org")
	serverID := spiffeid.RequireFromPath(td, "/server")
	clientID := spiffeid.RequireFromPath(td, "/client")
	ca := newSpiffeCA(t, td)
	bundle := x509bundle.FromX509Authorities(td, []*x509.Certificate{ca.cert})
	serverSrc := newRotatingSource(t, ca, serverID)
	clientSrc := newRotatingSource(t, ca, clientID)

	scfg, err := provider.HookServerConfig(tlsconfig.MTLSServerConfig(serverSrc, bundle, tlsconfig.AuthorizeID(clientID)))
	if err != nil {
		t.Fatal(err)
	}
	ccfg := signedClient(tlsconfig.MTLSClientConfig(clientSrc, bundle, tlsconfig.AuthorizeID(serverID)))
	srv := startServer(t, nil, scfg)

	const rotations, perKey = 4, 6
	m := now()
	for r := 0; r < rotations; r++ {
		if r > 0 {
			serverSrc.rotate(t)
			clientSrc.rotate(t)
		}
		for i := 0; i < perKey; i++ {
			cfg := ccfg.Clone()
			if i%2 == 1 {
				cfg.MaxVersion = tls.VersionTLS12
			}
			leaf, err := handshake(srv.addr(), cfg)
			if err != nil {
				t.Fatalf("rotation %d, handshake %d: %v (server: %v)", r, i, err, srv.errors())
			}
			if !leaf.Equal(serverSrc.leaf()) {
				t.Fatalf("rotation %d: the server did not serve its newest SVID", r)
			}
			if p := srv.lastPeer(); p == nil || !p.Equal(clientSrc.leaf()) {
				t.Fatalf("rotation %d: the client did not present its newest SVID", r)
			}
		}
	}
	d := m.since()
	const n = rotations * perKey
	if d.stats != (provider.Stats{Signatures: 2 * n, Checks: 2 * n}) {
		t.Fatalf("counters moved by %+v, want %d checked signatures (server and client)", d.stats, 2*n)
	}
	if d.cache.Builds != 2*rotations || d.cache.Fallbacks != 0 || d.cache.Hits != 2*n-2*rotations {
		t.Fatalf("cache moved by %+v, want %d builds", d.cache, 2*rotations)
	}
	t.Logf("%d mutual handshakes over %d rotations: %+v; cache %+v", n, rotations, d.stats, d.cache)
	// The expvar view names the keys in service by their SPIFFE IDs.
	doc, err := json.Marshal(provider.ExpvarValue())
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []spiffeid.ID{serverID, clientID} {
		if !strings.Contains(string(doc), `"name":"`+id.String()+`"`) {
			t.Errorf("the expvar view does not name %v: %s", id, doc)
		}
	}

	// A client that is not authorized is refused: the hooked configuration
	// still runs go-spiffe's verification.
	other := newRotatingSource(t, ca, spiffeid.RequireFromPath(td, "/intruder"))
	intruder := signedClient(tlsconfig.MTLSClientConfig(other, bundle, tlsconfig.AuthorizeID(serverID)))
	if _, err := handshake(srv.addr(), intruder); err == nil {
		t.Fatal("an unauthorized SPIFFE ID was accepted")
	}
	wrongServer := signedClient(tlsconfig.MTLSClientConfig(clientSrc, bundle, tlsconfig.AuthorizeID(clientID)))
	if _, err := handshake(srv.addr(), wrongServer); err == nil {
		t.Fatal("the client accepted a server it does not authorize")
	}

}

// TestSPIFFEConcurrentRotation: clients keep connecting while both sides'
// SVIDs rotate underneath: no handshake fails, every signature is checked.
func TestSPIFFEConcurrentRotation(t *testing.T) {
	td := spiffeid.RequireTrustDomainFromString("example.org")
	serverID := spiffeid.RequireFromPath(td, "/server")
	clientID := spiffeid.RequireFromPath(td, "/client")
	ca := newSpiffeCA(t, td)
	bundle := x509bundle.FromX509Authorities(td, []*x509.Certificate{ca.cert})
	serverSrc := newRotatingSource(t, ca, serverID)
	clientSrc := newRotatingSource(t, ca, clientID)
	scfg, err := provider.HookServerConfig(tlsconfig.MTLSServerConfig(serverSrc, bundle, tlsconfig.AuthorizeID(clientID)))
	if err != nil {
		t.Fatal(err)
	}
	ccfg := signedClient(tlsconfig.MTLSClientConfig(clientSrc, bundle, tlsconfig.AuthorizeID(serverID)))
	srv := startServer(t, nil, scfg)

	const clients, each, rotations = 8, 25, 10
	m := now()
	stop := make(chan struct{})
	var rotated sync.WaitGroup
	rotated.Add(1)
	go func() {
		defer rotated.Done()
		for r := 0; r < rotations; r++ {
			select {
			case <-stop:
				return
			case <-time.After(15 * time.Millisecond):
			}
			serverSrc.rotate(t)
			clientSrc.rotate(t)
		}
	}()
	var wg sync.WaitGroup
	var failed atomic.Int64
	for c := 0; c < clients; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				if _, err := handshake(srv.addr(), ccfg); err != nil {
					failed.Add(1)
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(stop)
	rotated.Wait()
	if failed.Load() > 0 {
		t.Fatalf("%d handshakes failed (server: %v)", failed.Load(), srv.errors())
	}
	d := m.since()
	n := uint64(clients * each)
	if d.stats != (provider.Stats{Signatures: 2 * n, Checks: 2 * n}) {
		t.Fatalf("counters moved by %+v, want %d checked signatures", d.stats, 2*n)
	}
	if d.cache.Builds > 2*(rotations+1) || d.cache.Fallbacks != 0 {
		t.Fatalf("cache moved by %+v (at most %d keys were served)", d.cache, 2*(rotations+1))
	}
	t.Logf("%d mutual handshakes during %d rotations: cache %+v", n, rotations, d.cache)
}

// signedClient makes cfg, a go-spiffe client configuration, sign its SVIDs
// through the provider while go-spiffe's own verification stays in force.
func signedClient(cfg *tls.Config) *tls.Config {
	cfg.GetClientCertificate = provider.DefaultCache().WrapGetClientCertificate(cfg.GetClientCertificate)
	return cfg
}
