package integration

import (
	"crypto/x509"
	"encoding/binary"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/letsencrypt/pebble/v2/ca"
	"github.com/letsencrypt/pebble/v2/db"
	"github.com/letsencrypt/pebble/v2/va"
	"github.com/letsencrypt/pebble/v2/wfe"
)

func TestMain(m *testing.M) {
	// Pebble's test knobs, read when its parts are made: validate without
	// random sleeps, and reject no good nonces (by default it rejects 5% to
	// exercise clients' retries, which only slows the tests).
	os.Setenv("PEBBLE_VA_NOSLEEP", "1")
	os.Setenv("PEBBLE_WFE_NONCEREJECT", "0")
	os.Exit(m.Run())
}

// acmeServer is a Pebble ACME server running in the test process: its web
// front end on an httptest TLS server, its validation authority pointed at
// loopback ports, its own CA issuing the certificates.
type acmeServer struct {
	directory string         // the ACME directory URL
	client    *http.Client   // trusts the front end's TLS certificate
	apiRoots  *x509.CertPool // the front end's TLS certificate, for certmagic
	roots     *x509.CertPool // Pebble's root CA: issued certificates verify against it
}

// startPebble starts Pebble with certificates valid for validity seconds.
// Its validation authority resolves every name to 127.0.0.1 (through the
// loopback DNS server of startDNS) and connects to tlsPort for tls-alpn-01
// and httpPort for http-01 challenges: validation is real.
func startPebble(t *testing.T, tlsPort, httpPort int, validity uint64) *acmeServer {
	t.Helper()
	logger := log.New(io.Discard, "", 0)
	if testing.Verbose() {
		logger = log.New(testWriter{t}, "pebble ", 0)
	}
	store := db.NewMemoryStore()
	profiles := map[string]ca.Profile{"default": {Description: "test", ValidityPeriod: validity}}
	authority := ca.New(logger, store, "", "ecdsa", 0, 1, profiles)
	validator := va.New(logger, httpPort, tlsPort, false, startDNS(t), store)
	front := wfe.New(logger, store, validator, authority, []string{"pebble.letsencrypt.org"}, false, false, 0, 0)
	srv := httptest.NewTLSServer(front.Handler())
	t.Cleanup(srv.Close)
	roots := x509.NewCertPool()
	roots.AddCert(authority.GetRootCert(0).Cert)
	apiRoots := x509.NewCertPool()
	apiRoots.AddCert(srv.Certificate())
	return &acmeServer{directory: srv.URL + wfe.DirectoryPath, client: srv.Client(), apiRoots: apiRoots, roots: roots}
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(string(p))
	return len(p), nil
}

// freePort returns a loopback TCP port that was free a moment ago.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// startDNS starts a DNS-over-TCP server on loopback that answers every A
// question with 127.0.0.1 and every other question with no answer, for
// Pebble's validation authority, and returns its address.
func startDNS(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer c.Close()
				c.SetDeadline(time.Now().Add(10 * time.Second))
				for {
					var n [2]byte
					if _, err := io.ReadFull(c, n[:]); err != nil {
						return
					}
					q := make([]byte, binary.BigEndian.Uint16(n[:]))
					if _, err := io.ReadFull(c, q); err != nil {
						return
					}
					resp := dnsAnswer(q)
					if resp == nil {
						return
					}
					out := binary.BigEndian.AppendUint16(nil, uint16(len(resp)))
					if _, err := c.Write(append(out, resp...)); err != nil {
						return
					}
				}
			}()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		wg.Wait()
	})
	return ln.Addr().String()
}

// dnsAnswer builds the response to the query q (RFC 1035 section 4), or
// returns nil for a message that is not a one-question query.
func dnsAnswer(q []byte) []byte {
	if len(q) < 12 || q[2]&0x80 != 0 || binary.BigEndian.Uint16(q[4:6]) != 1 {
		return nil
	}
	// The question: a name (labels up to a zero byte), a type and a class.
	i := 12
	for i < len(q) && q[i] != 0 {
		if q[i]&0xc0 != 0 {
			return nil
		}
		i += int(q[i]) + 1
	}
	if i+5 > len(q) {
		return nil
	}
	question := q[12 : i+5]
	qtype := binary.BigEndian.Uint16(q[i+1 : i+3])

	resp := make([]byte, 12, 12+len(question)+16)
	copy(resp, q[:2])                       // ID
	resp[2] = 0x80 | q[2]&0x79              // QR, the query's opcode and RD
	resp[3] = 0x80                          // RA, NOERROR
	binary.BigEndian.PutUint16(resp[4:], 1) // QDCOUNT
	resp = append(resp, question...)
	if qtype == 1 { // A
		binary.BigEndian.PutUint16(resp[6:], 1) // ANCOUNT
		resp = append(resp,
			0xc0, 12, // the name: a pointer to the question's
			0, 1, 0, 1, // type A, class IN
			0, 0, 0, 60, // TTL
			0, 4, 127, 0, 0, 1)
	}
	return resp
}

func TestDNSAnswer(t *testing.T) {
	// A query for "a.test" A, with an EDNS record after the question.
	q := []byte{0x12, 0x34, 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 1,
		1, 'a', 4, 't', 'e', 's', 't', 0, 0, 1, 0, 1,
		0, 0, 41, 0x10, 0, 0, 0, 0, 0, 0, 0}
	r := dnsAnswer(q)
	want := []byte{0x12, 0x34, 0x81, 0x80, 0, 1, 0, 1, 0, 0, 0, 0,
		1, 'a', 4, 't', 'e', 's', 't', 0, 0, 1, 0, 1,
		0xc0, 12, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, 127, 0, 0, 1}
	if string(r) != string(want) {
		t.Fatalf("answer\n%x, want\n%x", r, want)
	}
	q[21] = 28 // AAAA: no answer
	if r := dnsAnswer(q); len(r) != 24 || r[7] != 0 {
		t.Fatalf("AAAA answer %x", r)
	}
	if dnsAnswer(q[:15]) != nil || dnsAnswer(want) != nil {
		t.Fatal("answered a truncated query or a response")
	}
}
