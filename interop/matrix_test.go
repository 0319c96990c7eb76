//go:build interop

package interop

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"text/tabwriter"
	"time"
)

// The matrix: every case is one connection (or a short sequence of them)
// between a provider endpoint and a peer, run one at a time with a timeout.
// Each case fills a row; TestMatrix prints the rows as a table and writes
// them as JSON (see -interop.json and cmd/interopdoc).

var (
	jsonOut     = flag.String("interop.json", os.Getenv("P256TLS_INTEROP_JSON"), "write the matrix rows as JSON to this file")
	caseFilter  = flag.String("interop.run", "", "run only cases whose name (peer/role/case) matches this regular expression")
	caseTimeout = 90 * time.Second
)

// requireAll reports whether P256TLS_INTEROP_REQUIRE=1: every skip (a
// missing peer program) becomes a failure.
func requireAll() bool { return os.Getenv("P256TLS_INTEROP_REQUIRE") == "1" }

// Roles.
const (
	roleClient     = "peer client → provider server"
	roleServer     = "provider client → peer server"
	roleMTLSClient = "mTLS: peer client cert → provider server"
	roleMTLSServer = "mTLS: provider client cert → peer server"
	roleQUICClient = "QUIC: peer client → provider server"
	roleQUICServer = "QUIC: provider client → peer server"
)

// Row is one line of the matrix.
type Row struct {
	Peer    string `json:"peer"`  // the program, e.g. "openssl s_client"
	Stack   string `json:"stack"` // the implementation it counts as, e.g. "OpenSSL"
	Version string `json:"version"`
	Role    string `json:"role"`
	Case    string `json:"case"`
	TLS     string `json:"tls"`
	Suite   string `json:"suite"`
	Group   string `json:"group"`
	Scheme  string `json:"scheme"`
	// Result is pass, fail, skip or n/a (the stack exposes no way to run
	// the case; Note says why).
	Result string `json:"result"`
	Note   string `json:"note,omitempty"`
}

// peer describes one peer program.
type peer struct {
	Name    string   // shown in the table
	Stack   string   // the independent implementation
	Package string   // the Debian package providing it
	Progs   []string // programs that must be on PATH (or absolute paths)
	// Version returns the peer's version (run once).
	Version func() string

	once    sync.Once
	version string
	missing string
	helpers []string // helpers (registerHelper) its cases need
}

func (p *peer) check() {
	p.once.Do(func() {
		for _, prog := range p.Progs {
			if strings.HasPrefix(prog, "/") && !strings.HasPrefix(prog, "/usr/bin/") {
				if _, err := os.Stat(prog); err != nil {
					p.missing = prog
					return
				}
				continue
			}
			if _, err := exec.LookPath(prog); err != nil {
				p.missing = prog
				return
			}
		}
		if p.Version != nil {
			p.version = p.Version()
		}
	})
}

// Case is one entry of the matrix.
type Case struct {
	Peer *peer
	Role string
	Name string
	// NA, when set, records the case as not applicable with this reason,
	// without running it.
	NA string
	// Negative cases expect a failed handshake; Run asserts the reason.
	Negative bool
	Run      func(c *C)
}

func (cs *Case) fullName() string {
	return cs.Peer.Name + "/" + cs.Role + "/" + cs.Name
}

// C is the context of one running case.
type C struct {
	*testing.T
	Ctx context.Context
	Env *Env
	Row *Row

	mu    sync.Mutex
	procs []*proc

	peerPort int    // the peer server of a server-role case
	peerProc *proc  // and its process
	peerDir  string // and its directory, if it needs one (a web server's document root)
}

// generators make the cases of each peer; every peer file registers one
// in an init function.
var generators []func(e *Env) []Case

func register(g func(e *Env) []Case) { generators = append(generators, g) }

// Env is shared by all cases.
type Env struct {
	Dir   string // scratch directory, removed at the end
	PKI   *pki
	Build string // where helpers are built

	mu    sync.Mutex
	built map[string]*buildResult
}

type buildResult struct {
	once sync.Once
	path string
	err  error
	took time.Duration
}

var (
	rowsMu sync.Mutex
	rows   []Row
)

func TestMatrix(t *testing.T) {
	dir := t.TempDir()
	p, err := newPKI(filepath.Join(dir, "pki"))
	if err != nil {
		t.Fatal(err)
	}
	env := &Env{Dir: dir, PKI: p, Build: buildDir(t), built: map[string]*buildResult{}}
	buildHelpers(env)
	var cases []Case
	for _, g := range generators {
		cases = append(cases, g(env)...)
	}
	seen := map[string]bool{}
	for i := range cases {
		cs := &cases[i]
		name := cs.fullName()
		if seen[name] {
			t.Fatalf("two cases are named %q", name)
		}
		seen[name] = true
		if *caseFilter != "" && !regexp.MustCompile(*caseFilter).MatchString(name) {
			continue
		}
		t.Run(name, func(t *testing.T) { runCase(t, env, cs) })
	}
	// No build may outlive the matrix (its compilers are our children).
	for name := range env.built {
		env.helper(name, helpers[name].build)
	}
	t.Logf("helpers: %s", helperTimes(env))
	t.Run("NoProcessLeftBehind", func(t *testing.T) { checkNoChildren(t) })
	report(t)
}

func runCase(t *testing.T, env *Env, cs *Case) {
	cs.Peer.check()
	row := &Row{Peer: cs.Peer.Name, Stack: cs.Peer.Stack, Version: cs.Peer.version, Role: cs.Role, Case: cs.Name, Result: "fail"}
	defer func() {
		rowsMu.Lock()
		rows = append(rows, *row)
		rowsMu.Unlock()
	}()
	if cs.Peer.missing != "" {
		row.Result, row.Note = "skip", cs.Peer.missing+" not installed (package "+cs.Peer.Package+")"
		if requireAll() {
			t.Fatalf("%s is not installed (apt-get install %s) and P256TLS_INTEROP_REQUIRE=1", cs.Peer.missing, cs.Peer.Package)
		}
		t.Skipf("%s is not installed (apt-get install %s)", cs.Peer.missing, cs.Peer.Package)
	}
	if cs.NA != "" {
		row.Result, row.Note = "n/a", cs.NA
		return
	}
	// Wait for the peer's helpers before the case's timeout starts.
	for _, h := range cs.Peer.helpers {
		if _, err := env.helper(h, helpers[h].build); err != nil {
			t.Fatalf("building helper %s: %v", h, err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), caseTimeout)
	c := &C{T: t, Ctx: ctx, Env: env, Row: row}
	defer func() {
		c.killAll()
		cancel()
	}()
	cs.Run(c)
	if !t.Failed() && !t.Skipped() {
		row.Result = "pass"
	}
}

func report(t *testing.T) {
	rowsMu.Lock()
	defer rowsMu.Unlock()
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 1, ' ', 0)
	fmt.Fprintln(tw, "PEER\tVERSION\tROLE\tCASE\tTLS\tSUITE\tGROUP\tSCHEME\tRESULT\tNOTE")
	count := map[string]int{}
	stacks := map[string]bool{}
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Peer, r.Version, r.Role, r.Case, dash(r.TLS), dash(r.Suite), dash(r.Group), dash(r.Scheme), r.Result, r.Note)
		count[r.Result]++
		if r.Result == "pass" {
			stacks[r.Stack] = true
		}
	}
	tw.Flush()
	var names []string
	for s := range stacks {
		names = append(names, s)
	}
	sort.Strings(names)
	t.Logf("interop matrix:\n%s\n%d pass, %d fail, %d skip, %d n/a; %d implementations with passing cases: %s",
		b.String(), count["pass"], count["fail"], count["skip"], count["n/a"], len(names), strings.Join(names, ", "))
	if *jsonOut != "" {
		data, err := json.MarshalIndent(rows, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(*jsonOut, append(data, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// buildDir is where helpers are compiled: P256TLS_INTEROP_BUILD if set
// (kept between runs, as a cache), else a temporary directory.
func buildDir(t *testing.T) string {
	if d := os.Getenv("P256TLS_INTEROP_BUILD"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		abs, err := filepath.Abs(d)
		if err != nil {
			t.Fatal(err)
		}
		return abs
	}
	return t.TempDir()
}

// built builds a helper once (build is called with the output directory)
// and returns its path, or the build error for every case that needs it.
func (e *Env) helper(name string, build func(out string) (string, error)) (string, error) {
	e.mu.Lock()
	r, ok := e.built[name]
	if !ok {
		r = &buildResult{}
		e.built[name] = r
	}
	e.mu.Unlock()
	r.once.Do(func() {
		t0 := time.Now()
		defer func() { r.took = time.Since(t0) }()
		out := filepath.Join(e.Build, name)
		if err := os.MkdirAll(out, 0o755); err != nil {
			r.err = err
			return
		}
		r.path, r.err = build(out)
	})
	return r.path, r.err
}

// helperSpec is a helper program built from interop/testdata.
type helperSpec struct {
	peers []*peer // the peers that need it (built if one is installed)
	build func(out string) (string, error)
}

var helpers = map[string]helperSpec{}

func registerHelper(name string, build func(out string) (string, error), peers ...*peer) {
	helpers[name] = helperSpec{peers, build}
	for _, p := range peers {
		p.helpers = append(p.helpers, name)
	}
}

// buildHelpers starts building, concurrently and in the background, every
// helper one of whose peers is installed. A case waits for its peer's
// helpers before its timeout starts (runCase), so no case's timeout
// includes a compilation, and the cases of other peers run meanwhile.
func buildHelpers(e *Env) {
	for name, h := range helpers {
		need := false
		for _, p := range h.peers {
			p.check()
			need = need || p.missing == ""
		}
		if need {
			e.mu.Lock()
			if e.built[name] == nil {
				e.built[name] = &buildResult{}
			}
			e.mu.Unlock()
			go e.helper(name, h.build)
		}
	}
}

// helperTimes reports how long each helper took to build.
func helperTimes(e *Env) string {
	e.mu.Lock()
	defer e.mu.Unlock()
	var parts []string
	for name, r := range e.built {
		parts = append(parts, fmt.Sprintf("%s %v (err %v)", name, r.took.Round(time.Millisecond), r.err))
	}
	sort.Strings(parts)
	return strings.Join(parts, "; ")
}

// BuildHelper returns the helper's path or fails the case.
func (c *C) BuildHelper(name string) string {
	c.T.Helper()
	h, ok := helpers[name]
	if !ok {
		c.Fatalf("internal: no helper %s", name)
	}
	p, err := c.Env.helper(name, h.build)
	if err != nil {
		c.Fatalf("building helper %s: %v", name, err)
	}
	return p
}

// NA marks the running case as not applicable (recorded, not a failure).
func (c *C) NA(reason string) {
	c.Row.Result, c.Row.Note = "n/a", reason
	c.SkipNow()
}

func itoa(i int) string { return strconv.Itoa(i) }

type buildError struct {
	tool string
	err  error
	out  []byte
}

func (e *buildError) Error() string { return e.tool + ": " + e.err.Error() + "\n" + string(e.out) }
