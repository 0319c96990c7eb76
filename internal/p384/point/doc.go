// Package point is the P-384 group law (y² = x³ − 3x + b over
// internal/p384/field), the same formulas as internal/point's for P-256:
//
//   - the in-place Jacobian formulas of variable-time verification
//     (Jacobian.Double, AddMixedVartime, AddCachedVartime, and the co-Z
//     DoubleCoZ and AddCoZ), BuildRuns (the split-wNAF tables of a key) and
//     BatchToAffineVartime;
//   - Affine's Neg and IsOnCurve, Generator, and SEC 1 encoding and
//     decoding (97-byte uncompressed, 49-byte compressed).
//
// Every file but this one and gen.go is written by
// internal/point/internal/genpoint from the templates it shares with
// internal/point, so the two curves run one text of the formulas. There are
// no fused kernels here: Double and AddMixedVartime are the portable
// formulas. There is no constant-time scalar multiplication either (P-384
// signing stays with crypto/ecdsa).
//
// The Jacobian formulas work in place on the receiver and return nothing;
// Affine's methods store their result in the receiver and return it, and
// the receiver may alias any argument. Functions and methods whose names end
// in Vartime branch on their inputs and take public inputs only; everything
// else is constant time unless its doc comment says otherwise.
package point
