// Package point is the P-384 group law (y² = x³ − 3x + b over
// internal/p384/field), the same formulas as internal/p256/point's for P-256:
//
//   - the in-place Jacobian formulas of variable-time verification
//     (Jacobian.Double, AddMixedVartime, AddCachedVartime, and the co-Z
//     DoubleCoZ and AddCoZ), BuildRuns (the split-wNAF tables of a key) and
//     BatchToAffineVartime;
//   - Affine's Neg and IsOnCurve, Generator, and SEC 1 encoding and
//     decoding (97-byte uncompressed, 49-byte compressed).
//
// Every Go file but this one and gen.go is written by
// internal/gen/point from the templates it shares with
// internal/p256/point, so the two curves run one text of the formulas. On amd64
// with BMI2 and ADX (and without the purego tag), Double,
// AddMixedVartime, AddCachedVartime and AddCoZ go through the fused kernels
// of jacobian_amd64.s (doubleADX; addMixedADX and addCachedADX for the
// general cases of the additions; addCoZADX), written by internal/gen/point/_asm
// from the formulas it emits for P-256 too, with the same limbs as the
// portable double, addMixed, addCached and addCoZ; elsewhere they are those
// formulas (kernels_amd64.go, kernels_noasm.go). There is no
// constant-time scalar multiplication (P-384 signing stays with
// crypto/ecdsa).
//
// The Jacobian formulas work in place on the receiver and return nothing;
// Affine's methods store their result in the receiver and return it, and
// the receiver may alias any argument. Functions and methods whose names end
// in Vartime branch on their inputs and take public inputs only; everything
// else is constant time unless its doc comment says otherwise.
package point
