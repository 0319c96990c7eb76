// Command arm64 generates the arm64 Montgomery multiplication and squaring
// kernels of package internal/p384/field with internal/_asmlib/a64. Run it
// through go generate in the package directory, which does
//
//	go run -C _asm ./arm64 -out ../field_arm64.s -stubs ../field_arm64_stubs.go -pkg field
//
// The arithmetic (the products, the multiplication-free reduction, the
// conditional subtraction) is a64's P384, shared with fused point kernels;
// this program only loads the operands and stores the result.
//
// Measured without an arm64 machine: the kernel's instructions up to its
// RET in the arm64 test binary (aarch64-linux-gnu-objdump -d), its
// multiplies, and llvm-mca-14 -mtriple=aarch64 -iterations=200 cycles per
// call for -mcpu=neoverse-n1, neoverse-v1 and apple-m1 (LLVM 14 models
// both Neoverse cores as Cortex-A57: three-wide, two integer pipes and one
// for multiplies and shifted operands, which bound these kernels; M1 as
// Cyclone), with crypto/ecdsa's P-384 field (fiat, Go) beside them:
//
//	mulAsm     251 insns, 72 MUL/UMULH:  89.2 / 89.2 / 80.1 cycles
//	squareAsm  200 insns, 42 MUL/UMULH:  72.2 / 72.2 / 73.2 cycles
//	crypto/internal/fips140/nistec/fiat.p384Mul     504, 96:  188.1 / 188.1 / 183.1
//	crypto/internal/fips140/nistec/fiat.p384Square  427, 66:  144.2 / 144.2 / 135.2
//
// Per operation under QEMU (/work/shared/tools/armcount, ARMCOUNT_N1=10000
// ARMCOUNT_N2=210000, '^BenchmarkMul$/^dispatch$' and Square): Element.Mul
// 268 instructions against 592 for the Go twin (-tags purego), Square 215
// against 428, the same 72 and 42 multiplies.
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
