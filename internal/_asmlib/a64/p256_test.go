package a64

import (
	"testing"

	"github.com/p256tls/p256tls/internal/_asmlib/formula"
)

// TestRegs runs each P256 operation with exactly Regs(op) free registers
// beside its operands, which must be enough, and with one fewer, which
// must not (the pool panics).
func TestRegs(t *testing.T) {
	ops := map[formula.Op]string{
		formula.Mul: "Mul", formula.Sqr: "Sqr", formula.Add: "Add",
		formula.Sub: "Sub", formula.Half: "Half", formula.Neg: "Neg",
	}
	for op, name := range ops {
		for _, n := range []int{-1, 0} {
			all := NewPool(Usable()...)
			fn := NewFile("x").Func("f", "func()", "")
			f := NewP256(fn, all)
			x, y := all.GetN(4), all.GetN(4)
			regs := NewPool(all.GetN(f.Regs(op) + n)...)
			panicked := func() (p bool) {
				defer func() { p = recover() != nil }()
				switch op {
				case formula.Mul:
					f.Mul(x, y, regs)
				case formula.Sqr:
					f.Square(x, regs)
				case formula.Add:
					f.Add(x, y, regs)
				case formula.Sub:
					f.Sub(x, y, regs)
				case formula.Half:
					f.Half(x, regs)
				case formula.Neg:
					f.Neg(x, regs)
				}
				return false
			}()
			if panicked != (n < 0) {
				t.Errorf("%s with Regs%+d registers: panicked = %v", name, n, panicked)
			}
		}
	}
}
