package main

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/quic-go/quic-go"
)

// hsTimeout bounds every single handshake (and its one-line exchange); a
// handshake that takes longer is a failure.
const hsTimeout = 10 * time.Second

// alpn is offered on QUIC, which requires an application protocol.
const alpn = "tlsbench"

// scenario is one handshake configuration.
type scenario struct {
	Transport  string `json:"transport"` // "tcp" or "quic"
	TLS        string `json:"tls"`       // "1.3" or "1.2"
	Resume     bool   `json:"resume"`
	Key        string `json:"key"`         // leaf key type, see keyTypes
	X25519Only bool   `json:"x25519_only"` // client offers X25519 only (set with -openssl)
}

func (s scenario) version() uint16 {
	if s.TLS == "1.2" {
		return tls.VersionTLS12
	}
	return tls.VersionTLS13
}

func (s scenario) name() string {
	kind := "full"
	if s.Resume {
		kind = "resumed"
	}
	tr := "TCP"
	if s.Transport == "quic" {
		tr = "QUIC"
	}
	n := fmt.Sprintf("TLS %s %s, %s, %s leaf", s.TLS, kind, tr, keyLabel(s.Key))
	if s.TLS == "1.2" && (s.Key == "p256" || s.Key == "p384") {
		n = fmt.Sprintf("TLS 1.2 %s (ECDHE-ECDSA), %s, %s leaf", kind, tr, keyLabel(s.Key))
	}
	return n
}

// tally counts handshakes as one side sees them. Safe for concurrent use.
type tally struct {
	ok, failed, resumed, hellos atomic.Int64
	group                       atomic.Uint32 // tls.CurveID of the latest success

	mu   sync.Mutex
	errs []string // the first few distinct errors
}

type counts struct {
	OK, Failed, Resumed, Hellos int64
}

func (t *tally) snap() counts {
	return counts{OK: t.ok.Load(), Failed: t.failed.Load(), Resumed: t.resumed.Load(), Hellos: t.hellos.Load()}
}

func (c counts) sub(o counts) counts {
	return counts{OK: c.OK - o.OK, Failed: c.Failed - o.Failed, Resumed: c.Resumed - o.Resumed, Hellos: c.Hellos - o.Hellos}
}

func (t *tally) success(st tls.ConnectionState) {
	t.ok.Add(1)
	if st.DidResume {
		t.resumed.Add(1)
	}
	t.group.Store(uint32(st.CurveID))
}

const maxErrs = 5

func (t *tally) fail(err error) {
	t.failed.Add(1)
	t.noteError(err.Error())
}

func (t *tally) noteError(msg string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, e := range t.errs {
		if e == msg {
			return
		}
	}
	if len(t.errs) < maxErrs {
		t.errs = append(t.errs, msg)
	}
}

func (t *tally) errors() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]string(nil), t.errs...)
}

func (t *tally) groupName() string {
	g := tls.CurveID(t.group.Load())
	if g == 0 {
		return ""
	}
	return g.String()
}

var errInjected = errors.New("tlsbench: injected handshake failure (test)")

// serverTLSConfig is the server configuration for s: Go's defaults, the
// version pinned, session tickets only for resumption scenarios. Every
// ClientHello is counted (t.hellos); with failEvery > 0, every failEvery-th
// one is refused, which tests use to check that failures are reported.
func serverTLSConfig(s scenario, cert tls.Certificate, t *tally, failEvery int) *tls.Config {
	cfg := &tls.Config{
		Certificates:           []tls.Certificate{cert},
		MinVersion:             s.version(),
		MaxVersion:             s.version(),
		SessionTicketsDisabled: !s.Resume,
	}
	if s.Transport == "quic" {
		cfg.NextProtos = []string{alpn}
	}
	cfg.GetConfigForClient = func(*tls.ClientHelloInfo) (*tls.Config, error) {
		n := t.hellos.Add(1)
		if failEvery > 0 && n%int64(failEvery) == 0 {
			return nil, errInjected
		}
		return nil, nil
	}
	return cfg
}

// clientTLSConfig is the client configuration for s: standard crypto/tls
// verification of the chain against the root.
func clientTLSConfig(s scenario, roots *x509.CertPool) *tls.Config {
	cfg := &tls.Config{
		RootCAs:    roots,
		ServerName: serverName,
		MinVersion: s.version(),
		MaxVersion: s.version(),
	}
	if s.X25519Only {
		cfg.CurvePreferences = []tls.CurveID{tls.X25519}
	}
	if s.Transport == "quic" {
		cfg.NextProtos = []string{alpn}
	}
	if s.Resume {
		cfg.ClientSessionCache = tls.NewLRUClientSessionCache(1)
	}
	return cfg
}

// hsServer is a loopback server that counts its handshakes in t.
type hsServer struct {
	addr  string
	t     *tally
	close func()
}

// startServer listens on 127.0.0.1 with cfg. After each TCP handshake the
// server reads one line and answers it reversed (what openssl s_server
// -rev does), so the client knows the server finished its side; a QUIC
// server closes the connection with application error 0 instead.
func startServer(s scenario, cfg *tls.Config, t *tally) (*hsServer, error) {
	if s.Transport == "quic" {
		return startQUICServer(cfg, t)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	var (
		mu    sync.Mutex
		conns = map[net.Conn]struct{}{}
		wg    sync.WaitGroup
	)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns[c] = struct{}{}
			mu.Unlock()
			wg.Add(1)
			go func() {
				defer wg.Done()
				serveTCP(c, cfg, t)
				mu.Lock()
				delete(conns, c)
				mu.Unlock()
			}()
		}
	}()
	return &hsServer{addr: ln.Addr().String(), t: t, close: func() {
		ln.Close()
		mu.Lock()
		for c := range conns {
			c.Close()
		}
		mu.Unlock()
		wg.Wait()
	}}, nil
}

func serveTCP(c net.Conn, cfg *tls.Config, t *tally) {
	defer c.Close()
	c.SetDeadline(time.Now().Add(hsTimeout))
	tc := tls.Server(c, cfg)
	if err := tc.Handshake(); err != nil {
		t.fail(err)
		return
	}
	t.success(tc.ConnectionState())
	line, err := readLine(tc)
	if err != nil {
		return // the client counts this one as failed
	}
	if _, err := tc.Write(reverseLine(line)); err != nil {
		return
	}
	io.Copy(io.Discard, tc) // until the client closes
}

func readLine(r io.Reader) ([]byte, error) {
	var buf [64]byte
	n := 0
	for n < len(buf) {
		m, err := r.Read(buf[n:])
		n += m
		if i := bytes.IndexByte(buf[:n], '\n'); i >= 0 {
			return buf[:i+1], nil
		}
		if err != nil {
			return nil, err
		}
	}
	return nil, errors.New("line too long")
}

func reverseLine(line []byte) []byte {
	out := make([]byte, len(line))
	body := line[:len(line)-1]
	for i, b := range body {
		out[len(body)-1-i] = b
	}
	out[len(line)-1] = '\n'
	return out
}

func quicConfig() *quic.Config {
	return &quic.Config{HandshakeIdleTimeout: hsTimeout}
}

func startQUICServer(cfg *tls.Config, t *tally) (*hsServer, error) {
	udp, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		return nil, err
	}
	tr := &quic.Transport{Conn: udp}
	ln, err := tr.Listen(cfg, quicConfig())
	if err != nil {
		udp.Close()
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept(ctx)
			if err != nil {
				return
			}
			t.success(c.ConnectionState().TLS)
			wg.Add(1)
			go func() {
				defer wg.Done()
				c.CloseWithError(0, "")
			}()
		}
	}()
	return &hsServer{addr: udp.LocalAddr().String(), t: t, close: func() {
		cancel()
		ln.Close()
		wg.Wait()
		tr.Close()
		udp.Close()
	}}, nil
}

// serverFailures is the number of failed handshakes the server saw in d.
// Over TCP the handshake errors are counted directly; quic-go does not
// return failed connections, so there it is ClientHellos minus successes.
func serverFailures(s scenario, d counts) int64 {
	if s.Transport == "quic" {
		if f := d.Hellos - d.OK; f > 0 {
			return f
		}
		return 0
	}
	return d.Failed
}

// clientPool is N concurrent clients, each with its own configuration
// (and session cache when resuming) and, over QUIC, its own UDP socket.
type clientPool struct {
	s       scenario
	t       *tally
	workers []*clientWorker
}

type clientWorker struct {
	cfg *tls.Config
	udp *net.UDPConn
	tr  *quic.Transport
}

// newClientPool makes n clients; wrap, when not nil, changes each client's
// configuration (the p256tls trust store hooks verification there).
func newClientPool(s scenario, roots *x509.CertPool, n int, wrap func(*tls.Config) *tls.Config) (*clientPool, error) {
	p := &clientPool{s: s, t: &tally{}}
	for i := 0; i < n; i++ {
		w := &clientWorker{cfg: clientTLSConfig(s, roots)}
		if wrap != nil {
			w.cfg = wrap(w.cfg)
		}
		if s.Transport == "quic" {
			udp, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
			if err != nil {
				p.close()
				return nil, err
			}
			w.udp = udp
			w.tr = &quic.Transport{Conn: udp}
		}
		p.workers = append(p.workers, w)
	}
	return p, nil
}

func (p *clientPool) close() {
	for _, w := range p.workers {
		if w.tr != nil {
			w.tr.Close()
			w.udp.Close()
		}
	}
}

// prime runs one handshake per client so that each has a session ticket
// before a resumption run; any failure is returned.
func (p *clientPool) prime(ctx context.Context, addr string) error {
	errs := make(chan error, len(p.workers))
	for _, w := range p.workers {
		go func() {
			_, err := w.handshake(ctx, p.s, addr)
			errs <- err
		}()
	}
	var first error
	failed := 0
	for range p.workers {
		if err := <-errs; err != nil {
			failed++
			p.t.fail(err)
			if first == nil {
				first = err
			}
		}
	}
	if first != nil {
		return fmt.Errorf("%d of %d priming handshakes failed: %w", failed, len(p.workers), first)
	}
	return nil
}

// run keeps every client busy with back-to-back handshakes against addr
// until d has passed, then lets the handshakes in flight finish.
func (p *clientPool) run(ctx context.Context, addr string, d time.Duration) {
	deadline := time.Now().Add(d)
	var wg sync.WaitGroup
	for _, w := range p.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(deadline) && ctx.Err() == nil {
				st, err := w.handshake(ctx, p.s, addr)
				if err != nil {
					if ctx.Err() != nil {
						return // interrupted: our own cancellation, not a failure
					}
					p.t.fail(err)
					time.Sleep(time.Millisecond) // never spin on a dead server
					continue
				}
				p.t.success(st)
			}
		}()
	}
	wg.Wait()
}

func (w *clientWorker) handshake(ctx context.Context, s scenario, addr string) (tls.ConnectionState, error) {
	if s.Transport == "quic" {
		return w.quicHandshake(ctx, addr)
	}
	return w.tcpHandshake(ctx, addr)
}

var dialer = net.Dialer{Timeout: hsTimeout}

func (w *clientWorker) tcpHandshake(ctx context.Context, addr string) (tls.ConnectionState, error) {
	c, err := dialer.DialContext(ctx, "tcp", addr)
	if err != nil {
		return tls.ConnectionState{}, err
	}
	defer func() {
		// Reset instead of an orderly close: no TIME_WAIT, so long runs
		// never exhaust the loopback ports.
		if tc, ok := c.(*net.TCPConn); ok {
			tc.SetLinger(0)
		}
		c.Close()
	}()
	c.SetDeadline(time.Now().Add(hsTimeout))
	tc := tls.Client(c, w.cfg)
	if err := tc.HandshakeContext(ctx); err != nil {
		return tls.ConnectionState{}, err
	}
	if _, err := tc.Write([]byte("k\n")); err != nil {
		return tls.ConnectionState{}, fmt.Errorf("after the handshake: %w", err)
	}
	line, err := readLine(tc)
	if err != nil {
		return tls.ConnectionState{}, fmt.Errorf("after the handshake: %w", err)
	}
	if string(line) != "k\n" {
		return tls.ConnectionState{}, fmt.Errorf("after the handshake: unexpected answer %q", line)
	}
	return tc.ConnectionState(), nil
}

// cleanClose reports whether err is the server's close with application
// error 0, which is how the QUIC server says its handshake succeeded.
func cleanClose(err error) bool {
	var ae *quic.ApplicationError
	return errors.As(err, &ae) && ae.Remote && ae.ErrorCode == 0
}

func (w *clientWorker) quicHandshake(ctx context.Context, addr string) (tls.ConnectionState, error) {
	ua, err := net.ResolveUDPAddr("udp", addr)
	if err != nil {
		return tls.ConnectionState{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, hsTimeout)
	defer cancel()
	c, err := w.tr.Dial(ctx, ua, w.cfg, quicConfig())
	if err != nil {
		if cleanClose(err) {
			// The server finished and closed before Dial returned.
			return tls.ConnectionState{HandshakeComplete: true}, nil
		}
		return tls.ConnectionState{}, err
	}
	select {
	case <-c.Context().Done():
	case <-ctx.Done():
		c.CloseWithError(1, "timeout")
		return tls.ConnectionState{}, errors.New("QUIC: the server did not close the connection after the handshake")
	}
	if cause := context.Cause(c.Context()); !cleanClose(cause) {
		return tls.ConnectionState{}, cause
	}
	return c.ConnectionState().TLS, nil
}
