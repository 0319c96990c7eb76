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
// with TLSBENCH_AS_MAIN=1; TestProfileQuiet runs it as profileChild.
func TestMain(m *testing.M) {
	if os.Getenv("TLSBENCH_AS_MAIN") == "1" || (len(os.Args) > 1 && os.Args[1] == peerFlag) {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	if os.Getenv(profileChildEnv) == "1" {
		os.Exit(profileChild())
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
		"-concurrency", "-transport", "-tls", "-key", "-resume", "-only", "-json", "-svg", "-openssl", "-breakdown", "-pprof", "about 85 s", "where the CPU goes"} {
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
		{"-breakdown", "-1"},
		{"-breakdown", "0", "-pprof", "dir"},
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
	if got := len(def.rows()); got != 15 {
		t.Errorf("default: %d handshake rows, want 15 (4 scenarios × server, client, client with trust store; the first also served through GetCertificate and with the trust store over the two P-384 intermediate chains)", got)
	}
	if r := def.rows()[1]; !r.dynamic || r.side != "server" || r.s != def.scenarios()[0] {
		t.Errorf("the second row is %+v, want the first scenario's GetCertificate server row", r)
	}
	// The chain rows follow the first scenario's trust-store row, one per
	// root, with names saying the chain.
	if got := chainRowNames(def.rows()); len(got) != 2 ||
		got[0] != "TLS 1.3 full, TCP, P-256 leaf, P-384 intermediate, P-384 root, trust store" ||
		got[1] != "TLS 1.3 full, TCP, P-256 leaf, P-384 intermediate, RSA-4096 root, trust store" {
		t.Errorf("default chain rows %q", got)
	}
	for i, r := range def.rows()[4:6] {
		if r.chain != chainRoots[i] || !r.trust || r.side != "client" || r.s != def.scenarios()[0] || def.rows()[3].chain != "" || !def.rows()[3].trust {
			t.Errorf("row %d is %+v, want the first scenario's trust-store row over the %s-root chain after its plain trust-store row", 4+i, r, chainRoots[i])
		}
	}
	// The filters keep them where the scenario is TCP, TLS 1.3, full, P-256.
	for _, c := range []struct {
		args  []string
		chain int
	}{
		{[]string{"-transport", "tcp"}, 2},
		{[]string{"-tls", "1.3"}, 2},
		{[]string{"-only", "handshakes"}, 2},
		{[]string{"-openssl", "-transport", "tcp"}, 2},
		{[]string{"-transport", "quic"}, 0},
		{[]string{"-tls", "1.2"}, 0},
		{[]string{"-resume"}, 0},
		{[]string{"-key", "p384"}, 0},
		{[]string{"-key", "rsa2048", "-transport", "tcp"}, 0},
		{[]string{"-only", "primitives"}, 0},
	} {
		if got := chainRowNames(parseOpts(t, c.args...).rows()); len(got) != c.chain {
			t.Errorf("%q: chain rows %q, want %d", c.args, got, c.chain)
		}
	}
	if est := def.estimate(); est < 70*time.Second || est > 90*time.Second {
		t.Errorf("default run estimated at %v, want about 85 s", est)
	}
	// The breakdown adds no more than 15 s, in 11 rows: those that
	// measure the side p256tls is on.
	profiled := 0
	for _, r := range def.rows() {
		if r.profiled(def) {
			profiled++
			if r.side != r.oursOn() {
				t.Errorf("%s: profiled, but p256tls is on the %s", r.label(), r.oursOn())
			}
		}
	}
	off := parseOpts(t, "-breakdown", "0")
	if added := def.estimate() - off.estimate(); profiled != 11 || added > 15*time.Second || added < 10*time.Second {
		t.Errorf("the breakdown profiles %d rows and adds %v to the default run", profiled, added)
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

// chainRowNames are the names of the chain rows among rows.
func chainRowNames(rows []hsRow) []string {
	var out []string
	for _, r := range rows {
		if r.chain != "" {
			out = append(out, r.name())
		}
	}
	return out
}
