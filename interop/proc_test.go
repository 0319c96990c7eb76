//go:build interop

package interop

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Child processes run in their own process group, so that killing the
// group at the end of a case also kills whatever they started.

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

type proc struct {
	cmd  *exec.Cmd
	out  *lockedBuffer
	done chan struct{}
	err  error
}

// command prepares a child of the case: its own process group, the case's
// context, output collected.
func (c *C) command(stdin string, name string, args ...string) (*exec.Cmd, *lockedBuffer) {
	cmd := exec.CommandContext(c.Ctx, name, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 2 * time.Second
	out := &lockedBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if stdin != "" {
		cmd.Stdin = strings.NewReader(stdin)
	}
	return cmd, out
}

// Start starts a long-running child (a server, or a client fed by a pipe).
// It is killed, with its process group, when the case ends.
func (c *C) Start(cmd *exec.Cmd, out *lockedBuffer) *proc {
	c.T.Helper()
	p := &proc{cmd: cmd, out: out, done: make(chan struct{})}
	if err := cmd.Start(); err != nil {
		c.Fatalf("starting %s: %v", cmd.Path, err)
	}
	c.mu.Lock()
	c.procs = append(c.procs, p)
	c.mu.Unlock()
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	return p
}

// Run runs a child to completion (bounded by the case's timeout) and
// returns its combined output.
func (c *C) Run(stdin string, name string, args ...string) (string, error) {
	c.T.Helper()
	cmd, out := c.command(stdin, name, args...)
	p := c.Start(cmd, out)
	<-p.done
	return out.String(), p.err
}

// RunEnv is Run with extra environment variables.
func (c *C) RunEnv(env []string, stdin string, name string, args ...string) (string, error) {
	c.T.Helper()
	cmd, out := c.command(stdin, name, args...)
	cmd.Env = append(os.Environ(), env...)
	p := c.Start(cmd, out)
	<-p.done
	return out.String(), p.err
}

// RunInteractive starts a client that reads its input from stdin, writes
// line to it, and keeps stdin open until the output contains want, the
// process exits, or wait passes (some clients quit as soon as stdin
// closes); then it closes stdin and waits for the process to exit.
func (c *C) RunInteractive(env []string, line, want string, wait time.Duration, name string, args ...string) (string, error) {
	c.T.Helper()
	cmd, out := c.command("", name, args...)
	if env != nil {
		cmd.Env = append(os.Environ(), env...)
	}
	w, err := cmd.StdinPipe()
	if err != nil {
		c.Fatal(err)
	}
	p := c.Start(cmd, out)
	io.WriteString(w, line)
	deadline := time.After(wait)
loop:
	for !strings.Contains(out.String(), want) {
		select {
		case <-p.done:
			break loop
		case <-deadline:
			break loop
		case <-time.After(10 * time.Millisecond):
		}
	}
	w.Close()
	grace := 3 * time.Second
	if strings.Contains(out.String(), want) {
		grace = 300 * time.Millisecond // done; some clients never exit on their own
	}
	select {
	case <-p.done:
	case <-time.After(grace):
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-p.done
	}
	return out.String(), p.err
}

// WaitOutput waits until the process has printed s, or fails the case.
func (c *C) WaitOutput(p *proc, s string) {
	c.T.Helper()
	for {
		if strings.Contains(p.out.String(), s) {
			return
		}
		select {
		case <-p.done:
			c.Fatalf("%s exited (%v) before printing %q:\n%s", p.cmd.Path, p.err, s, p.out.String())
		case <-c.Ctx.Done():
			c.Fatalf("%s did not print %q in time:\n%s", p.cmd.Path, s, p.out.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// WaitPort waits until something listens on the TCP port, by reading
// /proc/net/tcp{,6} (a probing connection would disturb servers that
// accept only once).
func (c *C) WaitPort(p *proc, port int) {
	c.T.Helper()
	hex := strings.ToUpper(strconv.FormatInt(int64(port), 16))
	for len(hex) < 4 {
		hex = "0" + hex
	}
	for {
		for _, f := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
			data, _ := os.ReadFile(f)
			for _, line := range strings.Split(string(data), "\n") {
				fields := strings.Fields(line)
				if len(fields) > 3 && strings.HasSuffix(fields[1], ":"+hex) && fields[3] == "0A" {
					return
				}
			}
		}
		select {
		case <-p.done:
			c.Fatalf("%s exited (%v) before listening on %d:\n%s", p.cmd.Path, p.err, port, p.out.String())
		case <-c.Ctx.Done():
			c.Fatalf("%s did not listen on %d in time:\n%s", p.cmd.Path, port, p.out.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// WaitUDP waits until something is bound to the UDP port.
func (c *C) WaitUDP(p *proc, port int) {
	c.T.Helper()
	hex := strings.ToUpper(strconv.FormatInt(int64(port), 16))
	for len(hex) < 4 {
		hex = "0" + hex
	}
	for {
		for _, f := range []string{"/proc/net/udp", "/proc/net/udp6"} {
			data, _ := os.ReadFile(f)
			for _, line := range strings.Split(string(data), "\n") {
				fields := strings.Fields(line)
				if len(fields) > 1 && strings.HasSuffix(fields[1], ":"+hex) {
					return
				}
			}
		}
		select {
		case <-p.done:
			c.Fatalf("%s exited (%v) before binding UDP %d:\n%s", p.cmd.Path, p.err, port, p.out.String())
		case <-c.Ctx.Done():
			c.Fatalf("%s did not bind UDP %d in time:\n%s", p.cmd.Path, port, p.out.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func (c *C) killAll() {
	c.mu.Lock()
	procs := c.procs
	c.procs = nil
	c.mu.Unlock()
	for _, p := range procs {
		if p.cmd.Process != nil {
			syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
		}
		select {
		case <-p.done:
		case <-time.After(5 * time.Second):
			c.Errorf("%s did not exit after SIGKILL", p.cmd.Path)
		}
		// The group may outlive its leader (a daemonised child).
		for i := 0; i < 100 && groupAlive(p.cmd.Process.Pid); i++ {
			syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
			time.Sleep(10 * time.Millisecond)
		}
		allGroups.Store(p.cmd.Process.Pid, true)
	}
}

var allGroups sync.Map // process group ids of every child started

func groupAlive(pgid int) bool {
	err := syscall.Kill(-pgid, 0)
	return err == nil || !errors.Is(err, syscall.ESRCH)
}

// checkNoChildren fails if any child process or process group of the
// matrix is still alive.
func checkNoChildren(t *testing.T) {
	n := 0
	allGroups.Range(func(k, _ any) bool {
		n++
		// Killed descendants reparented to init may take a moment to
		// be reaped: give each group a few seconds.
		for i := 0; i < 100 && groupAlive(k.(int)); i++ {
			syscall.Kill(-k.(int), syscall.SIGKILL)
			time.Sleep(50 * time.Millisecond)
		}
		if groupAlive(k.(int)) {
			t.Errorf("process group %d is still alive", k.(int))
		}
		return true
	})
	self := strconv.Itoa(os.Getpid())
	entries, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, e := range entries {
		data, err := os.ReadFile(e)
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...
		s := string(data)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) > 1 && f[1] == self && f[0] != "Z" {
			t.Errorf("child process left behind: %s", strings.TrimSpace(s))
		}
	}
	if n == 0 && !testing.Short() {
		t.Log("no child process was started")
	}
}

// freePort returns a TCP (and UDP) port that was free a moment ago.
func freePort(t testing.TB) int {
	t.Helper()
	for i := 0; i < 50; i++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		port := l.Addr().(*net.TCPAddr).Port
		l.Close()
		u, err := net.ListenPacket("udp", "127.0.0.1:"+strconv.Itoa(port))
		if err != nil {
			continue
		}
		u.Close()
		return port
	}
	t.Fatal("no free port")
	return 0
}

var _ = context.Background
