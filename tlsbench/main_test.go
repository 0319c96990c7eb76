package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"
)

// The test binary doubles as tlsbench: the peer re-executes os.Executable
// (this binary) with -peer, and the orphan test runs it as the whole tool
// with TLSBENCH_AS_MAIN=1.
func TestMain(m *testing.M) {
	if os.Getenv("TLSBENCH_AS_MAIN") == "1" || (len(os.Args) > 1 && os.Args[1] == peerFlag) {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// parseOpts parses flags the way run does.
func parseOpts(t *testing.T, args ...string) options {
	t.Helper()
	var (
		o    options
		peer bool
	)
	fs := newFlagSet(&o, &peer, &bytes.Buffer{})
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	if err := o.validate(); err != nil {
		t.Fatal(err)
	}
	return o
}

// runBench runs the benchmark in this process with o.
func runBench(t *testing.T, o options) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	code = bench(ctx, o, &out, &errb)
	return code, out.String(), errb.String()
}

func TestHelp(t *testing.T) {
	var out bytes.Buffer
	if code := run([]string{"-help"}, &out, &out); code != 0 {
		t.Fatalf("-help: exit %d", code)
	}
	help := out.String()
	for _, want := range []string{"Method:", "getrusage", "child process", "interleaved", "-duration", "-rounds",
		"-concurrency", "-transport", "-tls", "-key", "-resume", "-only", "-json", "-svg", "-openssl", "about a minute"} {
		if !strings.Contains(help, want) {
			t.Errorf("-help does not mention %q", want)
		}
	}
	if strings.Contains(help, "-peer") {
		t.Error("-help shows the hidden -peer flag")
	}
}

func TestFlagValidation(t *testing.T) {
	bad := [][]string{
		{"-transport", "udp"},
		{"-tls", "1.1"},
		{"-transport", "quic", "-tls", "1.2"},
		{"-key", "p521"},
		{"-only", "everything"},
		{"-rounds", "0"},
		{"-duration", "0s"},
		{"-concurrency", "0"},
		{"extra-arg"},
	}
	for _, args := range bad {
		var out bytes.Buffer
		if code := run(args, &out, &out); code != 2 {
			t.Errorf("%q: exit %d, want 2", args, code)
		}
	}
}

func TestScenarios(t *testing.T) {
	def := parseOpts(t)
	if got := len(def.rows()); got != 13 {
		t.Errorf("default: %d handshake rows, want 13 (4 scenarios × server, client, client with trust store; the first also served through GetCertificate)", got)
	}
	if r := def.rows()[1]; !r.dynamic || r.side != "server" || r.s != def.scenarios()[0] {
		t.Errorf("the second row is %+v, want the first scenario's GetCertificate server row", r)
	}
	if est := def.estimate(); est < 40*time.Second || est > 75*time.Second {
		t.Errorf("default run estimated at %v, want about a minute", est)
	}
	o := parseOpts(t, "-transport", "quic", "-resume", "-key", "ed25519")
	ss := o.scenarios()
	if len(ss) != 1 || ss[0] != (scenario{Transport: "quic", TLS: "1.3", Resume: true, Key: "ed25519"}) {
		t.Errorf("-transport quic -resume -key ed25519: %+v", ss)
	}
	if rows := parseOpts(t, "-only", "primitives").rows(); len(rows) != 0 {
		t.Errorf("-only primitives has %d handshake rows", len(rows))
	}
	o = parseOpts(t, "-openssl", "-tls", "1.2")
	rows := o.rows()
	if len(rows) != 4 || !rows[0].openssl || rows[1].openssl || !rows[1].dynamic || rows[2].openssl || rows[3].openssl || !rows[0].s.X25519Only {
		t.Errorf("-openssl -tls 1.2: %+v", rows)
	}
}
