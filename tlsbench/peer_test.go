package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func testMaterial(t *testing.T) material {
	t.Helper()
	pk, err := newPKI()
	if err != nil {
		t.Fatal(err)
	}
	m, err := pk.material("p256")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// alive reports whether pid is a running (not zombie) process.
func alive(pid int) bool {
	if runtime.GOOS == "linux" {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			return false
		}
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		return i < 0 || len(s) < i+3 || s[i+2] != 'Z'
	}
	return syscall.Kill(pid, 0) == nil
}

func waitGone(t *testing.T, pid int, limit time.Duration) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for alive(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("process %d still running %v later", pid, limit)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// The peer in the client role runs handshakes against a server in this
// process, reports them, and exits cleanly when its stdin closes.
func TestPeerClientRole(t *testing.T) {
	m := testMaterial(t)
	s := scenario{Transport: "tcp", TLS: "1.3", Key: "p256"}
	p, err := startPeer(context.Background(), peerSetup{Role: "client", Scenario: s, Concurrency: 2, Material: m})
	if err != nil {
		t.Fatal(err)
	}
	pid := p.pid()
	cert, err := m.certificate()
	if err != nil {
		t.Fatal(err)
	}
	tl := &tally{}
	srv, err := startServer(s, serverTLSConfig(s, cert, tl, 0), tl)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.close()
	rep, err := p.call(peerCmd{Op: "run", Addr: srv.addr, Duration: 100 * time.Millisecond}, 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if rep.OK == 0 || rep.Failures != 0 || rep.OK != tl.snap().OK {
		t.Errorf("peer ran %d handshakes with %d failures; the server counted %d", rep.OK, rep.Failures, tl.snap().OK)
	}
	if err := p.close(); err != nil {
		t.Errorf("peer did not exit cleanly: %v", err)
	}
	if code := p.cmd.ProcessState.ExitCode(); code != 0 {
		t.Errorf("peer exit code %d", code)
	}
	waitGone(t, pid, time.Second)
}

// The peer in the server role serves both variants over QUIC.
func TestPeerServerRole(t *testing.T) {
	m := testMaterial(t)
	s := scenario{Transport: "quic", TLS: "1.3", Key: "p256"}
	p, err := startPeer(context.Background(), peerSetup{Role: "server", Scenario: s, Concurrency: 2, Material: m})
	if err != nil {
		t.Fatal(err)
	}
	roots, _ := m.rootPool()
	pool, err := newClientPool(s, roots, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.close()
	for _, v := range []string{vStdlib, vOurs} {
		rep, err := p.call(peerCmd{Op: "serve", Variant: v}, 30*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		before := pool.t.snap()
		pool.run(context.Background(), rep.Addr, 100*time.Millisecond)
		d := pool.t.snap().sub(before)
		srep, err := p.call(peerCmd{Op: "stop"}, 30*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if d.OK == 0 || d.Failed != 0 || srep.Failures != 0 || srep.OK != d.OK {
			t.Errorf("%s: clients %d ok %d failed; server %d ok %d failed (%v %v)", v, d.OK, d.Failed, srep.OK, srep.Failures, pool.t.errors(), srep.Errors)
		}
	}
	if err := p.close(); err != nil {
		t.Errorf("peer did not exit cleanly: %v", err)
	}
}

// Cancelling the context kills the peer's process group.
func TestPeerKilledWithContext(t *testing.T) {
	m := testMaterial(t)
	ctx, cancel := context.WithCancel(context.Background())
	p, err := startPeer(ctx, peerSetup{Role: "server", Scenario: scenario{Transport: "tcp", TLS: "1.3", Key: "p256"}, Concurrency: 1, Material: m})
	if err != nil {
		t.Fatal(err)
	}
	pid := p.pid()
	cancel()
	select {
	case <-p.done:
	case <-time.After(5 * time.Second):
		t.Fatal("peer still running 5s after its context ended")
	}
	waitGone(t, pid, time.Second)
	p.close()
}

// childrenOf lists the processes whose parent is ppid (Linux).
func childrenOf(ppid int) []int {
	ents, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) > 1 && f[1] == strconv.Itoa(ppid) && f[0] != "Z" {
			out = append(out, pid)
		}
	}
	return out
}

// Interrupting tlsbench (SIGINT, as Ctrl-C does) or killing it outright
// leaves no peer behind.
func TestNoOrphans(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGKILL} {
		t.Run(sig.String(), func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-only", "handshakes", "-transport", "tcp", "-duration", "3s", "-rounds", "3")
			cmd.Env = append(os.Environ(), "TLSBENCH_AS_MAIN=1")
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()
			var kids []int
			deadline := time.Now().Add(30 * time.Second)
			for len(kids) == 0 {
				if time.Now().After(deadline) {
					t.Fatalf("no peer process appeared; output:\n%s", out.String())
				}
				time.Sleep(20 * time.Millisecond)
				kids = childrenOf(cmd.Process.Pid)
			}
			time.Sleep(300 * time.Millisecond) // let the run get going
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			waited := make(chan error, 1)
			go func() { waited <- cmd.Wait() }()
			select {
			case err := <-waited:
				var ee *exec.ExitError
				if sig == syscall.SIGINT && (!errors.As(err, &ee) || ee.ExitCode() != 130) {
					t.Errorf("after SIGINT: %v, want exit status 130; output:\n%s", err, out.String())
				}
			case <-time.After(20 * time.Second):
				t.Fatalf("tlsbench still running 20s after %v", sig)
			}
			for _, pid := range kids {
				waitGone(t, pid, 5*time.Second)
			}
		})
	}
}

// pid is the peer process's id, for the tests that watch it exit.
func (p *peerProc) pid() int { return p.cmd.Process.Pid }
