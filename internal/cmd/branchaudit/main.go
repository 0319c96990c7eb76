// Command branchaudit lists every conditional jump in the machine code of
// the signing secret path and fails on any jump that scripts/branch-audit.allow
// does not explain. Run it through scripts/branch-audit.
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
// without an entry.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

type jump struct {
	fn, addr, instr, prev string
	file                  string
	line                  int
	text                  string
}

type rule struct {
	file, text, why string
	used            int
}

func main() {
	tags := flag.String("tags", "", "audit only the build with these tags (default: the default build and purego)")
	allowPath := flag.String("allow", "scripts/branch-audit.allow", "allow-list")
	verbose := flag.Bool("v", false, "list every jump, not only the summary and the unexplained ones")
	flag.Parse()

	rules, err := readRules(*allowPath)
	check(err)
	builds := []string{"", "purego"}
	if *tags != "" {
		builds = []string{*tags}
	}

	// Every marked function must be audited in at least one of the builds:
	// the portable twins (purego) are reached only there, the assembly
	// kernels only in the default build.
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
			fail("no function is marked %s in the packages of ./sign (tags %q)", Marker, b)
		}
		for _, m := range ms {
			if !known[m.Symbol] {
				known[m.Symbol] = true
				marked = append(marked, m)
			}
		}
		unexplained += auditBuild(b, ms, rules, symbols, seen, *verbose)
	}
	if gone := missing(marked, symbols, seen); len(gone) > 0 {
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

// auditBuild audits the build of ./sign with the given tags: it prints its
// summary and every unexplained jump, and returns how many there are. It
// adds the symbols it found and the source positions of their instructions
// to symbols and seen, and counts the allow-list entries it used.
func auditBuild(tags string, marked []secretFunc, rules []*rule, symbols map[string]bool, seen map[position]bool, verbose bool) int {
	tmp, err := os.MkdirTemp("", "branch-audit")
	check(err)
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, "audited.test")
	args := []string{"test", "-c", "-o", bin}
	if tags != "" {
		args = append(args, "-tags", tags)
	}
	run("go", append(args, auditedPackage)...)

	dis := run("go", "tool", "objdump", "-s", symbolRegexp(marked), bin)
	jumps, addrs, funcs, asmFuncs := parseObjdump(dis)
	// The Go disassembler does not decode MULX, ADCX and ADOX, so the
	// assembly functions are audited in their source instead: the assembler
	// emits exactly the instructions written there (they are NOSPLIT, so it
	// adds no prologue).
	asmJumps := auditAsmSource(asmFuncs)
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

	stackCheck := regexp.MustCompile(`^CMPQ (SP|R12), 0x10\(R14\)$`)
	// Large frames first compute SP − frame into R12 and check it did not
	// wrap around.
	bigFrame := regexp.MustCompile(`^SUBQ \$0x[0-9a-f]+, R12$`)
	unexplained := 0
	byWhy := map[string]int{}
	name := tags
	if name == "" {
		name = "default"
	}
	fmt.Printf("branch-audit [%s build]: %d functions marked %s; %d in the binary (%d in assembly, read from source), the rest inlined; %d conditional jumps\n", name, len(marked), Marker, len(funcs), len(asmFuncs), len(jumps))
	for _, j := range jumps {
		why := ""
		switch {
		case stackCheck.MatchString(j.prev) && strings.HasPrefix(j.instr, "JBE"),
			bigFrame.MatchString(j.prev) && strings.HasPrefix(j.instr, "JB "):
			why = "stack-growth check in the prologue (compares SP with the stack guard)"
		default:
			for _, r := range rules {
				if strings.HasSuffix(j.file, r.file) && j.text == r.text {
					r.used++
					why = r.why
					break
				}
			}
		}
		loc := fmt.Sprintf("%s:%d", shortPath(j.file), j.line)
		if why == "" {
			unexplained++
			fmt.Printf("UNEXPLAINED %s %s\n    %s: %s\n    in %s\n", j.addr, j.instr, loc, j.text, j.fn)
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

// parseObjdump returns the conditional jumps of the disassembly of the Go
// functions, the addresses of all their instructions, the names of all
// functions seen, and the assembly functions (name → source file) to audit
// from source.
func parseObjdump(dis string) ([]jump, []string, []string, map[string]string) {
	var jumps []jump
	var addrs []string
	var funcs []string
	asmFuncs := map[string]string{}
	fn, prev, isAsm := "", "", false
	sc := bufio.NewScanner(strings.NewReader(dis))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "TEXT ") {
			f := strings.Fields(line)
			fn = f[1]
			funcs = append(funcs, fn)
			prev = ""
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
		addrs = append(addrs, addr)
		op := strings.Fields(instr)[0]
		if op[0] == 'J' && op != "JMP" {
			jumps = append(jumps, jump{fn: fn, addr: addr, instr: instr, prev: prev})
		}
		prev = instr
	}
	return jumps, addrs, funcs, asmFuncs
}

// auditAsmSource lists the conditional jumps written in the source of each
// assembly function (from its TEXT line to the next one).
func auditAsmSource(asmFuncs map[string]string) []jump {
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
		in := false
		found := false
		for i, l := range strings.Split(string(b), "\n") {
			t := strings.TrimSpace(l)
			if strings.HasPrefix(t, "TEXT ") {
				in = strings.HasPrefix(t, "TEXT ·"+short+"(SB)")
				found = found || in
				continue
			}
			if !in || t == "" || strings.HasPrefix(t, "//") {
				continue
			}
			op := strings.Fields(t)[0]
			if op[0] == 'J' && op != "JMP" {
				jumps = append(jumps, jump{fn: name, addr: "source", instr: t, file: file, line: i + 1, text: t})
			}
		}
		if !found {
			fail("TEXT ·%s not found in %s", short, file)
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
		parts := strings.SplitN(line, " | ", 3)
		if len(parts) != 3 || strings.TrimSpace(parts[2]) == "" {
			return nil, fmt.Errorf("%s:%d: want `file | source line | reason`", path, i+1)
		}
		rules = append(rules, &rule{file: strings.TrimSpace(parts[0]), text: strings.TrimSpace(parts[1]), why: strings.TrimSpace(parts[2])})
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
	cmd := exec.Command(name, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		fail("%s %s: %v\n%s", name, strings.Join(args, " "), err, stderr.String())
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
