package provider

import (
	"context"
	"crypto/ecdsa"
	"crypto/tls"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/p256tls/p256tls/internal/testsupport/cputime"
)

// BenchmarkHandshakeTLS13OpenSSLClient is BenchmarkHandshakeTLS13/AB with a
// foreign client: `openssl s_time -new -tls1_3` (which verifies the chain
// to the test CA) makes full handshakes over loopback TCP to a crypto/tls
// server in this process, and the server's side is measured the same way:
// the CPU time of the handling goroutine's locked OS thread inside
// Handshake, median per side, in alternating blocks (one s_time run of
// about a second per block and side).
//
// It complements the in-process benchmark. There, the crypto/tls client
// runs in the same process and verifies the chain and the CertificateVerify
// with crypto/ecdsa, whose P-256 code and 88 KiB generator table are the
// ones the stdlib server signs with: the client keeps the baseline's code
// and table warm between its signatures, which a real server, whose
// clients are elsewhere, does not get. Here the client shares no code with
// either server. OpenSSL 3.0's client offers X25519 only, so the key
// exchange (and so the whole handshake) is cheaper than with Go's default
// X25519MLKEM768, and the signature is a larger share of it.
//
// b.N handshakes are measured per side at least; the blocks continue until
// both sides have them. Skipped when openssl is not installed.
func BenchmarkHandshakeTLS13OpenSSLClient(b *testing.B) {
	openssl := lookPath(b, "openssl")
	if _, err := cputime.Thread(); err != nil {
		b.Skip(err)
	}
	priv := newKey(b, "P-256").(*ecdsa.PrivateKey)
	raw := ca(b).issue(b, priv, "localhost")
	id, err := NewIdentity(raw)
	if err != nil {
		b.Fatal(err)
	}
	cafile := filepath.Join(b.TempDir(), "ca.pem")
	if err := os.WriteFile(cafile, ca(b).pem, 0o600); err != nil {
		b.Fatal(err)
	}
	cfgs := [2]*tls.Config{
		{Certificates: []tls.Certificate{raw}, MinVersion: tls.VersionTLS13},
		{Certificates: []tls.Certificate{*id.Certificate()}, MinVersion: tls.VersionTLS13},
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	defer ln.Close()

	var (
		side     atomic.Int32 // 0 stdlib, 1 provider: the server for new connections
		mu       sync.Mutex
		blk      [2][]time.Duration // the current block's samples
		failures atomic.Int64
		wg       sync.WaitGroup
	)
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Add(1)
			go func(c net.Conn, s int32) {
				defer wg.Done()
				defer c.Close()
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				srv := tls.Server(c, cfgs[s])
				c.SetDeadline(time.Now().Add(10 * time.Second))
				c0, _ := cputime.Thread()
				err := srv.Handshake()
				c1, _ := cputime.Thread()
				if err != nil {
					failures.Add(1)
					return
				}
				mu.Lock()
				blk[s] = append(blk[s], c1-c0)
				mu.Unlock()
			}(c, side.Load())
		}
	}()

	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	sTime := func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, openssl, "s_time", "-connect", "127.0.0.1:"+port,
			"-new", "-tls1_3", "-CAfile", cafile, "-verify", "2", "-time", "1")
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("openssl s_time: %v\n%s", err, out)
		}
	}

	var ab abTally
	b.ResetTimer()
	for len(ab.all[0]) < b.N || len(ab.all[1]) < b.N {
		var got [2][]time.Duration
		for j := 0; j < 2; j++ {
			s := int32((ab.blocks + j) % 2)
			side.Store(s)
			sTime()
			mu.Lock()
			got[s] = blk[s]
			blk[s] = nil
			mu.Unlock()
			if len(got[s]) == 0 {
				b.Fatalf("no handshake completed in a block (%d failed)", failures.Load())
			}
		}
		ab.add(got)
	}
	b.StopTimer()
	ln.Close()
	wg.Wait()
	if n := failures.Load(); n > 0 {
		b.Fatalf("%d handshakes failed", n)
	}
	ab.report(b, [2]string{"stdlib", "provider"})
}
