// Command costguard counts the instructions of the repository's hot
// operations, beside the standard library's in the same test binaries, and
// fails when one of them grew. Counts, not seconds: they do not move with
// the machine's load. Run it through scripts/costguard (the guard) and
// scripts/armcount/armcount (counts and profiles of any benchmark on arm64).
//
//	costguard [-arch amd64,arm64] [-update] [-baseline FILE] [-j 2]
//	costguard count [-arch arm64] [-tags T] [-n1 4] [-n2 44] PKG REGEXP
//	costguard profile [-arch arm64] [-top 25] [-n1 4] [-n2 44] PKG REGEXP
//
// The counter is QEMU user mode with the armcount plugin
// (scripts/armcount/armcount.c): qemu-aarch64 for arm64 (instructions and
// multiplies), qemu-x86_64 -cpu max for amd64 (instructions), so both are
// counted on any machine, the same way. Each benchmark
// runs in one process at -benchtime N1x and in another at N2x; the counts
// are split at the benchmark result lines, and the difference of the two
// runs divided by N2 − N1 is the cost of one iteration (see count.go).
//
// The guard runs a fixed list of operations (guard.go: checked and
// unchecked signing, P-256 and P-384 verification with and without the
// key's table, chain verification by the trust store) with their
// references, and fails when an operation of ours costs more than 2% over
// the committed baseline (scripts/costguard.baseline), in instructions or
// in multiplies, or when on arm64 one of them other than checked signing
// costs more instructions and more multiplies than its reference (the
// never-slower rule: such an operation must be routed to the standard
// library). -update rewrites the baseline from the run; a deliberate change
// commits the new baseline with its reason. count prints every selected
// benchmark's cost; profile prints where one benchmark's instructions go,
// by function (arm64).
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"
)

func main() {
	defer runCleanup()
	if len(os.Args) > 1 {
		switch os.Args[1] {
		case "count":
			countMain(os.Args[2:])
			return
		case "profile":
			profileMain(os.Args[2:])
			return
		}
	}
	guardMain(os.Args[1:])
}

func guardMain(args []string) {
	fl := flag.NewFlagSet("costguard", flag.ExitOnError)
	arches := fl.String("arch", "amd64,arm64", "architectures to count, comma-separated")
	update := fl.Bool("update", false, "rewrite the baseline from this run instead of comparing")
	basePath := fl.String("baseline", "scripts/costguard.baseline", "baseline file (relative to the module root)")
	jobs := fl.Int("j", runtime.NumCPU(), "runs at once")
	fl.Parse(args)
	if fl.NArg() != 0 {
		fl.Usage()
		os.Exit(2)
	}
	path := *basePath
	if !filepath.IsAbs(path) {
		path = filepath.Join(moduleRoot(), path)
	}
	base, err := readBaseline(path)
	check(err)

	start := time.Now()
	cur := map[key]cost{}
	var mu sync.Mutex
	var tasks []func() error
	work := workDir()
	for _, arch := range strings.Split(*arches, ",") {
		t, err := toolFor(arch)
		check(err)
		for _, g := range groups {
			tasks = append(tasks, func() error {
				bin, err := testBinary(work, g.pkg, arch, "")
				if err != nil {
					return err
				}
				dir, err := packageDir(g.pkg)
				if err != nil {
					return err
				}
				res, err := t.count(bin, dir, g.bench, g.n1, g.n2)
				if err != nil {
					return err
				}
				mu.Lock()
				defer mu.Unlock()
				return collect(cur, arch, g, res)
			})
		}
	}
	check(parallel(*jobs, tasks))

	rows := judge(ops, cur, base)
	if *update {
		for i := range rows {
			rows[i].verdict = "(written to the baseline)"
		}
	}
	printTable(os.Stdout, rows)
	fmt.Printf("costguard: counted %s in %.0fs (n1/n2 iterations: %s)\n", *arches, time.Since(start).Seconds(), iterations())
	if *update {
		check(writeBaseline(path, baselineHeader(), rows, base))
		fmt.Printf("costguard: wrote %s\n", *basePath)
		return
	}
	failed := 0
	for _, r := range rows {
		if r.failed {
			failed++
		}
	}
	if failed > 0 {
		fatalf("%d operations FAIL (a deliberate change commits a new baseline, scripts/costguard -update, with its reason)", failed)
	}
	fmt.Println("costguard: PASS")
}

// collect files the per-iteration costs of one group's run under the ops.
func collect(cur map[key]cost, arch string, g group, res []perOp) error {
	got := map[string]perOp{}
	for _, p := range res {
		got[p.name] = p
	}
	for _, o := range ops {
		if o.pkg != g.pkg {
			continue
		}
		p, ok := got[o.bench]
		if !ok {
			return fmt.Errorf("%s: benchmark %s did not run (-test.bench %q)", g.pkg, o.bench, g.bench)
		}
		cur[key{arch, o.name}] = cost{p.insns, p.muls}
	}
	return nil
}

func iterations() string {
	var s []string
	for _, g := range groups {
		s = append(s, fmt.Sprintf("%s %d/%d", g.pkg, g.n1, g.n2))
	}
	return strings.Join(s, ", ")
}

func baselineHeader() string {
	return fmt.Sprintf(`# Baseline of scripts/costguard (internal/cmd/costguard): instructions
# and, on arm64, multiplies per operation, counted under QEMU user mode
# with scripts/armcount/armcount.c (qemu-aarch64, qemu-x86_64 -cpu max);
# see docs/arm64.md. Written by scripts/costguard -update (%s, %s).
# A change that moves an operation by more than 2%% commits the new
# baseline with its reason. The columns after the counts (the reference
# and the ratios to it) are for reading only.
`, runtime.Version(), time.Now().UTC().Format("2006-01-02"))
}

// parallel runs the tasks, at most n at a time, and returns the first error.
func parallel(n int, tasks []func() error) error {
	if n < 1 {
		n = 1
	}
	sem := make(chan struct{}, n)
	errs := make([]error, len(tasks))
	var wg sync.WaitGroup
	for i, t := range tasks {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			errs[i] = t()
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// benchCommand is what count and profile share: their flags, and the
// test binary of PKG built for the architecture asked.
type benchCommand struct {
	t        *tool
	bin, dir string // the test binary and its package's directory
	regexp   string
	n1, n2   int64
}

// parseBench parses the flags of a subcommand taking PKG REGEXP (extra
// adds the subcommand's own flags) and builds the test binary.
func parseBench(name, doc string, args []string, extra func(*flag.FlagSet)) benchCommand {
	fl := flag.NewFlagSet("costguard "+name, flag.ExitOnError)
	arch := fl.String("arch", "arm64", "architecture (arm64: instructions and multiplies; amd64: instructions)")
	tags := fl.String("tags", "", "build tags of the test binary")
	n1 := fl.Int64("n1", 4, "iterations of the first run")
	n2 := fl.Int64("n2", 44, "iterations of the second run")
	if extra != nil {
		extra(fl)
	}
	fl.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: costguard %s [flags] PKG REGEXP\n\n%s\n", name, doc)
		fl.PrintDefaults()
	}
	fl.Parse(args)
	if fl.NArg() != 2 {
		fl.Usage()
		os.Exit(2)
	}
	t, bin, dir := prepare(*arch, *tags, fl.Arg(0))
	return benchCommand{t, bin, dir, fl.Arg(1), *n1, *n2}
}

func countMain(args []string) {
	c := parseBench("count", "prints instructions (and on arm64 multiplies) per iteration of every benchmark of PKG that REGEXP (-test.bench) selects", args, nil)
	res, err := c.t.count(c.bin, c.dir, c.regexp, c.n1, c.n2)
	check(err)
	for _, p := range res {
		if p.muls >= 0 {
			fmt.Printf("%-40s insns=%.0f muls=%.0f insns/mul=%s\n", p.name, p.insns, p.muls, num(ratio(p.insns, p.muls), "%.1f"))
		} else {
			fmt.Printf("%-40s insns=%.0f\n", p.name, p.insns)
		}
	}
}

func profileMain(args []string) {
	top := 25
	c := parseBench("profile", "prints where the instructions and multiplies of one iteration of the one benchmark REGEXP selects go, by function", args,
		func(fl *flag.FlagSet) { fl.IntVar(&top, "top", 25, "functions to list") })
	a, err := c.t.runOnce(c.bin, c.dir, c.regexp, c.n1, true)
	check(err)
	b, err := c.t.runOnce(c.bin, c.dir, c.regexp, c.n2, true)
	check(err)
	if len(a.segments) != 1 {
		var names []string
		for _, s := range a.segments {
			names = append(names, s.name)
		}
		fatalf("REGEXP must select one benchmark; it selects %s", strings.Join(names, ", "))
	}
	res, err := difference(a.segments, b.segments, c.n1, c.n2)
	check(err)
	syms, err := functions(c.bin)
	check(err)
	fmt.Printf("%s (%s): %.0f instructions, %s multiplies per iteration; by function (the whole process):\n", res[0].name, c.t.arch, res[0].insns, num(res[0].muls, "%.0f"))
	printProfile(os.Stdout, attribute(syms, a.blocks, b.blocks, c.n1, c.n2), top)
}

// prepare builds pkg's test binary for arch.
func prepare(arch, tags, pkg string) (*tool, string, string) {
	t, err := toolFor(arch)
	check(err)
	bin, err := testBinary(workDir(), pkg, arch, tags)
	check(err)
	dir, err := packageDir(pkg)
	check(err)
	return t, bin, dir
}

// workDir returns a new temporary directory, removed when the command
// ends (by main's return or by fatalf).
func workDir() string {
	dir, err := os.MkdirTemp("", "costguard")
	check(err)
	cleanup = append(cleanup, func() { os.RemoveAll(dir) })
	return dir
}

var cleanup []func()

func runCleanup() {
	for _, f := range cleanup {
		f()
	}
	cleanup = nil
}

func check(err error) {
	if err != nil {
		fatalf("%v", err)
	}
}

func fatalf(format string, args ...any) {
	runCleanup()
	fmt.Fprintf(os.Stderr, "costguard: "+format+"\n", args...)
	os.Exit(1)
}
