// Command arm64 generates the arm64 Montgomery multiplication and squaring
// kernels of package field with internal/_asmlib/a64. Run it through go
// generate in the package directory, which does
//
//	go run -C _asm ./arm64 -out ../field_arm64.s -stubs ../field_arm64_stubs.go -pkg field
//
// The arithmetic (the products, the multiplication-free reduction, the
// conditional subtraction) is a64's P256, shared with the fused point
// kernels; this program only loads the operands and stores the result.
package main

import (
	"github.com/p256tls/p256tls/internal/_asmlib/a64"
)

func main() {
	a64.Main(func(f *a64.File) {
		genMul(f)
		genSquare(f)
	})
}

// The kernels' registers: the pointers in R0–R2, the rest in the pool.
func pool() *a64.Pool { return a64.NewPool(a64.Usable()[3:]...) }

func genMul(f *a64.File) {
	fn := f.Func("mulAsm", "func(z, x, y *[4]uint64)",
		"mulAsm sets z = x·y·2^-256 mod p, for x, y < p (z < p). Constant time;\nz may alias x or y.")
	regs := pool()
	zp, xp, yp := a64.GP(0), a64.GP(1), a64.GP(2)
	fn.Load("x", xp)
	fn.Load("y", yp)
	x, y := regs.GetN(4), regs.GetN(4)
	fn.LoadN(x, xp, 0)
	fn.LoadN(y, yp, 0)
	p := a64.NewP256(fn, regs)
	z := p.Mul(x, y, regs)
	fn.Load("z", zp)
	fn.StoreN(z, zp, 0)
	fn.RET()
}

func genSquare(f *a64.File) {
	fn := f.Func("squareAsm", "func(z, x *[4]uint64)",
		"squareAsm sets z = x·x·2^-256 mod p, for x < p (z < p). Constant time;\nz may alias x.")
	regs := pool()
	zp, xp := a64.GP(0), a64.GP(1)
	fn.Load("x", xp)
	x := regs.GetN(4)
	fn.LoadN(x, xp, 0)
	p := a64.NewP256(fn, regs)
	z := p.Square(x, regs)
	fn.Load("z", zp)
	fn.StoreN(z, zp, 0)
	fn.RET()
}
