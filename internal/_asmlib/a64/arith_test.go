package a64

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// TestArith runs the field operations of P384 and P256 as arm64 kernels
// against math/big, in a throwaway module: this file writes the kernels
// (arithKernels) and a test of them (arithTest) into a temporary
// directory and runs that test for GOARCH=arm64, under
// qemu-aarch64-static where the host is not arm64 (skipped where there is
// none). The field packages test the products through their own kernels;
// this covers what only fused kernels will use (P384's Add and Sub,
// P256's Add and Sub), the register contracts of Mul and Square (x is
// still in its registers afterwards) and the constants surviving a chain
// of operations in one kernel.
func TestArith(t *testing.T) {
	var runner []string
	if runtime.GOARCH != "arm64" {
		q, err := exec.LookPath("qemu-aarch64-static")
		if err != nil {
			t.Skip("not an arm64 host, and no qemu-aarch64-static")
		}
		runner = []string{"-exec", q}
	}
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module arith\n\ngo 1.26\n")
	write("arith_test.go", arithTest)
	f := arithKernels()
	if err := f.Write(filepath.Join(dir, "arith_arm64.s"), filepath.Join(dir, "arith_arm64_stubs.go"), "a64 TestArith"); err != nil {
		t.Fatal(err)
	}
	args := append([]string{"test", "-count=1"}, runner...)
	if testing.Short() {
		args = append(args, "-short")
	}
	cmd := exec.Command("go", append(args, ".")...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOARCH=arm64", "GOWORK=off", "GOFLAGS=-buildvcs=false")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go test of the arm64 kernels: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}

// arithKernels returns the kernels arithTest calls. Each loads its
// operands, runs one operation (or, p384Chain, four sharing one P384) and
// stores the result to z; xo and yo receive the operands' registers
// afterwards, for the operations that keep them.
func arithKernels() *File {
	f := NewFile("arith")
	type op int
	const (
		mul op = iota
		square
		add
		sub
		chain
		mulSame // Mul(x, x)
		addSame // Add(x, x)
	)
	// load takes a pointer register, loads n limbs of the argument name,
	// and gives the pointer back.
	load := func(fn *Func, regs *Pool, name string, n int) []GP {
		ptr := regs.Get()
		fn.Load(name, ptr)
		v := regs.GetN(n)
		fn.LoadN(v, ptr, 0)
		regs.Put(ptr)
		return v
	}
	store := func(fn *Func, regs *Pool, v []GP, name string) {
		ptr := regs.Get()
		fn.Load(name, ptr)
		fn.StoreN(v, ptr, 0)
		regs.Put(ptr)
	}
	p384 := func(name string, o op) {
		unary := o == square || o == mulSame || o == addSame
		sig := "func(z, x, y, xo *[6]uint64)"
		if unary {
			sig = "func(z, x, xo *[6]uint64)"
		}
		fn := f.Func(name, sig, name+" is a test kernel of a64's P384.")
		regs := NewPool(Usable()...)
		x := load(fn, regs, "x", 6)
		var y []GP
		if !unary {
			y = load(fn, regs, "y", 6)
		}
		p := NewP384(fn, regs)
		var z []GP
		switch o {
		case mul:
			z = p.Mul(x, y, regs)
		case square:
			z = p.Square(x, regs)
		case add:
			z = p.Add(x, y, regs)
		case sub:
			z = p.Sub(x, y, regs)
		case mulSame:
			z = p.Mul(x, x, regs)
		case addSame:
			z = p.Add(x, x, regs)
			x = load(fn, regs, "x", 6) // overwritten
		case chain:
			// z = x + ((x·y·R⁻¹ − y)²·R⁻¹), x and y reloaded when
			// needed again (Square needs the registers).
			a := p.Mul(x, y, regs)
			regs.Put(x...)
			b := p.Sub(a, load(fn, regs, "y", 6), regs)
			regs.Put(a...)
			c := p.Square(b, regs)
			regs.Put(b...)
			x = load(fn, regs, "x", 6)
			z = p.Add(x, c, regs)
		}
		store(fn, regs, z, "z")
		store(fn, regs, x, "xo")
		fn.RET()
	}
	p384("p384Mul", mul)
	p384("p384Square", square)
	p384("p384Add", add)
	p384("p384Sub", sub)
	p384("p384Chain", chain)
	p384("p384MulSame", mulSame)
	p384("p384AddSame", addSame)
	p256 := func(name string, o op) {
		fn := f.Func(name, "func(z, x, y, xo, yo *[4]uint64)", name+" is a test kernel of a64's P256.")
		regs := NewPool(Usable()...)
		x := load(fn, regs, "x", 4)
		y := load(fn, regs, "y", 4)
		p := NewP256(fn, regs)
		var z []GP
		if o == add {
			z = p.Add(x, y, regs)
		} else {
			z = p.Sub(x, y, regs)
		}
		store(fn, regs, z, "z")
		store(fn, regs, x, "xo")
		store(fn, regs, y, "yo")
		fn.RET()
	}
	p256("p256Add", add)
	p256("p256Sub", sub)
	return f
}

// arithTest is the test of arithKernels, in the throwaway module.
const arithTest = `package arith

import (
	"math/big"
	"math/rand/v2"
	"testing"
)

var (
	p384, _ = new(big.Int).SetString("fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000ffffffff", 16)
	p256, _ = new(big.Int).SetString("ffffffff00000001000000000000000000000000ffffffffffffffffffffffff", 16)
	rInv384 = new(big.Int).ModInverse(new(big.Int).Lsh(big.NewInt(1), 384), p384)
)

func toBig(v []uint64) *big.Int {
	n := new(big.Int)
	for i := len(v) - 1; i >= 0; i-- {
		n.Lsh(n, 64).Or(n, new(big.Int).SetUint64(v[i]))
	}
	return n
}

func limbs(n *big.Int, v []uint64) {
	m := new(big.Int).Set(n)
	for i := range v {
		v[i] = new(big.Int).And(m, new(big.Int).SetUint64(^uint64(0))).Uint64()
		m.Rsh(m, 64)
	}
}

// values returns edge values below p (small, just below p, near the limb
// boundaries and the halves, every limb all ones or zero where that is
// below p) and n random ones.
func values(p *big.Int, nl, n int) []*big.Int {
	var out []*big.Int
	add := func(v *big.Int) {
		if v.Sign() >= 0 && v.Cmp(p) < 0 {
			out = append(out, v)
		}
	}
	one := big.NewInt(1)
	for k := int64(0); k < 4; k++ {
		add(big.NewInt(k))
		add(new(big.Int).Sub(p, big.NewInt(k+1)))
	}
	half := new(big.Int).Rsh(p, 1)
	add(half)
	add(new(big.Int).Add(half, one))
	for k := 1; k < nl; k++ {
		w := new(big.Int).Lsh(one, uint(64*k))
		add(w)
		add(new(big.Int).Sub(w, one))
		add(new(big.Int).Sub(p, w))
	}
	for mask := 0; mask < 1<<nl; mask++ {
		v := make([]uint64, nl)
		for i := range v {
			if mask>>i&1 == 1 {
				v[i] = ^uint64(0)
			}
		}
		add(toBig(v))
	}
	r := rand.New(rand.NewChaCha8([32]byte{'a', '6', '4'}))
	for len(out) < n {
		v := make([]uint64, nl)
		for i := range v {
			v[i] = r.Uint64()
		}
		add(toBig(v))
	}
	return out
}

func check(t *testing.T, what string, x, y *big.Int, got []uint64, want *big.Int) {
	t.Helper()
	if toBig(got).Cmp(want) != 0 {
		t.Fatalf("%s(%x, %x) = %x, want %x", what, x, y, toBig(got), want)
	}
}

// n is the number of values: every pair is checked.
func n() int {
	if testing.Short() {
		return 80
	}
	return 200
}

func TestP384(t *testing.T) {
	vs := values(p384, 6, n())
	t.Logf("%d values", len(vs))
	for _, xb := range vs {
		for _, yb := range vs {
			var x, y, z, xo [6]uint64
			limbs(xb, x[:])
			limbs(yb, y[:])
			mont := func(a, b *big.Int) *big.Int {
				n := new(big.Int).Mul(a, b)
				return n.Mul(n, rInv384).Mod(n, p384)
			}
			keep := func(what string) {
				t.Helper()
				if xo != x {
					t.Fatalf("%s(%x, %x) changed x to %x", what, xb, yb, toBig(xo[:]))
				}
			}
			p384Mul(&z, &x, &y, &xo)
			check(t, "p384Mul", xb, yb, z[:], mont(xb, yb))
			keep("p384Mul")
			p384Add(&z, &x, &y, &xo)
			check(t, "p384Add", xb, yb, z[:], new(big.Int).Mod(new(big.Int).Add(xb, yb), p384))
			keep("p384Add")
			p384Sub(&z, &x, &y, &xo)
			check(t, "p384Sub", xb, yb, z[:], new(big.Int).Mod(new(big.Int).Sub(xb, yb), p384))
			keep("p384Sub")
			d := new(big.Int).Mod(new(big.Int).Sub(mont(xb, yb), yb), p384)
			p384Chain(&z, &x, &y, &xo)
			check(t, "p384Chain", xb, yb, z[:], new(big.Int).Mod(new(big.Int).Add(xb, mont(d, d)), p384))
		}
		var x, z, xo [6]uint64
		limbs(xb, x[:])
		n := new(big.Int).Mul(xb, xb)
		n.Mul(n, rInv384).Mod(n, p384)
		p384Square(&z, &x, &xo)
		check(t, "p384Square", xb, xb, z[:], n)
		if xo != x {
			t.Fatalf("p384Square(%x) changed x to %x", xb, toBig(xo[:]))
		}
		p384MulSame(&z, &x, &xo)
		check(t, "p384MulSame", xb, xb, z[:], n)
		if xo != x {
			t.Fatalf("p384MulSame(%x) changed x to %x", xb, toBig(xo[:]))
		}
		p384AddSame(&z, &x, &xo)
		check(t, "p384AddSame", xb, xb, z[:], new(big.Int).Mod(new(big.Int).Add(xb, xb), p384))
	}
}

func TestP256(t *testing.T) {
	vs := values(p256, 4, n())
	for _, xb := range vs {
		for _, yb := range vs {
			var x, y, z, xo, yo [4]uint64
			limbs(xb, x[:])
			limbs(yb, y[:])
			p256Add(&z, &x, &y, &xo, &yo)
			check(t, "p256Add", xb, yb, z[:], new(big.Int).Mod(new(big.Int).Add(xb, yb), p256))
			if xo != x || yo != y {
				t.Fatalf("p256Add(%x, %x) changed its operands", xb, yb)
			}
			p256Sub(&z, &x, &y, &xo, &yo)
			check(t, "p256Sub", xb, yb, z[:], new(big.Int).Mod(new(big.Int).Sub(xb, yb), p256))
			if xo != x || yo != y {
				t.Fatalf("p256Sub(%x, %x) changed its operands", xb, yb)
			}
		}
	}
}
`
