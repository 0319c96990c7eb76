// Command arm64 generates the arm64 Montgomery multiplication and squaring
// kernels of package internal/p384/field with internal/_asmlib/a64. Run it
// through go generate in the package directory, which does
//
//	go run -C _asm ./arm64 -out ../field_arm64.s -stubs ../field_arm64_stubs.go -pkg field
//
// The arithmetic (the products, the multiplication-free reduction, the
// conditional subtraction) is a64's P384, shared with fused point kernels;
// this program only loads the operands and stores the result.
package main

import "github.com/p256tls/p256tls/internal/_asmlib/a64"

func main() {
	a64.Main(func(f *a64.File) {
		genMul(f)
		genSquare(f)
	})
}

// The pointers take registers from the pool only while they are used: x's
// and y's until their limbs are loaded, z's for the store.

func genMul(f *a64.File) {
	fn := f.Func("mulAsm", "func(z, x, y *[6]uint64)",
		"mulAsm sets z = x·y·2^-384 mod p, for x, y < p (z < p). Constant time;\nz may alias x or y.")
	regs := a64.NewPool(a64.Usable()...)
	xp, yp := regs.Get(), regs.Get()
	fn.Load("x", xp)
	fn.Load("y", yp)
	x, y := regs.GetN(6), regs.GetN(6)
	fn.LoadN(x, xp, 0)
	fn.LoadN(y, yp, 0)
	regs.Put(xp, yp)
	p := a64.NewP384(fn, regs)
	store(fn, p.Mul(x, y, regs), regs)
}

func genSquare(f *a64.File) {
	fn := f.Func("squareAsm", "func(z, x *[6]uint64)",
		"squareAsm sets z = x·x·2^-384 mod p, for x < p (z < p). Constant time;\nz may alias x.")
	regs := a64.NewPool(a64.Usable()...)
	xp := regs.Get()
	fn.Load("x", xp)
	x := regs.GetN(6)
	fn.LoadN(x, xp, 0)
	regs.Put(xp)
	p := a64.NewP384(fn, regs)
	store(fn, p.Square(x, regs), regs)
}

// store writes the result to z and returns.
func store(fn *a64.Func, z []a64.GP, regs *a64.Pool) {
	zp := regs.Get()
	fn.Load("z", zp)
	fn.StoreN(z, zp, 0)
	fn.RET()
}
