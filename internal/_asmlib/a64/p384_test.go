package a64

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/p256tls/p256tls/internal/_asmlib/formula"
)

// TestP384Registers checks the register contracts P384's doc comments
// state: how many registers each operation needs from regs (exactly: one
// fewer runs the pool out; Regs says the same), what it gives back, where
// the result is, and that no instruction writes x or the constants.
func TestP384Registers(t *testing.T) {
	all := Usable()
	x, y, c := all[:6], all[6:12], all[12:14]
	tests := []struct {
		name  string
		kind  formula.Op
		need  int  // registers from regs
		yIn   bool // y is an operand
		resY  bool // the result is in y's registers
		delta int  // regs.Len() after − before
		op    func(p *P384, regs *Pool) []GP
	}{
		{"Mul", formula.Mul, 10, true, false, 0, func(p *P384, r *Pool) []GP { return p.Mul(x, y, r) }},
		{"Square", formula.Sqr, 16, false, false, -6, func(p *P384, r *Pool) []GP { return p.Square(x, r) }},
		{"Mul(x, x)", formula.Sqr, 16, false, false, -6, func(p *P384, r *Pool) []GP { return p.Mul(x, x, r) }},
		{"Add", formula.Add, 7, true, true, 0, func(p *P384, r *Pool) []GP { return p.Add(x, y, r) }},
		{"Sub", formula.Sub, 4, true, true, 0, func(p *P384, r *Pool) []GP { return p.Sub(x, y, r) }},
		{"Half", formula.Half, 11, false, false, -6, func(p *P384, r *Pool) []GP { return p.Half(x, r) }},
		{"Neg", formula.Neg, 10, false, false, -6, func(p *P384, r *Pool) []GP { return p.Neg(x, r) }},
	}
	for _, tt := range tests {
		if r := (&P384{}).Regs(tt.kind); r != tt.need {
			t.Errorf("%s: Regs = %d, documented %d", tt.name, r, tt.need)
		}
		rest := all[14:]
		if !tt.yIn {
			rest = append(append([]GP{}, y...), rest...)
		}
		run := func(n int) (fn *Func, res []GP, regs *Pool, err error) {
			defer func() {
				if r := recover(); r != nil {
					err = fmt.Errorf("%v", r)
				}
			}()
			fn = NewFile("p").Func("k", "func()", "k")
			regs = NewPool(rest[:n]...)
			res = tt.op(&P384{fn: fn, p0: c[0], one: c[1]}, regs)
			return fn, res, regs, nil
		}
		if _, _, _, err := run(tt.need - 1); err == nil {
			t.Errorf("%s runs with %d registers from regs, documented %d", tt.name, tt.need-1, tt.need)
		}
		fn, res, regs, err := run(tt.need)
		if err != nil {
			t.Errorf("%s with %d registers from regs: %v", tt.name, tt.need, err)
			continue
		}
		if got := regs.Len() - tt.need; got != tt.delta {
			t.Errorf("%s: regs.Len() changed by %d, want %d", tt.name, got, tt.delta)
		}
		if len(res) != 6 {
			t.Fatalf("%s: %d result registers", tt.name, len(res))
		}
		for _, r := range res {
			if slices.Contains(x, r) || slices.Contains(c, r) || slices.Contains(regs.free, r) {
				t.Errorf("%s: result register %v is x's, a constant's or free", tt.name, r)
			}
			if tt.yIn && tt.resY != slices.Contains(y, r) {
				t.Errorf("%s: result register %v in y: %v", tt.name, r, !tt.resY)
			}
		}
		// The destination is an instruction's last operand.
		kept := append(append([]GP{}, x...), c...)
		for _, l := range fn.lines {
			f := strings.Split(strings.TrimSpace(l), ", ")
			if strings.HasPrefix(f[0], "//") || len(f) < 2 {
				continue
			}
			for _, r := range kept {
				if f[len(f)-1] == r.String() {
					t.Errorf("%s writes %v: %s", tt.name, r, strings.TrimSpace(l))
				}
			}
		}
	}
}

// TestP384Overlap checks that operands sharing some registers but not all
// are refused.
func TestP384Overlap(t *testing.T) {
	all := Usable()
	x := all[:6]
	y := append(append([]GP{}, all[6:9]...), x[3:]...)
	defer func() {
		if recover() == nil {
			t.Error("Add of overlapping operands did not panic")
		}
	}()
	fn := NewFile("p").Func("k", "func()", "k")
	(&P384{fn: fn, p0: all[12], one: all[13]}).Add(x, y, NewPool(all[14:]...))
}
