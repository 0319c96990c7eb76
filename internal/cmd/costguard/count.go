package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// This file counts the instructions of Go benchmarks: it runs one test
// binary under QEMU user mode with the armcount plugin (qemu-aarch64 for
// arm64, qemu-x86_64 for amd64), reads the counts the plugin recorded at
// every write to standard output, and splits them at the benchmark result
// lines.
//
// The testing package prints one line per benchmark, in two writes: the
// padded name and a tab, then the results. A benchmark's work (its setup,
// the run with b.N = 1 when it does not use b.Loop, and the b.N iterations)
// lies between the results write of the benchmark before it and its own
// results write. The same binary run at -benchtime N1x and N2x gives two
// such segments per benchmark; their difference divided by N2 − N1 is the
// cost of one iteration, with the setup, the runtime's start and the
// testing package's own work cancelled out.

// counts is what the plugin counted: instructions and, on arm64,
// multiplies (muls is -1 where not counted: amd64).
type counts struct {
	insns, muls int64
}

// mark is the counts reached when the program issued one write to its
// standard output, and the write's length.
type mark struct {
	len int64
	counts
}

// segment is one benchmark's share of a run: its name (without the
// -GOMAXPROCS suffix, which GOMAXPROCS=1 leaves off), the iterations it
// reported, and the counts from the end of the benchmark before it to the
// start of its results write.
type segment struct {
	name  string
	iters int64
	counts
}

// writes splits a test binary's standard output into the writes the testing
// package made: one per line, except a benchmark result line, which it
// writes in two (the name up to and including the first tab, then the
// rest). It returns the writes and, for each benchmark line, the index of
// its results write.
func writes(stdout string) (ws []string, results []int) {
	for len(stdout) > 0 {
		line := stdout
		if i := strings.IndexByte(stdout, '\n'); i >= 0 {
			line = stdout[:i+1]
		}
		stdout = stdout[len(line):]
		if strings.HasPrefix(line, "Benchmark") {
			if tab := strings.IndexByte(line, '\t'); tab >= 0 {
				ws = append(ws, line[:tab+1])
				results = append(results, len(ws))
				ws = append(ws, line[tab+1:])
				continue
			}
		}
		ws = append(ws, line)
	}
	return ws, results
}

// segments splits the marks of one run at its benchmark result lines. The
// marks must be exactly one per write of stdout (and, where their lengths
// are known, of the same lengths): anything else means the output was not
// the testing package's alone, and the split would be wrong.
func segments(stdout string, marks []mark) ([]segment, error) {
	ws, results := writes(stdout)
	if len(ws) != len(marks) {
		return nil, fmt.Errorf("the counter saw %d writes to standard output, the output has %d lines and benchmark results; was something else written?", len(marks), len(ws))
	}
	for i, m := range marks {
		if m.len != int64(len(ws[i])) {
			return nil, fmt.Errorf("write %d has %d bytes, the output's %q has %d", i, m.len, ws[i], len(ws[i]))
		}
	}
	var out []segment
	var prev counts
	for _, r := range results {
		name := strings.TrimSpace(ws[r-1])
		f := strings.Fields(ws[r])
		if len(f) < 1 {
			return nil, fmt.Errorf("benchmark %s: no iteration count in %q", name, ws[r])
		}
		iters, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("benchmark %s: iteration count %q: %v", name, f[0], err)
		}
		c := marks[r].counts
		s := segment{name: name, iters: iters, counts: counts{c.insns - prev.insns, -1}}
		if c.muls >= 0 {
			s.muls = c.muls - prev.muls
		}
		out = append(out, s)
		prev = c
	}
	return out, nil
}

// perOp is one benchmark's cost per iteration.
type perOp struct {
	name        string
	insns, muls float64 // muls < 0: not counted
}

// difference returns the cost per iteration of each benchmark from the
// segments of two runs at n1 and n2 iterations. Both runs must hold the
// same benchmarks, each having run exactly the iterations asked.
func difference(a, b []segment, n1, n2 int64) ([]perOp, error) {
	if len(a) != len(b) {
		return nil, fmt.Errorf("the runs at %dx and %dx hold %d and %d benchmarks", n1, n2, len(a), len(b))
	}
	if n2 <= n1 {
		return nil, fmt.Errorf("want n2 > n1, have %d and %d", n1, n2)
	}
	out := make([]perOp, len(a))
	for i := range a {
		if a[i].name != b[i].name {
			return nil, fmt.Errorf("benchmark %d is %s at %dx and %s at %dx", i, a[i].name, n1, b[i].name, n2)
		}
		if a[i].iters != n1 || b[i].iters != n2 {
			return nil, fmt.Errorf("benchmark %s ran %d and %d iterations, not %d and %d", a[i].name, a[i].iters, b[i].iters, n1, n2)
		}
		d := float64(n2 - n1)
		out[i] = perOp{name: a[i].name, insns: float64(b[i].insns-a[i].insns) / d, muls: -1}
		if a[i].muls >= 0 && b[i].muls >= 0 {
			out[i].muls = float64(b[i].muls-a[i].muls) / d
		}
	}
	return out, nil
}

// tool counts the instructions of test binaries of one architecture: QEMU
// user mode (qemu-aarch64 or qemu-x86_64, the dynamic builds of Debian's
// qemu-user, which load plugins) with the armcount plugin.
type tool struct {
	arch   string // GOARCH
	qemu   string // path of the emulator
	plugin string // path of the built plugin
}

// The environment of every counted run: no garbage collection except the
// testing package's own runtime.GC before each benchmark (with the
// collector on, when and where a cycle starts would move the counts by
// more than the 2% the guard watches), no asynchronous preemption (its
// signals arrive by the wall clock), one P.
var countEnv = []string{"GOGC=off", "GODEBUG=asyncpreemptoff=1", "GOMAXPROCS=1"}

func toolFor(arch string) (*tool, error) {
	var name string
	switch arch {
	case "amd64":
		name = "qemu-x86_64"
	case "arm64":
		name = "qemu-aarch64"
	default:
		return nil, fmt.Errorf("no counter for GOARCH=%s (amd64 and arm64 are counted under QEMU)", arch)
	}
	qemu, err := exec.LookPath(name)
	if err != nil {
		return nil, fmt.Errorf("%s not found (apt-get install qemu-user; the -static QEMU cannot load plugins)", name)
	}
	plugin, err := buildPlugin()
	if err != nil {
		return nil, err
	}
	return &tool{arch, qemu, plugin}, nil
}

// command returns the program and arguments that run bin under the tool,
// recording into out; perBlock asks for counts per translated block.
func (t *tool) command(out, bin string, perBlock bool) ([]string, error) {
	syms, err := functions(bin)
	if err != nil {
		return nil, err
	}
	sysmon, ok := lookupSymbol(syms, "runtime.sysmon")
	if !ok {
		return nil, fmt.Errorf("%s: no symbol runtime.sysmon", bin)
	}
	arg := fmt.Sprintf("%s,out=%s,skip=%x-%x", t.plugin, out, sysmon.start, sysmon.end)
	if perBlock {
		arg += ",pcs=on"
	}
	var args []string
	if t.arch == "amd64" {
		// The x86-64 model with every feature QEMU's TCG implements
		// (AVX2, BMI2, ADX; not AVX-512): the kernels selected are those
		// of a recent x86-64 server without AVX-512.
		args = []string{t.qemu, "-cpu", "max", "-plugin", arg + ",arch=x86_64", bin}
	} else {
		args = []string{t.qemu, "-plugin", arg, bin}
	}
	return args, nil
}

// pluginSource is the armcount plugin's source, relative to the module root.
const pluginSource = "scripts/armcount/armcount.c"

// buildPlugin compiles the armcount plugin into the user's cache directory,
// under a name derived from its source, so that a changed source is built
// again and an unchanged one is not.
func buildPlugin() (string, error) {
	src, err := os.ReadFile(filepath.Join(moduleRoot(), pluginSource))
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(src)
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir := filepath.Join(cache, "p256tls-armcount")
	so := filepath.Join(dir, "armcount-"+hex.EncodeToString(sum[:8])+".so")
	if _, err := os.Stat(so); err == nil {
		return so, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	tmp := fmt.Sprintf("%s.%d.tmp", so, os.Getpid())
	cmd := exec.Command("gcc", "-O2", "-Wall", "-shared", "-fPIC", "-fvisibility=hidden", "-o", tmp,
		filepath.Join(moduleRoot(), pluginSource), "-lpthread")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building the armcount plugin (needs gcc): %v\n%s", err, out)
	}
	return so, os.Rename(tmp, so)
}

// readCounts reads the armcount plugin's output file.
func readCounts(path string) ([]mark, []block, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	var marks []mark
	var blocks []block
	total := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var m mark
		var b block
		switch t := sc.Text(); {
		case strings.HasPrefix(t, "mark "):
			if _, err := fmt.Sscanf(t, "mark %d %d %d", &m.len, &m.insns, &m.muls); err != nil {
				return nil, nil, fmt.Errorf("armcount output %q: %v", t, err)
			}
			marks = append(marks, m)
		case strings.HasPrefix(t, "tb "):
			if _, err := fmt.Sscanf(t, "tb %x %d %d %d", &b.pc, &b.n, &b.m, &b.execs); err != nil {
				return nil, nil, fmt.Errorf("armcount output %q: %v", t, err)
			}
			blocks = append(blocks, b)
		case strings.HasPrefix(t, "total "):
			total = true
		}
	}
	if err := sc.Err(); err != nil {
		return nil, nil, err
	}
	if !total {
		return nil, nil, fmt.Errorf("armcount output has no totals: did the program exit normally?")
	}
	return marks, blocks, nil
}

// run is one run of a test binary under a tool.
type run struct {
	segments []segment
	blocks   []block
}

// runOnce runs the benchmarks of bin matching regexp at n iterations each,
// in the package directory pkgDir, under the tool, and splits the counts.
func (t *tool) runOnce(bin, pkgDir, regexp string, n int64, perBlock bool) (*run, error) {
	dir, err := os.MkdirTemp("", "costguard-"+t.arch)
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "armcount.out")
	args, err := t.command(out, bin, perBlock)
	if err != nil {
		return nil, err
	}
	args = append(args, "-test.run", "^$", "-test.bench", regexp, "-test.benchtime", fmt.Sprintf("%dx", n), "-test.count", "1")
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = pkgDir
	cmd.Env = append(os.Environ(), countEnv...)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%s: %v\n%s%s", strings.Join(args, " "), err, stdout.String(), tail(stderr.String(), 40))
	}
	marks, blocks, err := readCounts(out)
	if err != nil {
		return nil, err
	}
	if t.arch != "arm64" {
		for i := range marks {
			marks[i].muls = -1
		}
	}
	segs, err := segments(stdout.String(), marks)
	if err != nil {
		return nil, fmt.Errorf("%s: %v\noutput:\n%s", strings.Join(args, " "), err, stdout.String())
	}
	if len(segs) == 0 {
		return nil, fmt.Errorf("-test.bench %q selects no benchmark in %s", regexp, bin)
	}
	return &run{segs, blocks}, nil
}

// count returns the cost per iteration of every benchmark of bin that
// regexp selects, from runs at n1 and n2 iterations.
func (t *tool) count(bin, pkgDir, regexp string, n1, n2 int64) ([]perOp, error) {
	a, err := t.runOnce(bin, pkgDir, regexp, n1, false)
	if err != nil {
		return nil, err
	}
	b, err := t.runOnce(bin, pkgDir, regexp, n2, false)
	if err != nil {
		return nil, err
	}
	return difference(a.segments, b.segments, n1, n2)
}

// testBinary builds the test binary of pkg for arch into dir.
func testBinary(dir, pkg, arch, tags string) (string, error) {
	bin := filepath.Join(dir, strings.Trim(strings.NewReplacer("/", "_", ".", "_").Replace(pkg), "_")+"."+arch+".test")
	args := []string{"test", "-c", "-o", bin}
	if tags != "" {
		args = append(args, "-tags", tags)
	}
	cmd := exec.Command("go", append(args, pkg)...)
	cmd.Dir = moduleRoot()
	cmd.Env = append(os.Environ(), "GOARCH="+arch)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("GOARCH=%s go %s %s: %v\n%s", arch, strings.Join(args, " "), pkg, err, out)
	}
	return bin, nil
}

// packageDir returns the directory of pkg, where its benchmarks run.
func packageDir(pkg string) (string, error) {
	cmd := exec.Command("go", "list", "-f", "{{.Dir}}", pkg)
	cmd.Dir = moduleRoot()
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go list %s: %v", pkg, err)
	}
	return strings.TrimSpace(string(out)), nil
}

var rootDir string

// moduleRoot returns the directory of the module's go.mod.
func moduleRoot() string {
	if rootDir != "" {
		return rootDir
	}
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil || strings.TrimSpace(string(out)) == "" || strings.TrimSpace(string(out)) == os.DevNull {
		fatalf("run costguard inside the p256tls module")
	}
	rootDir = filepath.Dir(strings.TrimSpace(string(out)))
	return rootDir
}

func tail(s string, lines int) string {
	l := strings.Split(s, "\n")
	if len(l) > lines {
		l = l[len(l)-lines:]
	}
	return strings.Join(l, "\n")
}
