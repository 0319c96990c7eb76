package provider

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/rand"
	"crypto/tls"
	"io"
	"net"
	"runtime"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/p256tls/p256tls/internal/testsupport/cputime"
)

// An in-memory, buffered connection pair. The server end records how long
// its reads waited for the client, so a benchmark can report the server's
// own share of a handshake: wall time in Handshake minus time spent waiting
// for the peer.

type pipeBuf struct {
	mu     sync.Mutex
	cond   sync.Cond
	buf    []byte
	closed bool
}

func newPipeBuf() *pipeBuf {
	p := &pipeBuf{}
	p.cond.L = &p.mu
	return p
}

type pipeConn struct {
	in, out *pipeBuf
	waited  time.Duration // time Read spent blocked (read by the owner only)
}

func memPipe() (client, server *pipeConn) {
	a, b := newPipeBuf(), newPipeBuf()
	return &pipeConn{in: a, out: b}, &pipeConn{in: b, out: a}
}

func (c *pipeConn) Read(p []byte) (int, error) {
	c.in.mu.Lock()
	defer c.in.mu.Unlock()
	if len(c.in.buf) == 0 && !c.in.closed {
		start := time.Now()
		for len(c.in.buf) == 0 && !c.in.closed {
			c.in.cond.Wait()
		}
		c.waited += time.Since(start)
	}
	if len(c.in.buf) == 0 {
		return 0, io.EOF
	}
	n := copy(p, c.in.buf)
	c.in.buf = c.in.buf[n:]
	return n, nil
}

func (c *pipeConn) Write(p []byte) (int, error) {
	c.out.mu.Lock()
	defer c.out.mu.Unlock()
	if c.out.closed {
		return 0, io.ErrClosedPipe
	}
	c.out.buf = append(c.out.buf, p...)
	c.out.cond.Signal()
	return len(p), nil
}

func (c *pipeConn) Close() error {
	for _, p := range []*pipeBuf{c.in, c.out} {
		p.mu.Lock()
		p.closed = true
		p.cond.Broadcast()
		p.mu.Unlock()
	}
	return nil
}

type pipeAddr struct{}

func (pipeAddr) Network() string { return "pipe" }
func (pipeAddr) String() string  { return "pipe" }

func (c *pipeConn) LocalAddr() net.Addr              { return pipeAddr{} }
func (c *pipeConn) RemoteAddr() net.Addr             { return pipeAddr{} }
func (c *pipeConn) SetDeadline(time.Time) error      { return nil }
func (c *pipeConn) SetReadDeadline(time.Time) error  { return nil }
func (c *pipeConn) SetWriteDeadline(time.Time) error { return nil }

// serverHandshake runs one full handshake between a crypto/tls client and a
// server using scfg over an in-memory pipe, on the calling goroutine's
// locked thread for the server, and returns the server's share of it: wall
// time in Handshake minus time waiting for the client, and the thread's CPU
// time in Handshake (0 where unavailable).
func serverHandshake(client, scfg *tls.Config) (wall, cpu time.Duration, err error) {
	cc, sc := memPipe()
	defer cc.Close()
	cli, srv := tls.Client(cc, client), tls.Server(sc, scfg)
	done := make(chan error, 1)
	go func() { done <- cli.Handshake() }()
	cpu0, _ := cputime.Thread()
	start := time.Now()
	err = srv.Handshake()
	wall = time.Since(start) - sc.waited
	cpu1, _ := cputime.Thread()
	if cerr := <-done; err == nil {
		err = cerr
	}
	return wall, cpu1 - cpu0, err
}

func median(d []time.Duration) float64 {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return float64(s[len(s)/2].Nanoseconds())
}

// BenchmarkHandshakeTLS13 runs full TLS 1.3 handshakes (no resumption)
// in-process between a crypto/tls client and server, with the same P-256
// certificate and key served three ways:
//
//   - stdlib: the plain *ecdsa.PrivateKey (crypto/tls's own, unchecked
//     signing);
//   - provider: the provider identity in tls.Config.Certificates (comb
//     signing, verified before release);
//   - provider-GetCertificate: the same through ServerConfig and Identities.
//
// ns/op is the whole handshake, both sides. server-ns/op is the server's
// share: time in the server's Handshake minus time waiting for the client.
// server-cpu-ns/op (Linux) is the median CPU time of the server's thread in
// Handshake, which a busy machine disturbs much less.
//
// The AB sub-benchmark is the number to quote. It alternates blocks of
// abBlock consecutive handshakes per side (which side goes first alternates
// too), so that both sides see the same machine over the run, and reports
// the median server CPU time of each side, their ratio provider/stdlib
// (below 1: the checked provider handshake costs less), and the share of
// block pairs in which the provider's median was the lower. Blocks, not
// single handshakes: a server signs with one key handshake after handshake,
// while alternating single handshakes would make each side pay, every time,
// for the other's tables and code having displaced its own from the caches.
// b.N handshakes are run per side (rounded up to whole blocks).
func BenchmarkHandshakeTLS13(b *testing.B) {
	priv := newKey(b, "P-256").(*ecdsa.PrivateKey)
	raw := ca(b).issue(b, priv, "localhost")
	id, err := NewIdentity(raw)
	if err != nil {
		b.Fatal(err)
	}
	client := &tls.Config{RootCAs: ca(b).pool, ServerName: "localhost", MinVersion: tls.VersionTLS13}
	stdlib := &tls.Config{Certificates: []tls.Certificate{raw}, MinVersion: tls.VersionTLS13}
	provider := &tls.Config{Certificates: []tls.Certificate{*id.Certificate()}, MinVersion: tls.VersionTLS13}
	viaIdentities := ServerConfig(NewIdentities(id))
	viaIdentities.MinVersion = tls.VersionTLS13
	servers := []struct {
		name string
		cfg  *tls.Config
	}{
		{"stdlib", stdlib},
		{"provider", provider},
		{"provider-GetCertificate", viaIdentities},
	}
	for _, s := range servers {
		b.Run(s.name, func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			_, cerr := cputime.Thread()
			haveCPU := cerr == nil
			var wall time.Duration
			cpu := make([]time.Duration, 0, b.N)
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				w, c, err := serverHandshake(client, s.cfg)
				if err != nil {
					b.Fatal(err)
				}
				wall += w
				cpu = append(cpu, c)
			}
			b.ReportMetric(float64(wall.Nanoseconds())/float64(b.N), "server-ns/op")
			if haveCPU {
				b.ReportMetric(median(cpu), "server-cpu-ns/op")
			}
		})
	}
	b.Run("AB", func(b *testing.B) {
		runAB(b, client, [2]*tls.Config{stdlib, provider}, [2]string{"stdlib", "provider"})
	})
}

// runAB runs the block-alternating A/B comparison of two server
// configurations (see BenchmarkHandshakeTLS13) and reports it under the
// two names.
func runAB(b *testing.B, client *tls.Config, cfgs [2]*tls.Config, names [2]string) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if _, err := cputime.Thread(); err != nil {
		b.Skip(err)
	}
	var ab abTally
	for ab.blocks*abBlock < b.N {
		var blk [2][]time.Duration
		for j := 0; j < 2; j++ {
			side := (ab.blocks + j) % 2 // the first side alternates
			for k := 0; k < abBlock; k++ {
				_, c, err := serverHandshake(client, cfgs[side])
				if err != nil {
					b.Fatal(err)
				}
				blk[side] = append(blk[side], c)
			}
		}
		ab.add(blk)
	}
	ab.report(b, names)
}

// abTally gathers the blocks of an A/B handshake benchmark: side 0 is the
// reference (the standard key), side 1 the candidate (the provider).
type abTally struct {
	all           [2][]time.Duration
	blocks, lower int // block pairs, and those whose provider median was the lower
}

// add records one block of each side.
func (a *abTally) add(blk [2][]time.Duration) {
	if median(blk[1]) < median(blk[0]) {
		a.lower++
	}
	a.blocks++
	for s := range blk {
		a.all[s] = append(a.all[s], blk[s]...)
	}
}

// report sets the benchmark's metrics: each side's median server CPU per
// handshake, their ratio candidate/reference, and the share of block pairs
// the candidate won.
func (a *abTally) report(b *testing.B, names [2]string) {
	b.ReportMetric(median(a.all[0]), names[0]+"-cpu-ns")
	b.ReportMetric(median(a.all[1]), names[1]+"-cpu-ns")
	b.ReportMetric(median(a.all[1])/median(a.all[0]), names[1]+"/"+names[0])
	b.ReportMetric(float64(a.lower)/float64(a.blocks), "blocks-"+names[1]+"-lower")
}

// abBlock is the number of consecutive handshakes per side in a block of
// BenchmarkHandshakeTLS13/AB.
const abBlock = 16

// BenchmarkSign compares one P-256 signature of a SHA-256 digest as
// crypto/tls asks for it: the standard library's crypto.Signer, and the
// provider's key (comb signing plus the check). cpu-ns/op (Linux) is the
// median CPU time of the signing thread per signature.
func BenchmarkSign(b *testing.B) {
	priv := newKey(b, "P-256").(*ecdsa.PrivateKey)
	id, err := NewIdentity(ca(b).issue(b, priv, "bench.test"))
	if err != nil {
		b.Fatal(err)
	}
	digest := make([]byte, 32)
	for _, s := range []struct {
		name   string
		signer crypto.Signer
	}{
		{"stdlib", priv},
		{"provider", id.Certificate().PrivateKey.(crypto.Signer)},
	} {
		b.Run(s.name, func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			_, cerr := cputime.Thread()
			haveCPU := cerr == nil
			cpu := make([]time.Duration, 0, b.N)
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				c0, _ := cputime.Thread()
				if _, err := s.signer.Sign(rand.Reader, digest, crypto.SHA256); err != nil {
					b.Fatal(err)
				}
				c1, _ := cputime.Thread()
				cpu = append(cpu, c1-c0)
			}
			if haveCPU {
				b.ReportMetric(median(cpu), "cpu-ns/op")
			}
		})
	}
}
