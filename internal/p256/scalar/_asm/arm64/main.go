// Command arm64 generates the arm64 Montgomery multiplication kernel of
// package scalar with internal/_asmlib/a64. Run it through go generate in
// the package directory, which does
//
//	go run -C _asm ./arm64 -out ../scalar_arm64.s -stubs ../scalar_arm64_stubs.go -pkg scalar
//
// The arithmetic is a64's Mont (word-by-word Montgomery multiplication
// for a general modulus) over the group order scalar.N; this program only
// loads the operands and stores the result.
package main

import (
	"github.com/p256tls/p256tls/internal/_asmlib/a64"
	"github.com/p256tls/p256tls/internal/p256/scalar"
)

func main() {
	a64.Main(func(f *a64.File) {
		genMontMul(f)
	})
}

func genMontMul(f *a64.File) {
	fn := f.Func("montMulAsm", "func(z, x, y *[4]uint64)",
		"montMulAsm sets z = x·y·2^-256 mod n, for x, y < n (z < n): montMulGeneric,\nbit for bit. Constant time; z may alias x or y.")
	regs := a64.NewPool(a64.Usable()...)
	xp, yp := regs.Get(), regs.Get()
	fn.Load("x", xp)
	fn.Load("y", yp)
	x, y := regs.GetN(4), regs.GetN(4)
	fn.LoadN(x, xp, 0)
	fn.LoadN(y, yp, 0)
	regs.Put(xp, yp)
	mt := a64.NewMont(fn, regs, scalar.N[:])
	z := mt.Mul(x, y, regs)
	zp := regs.Get()
	fn.Load("z", zp)
	fn.StoreN(z, zp, 0)
	fn.RET()
}
