package formula

import "strings"

// The complete additions of Renes, Costello and Batina ("Complete addition
// formulas for prime order elliptic curves", Eurocrypt 2016), a = −3, for
// projective points (X : Y : Z), written once and run by every backend of
// the comb (internal/p256/comb/_asm: the amd64 ADX kernels, the eight-lane
// AVX-512 kernel, and the arm64 kernels). b is the curve's b in the
// field's representation; t0 … t4 are temporaries.

// rcbTail is the second half of algorithms 4 and 5, in which Zs stands for
// Z1·Z2: the slot t2 in the full addition, Z1 itself in the mixed one
// (Z2 = 1).
const rcbTail = `
Z3 = b·Zs; X3 = Y3 − Z3; Z3 = X3 + X3; X3 = X3 + Z3; Z3 = t1 − X3; X3 = t1 + X3
Y3 = b·Y3; t1 = Zs + Zs; t2 = t1 + Zs; Y3 = Y3 − t2; Y3 = Y3 − t0; t1 = Y3 + Y3; Y3 = t1 + Y3
t1 = t0 + t0; t0 = t1 + t0; t0 = t0 − t2
t1 = t4·Y3; t2 = t0·Y3; Y3 = X3·Z3; Y3 = Y3 + t2
X3 = t3·X3; X3 = X3 − t1; Z3 = t4·Z3; t1 = t3·t0; Z3 = Z3 + t1
`

// RCBFull is algorithm 4: (X3 : Y3 : Z3) = (X1 : Y1 : Z1) + (X2 : Y2 : Z2).
var RCBFull = `
t0 = X1·X2; t1 = Y1·Y2; t2 = Z1·Z2
t3 = X1 + Y1; t4 = X2 + Y2; t3 = t3·t4; t4 = t0 + t1; t3 = t3 − t4
t4 = Y1 + Z1; X3 = Y2 + Z2; t4 = t4·X3; X3 = t1 + t2; t4 = t4 − X3
X3 = X1 + Z1; Y3 = X2 + Z2; X3 = X3·Y3; Y3 = t0 + t2; Y3 = X3 − Y3` +
	strings.ReplaceAll(rcbTail, "Zs", "t2")

// RCBMixed is algorithm 5: (X3 : Y3 : Z3) = (X1 : Y1 : Z1) + (X2, Y2),
// the second point affine (Z2 = 1), so that (Y1 + Z1)(Y2 + 1) − t1 − Z1 is
// Y2·Z1 + Y1 and (X1 + Z1)(X2 + 1) − t0 − Z1 is X2·Z1 + X1.
var RCBMixed = `
t0 = X1·X2; t1 = Y1·Y2
t3 = X1 + Y1; t4 = X2 + Y2; t3 = t3·t4; t4 = t0 + t1; t3 = t3 − t4
t4 = Y2·Z1; t4 = t4 + Y1
Y3 = X2·Z1; Y3 = Y3 + X1` +
	strings.ReplaceAll(rcbTail, "Zs", "Z1")
