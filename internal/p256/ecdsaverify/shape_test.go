package ecdsaverify

// shapes are the splits of the P-256 table chain that BenchmarkShape
// compares at the same key-table memory (128 affine points, 8 KiB): 16 runs
// of 17 positions at width 5 (the shipped shape, gtable.Runs × gtable.RunLen
// and keytable's width), 8 runs of 33 at width 6 and 4 runs of 65 at width 7
// (the original proposal), with the generator's runs at width 8 or
// 7 cut the same way. TestShapes checks every shape's sum against
// crypto/elliptic (docs/verification.md, "Shape kept").
var shapes = []shape{{4, 65, 7, 8}, {8, 33, 6, 8}, {16, 17, 5, 8}, {8, 33, 6, 7}, {16, 17, 5, 7}}
