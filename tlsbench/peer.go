package main

// The peer is the other side of a handshake run, in a child process: when
// tlsbench measures the server, the clients run in the peer, and the other
// way round, so that tlsbench's own CPU time over a run is one side's only.
// tlsbench starts the peer by re-executing itself with the hidden -peer
// flag and drives it with JSON lines on the child's stdin and stdout.
//
// Lifetime: the peer leads its own process group; tlsbench kills the group
// when its context ends (interrupt, error), and otherwise closes the
// child's stdin, on which the peer exits. If tlsbench itself is killed,
// the child's stdin reaches EOF (and, on Linux, the kernel sends it
// SIGKILL through PR_SET_PDEATHSIG).

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// peerFlag is the hidden flag that turns tlsbench into a peer.
const peerFlag = "-peer"

// peerSetup is the first line the peer reads.
type peerSetup struct {
	Role        string   `json:"role"` // "client": run clients; "server": serve
	Scenario    scenario `json:"scenario"`
	Concurrency int      `json:"concurrency"`
	Material    material `json:"material"`
	FailEvery   int      `json:"fail_every,omitempty"` // tests only
}

// peerCmd is one command.
//
//	client role: "prime" {addr}, "run" {addr, duration}
//	server role: "serve" {variant} → addr, "stop" → counts since serve
type peerCmd struct {
	Op       string        `json:"op"`
	Variant  string        `json:"variant,omitempty"`
	Addr     string        `json:"addr,omitempty"`
	Duration time.Duration `json:"duration,omitempty"`
}

type peerReply struct {
	Err      string   `json:"err,omitempty"`
	Addr     string   `json:"addr,omitempty"`
	OK       int64    `json:"ok"`
	Failures int64    `json:"failures"`
	Resumed  int64    `json:"resumed"`
	Group    string   `json:"group,omitempty"`
	Note     string   `json:"note,omitempty"`
	Errors   []string `json:"errors,omitempty"`
}

// peerMain is the child's side. It returns the process exit code.
func peerMain(in io.Reader, out io.Writer) int {
	dec := json.NewDecoder(in)
	enc := json.NewEncoder(out)
	var setup peerSetup
	if err := dec.Decode(&setup); err != nil {
		fmt.Fprintln(os.Stderr, "tlsbench peer: reading setup:", err)
		return 1
	}
	var p interface {
		handle(context.Context, peerCmd) peerReply
		close()
	}
	var err error
	switch setup.Role {
	case "client":
		p, err = newClientPeer(setup)
	case "server":
		p, err = newServerPeer(setup)
	default:
		err = fmt.Errorf("unknown role %q", setup.Role)
	}
	if err != nil {
		enc.Encode(peerReply{Err: err.Error()})
		return 1
	}
	defer p.close()
	if err := enc.Encode(peerReply{}); err != nil { // ready
		return 1
	}
	ctx := context.Background()
	for {
		var cmd peerCmd
		if err := dec.Decode(&cmd); err != nil {
			if errors.Is(err, io.EOF) {
				return 0 // tlsbench closed our stdin: done
			}
			fmt.Fprintln(os.Stderr, "tlsbench peer: reading command:", err)
			return 1
		}
		if err := enc.Encode(p.handle(ctx, cmd)); err != nil {
			return 1
		}
	}
}

type clientPeer struct {
	pool *clientPool
}

func newClientPeer(s peerSetup) (*clientPeer, error) {
	roots, err := s.Material.rootPool()
	if err != nil {
		return nil, err
	}
	pool, err := newClientPool(s.Scenario, roots, s.Concurrency, nil)
	if err != nil {
		return nil, err
	}
	return &clientPeer{pool: pool}, nil
}

func (c *clientPeer) close() { c.pool.close() }

func (c *clientPeer) handle(ctx context.Context, cmd peerCmd) peerReply {
	before := c.pool.t.snap()
	switch cmd.Op {
	case "prime":
		if err := c.pool.prime(ctx, cmd.Addr); err != nil {
			return peerReply{Err: err.Error(), Failures: c.pool.t.snap().sub(before).Failed}
		}
		return peerReply{}
	case "run":
		c.pool.run(ctx, cmd.Addr, cmd.Duration)
		d := c.pool.t.snap().sub(before)
		return peerReply{OK: d.OK, Failures: d.Failed, Resumed: d.Resumed,
			Group: c.pool.t.groupName(), Errors: c.pool.t.errors()}
	}
	return peerReply{Err: fmt.Sprintf("client peer: unknown op %q", cmd.Op)}
}

type serverPeer struct {
	setup peerSetup
	certs map[string]serverCert
	srv   *hsServer
}

func newServerPeer(s peerSetup) (*serverPeer, error) {
	return &serverPeer{setup: s, certs: map[string]serverCert{}}, nil
}

func (p *serverPeer) close() {
	if p.srv != nil {
		p.srv.close()
		p.srv = nil
	}
}

func (p *serverPeer) handle(ctx context.Context, cmd peerCmd) peerReply {
	switch cmd.Op {
	case "serve":
		p.close()
		sc, err := variantCertificate(cmd.Variant, p.setup.Material, p.certs)
		if err != nil {
			return peerReply{Err: err.Error()}
		}
		t := &tally{}
		srv, err := startServer(p.setup.Scenario, serverTLSConfig(p.setup.Scenario, sc.cert, t, p.setup.FailEvery), t)
		if err != nil {
			return peerReply{Err: err.Error()}
		}
		p.srv = srv
		return peerReply{Addr: srv.addr, Note: sc.note}
	case "stop":
		if p.srv == nil {
			return peerReply{Err: "server peer: stop without serve"}
		}
		srv := p.srv
		p.close()
		d := srv.t.snap()
		return peerReply{OK: d.OK, Failures: serverFailures(p.setup.Scenario, d), Resumed: d.Resumed,
			Group: srv.t.groupName(), Errors: srv.t.errors()}
	}
	return peerReply{Err: fmt.Sprintf("server peer: unknown op %q", cmd.Op)}
}

// serverCert is a variant's server certificate; stats, for a p256tls
// identity, reads its signing counters.
type serverCert struct {
	cert  tls.Certificate
	note  string
	stats func() string
}

// variantCertificate returns the server certificate for a variant
// ("stdlib" or "p256tls"), building each once per cache (per process).
func variantCertificate(v string, m material, cache map[string]serverCert) (serverCert, error) {
	if c, ok := cache[v]; ok {
		return c, nil
	}
	std, err := m.certificate()
	if err != nil {
		return serverCert{}, err
	}
	var sc serverCert
	switch v {
	case vStdlib:
		sc.cert = std
	case vOurs:
		sc.cert, sc.note, sc.stats, err = oursCertificate(std)
		if err != nil {
			return serverCert{}, err
		}
	default:
		return serverCert{}, fmt.Errorf("unknown variant %q", v)
	}
	cache[v] = sc
	return sc, nil
}

// peerProc is tlsbench's handle on a running peer.
type peerProc struct {
	cmd    *exec.Cmd
	in     *os.File // our end of the child's stdin
	out    *os.File // our end of the child's stdout
	enc    *json.Encoder
	dec    *json.Decoder
	stderr *tailBuffer

	done    chan struct{} // closed when the child has been waited for
	waitErr error
}

// peerEnv is added to the child's environment.
var peerEnv = []string{"QUIC_GO_DISABLE_RECEIVE_BUFFER_WARNING=true"}

// startPeer starts a peer and sends it its setup. The peer is killed (with
// its process group) when ctx ends.
func startPeer(ctx context.Context, setup peerSetup) (*peerProc, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	return startChild(ctx, exe, []string{peerFlag}, setup)
}

func startChild(ctx context.Context, exe string, args []string, setup peerSetup) (*peerProc, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.Stdin, cmd.Stdout = inR, outW
	p := &peerProc{cmd: cmd, in: inW, out: outR, stderr: &tailBuffer{max: 4096}, done: make(chan struct{})}
	cmd.Stderr = p.stderr
	cmd.Env = append(os.Environ(), peerEnv...)
	cmd.SysProcAttr = childSysProcAttr()
	cmd.Cancel = func() error { return killGroup(cmd.Process) }
	cmd.WaitDelay = 2 * time.Second
	err = cmd.Start()
	inR.Close() // the child has its copies
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, err
	}
	go func() {
		p.waitErr = cmd.Wait()
		close(p.done)
	}()
	p.enc, p.dec = json.NewEncoder(inW), json.NewDecoder(outR)
	if err := p.enc.Encode(setup); err != nil {
		p.close()
		return nil, p.describe(fmt.Errorf("sending setup: %w", err))
	}
	if _, err := p.read(30 * time.Second); err != nil {
		p.close()
		return nil, err
	}
	return p, nil
}

// call sends a command and waits (at most timeout) for its reply. A reply
// carrying an error is returned as an error.
func (p *peerProc) call(cmd peerCmd, timeout time.Duration) (peerReply, error) {
	if err := p.enc.Encode(cmd); err != nil {
		return peerReply{}, p.describe(fmt.Errorf("peer %s: %w", cmd.Op, err))
	}
	r, err := p.read(timeout)
	if err != nil {
		return r, fmt.Errorf("peer %s: %w", cmd.Op, err)
	}
	return r, nil
}

func (p *peerProc) read(timeout time.Duration) (peerReply, error) {
	type result struct {
		r   peerReply
		err error
	}
	ch := make(chan result, 1)
	go func() {
		var r peerReply
		err := p.dec.Decode(&r)
		ch <- result{r, err}
	}()
	select {
	case res := <-ch:
		if res.err != nil {
			return peerReply{}, p.describe(res.err)
		}
		if res.r.Err != "" {
			return res.r, errors.New(res.r.Err)
		}
		return res.r, nil
	case <-time.After(timeout):
		killGroup(p.cmd.Process)
		<-ch
		return peerReply{}, p.describe(fmt.Errorf("no answer within %v; killed", timeout))
	}
}

// describe adds what the child said on stderr (and how it ended) to err.
func (p *peerProc) describe(err error) error {
	select {
	case <-p.done:
		if p.waitErr != nil {
			err = fmt.Errorf("%w (peer: %v)", err, p.waitErr)
		}
	case <-time.After(100 * time.Millisecond):
	}
	if s := strings.TrimSpace(p.stderr.String()); s != "" {
		err = fmt.Errorf("%w; peer stderr: %s", err, s)
	}
	return err
}

// close ends the peer: EOF on its stdin, then its group is killed if it
// has not exited within a few seconds. It returns how the child ended.
func (p *peerProc) close() error {
	p.in.Close()
	select {
	case <-p.done:
	case <-time.After(5 * time.Second):
		killGroup(p.cmd.Process)
		<-p.done
	}
	p.out.Close()
	if p.waitErr != nil {
		return p.describe(fmt.Errorf("peer exited: %w", p.waitErr))
	}
	return nil
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = append(t.b[:0], t.b[len(t.b)-t.max:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}
