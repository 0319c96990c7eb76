// Command _asm generates comb_amd64.s and comb_amd64_stubs.go, the amd64
// kernels of package comb, with avo:
//
//	go run -C _asm . -w 6 -out ../comb_amd64.s -stubs ../comb_amd64_stubs.go -pkg comb
//
// asm.go holds the scalar kernels (the AVX2 table lookup and the fused ADX
// complete additions, on internal/_asmlib's field arithmetic), avx512.go the
// eight-lane AVX-512 IFMA comb (radix 2^52); internal/_asmlib/formula holds the complete
// addition formulas both run.
package main

import (
	"crypto/sha256"
	"flag"
	"fmt"
	"math/big"
	"os"

	. "github.com/mmcloughlin/avo/build"

	"github.com/p256tls/p256tls/internal/curvedef"
)

var width = flag.Int("w", 6, "window width in bits (Booth digits)")

func main() {
	flag.Parse()
	if *width < 2 || *width > 8 {
		fmt.Fprintf(os.Stderr, "window width %d out of range [2, 8]\n", *width)
		os.Exit(2)
	}
	ConstraintExpr("amd64")
	ConstraintExpr("!purego")
	generateAsm(*width)
	Generate()
}

// curve is P-256: its constants, Montgomery form and group law are
// internal/curvedef's, as for ../gen, which writes table.go.
var curve = curvedef.P256()

// offsetPoint returns T = t·G, the offset point every sum of the comb
// starts from (see ../gen and table.go), t = SHA-256("p256tls comb offset")
// mod n. ../gen computes the same point for table.go; if the two differed,
// every scalar with a zero first digit in some lane would come out wrong,
// which the comb's tests would show.
func offsetPoint() (x, y *big.Int) {
	h := sha256.Sum256([]byte("p256tls comb offset"))
	t := new(big.Int).SetBytes(h[:])
	T := curve.ScalarMult(curve.G(), t.Mod(t, curve.N))
	return T.X, T.Y
}
