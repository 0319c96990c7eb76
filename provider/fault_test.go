package provider

import (
	"crypto/tls"
	"strings"
	"testing"
	"time"

	"github.com/p256tls/p256tls/internal/p256/fault"
)

// The fault hook is process-global: no test of this package runs in
// parallel (none calls t.Parallel), so a hook installed here only corrupts
// the handshake it is meant for.

// TestFaultDetectedFailsHandshake corrupts s in the server's signature. The
// check must catch it: the client's handshake fails, no signature leaves the
// server, the fault counter rises, and the next connection is served.
func TestFaultDetectedFailsHandshake(t *testing.T) {
	for _, version := range []uint16{tls.VersionTLS12, tls.VersionTLS13} {
		t.Run(tls.VersionName(version), func(t *testing.T) {
			id := newIdentity(t, "P-256", "localhost")
			srv := startServerOpts(t, ServerConfig(NewIdentities(id)), true)
			cfg := clientConfig("localhost")
			cfg.MinVersion, cfg.MaxVersion = version, version

			before, totalBefore := id.Stats(), TotalStats()
			restore := fault.Set(func(p fault.Point, limbs *[4]uint64) {
				if p == fault.S {
					limbs[0] ^= 1
				}
			})
			_, err := handshake(srv.addr(), cfg)
			restore()
			if err == nil {
				t.Fatal("the handshake succeeded with a corrupted signature")
			}
			// crypto/tls answers a signing failure with a fatal alert:
			// handshake_failure in TLS 1.2, internal_error in TLS 1.3.
			wantAlert, alertText := byte(80), "internal error"
			if version == tls.VersionTLS12 {
				wantAlert, alertText = 40, "handshake failure"
			}
			if !strings.Contains(err.Error(), "remote error: tls: "+alertText) {
				t.Fatalf("client error %q, want the server's %s alert", err, alertText)
			}
			d := statsDelta(id.Stats(), before)
			if d != (Stats{Signatures: 1, Checks: 1, FaultsDetected: 1}) {
				t.Fatalf("counters moved by %+v", d)
			}
			if td := statsDelta(TotalStats(), totalBefore); td.FaultsDetected != 1 {
				t.Fatalf("total fault counter moved by %d", td.FaultsDetected)
			}
			// The client may see the alert before the server goroutine
			// has recorded its error: wait for it (bounded).
			var serverErrs []error
			for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
				if serverErrs = srv.errors(); len(serverErrs) > 0 || time.Now().After(deadline) {
					break
				}
			}
			if len(serverErrs) != 1 || !strings.Contains(serverErrs[0].Error(), "fault detected") {
				t.Fatalf("server errors: %v", serverErrs)
			}

			if version == tls.VersionTLS12 {
				// The server's TLS 1.2 flight is in the clear: it must
				// hold no ServerKeyExchange (the signed message) and end
				// with the fatal alert.
				srv.mu.Lock()
				written := srv.writes[0]
				srv.mu.Unlock()
				types, alerts := parsePlaintextRecords(t, written)
				for _, ty := range types {
					if ty == 12 {
						t.Fatalf("a ServerKeyExchange left the server (messages %v)", types)
					}
				}
				if len(alerts) != 1 || alerts[0] != [2]byte{2, wantAlert} {
					t.Fatalf("alerts %v, want one fatal %s", alerts, alertText)
				}
			}

			// The server goes on serving.
			before = id.Stats()
			if _, err := handshake(srv.addr(), cfg); err != nil {
				t.Fatalf("the next handshake failed: %v", err)
			}
			if d := statsDelta(id.Stats(), before); d != (Stats{Signatures: 1, Checks: 1}) {
				t.Fatalf("counters moved by %+v", d)
			}
		})
	}
}

// parsePlaintextRecords reads TLS records up to the first ChangeCipherSpec
// and returns the handshake message types and the alerts they carry.
func parsePlaintextRecords(t *testing.T, b []byte) (types []byte, alerts [][2]byte) {
	t.Helper()
	var hs []byte
	for len(b) > 0 {
		if len(b) < 5 {
			t.Fatalf("truncated record header")
		}
		typ, n := b[0], int(b[3])<<8|int(b[4])
		if len(b) < 5+n {
			t.Fatalf("truncated record")
		}
		body := b[5 : 5+n]
		b = b[5+n:]
		switch typ {
		case 20: // change_cipher_spec: what follows is encrypted
			b = nil
		case 21:
			if len(body) == 2 {
				alerts = append(alerts, [2]byte{body[0], body[1]})
			}
		case 22:
			hs = append(hs, body...)
		}
	}
	for len(hs) >= 4 {
		n := int(hs[1])<<16 | int(hs[2])<<8 | int(hs[3])
		if len(hs) < 4+n {
			t.Fatalf("truncated handshake message")
		}
		types = append(types, hs[0])
		hs = hs[4+n:]
	}
	return types, alerts
}
