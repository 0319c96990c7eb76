package a64

import (
	"fmt"

	"github.com/p256tls/p256tls/internal/_asmlib/formula"
)

// Field is a curve's field arithmetic in registers (P256, P384): each
// operation takes elements below p in registers, leaves them unchanged and
// returns the result, fully reduced, in registers from regs, giving back
// every other register it took.
type Field interface {
	Limbs() int
	Mul(x, y []GP, regs *Pool) []GP
	Square(x []GP, regs *Pool) []GP
	Add(x, y []GP, regs *Pool) []GP
	Sub(x, y []GP, regs *Pool) []GP
	Half(x []GP, regs *Pool) []GP
	Neg(x []GP, regs *Pool) []GP
}

// Elem is where a named element of a formula lives: f.Limbs() words at
// Off(Base), Base a pointer argument or RSP (a local).
type Elem struct {
	Base GP
	Off  int
}

// Formula runs programs of internal/_asmlib/formula over a field, with
// every named element in memory. Each step loads its operands, computes,
// and stores its result; the result of a step stays in registers for the
// next step that reads it, so a chain of steps on one value loads it once.
type Formula struct {
	fn   *Func
	f    Field
	regs *Pool
	vars map[string]Elem
	// The element last written, still in registers.
	held     string
	heldRegs []GP
}

// NewFormula returns a runner over f whose elements live at vars, taking
// registers from regs.
func NewFormula(fn *Func, f Field, regs *Pool, vars map[string]Elem) *Formula {
	return &Formula{fn: fn, f: f, regs: regs, vars: vars}
}

// Run emits the steps of prog, each line first as a comment.
func (r *Formula) Run(prog string) {
	for _, l := range formula.MustParse(prog) {
		r.fn.Comment("%s", l.Text)
		for _, s := range l.Steps {
			r.step(s)
		}
	}
}

// Flush drops the held element (its value is already in memory), so that
// code around the formula may use every register of the pool or change
// memory the held element came from.
func (r *Formula) Flush() {
	if r.held != "" {
		r.regs.Put(r.heldRegs...)
		r.held, r.heldRegs = "", nil
	}
}

func (r *Formula) elem(name string) Elem {
	e, ok := r.vars[name]
	if !ok {
		panic(fmt.Sprintf("a64: formula: no element %q", name))
	}
	return e
}

// load returns name's value in registers, and whether they are the held
// ones (then the caller must not give them back).
func (r *Formula) load(name string) ([]GP, bool) {
	if name == r.held {
		return r.heldRegs, true
	}
	e := r.elem(name)
	rs := r.regs.GetN(r.f.Limbs())
	r.fn.LoadN(rs, e.Base, e.Off)
	return rs, false
}

// Load returns name's value in new registers from the pool, for code
// around the formula; the caller gives them back.
func (r *Formula) Load(name string) []GP {
	r.Flush()
	rs, _ := r.load(name)
	return rs
}

// Store writes v to name's element, for code around the formula.
func (r *Formula) Store(v []GP, name string) {
	r.Flush()
	e := r.elem(name)
	r.fn.StoreN(v, e.Base, e.Off)
}

func (r *Formula) step(s formula.Step) {
	if r.held != s.X && r.held != s.Y {
		r.Flush() // its registers are worth more to the operation
	}
	x, xHeld := r.load(s.X)
	var y []GP
	yHeld := false
	if s.Y != "" {
		if s.Y == s.X {
			y, yHeld = x, true
		} else {
			y, yHeld = r.load(s.Y)
		}
	}
	var d []GP
	switch s.Op {
	case formula.Mul:
		d = r.f.Mul(x, y, r.regs)
	case formula.Sqr:
		d = r.f.Square(x, r.regs)
	case formula.Add:
		d = r.f.Add(x, y, r.regs)
	case formula.Sub:
		d = r.f.Sub(x, y, r.regs)
	case formula.Half:
		d = r.f.Half(x, r.regs)
	case formula.Neg:
		d = r.f.Neg(x, r.regs)
	}
	if !xHeld {
		r.regs.Put(x...)
	}
	if y != nil && !yHeld {
		r.regs.Put(y...)
	}
	r.Flush()
	e := r.elem(s.Dst)
	r.fn.StoreN(d, e.Base, e.Off)
	r.held, r.heldRegs = s.Dst, d
}
