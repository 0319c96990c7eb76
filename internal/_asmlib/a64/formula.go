package a64

import (
	"fmt"

	"github.com/p256tls/p256tls/internal/_asmlib/formula"
)

// Field is a curve's field arithmetic in registers (P256, P384): each
// operation takes elements below p in registers and returns the result,
// fully reduced, in registers from regs, giving back every other register
// it took. It leaves its operands unchanged, but for the second operand y
// of an operation that consumes it (Consumes): y's registers are then the
// operation's (its result's, or back in regs).
type Field interface {
	Limbs() int
	Mul(x, y []GP, regs *Pool) []GP
	Square(x []GP, regs *Pool) []GP
	Add(x, y []GP, regs *Pool) []GP
	Sub(x, y []GP, regs *Pool) []GP
	Half(x []GP, regs *Pool) []GP
	Neg(x []GP, regs *Pool) []GP
	// Regs returns the most registers the operation op (Mul, Sqr, Add,
	// Sub, Half or Neg) holds from regs at once, its result's included:
	// it runs with that many free registers beside its operands.
	Regs(op formula.Op) int
	// Consumes reports whether op (Mul, Add or Sub) consumes its second
	// operand (if it is the first too, the first).
	Consumes(op formula.Op) bool
}

// Elem is where a named element of a formula lives: f.Limbs() words at
// Off(Base), Base a pointer argument or RSP (a local).
type Elem struct {
	Base GP
	Off  int
}

// Formula runs programs of internal/_asmlib/formula over a field, with the
// named elements in memory (vars) and, in between, in registers: a value
// stays in registers from the step that computes or loads it until a step
// needs its registers, and goes to memory only when it must, that is when
// it is evicted while a later step still reads it, or when it is the last
// value of an element that is not in Temps. The element evicted is the one
// read again last (Belady's choice, the program being known in full), so
// each step loads only what no register holds; values dead after a step
// free their registers at once, and a temporary's last value is never
// stored.
//
// Run runs one program and leaves every element but the temporaries with
// its last value in memory, and every register back in the pool; Load and
// Store serve the code around it.
type Formula struct {
	fn   *Func
	f    Field
	regs *Pool
	vars map[string]Elem

	// Sign is the kernel's sign for the ±x steps, a 64-bit word in memory
	// (an argument, fn.Arg("neg")): −x where it is nonzero.
	Sign Operand
	// Exit is the label an "exit if x = 0" step jumps to.
	Exit string
	// Temps are the elements whose values matter only inside the program
	// (a kernel's frame scratch): their last values need not reach memory.
	Temps map[string]bool

	steps []formula.Step
	in    map[string]*value // the elements in registers
}

// value is an element's value in registers; dirty when memory does not
// have it yet.
type value struct {
	regs  []GP
	dirty bool
}

// NewFormula returns a runner over f whose elements live at vars, taking
// registers from regs.
func NewFormula(fn *Func, f Field, regs *Pool, vars map[string]Elem) *Formula {
	return &Formula{fn: fn, f: f, regs: regs, vars: vars}
}

// Run emits the steps of prog, each line first as a comment, storing the
// last value of every element but the temporaries. It panics (a generator
// bug) on a name without an element, a step before an exit test that
// writes an element not in Temps, a ±x step without Sign, an exit test
// without Exit, or a pool too small for a step.
func (r *Formula) Run(prog string) {
	lines := formula.MustParse(prog)
	r.steps = nil
	for _, l := range lines {
		r.steps = append(r.steps, l.Steps...)
	}
	r.in = map[string]*value{}
	r.check()
	i := 0
	for _, l := range lines {
		r.fn.Comment("%s", l.Text)
		for range l.Steps {
			r.step(i)
			r.release(i)
			i++
		}
	}
	// Nothing reads after the last step: release has dropped (and stored)
	// every value.
	r.in = nil
}

// check panics on the generator bugs Run names.
func (r *Formula) check() {
	lastExit := -1
	for i, s := range r.steps {
		for _, n := range []string{s.Dst, s.X, s.Y} {
			if n != "" {
				r.elem(n)
			}
		}
		switch {
		case s.Op == formula.ExitIfZero && r.Exit == "":
			panic("a64: formula: exit test without Exit")
		case s.Op == formula.NegIf && r.Sign == "":
			panic("a64: formula: ±x without Sign")
		case s.Op == formula.ExitIfZero:
			lastExit = i
		}
	}
	for _, s := range r.steps[:lastExit+1] {
		if s.Dst != "" && r.output(s.Dst) {
			panic("a64: formula: " + s.Dst + " written before an exit test")
		}
	}
}

func (r *Formula) elem(name string) Elem {
	e, ok := r.vars[name]
	if !ok {
		panic(fmt.Sprintf("a64: formula: no element %q", name))
	}
	return e
}

// output reports whether name's last value must reach memory: it is not a
// temporary.
func (r *Formula) output(name string) bool {
	r.elem(name)
	return !r.Temps[name]
}

// Load returns name's value, from memory, in new registers from the pool,
// for code before or after Run; the caller gives them back.
func (r *Formula) Load(name string) []GP {
	e := r.elem(name)
	rs := r.regs.GetN(r.f.Limbs())
	r.fn.LoadN(rs, e.Base, e.Off)
	return rs
}

// Store writes v to name's element, for code before or after Run.
func (r *Formula) Store(v []GP, name string) {
	e := r.elem(name)
	r.fn.StoreN(v, e.Base, e.Off)
}

// nextRead returns the index of the first step after i that reads the
// value name has after step i, or len(steps) if none does (a step writes
// name first, or none reads it).
func (r *Formula) nextRead(name string, i int) int {
	for j := i + 1; j < len(r.steps); j++ {
		s := r.steps[j]
		if s.X == name || s.Y == name {
			return j
		}
		if s.Dst == name {
			break
		}
	}
	return len(r.steps)
}

// overwritten reports whether a step after i writes name.
func (r *Formula) overwritten(name string, i int) bool {
	for j := i + 1; j < len(r.steps); j++ {
		if r.steps[j].Dst == name {
			return true
		}
	}
	return false
}

// mustStore reports whether name's value in registers, after step i, has
// to reach memory before its registers go: a later step reads it, or it is
// an output's last value.
func (r *Formula) mustStore(name string, i int) bool {
	return r.nextRead(name, i) < len(r.steps) || r.output(name) && !r.overwritten(name, i)
}

// drop gives name's registers back, storing its value first if step i
// leaves it needed in memory.
func (r *Formula) drop(name string, i int) {
	v := r.in[name]
	if v.dirty && r.mustStore(name, i) {
		e := r.elem(name)
		r.fn.StoreN(v.regs, e.Base, e.Off)
	}
	r.regs.Put(v.regs...)
	delete(r.in, name)
}

// release drops, after step i, every value no later step reads.
func (r *Formula) release(i int) {
	for _, name := range r.held() {
		if r.nextRead(name, i) == len(r.steps) {
			r.drop(name, i)
		}
	}
}

// held returns the names in registers, in the order of their elements
// (for output that does not depend on map order).
func (r *Formula) held() []string {
	var names []string
	seen := map[string]bool{}
	for _, s := range r.steps {
		for _, n := range []string{s.Dst, s.X, s.Y} {
			if n != "" && !seen[n] && r.in[n] != nil {
				seen[n] = true
				names = append(names, n)
			}
		}
	}
	return names
}

// room evicts values until n registers are free, before step i: the value
// read again last goes first. Step i's operands x and y are never evicted
// (the pool is then too small, and room panics), though, read next, they
// would be the last choice anyway.
func (r *Formula) room(n, i int, x, y string) {
	for r.regs.Len() < n {
		victim, far := "", -1
		for _, name := range r.held() {
			if name == x || name == y {
				continue
			}
			// Step i itself does not read a victim, so i−1 finds its
			// next read from step i on.
			if d := r.nextRead(name, i-1); d > far {
				victim, far = name, d
			}
		}
		if victim == "" {
			panic(fmt.Sprintf("a64: formula: step %d needs %d registers, the pool has %d", i, n, r.regs.Len()))
		}
		r.drop(victim, i-1)
	}
}

// use returns name's value in registers before step i, loading it if no
// register holds it, and never evicting step i's operands x and y.
func (r *Formula) use(name string, i int, x, y string) []GP {
	if v := r.in[name]; v != nil {
		return v.regs
	}
	r.room(r.f.Limbs(), i, x, y)
	rs := r.Load(name)
	r.in[name] = &value{regs: rs}
	return rs
}

// set makes d the value of name, computed by step i.
func (r *Formula) set(name string, d []GP) {
	if old := r.in[name]; old != nil {
		r.regs.Put(old.regs...)
	}
	r.in[name] = &value{regs: d, dirty: true}
}

// need returns the registers step s holds at once beside its operands.
func (r *Formula) need(s formula.Step) int {
	switch s.Op {
	case formula.NegIf:
		return r.f.Regs(formula.Neg) + 1 // and the sign
	case formula.ExitIfZero:
		return 1
	case formula.Copy:
		return 0
	}
	return r.f.Regs(s.Op)
}

// kept reports whether the value name has before step i is needed after
// it: step i does not write name, and a later step reads it or it is an
// output's last value.
func (r *Formula) kept(name string, i int) bool {
	return name != r.steps[i].Dst && r.mustStore(name, i)
}

func (r *Formula) step(i int) {
	s := r.steps[i]
	consumes := s.Y != "" && r.f.Consumes(s.Op)
	if consumes && s.X != s.Y && (s.Op == formula.Mul || s.Op == formula.Add) {
		// The operand consumed is the one cheaper to lose: not needed
		// after the step, else already in memory.
		cost := func(n string) int {
			switch {
			case !r.kept(n, i):
				return 0
			case r.in[n] == nil || !r.in[n].dirty:
				return 1 // a load later
			}
			return 2 // a store now and a load later
		}
		if cost(s.X) < cost(s.Y) {
			s.X, s.Y = s.Y, s.X
		}
	}
	x := r.use(s.X, i, s.X, s.Y)
	var y []GP
	if s.Y != "" {
		y = r.use(s.Y, i, s.X, s.Y)
	}
	r.room(r.need(s), i, s.X, s.Y)
	if consumes {
		// y's registers go to the operation: its value, if still needed,
		// waits in memory.
		if r.in[s.Y].dirty && r.kept(s.Y, i) {
			e := r.elem(s.Y)
			r.fn.StoreN(y, e.Base, e.Off)
		}
		delete(r.in, s.Y)
	}
	fn, f, regs := r.fn, r.f, r.regs
	switch s.Op {
	case formula.Mul:
		r.set(s.Dst, f.Mul(x, y, regs))
	case formula.Sqr:
		r.set(s.Dst, f.Square(x, regs))
	case formula.Add:
		r.set(s.Dst, f.Add(x, y, regs))
	case formula.Sub:
		r.set(s.Dst, f.Sub(x, y, regs))
	case formula.Half:
		r.set(s.Dst, f.Half(x, regs))
	case formula.Neg:
		r.set(s.Dst, f.Neg(x, regs))
	case formula.NegIf:
		// d = −x, then x back where the sign is zero.
		d := f.Neg(x, regs)
		t := regs.Get()
		fn.Ldr(t, r.Sign)
		fn.CMP(t, 0)
		for k := range d {
			fn.CSEL(EQ, d[k], x[k], d[k])
		}
		regs.Put(t)
		r.set(s.Dst, d)
	case formula.Copy:
		// The copy goes straight to memory; a later read loads it.
		if r.in[s.Dst] != nil {
			r.regs.Put(r.in[s.Dst].regs...)
			delete(r.in, s.Dst)
		}
		e := r.elem(s.Dst)
		fn.StoreN(x, e.Base, e.Off)
	case formula.ExitIfZero:
		t := regs.Get()
		fn.ORR(t, x[0], x[1])
		for _, l := range x[2:] {
			fn.ORR(t, t, l)
		}
		fn.CBZ(t, r.Exit)
		regs.Put(t)
	}
}
