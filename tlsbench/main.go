// Command tlsbench measures what a TLS handshake costs with the standard
// library and with p256tls, side by side, on the machine it runs on.
//
// Run it with no flags first: go run ./tlsbench. See -help for the method
// and docs/tlsbench.md for the design.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// options are the parsed flags.
type options struct {
	duration    time.Duration
	rounds      int
	concurrency int
	transport   string
	tls         string
	key         string
	resume      bool
	only        string
	json        bool
	svg         string
	openssl     bool
	breakdown   int // profiled rounds per row after the timed ones; 0: no breakdown
	pprofDir    string

	failEvery int // tests: the servers refuse every failEvery-th handshake
}

const usageHead = `tlsbench: the cost of a TLS handshake, the standard library against p256tls.

Usage: tlsbench [flags]

With no flags it generates, in memory, a P-256 root, a P-256 intermediate and
a P-256 server leaf, then measures, side by side with ratios:
  1. primitives: signing (ecdsa.SignASN1 against p256tls's checked Sign and
     against the unchecked signature of internal/signer), verification with
     the key's table, ordinary verification, the table build, P-384
     verification, and a client's chain verification (x509.Certificate.Verify
     against the trust store) for a P-256 leaf under a P-384 intermediate,
     under a P-384 root and under an RSA-4096 root, each with a new leaf
     every time (cold) and with the same chain again (warm);
  2. full TLS 1.3 handshakes over loopback TCP, per side: the server's CPU
     time per handshake (standard key against the p256tls provider
     identity), the client's CPU time per handshake (standard crypto/tls
     verification of either server; then crypto/x509 against the p256tls
     trust store, for this chain and for the two chains above, served
     by a standard server that sends the same P-256 leaf and P-384
     intermediate in every handshake), and handshakes per second with N
     concurrent clients;
  3. the same over QUIC (quic-go), over TLS 1.2 (ECDHE-ECDSA), and resumed
     TLS 1.3 handshakes for contrast;
  4. where the CPU goes: for each row that measures the side p256tls is on,
     each column's CPU per handshake split into signing, chain
     verification, handshake signature verification, key exchange,
     symmetric ciphers and hashing, crypto/tls itself, the Go runtime,
     system calls and the network, and other.
The default run takes about 85 s and says so before it starts.

Method:
  - CPU per side: the other side of every handshake runs in a child process
    (tlsbench re-executes itself), so the CPU time that getrusage reports for
    the measuring process over a run belongs to one side only; it is divided
    by the handshakes that side completed. Every failed handshake is counted
    and reported, and makes tlsbench exit with status 1.
  - Each row runs a warm-up of every variant, then interleaved rounds
    (stdlib, p256tls, stdlib, p256tls, ...), each run lasting -duration
    (primitives: half of it). A value is the median over the rounds with its
    min-max range; a ratio is p256tls/stdlib taken round by round, then the
    median of those. A ratio whose range is wider than 20% of its median is
    marked "!", too wide to trust. The verdict column reads the ratio
    through a confidence interval for its median (the sign test: min-max
    with 5 rounds, 94%; about 95% with more rounds): "p256tls cheaper" or
    "p256tls costlier" when the interval excludes 1, "no difference
    resolved" when it contains 1.
  - Primitives are timed loops of one operation in one goroutine, over 64
    distinct digests and signatures; ns/op is the process's CPU time
    (getrusage) over the loop, so time spent waiting for a core on a busy
    machine is not charged to the operation. The chain rows time each
    verification alone (the locked thread's CPU time around the one call),
    so that making a new leaf (a P-384 signature) between two calls is not
    charged to either side.
  - Which side runs p256tls: in server rows and plain client rows, the
    server (a standard key or a provider identity; the client verifies with
    crypto/x509 either way); in "trust store" rows, the client (crypto/x509
    with RootCAs, or the p256tls trust store), against a standard server.
  - Handshakes per second are wall-clock rates of the whole machine, both
    processes sharing its cores.
  - Where the CPU goes: after a row's timed rounds, -breakdown more rounds
    (the timed runs stay unprofiled) with runtime/pprof's CPU profiler on
    in the measuring process; each sample goes to one category by the
    functions on its stack (an operation owns what it calls: SHA-256 in
    ECDSA signing is signing). A category's µs per handshake is its share
    of the samples times the column's median CPU per handshake, with the
    binomial standard error of that share, sqrt(p(1-p)/N), scaled alike.

Flags:
`

const usageTail = `
-json writes {"machine": {...}, "settings": {...}, "primitives": [{"name",
"stdlib_ns", "p256tls_ns", "ratio", ...}], "handshakes": [{"name", "side",
"stdlib_cpu_us", "p256tls_cpu_us", "ratio", "failures", "breakdown":
[{"variant", "cpu_us", "samples", "categories": [{"category", "us", "share",
"error_us", "error_share", "samples"}, ...]}, ...], ...}], "notes": [...]}
to stdout instead of the table (null where a side has no value).

Exit status: 0, or 1 if a handshake failed or a row could not be measured,
2 for bad flags, 130 when interrupted.
`

func newFlagSet(o *options, peer *bool, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("tlsbench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.DurationVar(&o.duration, "duration", 300*time.Millisecond, "length of each measured `run` (primitives: half of it; warm-ups: half of it)")
	fs.IntVar(&o.rounds, "rounds", 5, "interleaved `rounds` per row")
	fs.IntVar(&o.concurrency, "concurrency", 4, "concurrent clients in handshake runs")
	fs.StringVar(&o.transport, "transport", "", "measure only this transport: `tcp|quic`")
	fs.StringVar(&o.tls, "tls", "", "measure only this TLS version: `1.2|1.3`")
	fs.StringVar(&o.key, "key", "p256", "server leaf key for the handshakes (the P-384 intermediate chains: p256 only): `p256|p384|rsa2048|ed25519`")
	fs.BoolVar(&o.resume, "resume", false, "measure resumed handshakes only")
	fs.StringVar(&o.only, "only", "", "measure only `primitives|handshakes`")
	fs.BoolVar(&o.json, "json", false, "write machine-readable results (JSON) to stdout instead of the table")
	fs.StringVar(&o.svg, "svg", "", "also draw the per-handshake cost by side as an SVG bar chart into `file`")
	fs.IntVar(&o.breakdown, "breakdown", 2, "profiled `rounds` after the timed ones, for where the CPU goes (0: none)")
	fs.StringVar(&o.pprofDir, "pprof", "", "also write each profiled run's CPU profile into `dir` (go tool pprof reads them)")
	fs.BoolVar(&o.openssl, "openssl", false, "add openssl speed ecdsap256 and an openssl s_server column (needs openssl; pins X25519)")
	fs.BoolVar(peer, "peer", false, "") // hidden: run as the child peer
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprint(w, usageHead)
		fs.VisitAll(func(f *flag.Flag) {
			if f.Name == "peer" {
				return
			}
			name, usage := flag.UnquoteUsage(f)
			fmt.Fprintf(w, "  -%s", f.Name)
			if name != "" {
				fmt.Fprintf(w, " %s", name)
			}
			fmt.Fprintf(w, "\n    \t%s", strings.ReplaceAll(usage, "\n", "\n    \t"))
			if f.DefValue != "" && f.DefValue != "false" {
				fmt.Fprintf(w, " (default %s)", f.DefValue)
			}
			fmt.Fprintln(w)
		})
		fmt.Fprint(w, usageTail)
	}
	return fs
}

func (o options) validate() error {
	switch {
	case o.duration <= 0:
		return errors.New("-duration must be positive")
	case o.breakdown < 0:
		return errors.New("-breakdown must not be negative")
	case o.pprofDir != "" && o.breakdown == 0:
		return errors.New("-pprof needs the breakdown's profiled rounds (-breakdown 1 or more)")
	case o.rounds < 1:
		return errors.New("-rounds must be at least 1")
	case o.concurrency < 1:
		return errors.New("-concurrency must be at least 1")
	case o.transport != "" && o.transport != "tcp" && o.transport != "quic":
		return fmt.Errorf("-transport %q: want tcp or quic", o.transport)
	case o.tls != "" && o.tls != "1.2" && o.tls != "1.3":
		return fmt.Errorf("-tls %q: want 1.2 or 1.3", o.tls)
	case o.transport == "quic" && o.tls == "1.2":
		return errors.New("QUIC carries TLS 1.3 only: -transport quic with -tls 1.2 is not a thing")
	case !slices.Contains(keyTypes, o.key):
		return fmt.Errorf("-key %q: want one of %s", o.key, strings.Join(keyTypes, ", "))
	case o.only != "" && o.only != "primitives" && o.only != "handshakes":
		return fmt.Errorf("-only %q: want primitives or handshakes", o.only)
	}
	return nil
}

// scenarios: with none of -transport, -tls, -resume, the default four;
// with any of them, the one configuration they describe (the others
// default to TCP, TLS 1.3, full handshakes).
func (o options) scenarios() []scenario {
	var ss []scenario
	if o.transport == "" && o.tls == "" && !o.resume {
		ss = []scenario{
			{Transport: "tcp", TLS: "1.3"},
			{Transport: "quic", TLS: "1.3"},
			{Transport: "tcp", TLS: "1.2"},
			{Transport: "tcp", TLS: "1.3", Resume: true},
		}
	} else {
		s := scenario{Transport: "tcp", TLS: "1.3", Resume: o.resume}
		if o.transport != "" {
			s.Transport = o.transport
		}
		if o.tls != "" {
			s.TLS = o.tls
		}
		ss = []scenario{s}
	}
	for i := range ss {
		ss[i].Key = o.key
		ss[i].X25519Only = o.openssl
	}
	return ss
}

func (o options) rows() []hsRow {
	if o.only == "primitives" {
		return nil
	}
	var rows []hsRow
	for i, s := range o.scenarios() {
		rows = append(rows,
			hsRow{s: s, side: "server", openssl: o.openssl && s.Transport == "tcp"})
		if i == 0 {
			// The first scenario also with the certificate from a
			// GetCertificate (one row, to keep the run short).
			rows = append(rows, hsRow{s: s, side: "server", dynamic: true})
		}
		rows = append(rows,
			hsRow{s: s, side: "client"},
			hsRow{s: s, side: "client", trust: true})
		if s.Transport == "tcp" && s.TLS == "1.3" && !s.Resume && s.Key == "p256" {
			// The public-web chains, trust store against crypto/x509.
			for _, alg := range chainRoots {
				rows = append(rows, hsRow{s: s, side: "client", trust: true, chain: alg})
			}
		}
	}
	return rows
}

// profiledRunOverhead is what a profiled run costs beyond its length: the
// GC, the server's start, parsing the profile.
const profiledRunOverhead = 20 * time.Millisecond

// Primitive rows: 10, one of which (the table build) has one variant.
const (
	primitiveRows  = 10
	primitiveSlots = 2*primitiveRows - 1
)

func (o options) speedSeconds() int { return max(1, int(o.duration.Seconds()*float64(o.rounds)/2+0.5)) }

// estimate is how long the run should take.
func (o options) estimate() time.Duration {
	var t time.Duration
	if o.only != "handshakes" {
		pd := o.duration / 2
		t += time.Duration(primitiveSlots) * (pd/2 + time.Duration(o.rounds)*pd)
		if o.openssl {
			t += 2 * time.Duration(o.speedSeconds()) * time.Second
		}
	}
	for _, r := range o.rows() {
		n := 2
		if r.openssl {
			n = 3
		}
		t += time.Duration(n)*(o.duration/2+time.Duration(o.rounds)*o.duration) + 250*time.Millisecond
		if r.profiled(o) {
			t += time.Duration(2*o.breakdown) * (o.duration + profiledRunOverhead)
		}
	}
	if o.key == "rsa2048" {
		t += time.Second
	}
	return t + time.Second
}

func run(args []string, stdout, stderr io.Writer) int {
	var (
		o    options
		peer bool
	)
	fs := newFlagSet(&o, &peer, stderr)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if peer {
		return peerMain(os.Stdin, os.Stdout)
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "tlsbench: unexpected arguments %q\n", fs.Args())
		return 2
	}
	if err := o.validate(); err != nil {
		fmt.Fprintln(stderr, "tlsbench:", err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	return bench(ctx, o, stdout, stderr)
}

func bench(ctx context.Context, o options, stdout, stderr io.Writer) int {
	if os.Getenv("QUIC_GO_DISABLE_RECEIVE_BUFFER_WARNING") == "" {
		os.Setenv("QUIC_GO_DISABLE_RECEIVE_BUFFER_WARNING", "true")
	}
	var ossl *opensslTool
	if o.openssl {
		var err error
		if ossl, err = findOpenSSL(); err != nil {
			fmt.Fprintln(stderr, "tlsbench:", err)
			return 2
		}
	}
	rows := o.rows()
	est := o.estimate()
	what := []string{}
	if o.only != "handshakes" {
		what = append(what, fmt.Sprintf("%d primitives", primitiveRows))
	}
	if len(rows) > 0 {
		what = append(what, fmt.Sprintf("%d handshake rows", len(rows)))
	}
	rounds := "rounds"
	if o.rounds == 1 {
		rounds = "round"
	}
	fmt.Fprintf(stderr, "tlsbench: measuring %s, %d %s of %v per side; this takes about %s.\n",
		strings.Join(what, " and "), o.rounds, rounds, o.duration, roundDuration(est))

	res := &results{opts: o, machine: machineInfo(ossl), started: time.Now()}
	prog := newProgress(stderr, o, est)
	defer prog.finish()

	tmpDir, err := os.MkdirTemp("", "tlsbench-")
	if err != nil {
		fmt.Fprintln(stderr, "tlsbench:", err)
		return 1
	}
	defer os.RemoveAll(tmpDir)

	if o.only != "handshakes" {
		res.prims, res.primErr = measurePrimitives(ctx, o, ossl, prog)
	}
	if len(rows) > 0 && ctx.Err() == nil {
		pk, err := newPKI()
		if err != nil {
			fmt.Fprintln(stderr, "tlsbench: certificates:", err)
			return 1
		}
		if o.pprofDir != "" {
			if err := os.MkdirAll(o.pprofDir, 0o755); err != nil {
				fmt.Fprintln(stderr, "tlsbench:", err)
				return 1
			}
		}
		for i, r := range rows {
			if ctx.Err() != nil {
				break
			}
			label := describeRow(r)
			file := fmt.Sprintf("%02d-%s", i+1, fileName(r.label()))
			hr := measureRow(ctx, r, pk, o, ossl, tmpDir, file, func(round int, v string) { prog.step(label, round, v) })
			res.hs = append(res.hs, hr)
		}
	}
	res.elapsed = time.Since(res.started)
	prog.finish()
	if ctx.Err() != nil {
		fmt.Fprintln(stderr, "tlsbench: interrupted; partial results follow")
		res.interrupted = true
	}
	if o.svg != "" {
		if err := os.WriteFile(o.svg, drawSVG(res), 0o644); err != nil {
			fmt.Fprintln(stderr, "tlsbench:", err)
			return 1
		}
	}
	if o.json {
		if err := writeJSON(stdout, res); err != nil {
			fmt.Fprintln(stderr, "tlsbench:", err)
			return 1
		}
	} else {
		writeTable(stdout, res)
	}
	for _, w := range res.warnings() {
		fmt.Fprintln(stderr, "tlsbench: warning:", w)
	}
	problems := res.problems()
	for _, p := range problems {
		fmt.Fprintln(stderr, "tlsbench: FAILED:", p)
	}
	switch {
	case res.interrupted:
		return 130
	case len(problems) > 0:
		return 1
	}
	return 0
}

func measurePrimitives(ctx context.Context, o options, ossl *opensslTool, prog *progress) ([]primResult, error) {
	prims, err := buildPrimitives()
	if err != nil {
		return nil, err
	}
	var out []primResult
	pd := o.duration / 2
	for _, p := range prims {
		if ctx.Err() != nil {
			break
		}
		label, _, _ := strings.Cut(p.name, " (")
		m, err := interleave(ctx, p.variants(), o.rounds, pd, pd/2, p.run, func(round int, v string) { prog.step(label, round, v) })
		out = append(out, primResult{p: p, m: m, err: err})
	}
	if ossl != nil && ctx.Err() == nil {
		prog.step("openssl speed ecdsap256", 0, "openssl")
		s, v, err := ossl.speed(ctx, o.speedSeconds())
		for i := range out {
			switch {
			case err != nil:
			case out[i].p.openssl == "sign":
				out[i].opensslNs = s
			case out[i].p.openssl == "verify":
				out[i].opensslNs = v
			}
		}
		if err != nil {
			return out, err
		}
	}
	return out, nil
}

// fileName turns a row's label into a file name: lower case letters,
// digits and dashes.
func fileName(label string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(label) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		} else {
			dash = true
		}
	}
	return b.String()
}

func roundDuration(d time.Duration) string {
	s := int(d.Seconds() + 0.5)
	if s < 90 {
		return fmt.Sprintf("%d s", s)
	}
	return fmt.Sprintf("%d min %02d s", s/60, s%60)
}

// machineInfo describes where the numbers come from.
func machineInfo(ossl *opensslTool) map[string]any {
	m := map[string]any{
		"cpu":        cpuModel(),
		"cpus":       runtime.NumCPU(),
		"gomaxprocs": runtime.GOMAXPROCS(0),
		"os":         runtime.GOOS,
		"arch":       runtime.GOARCH,
		"go":         runtime.Version(),
	}
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		m["kernel"] = strings.TrimSpace(string(b))
	}
	if ossl != nil {
		m["openssl"] = ossl.version
	}
	return m
}

func cpuModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	for _, line := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return runtime.GOARCH
}
