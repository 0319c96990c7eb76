package integration

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/p256tls/p256tls/provider"
)

// server accepts TLS connections on a loopback listener, completes each
// handshake, records the client's leaf certificate (if any), writes "ok\n"
// and closes.
type server struct {
	ln  net.Listener
	cfg atomic.Pointer[tls.Config] // the configuration for new connections
	wg  sync.WaitGroup

	mu    sync.Mutex
	errs  []error
	peers []*x509.Certificate
}

func startServer(t *testing.T, ln net.Listener, cfg *tls.Config) *server {
	t.Helper()
	if ln == nil {
		var err error
		if ln, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
			t.Fatal(err)
		}
	}
	s := &server{ln: ln}
	s.cfg.Store(cfg)
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s.wg.Add(1)
			go func() {
				defer s.wg.Done()
				s.handle(c)
			}()
		}
	}()
	t.Cleanup(s.close)
	return s
}

func (s *server) handle(raw net.Conn) {
	defer raw.Close()
	raw.SetDeadline(time.Now().Add(30 * time.Second))
	// Note whether the client is an ACME validation (tls-alpn-01): those
	// connections end after the handshake, or fail it when the challenge is
	// not (or no longer) this server's; they are not failures of the server.
	cfg := s.cfg.Load().Clone()
	var validation bool
	inner := cfg.GetConfigForClient
	cfg.GetConfigForClient = func(hello *tls.ClientHelloInfo) (*tls.Config, error) {
		validation = slices.Contains(hello.SupportedProtos, "acme-tls/1")
		if inner != nil {
			return inner(hello)
		}
		return nil, nil
	}
	c := tls.Server(raw, cfg)
	err := c.Handshake()
	if err == nil {
		// Recorded before the reply, which the client waits for.
		if peers := c.ConnectionState().PeerCertificates; len(peers) > 0 {
			s.mu.Lock()
			s.peers = append(s.peers, peers[0])
			s.mu.Unlock()
		}
		_, err = io.WriteString(c, "ok\n")
	}
	if err != nil && !validation {
		s.mu.Lock()
		s.errs = append(s.errs, err)
		s.mu.Unlock()
	}
}

func (s *server) addr() string { return s.ln.Addr().String() }

func (s *server) errors() []error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]error(nil), s.errs...)
}

func (s *server) lastPeer() *x509.Certificate {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.peers) == 0 {
		return nil
	}
	return s.peers[len(s.peers)-1]
}

func (s *server) close() {
	s.ln.Close()
	s.wg.Wait()
}

// handshake dials addr with cfg, reads the server's "ok\n" and returns the
// server's leaf certificate.
// The timeout covers a certificate's issuance by an ACME server.
func handshake(addr string, cfg *tls.Config) (*x509.Certificate, error) {
	c, err := tls.DialWithDialer(&net.Dialer{Timeout: 60 * time.Second}, "tcp", addr, cfg)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(30 * time.Second))
	buf := make([]byte, 3)
	if _, err := io.ReadFull(c, buf); err != nil {
		return nil, err
	}
	if string(buf) != "ok\n" {
		return nil, errors.New("unexpected reply")
	}
	return c.ConnectionState().PeerCertificates[0], nil
}

// delta is the movement of the provider's process counters and of its
// default cache between two points of a test.
type delta struct {
	stats provider.Stats
	cache provider.CacheStats
}

type mark struct {
	stats provider.Stats
	cache provider.CacheStats
}

func now() mark { return mark{provider.TotalStats(), provider.DefaultCache().Stats()} }

func (m mark) since() delta {
	s, c := provider.TotalStats(), provider.DefaultCache().Stats()
	return delta{
		stats: provider.Stats{
			Signatures:     s.Signatures - m.stats.Signatures,
			Checks:         s.Checks - m.stats.Checks,
			FaultsDetected: s.FaultsDetected - m.stats.FaultsDetected,
			Fallbacks:      s.Fallbacks - m.stats.Fallbacks,
		},
		cache: provider.CacheStats{
			Hits:      c.Hits - m.cache.Hits,
			Builds:    c.Builds - m.cache.Builds,
			Waits:     c.Waits - m.cache.Waits,
			Evictions: c.Evictions - m.cache.Evictions,
			Expired:   c.Expired - m.cache.Expired,
			Fallbacks: c.Fallbacks - m.cache.Fallbacks,
			Entries:   c.Entries - m.cache.Entries,
		},
	}
}
