// Command branchaudit lists every conditional jump in the machine code of
// the signing secret path and fails on any jump that scripts/branch-audit.allow
// does not explain, on amd64 and arm64, in the default build (assembly
// kernels) and the purego build (portable twins). Run it through
// scripts/branch-audit.
//
// The secret path is read from the code: every function marked with the
// line //p256tls:secret in its doc comment (assembly functions: a
// //p256tls:secret-asm line naming them) in the packages ./sign depends on,
// under the build tags of the run (see markers.go). The audit fails when a
// marked function's code is not in the binary, neither as a symbol nor
// inlined into an audited function: a secret function that was renamed,
// moved or made unreachable cannot drop out of the audit unnoticed. A marker
// in a package ./sign does not depend on fails too: nothing would audit it.
//
// It builds the test binary of ./sign (the package code in it is compiled
// exactly as in any other binary), disassembles the functions of the secret
// path with `go tool objdump -s`, resolves each conditional jump to its
// innermost source line (through inlining) with `go tool addr2line`, and
// looks that line up in the allow-list, which pairs a source file and the
// exact text of a line with the reason the branch is harmless (a loop over a
// public bound, a bounds check on a public index, a CPU-feature dispatch, a
// check of a public value). A jump that immediately follows the comparison
// of the stack pointer with the goroutine's stack guard (CMPQ SP or R12
// against 0x10(R14)), or the wrap-around check of a large frame (JB after
// SUBQ $frame, R12), is the prologue's stack-growth check and is accepted
// without an entry; so is arm64's (BLS after CMP R16, RSP or R17 with R16
// loaded from the stack guard 16(R28), or BCC after the SUBS of a large
// frame). On arm64 the conditional branches are B.cond, CBZ/CBNZ and
// TBZ/TBNZ, and the audit also lists every load and store whose address
// adds a register index ((R1)(R2<<3)): an address computed from data, which
// needs an allow-list entry of kind index (a public index). Assembly
// functions are audited in their source (the generated .s): on arm64 every
// memory operand must also take its base from the argument frame, a
// symbol, the stack, or a register loaded from them and moved by constants
// only (see arch.go).
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// jump is one finding: a conditional branch or (arm64) a register-indexed
// memory operand, or an assembly operand of unknown base.
type jump struct {
	fn, addr, instr string
	before          []string // the instructions before it, nearest last (up to 4)
	kind            string   // kindBranch, kindIndex or kindBase
	file            string
	line            int
	text            string
}

// rule is one allow-list entry. An entry explains the branches of its
// source line; an entry whose file is written "index FILE" explains the
// register-indexed addresses of its line instead.
type rule struct {
	file, text, why string
	kind            string
	used            int
}

func main() {
	tags := flag.String("tags", "", "audit only the builds with these tags (default: the default build and purego)")
	arches := flag.String("arch", "amd64,arm64", "architectures to audit, comma-separated")
	allowPath := flag.String("allow", "scripts/branch-audit.allow", "allow-list")
	verbose := flag.Bool("v", false, "list every jump, not only the summary and the unexplained ones")
	flag.Parse()

	rules, err := readRules(*allowPath)
	check(err)
	var builds []build
	for _, a := range strings.Split(*arches, ",") {
		for _, b := range allBuilds {
			if b.goarch == a && (*tags == "" || b.tags == *tags) {
				builds = append(builds, b)
			}
		}
		if *tags != "" && !containsBuild(builds, build{a, *tags}) {
			builds = append(builds, build{a, *tags})
		}
	}
	if len(builds) == 0 {
		fail("no build to audit for -arch %q", *arches)
	}

	// Every marked function must be audited in at least one of the builds:
	// the portable twins (purego) are reached only there, the assembly
	// kernels only in the default build of their architecture.
	strays, err := markedOutside(auditedPackage, module)
	check(err)
	if len(strays) > 0 {
		for _, f := range strays {
			fmt.Printf("NOT AUDITED %s (%s:%d)\n", f.Symbol, shortPath(f.File), f.Start)
		}
		fail("%d functions are marked %s in packages %s does not depend on, so nothing audits them: move the code or drop the marker", len(strays), Marker, auditedPackage)
	}

	var marked []secretFunc
	known := map[string]bool{}
	symbols := map[string]bool{}
	seen := map[position]bool{}
	unexplained := 0
	for _, b := range builds {
		pkgs, err := modulePackages(auditedPackage, module, b)
		check(err)
		ms, err := findMarkers(pkgs)
		check(err)
		if len(ms) == 0 {
			fail("no function is marked %s in the packages of ./sign (%s)", Marker, b)
		}
		for _, m := range ms {
			if !known[m.Symbol] {
				known[m.Symbol] = true
				marked = append(marked, m)
			}
		}
		unexplained += auditBuild(b, ms, rules, symbols, seen, *verbose)
	}
	if gone := missing(marked, symbols, seen); len(gone) > 0 && len(builds) < len(allBuilds) {
		// A function may be reached in the other builds only (an
		// architecture's dispatch stub): only a run of every build can
		// tell it is gone.
		for _, f := range gone {
			fmt.Printf("note: %s is not in the audited code of these builds\n", f.Symbol)
		}
	} else if len(gone) > 0 {
		for _, f := range gone {
			where := f.File
			if where == "" {
				where = "assembly"
			}
			fmt.Printf("MISSING %s (%s:%d)\n", f.Symbol, shortPath(where), f.Start)
		}
		fail("%d functions marked %s are not in the audited code of any build (renamed, removed, or no longer reached from ./sign): fix the marker or the code", len(gone), Marker)
	}
	for _, r := range rules {
		if r.used == 0 {
			fmt.Printf("note: allow-list entry not used in any audited build: %s | %s\n", r.file, r.text)
		}
	}
	if unexplained > 0 {
		fail("%d conditional jumps are not explained by %s", unexplained, *allowPath)
	}
	fmt.Printf("branch-audit: PASS (%d marked functions audited; every conditional jump is explained)\n", len(marked))
}

func containsBuild(bs []build, b build) bool {
	for _, x := range bs {
		if x == b {
			return true
		}
	}
	return false
}

// auditBuild audits one build of ./sign: it prints its summary and every
// unexplained finding, and returns how many there are. It adds the symbols
// it found and the source positions of their instructions to symbols and
// seen, and counts the allow-list entries it used.
func auditBuild(b build, marked []secretFunc, rules []*rule, symbols map[string]bool, seen map[position]bool, verbose bool) int {
	tmp, err := os.MkdirTemp("", "branch-audit")
	check(err)
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, "audited.test")
	args := []string{"test", "-c", "-o", bin}
	if b.tags != "" {
		args = append(args, "-tags", b.tags)
	}
	runEnv([]string{"GOARCH=" + b.goarch}, "go", append(args, auditedPackage)...)

	dis := run("go", "tool", "objdump", "-s", symbolRegexp(marked), bin)
	jumps, addrs, funcs, asmFuncs := parseObjdump(b.goarch, dis)
	// The Go disassembler does not decode MULX, ADCX and ADOX, so the
	// assembly functions are audited in their source instead: the assembler
	// emits exactly the instructions written there (they are NOSPLIT, so it
	// adds no prologue).
	asmJumps := auditAsmSource(b.goarch, asmFuncs)
	for _, f := range funcs {
		symbols[strings.TrimSuffix(f, "(SB)")] = true
	}

	// Resolve every instruction to its innermost source line: the jumps to
	// look them up in the allow-list, all of them to see which marked
	// functions were inlined into the audited code.
	posOf := map[string]position{}
	if len(addrs) > 0 {
		var in bytes.Buffer
		for _, a := range addrs {
			fmt.Fprintln(&in, a)
		}
		cmd := exec.Command("go", "tool", "addr2line", bin)
		cmd.Stdin = &in
		out, err := cmd.Output()
		check(err)
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		if len(lines) != 2*len(addrs) {
			fail("addr2line returned %d lines for %d addresses", len(lines), len(addrs))
		}
		for i, a := range addrs {
			pos := lines[2*i+1]
			k := strings.LastIndexByte(pos, ':')
			var p position
			p.file = pos[:k]
			fmt.Sscan(pos[k+1:], &p.line)
			posOf[a] = p
			seen[p] = true
		}
	}

	src := map[string][]string{}
	for i := range jumps {
		p := posOf[jumps[i].addr]
		jumps[i].file, jumps[i].line = p.file, p.line
		if _, ok := src[p.file]; !ok {
			b, err := os.ReadFile(p.file)
			if err == nil {
				src[p.file] = strings.Split(string(b), "\n")
			} else {
				src[p.file] = nil
			}
		}
		if l := src[p.file]; p.line >= 1 && p.line <= len(l) {
			jumps[i].text = strings.TrimSpace(l[p.line-1])
		}
	}
	jumps = append(jumps, asmJumps...)

	unexplained := 0
	byWhy := map[string]int{}
	nb, ni := 0, 0
	for _, j := range jumps {
		if j.kind == kindBranch {
			nb++
		} else {
			ni++
		}
	}
	name := b.goarch + " default"
	if b.tags != "" {
		name = b.String()
	}
	fmt.Printf("branch-audit [%s build]: %d functions marked %s; %d in the binary (%d in assembly, read from source), the rest inlined; %d conditional jumps", name, len(marked), Marker, len(funcs), len(asmFuncs), nb)
	if b.goarch == "arm64" {
		fmt.Printf(", %d addresses from a register index or an unknown base", ni)
	}
	fmt.Println()
	for _, j := range jumps {
		why := explain(b.goarch, j, rules)
		loc := fmt.Sprintf("%s:%d", shortPath(j.file), j.line)
		if why == "" {
			unexplained++
			what := "UNEXPLAINED"
			switch j.kind {
			case kindIndex:
				what = "UNEXPLAINED INDEX"
			case kindBase:
				what = "UNEXPLAINED BASE"
			}
			fmt.Printf("%s %s %s\n    %s: %s\n    in %s\n", what, j.addr, j.instr, loc, j.text, j.fn)
			continue
		}
		byWhy[why]++
		if verbose {
			fmt.Printf("ok %s %-14s %s: %s\n    (%s)\n", j.addr, j.instr, loc, j.text, why)
		}
	}
	var whys []string
	for w := range byWhy {
		whys = append(whys, w)
	}
	sort.Strings(whys)
	for _, w := range whys {
		fmt.Printf("  %3d × %s\n", byWhy[w], w)
	}
	return unexplained
}

// explain returns why a finding is harmless: the prologue's stack check
// (recognised here), or the reason of the allow-list entry of its kind for
// its source line; "" if nothing explains it.
func explain(goarch string, j jump, rules []*rule) string {
	if j.kind == kindBranch && stackCheck(goarch, j.instr, j.before) {
		return "stack-growth check in the prologue (compares SP with the stack guard)"
	}
	kind := j.kind
	if kind == kindBase {
		kind = kindIndex // an address computed in a register: explained like an index
	}
	for _, r := range rules {
		if r.kind == kind && strings.HasSuffix(j.file, r.file) && j.text == r.text {
			r.used++
			return r.why
		}
	}
	return ""
}

// parseObjdump returns the findings of the disassembly of the Go functions
// (conditional jumps; on arm64 also register-indexed addresses), the
// addresses of all their instructions, the names of all functions seen,
// and the assembly functions (name → source file) to audit from source.
func parseObjdump(goarch, dis string) ([]jump, []string, []string, map[string]string) {
	var jumps []jump
	var addrs []string
	var funcs []string
	asmFuncs := map[string]string{}
	fn, isAsm := "", false
	var before []string
	sc := bufio.NewScanner(strings.NewReader(dis))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "TEXT ") {
			f := strings.Fields(line)
			fn = f[1]
			funcs = append(funcs, fn)
			before = nil
			isAsm = strings.HasSuffix(strings.TrimSuffix(fn, "(SB)"), ".abi0")
			if isAsm {
				asmFuncs[strings.TrimSuffix(fn, "(SB)")] = f[len(f)-1]
			}
			continue
		}
		if isAsm {
			continue
		}
		// "  file.go:12\t0xaddr\thex\tINSTR ARGS\t..."
		var cols []string
		for _, c := range strings.Split(strings.TrimSpace(line), "\t") {
			if c = strings.TrimSpace(c); c != "" {
				cols = append(cols, c)
			}
		}
		if len(cols) < 4 {
			continue
		}
		addr, instr := cols[1], cols[3]
		op := strings.Fields(instr)[0]
		if op == "?" { // padding between functions
			continue
		}
		addrs = append(addrs, addr)
		if condBranch(goarch, op) {
			jumps = append(jumps, jump{fn: fn, addr: addr, instr: instr, before: before, kind: kindBranch})
		}
		if indexed(goarch, instr) {
			jumps = append(jumps, jump{fn: fn, addr: addr, instr: instr, kind: kindIndex})
		}
		before = append(before, instr)
		if len(before) > 4 {
			before = append([]string(nil), before[len(before)-4:]...)
		}
	}
	return jumps, addrs, funcs, asmFuncs
}

// auditAsmSource lists the findings in the source of each assembly function
// (from its TEXT line to the next one): its conditional jumps, and on arm64
// its register-indexed operands and operands of unknown base.
func auditAsmSource(goarch string, asmFuncs map[string]string) []jump {
	var jumps []jump
	var names []string
	for n := range asmFuncs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		file := asmFuncs[name]
		b, err := os.ReadFile(file)
		check(err)
		short := strings.TrimSuffix(name, ".abi0")
		short = short[strings.LastIndexByte(short, '.')+1:]
		lines := strings.Split(string(b), "\n")
		start, end := -1, len(lines)
		for i, l := range lines {
			t := strings.TrimSpace(l)
			if !strings.HasPrefix(t, "TEXT ") {
				continue
			}
			if start >= 0 {
				end = i
				break
			}
			if strings.HasPrefix(t, "TEXT ·"+short+"(SB)") {
				start = i + 1
			}
		}
		if start < 0 {
			fail("TEXT ·%s not found in %s", short, file)
		}
		if goarch == "arm64" {
			for _, f := range auditARM64Asm(lines[start:end], start+1) {
				jumps = append(jumps, jump{fn: name, addr: "source", instr: f.text, kind: f.kind, file: file, line: f.line, text: f.text})
			}
			continue
		}
		for i := start; i < end; i++ {
			t := strings.TrimSpace(lines[i])
			if t == "" || strings.HasPrefix(t, "//") {
				continue
			}
			if op := strings.Fields(t)[0]; condBranch(goarch, op) {
				jumps = append(jumps, jump{fn: name, addr: "source", instr: t, kind: kindBranch, file: file, line: i + 1, text: t})
			}
		}
	}
	return jumps
}

func readRules(path string) ([]*rule, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var rules []*rule
	for i, line := range strings.Split(string(b), "\n") {
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		// The source line may itself hold " | " (an OR): the file ends at
		// the first separator, the reason starts after the last one.
		first, last := strings.Index(line, " | "), strings.LastIndex(line, " | ")
		if first < 0 || last == first || strings.TrimSpace(line[last+3:]) == "" {
			return nil, fmt.Errorf("%s:%d: want `file | source line | reason`", path, i+1)
		}
		parts := []string{line[:first], line[first+3 : last], line[last+3:]}
		r := &rule{file: strings.TrimSpace(parts[0]), text: strings.TrimSpace(parts[1]), why: strings.TrimSpace(parts[2]), kind: kindBranch}
		if f, ok := strings.CutPrefix(r.file, "index "); ok {
			r.file, r.kind = strings.TrimSpace(f), kindIndex
		}
		rules = append(rules, r)
	}
	return rules, nil
}

// module is the module whose functions are audited.
const module = "github.com/p256tls/p256tls"

// auditedPackage is the package whose test binary is audited: the signer
// and everything it calls. A marker in a package outside its dependencies
// is an error (it would be audited nowhere).
const auditedPackage = module + "/sign"

func shortPath(p string) string {
	if i := strings.Index(p, "/p256tls/"); i >= 0 {
		return p[i+len("/p256tls/"):]
	}
	if i := strings.Index(p, "/src/"); i >= 0 {
		return "GOROOT/" + p[i+1:]
	}
	return p
}

func run(name string, args ...string) string {
	return runEnv(nil, name, args...)
}

// runEnv runs a command with env added to the environment and returns its
// standard output; it fails the audit if the command fails.
func runEnv(env []string, name string, args ...string) string {
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		fail("%s %s %s: %v\n%s", strings.Join(env, " "), name, strings.Join(args, " "), err, stderr.String())
	}
	return string(out)
}

func check(err error) {
	if err != nil {
		fail("%v", err)
	}
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "branch-audit: "+format+"\n", args...)
	os.Exit(1)
}
