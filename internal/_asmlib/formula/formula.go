// Package formula reads the group-law formulas of the assembly generators,
// written once as programs of field operations, so that each backend (a
// kernel generator for one architecture and one curve) only says how to
// run one operation and where each named element lives.
//
// A program is lines of steps separated by semicolons. A step assigns one
// operation of at most two named elements to a name:
//
//	d = x·y    product (x·x is a square; the middle dot is U+00B7)
//	d = x + y  sum mod p
//	d = x − y  difference mod p (the minus sign U+2212)
//	d = x/2    half mod p
//	d = −x     negation mod p
//	d = ±x     −x if the kernel's sign is set, x if not (the runner says
//	           where the sign is; the choice does not branch)
//	d = x      a copy
//
// and a program of a kernel that may stop early has the step
//
//	exit if x = 0
//
// which leaves the kernel (to a label of the runner's) when x is zero, a
// branch on x: a variable-time kernel's. Nothing the steps after it write
// may be written before it.
//
// Spaces around "=", "+" and "−" are required, around "·" optional. Names
// are letters and digits. Steps run in order, left to right, line by line;
// d may be one of its operands. Leading and trailing blank lines are
// ignored.
package formula

import (
	"fmt"
	"strings"
)

// Op is a field operation of a step.
type Op int

const (
	Mul        Op = iota // X·Y
	Sqr                  // X·X (written x·x)
	Add                  // X + Y
	Sub                  // X − Y
	Half                 // X/2
	Neg                  // −X
	NegIf                // ±X: −X if the kernel's sign is set, else X
	Copy                 // X
	ExitIfZero           // exit if X = 0 (no Dst)
)

// Step is one assignment, Dst = X op Y (Y empty but for Mul, Add and Sub),
// or the exit test of X (Dst empty).
type Step struct {
	Dst, X, Y string
	Op        Op
}

// Line is one line of a program: its text (for a comment in the output)
// and its steps.
type Line struct {
	Text  string
	Steps []Step
}

// Parse reads prog. It returns an error naming the first step it cannot
// read.
func Parse(prog string) ([]Line, error) {
	var lines []Line
	for _, text := range strings.Split(strings.TrimSpace(prog), "\n") {
		text = strings.TrimSpace(text)
		l := Line{Text: text}
		for _, st := range strings.Split(text, ";") {
			s, err := parseStep(st)
			if err != nil {
				return nil, err
			}
			l.Steps = append(l.Steps, s)
		}
		lines = append(lines, l)
	}
	return lines, nil
}

// MustParse is Parse for the programs of this package and the generators,
// which are constants: an error is a bug, so it panics.
func MustParse(prog string) []Line {
	l, err := Parse(prog)
	if err != nil {
		panic(err)
	}
	return l
}

func parseStep(st string) (Step, error) {
	bad := func() (Step, error) { return Step{}, fmt.Errorf("formula: cannot read step %q", strings.TrimSpace(st)) }
	fs := strings.Fields(strings.ReplaceAll(st, "·", " · "))
	if len(fs) == 5 && fs[0] == "exit" && fs[1] == "if" && isName(fs[2]) && fs[3] == "=" && fs[4] == "0" {
		return Step{X: fs[2], Op: ExitIfZero}, nil
	}
	if len(fs) < 3 || fs[1] != "=" || !isName(fs[0]) {
		return bad()
	}
	d := fs[0]
	switch len(fs) {
	case 3: // d = x/2, d = −x, d = ±x, d = x
		e := fs[2]
		if x, ok := strings.CutSuffix(e, "/2"); ok && isName(x) {
			return Step{Dst: d, X: x, Op: Half}, nil
		}
		if x, ok := strings.CutPrefix(e, "−"); ok && isName(x) {
			return Step{Dst: d, X: x, Op: Neg}, nil
		}
		if x, ok := strings.CutPrefix(e, "±"); ok && isName(x) {
			return Step{Dst: d, X: x, Op: NegIf}, nil
		}
		if isName(e) && e != d {
			return Step{Dst: d, X: e, Op: Copy}, nil
		}
	case 5:
		x, op, y := fs[2], fs[3], fs[4]
		if !isName(x) || !isName(y) {
			return bad()
		}
		switch op {
		case "·":
			if x == y {
				return Step{Dst: d, X: x, Op: Sqr}, nil
			}
			return Step{Dst: d, X: x, Y: y, Op: Mul}, nil
		case "+":
			return Step{Dst: d, X: x, Y: y, Op: Add}, nil
		case "−":
			return Step{Dst: d, X: x, Y: y, Op: Sub}, nil
		}
	}
	return bad()
}

func isName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9') {
			return false
		}
	}
	return true
}

// Names returns every name the lines use, in order of first use.
func Names(lines []Line) []string {
	var names []string
	seen := map[string]bool{}
	add := func(n string) {
		if n != "" && !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	for _, l := range lines {
		for _, s := range l.Steps {
			add(s.X)
			add(s.Y)
			add(s.Dst)
		}
	}
	return names
}
