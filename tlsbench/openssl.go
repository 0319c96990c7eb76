package main

// -openssl: `openssl speed ecdsap256` for the primitive rows, and an
// `openssl s_server` as a third server in the TCP server rows, with the
// same chain and key, driven by the same Go clients. Its CPU time is read
// from /proc (s_server is single-threaded), so that column needs Linux.

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/p256tls/p256tls/internal/testsupport/cputime"
)

type opensslTool struct {
	path    string
	version string
}

func findOpenSSL() (*opensslTool, error) {
	path, err := exec.LookPath("openssl")
	if err != nil {
		return nil, fmt.Errorf("-openssl: %w", err)
	}
	out, err := exec.Command(path, "version").Output()
	if err != nil {
		return nil, fmt.Errorf("-openssl: openssl version: %w", err)
	}
	return &opensslTool{path: path, version: strings.TrimSpace(string(out))}, nil
}

// speed runs `openssl speed -seconds N ecdsap256` and returns ns per
// signature and per verification.
func (o *opensslTool) speed(ctx context.Context, seconds int) (signNs, verifyNs float64, err error) {
	cmd := exec.CommandContext(ctx, o.path, "speed", "-seconds", strconv.Itoa(seconds), "ecdsap256")
	cmd.SysProcAttr = childSysProcAttr()
	cmd.Cancel = func() error { return killGroup(cmd.Process) }
	out, err := cmd.Output()
	if err != nil {
		return 0, 0, fmt.Errorf("openssl speed: %w", err)
	}
	return parseSpeed(out)
}

// parseSpeed reads the result line of `openssl speed ecdsap256`:
//
//	                             sign    verify    sign/s verify/s
//	256 bits ecdsa (nistp256)   0.0000s   0.0000s  53440.0  20198.0
func parseSpeed(out []byte) (signNs, verifyNs float64, err error) {
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		if !strings.Contains(line, "ecdsa") || !strings.Contains(line, "nistp256") {
			continue
		}
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		signPerS, err1 := strconv.ParseFloat(f[len(f)-2], 64)
		verPerS, err2 := strconv.ParseFloat(f[len(f)-1], 64)
		if err1 != nil || err2 != nil || signPerS <= 0 || verPerS <= 0 {
			continue
		}
		return 1e9 / signPerS, 1e9 / verPerS, nil
	}
	return 0, 0, fmt.Errorf("openssl speed: no ecdsa (nistp256) result line in its output")
}

// sServer is a running `openssl s_server -rev`.
type sServer struct {
	cmd  *exec.Cmd
	addr string
	done chan struct{}
}

func (o *opensslTool) startServer(ctx context.Context, dir string, s scenario, m material) (*sServer, error) {
	// s_server wants the leaf and the rest of the chain in separate files.
	chain := m.ChainPEM
	i := bytes.Index(chain[1:], []byte("-----BEGIN"))
	if i < 0 {
		return nil, fmt.Errorf("s_server: chain has one certificate")
	}
	leafPEM, interPEM := chain[:i+1], chain[i+1:]
	files := map[string][]byte{"leaf.pem": leafPEM, "chain.pem": interPEM, "key.pem": m.KeyPEM}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
			return nil, err
		}
	}
	var lastErr error
	for attempt := 0; attempt < 5; attempt++ {
		port, err := freeTCPPort()
		if err != nil {
			return nil, err
		}
		addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
		args := []string{"s_server", "-accept", addr, "-rev", "-quiet",
			"-cert", filepath.Join(dir, "leaf.pem"), "-cert_chain", filepath.Join(dir, "chain.pem"),
			"-key", filepath.Join(dir, "key.pem")}
		if s.TLS == "1.2" {
			args = append(args, "-tls1_2")
			if !s.Resume {
				args = append(args, "-no_ticket")
			}
		} else {
			args = append(args, "-tls1_3")
			if !s.Resume {
				args = append(args, "-num_tickets", "0")
			}
		}
		cmd := exec.CommandContext(ctx, o.path, args...)
		cmd.SysProcAttr = childSysProcAttr()
		cmd.Cancel = func() error { return killGroup(cmd.Process) }
		cmd.WaitDelay = 2 * time.Second
		errBuf := &tailBuffer{max: 2048}
		cmd.Stderr = errBuf // stdout (a line per connection) goes to /dev/null
		if err := cmd.Start(); err != nil {
			return nil, err
		}
		srv := &sServer{cmd: cmd, addr: addr, done: make(chan struct{})}
		go func() { cmd.Wait(); close(srv.done) }()
		if err := waitListening(addr, srv.done, 5*time.Second); err != nil {
			srv.stop()
			lastErr = fmt.Errorf("openssl s_server: %w: %s", err, strings.TrimSpace(errBuf.String()))
			continue
		}
		return srv, nil
	}
	return nil, lastErr
}

func freeTCPPort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

func waitListening(addr string, exited <-chan struct{}, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		select {
		case <-exited:
			return fmt.Errorf("exited before listening")
		default:
		}
		c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
		if err == nil {
			c.Close()
			return nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return fmt.Errorf("not listening on %s after %v", addr, limit)
}

func (s *sServer) cpu() (time.Duration, error) { return cputime.Of(s.cmd.Process.Pid) }

func (s *sServer) stop() {
	killGroup(s.cmd.Process)
	<-s.done
}
