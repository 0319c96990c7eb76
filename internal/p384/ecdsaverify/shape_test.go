package ecdsaverify

// shapes are the splits of the P-384 table chain that BenchmarkShape
// compares (docs/verification.md, "P-384"): R runs of L = ⌈385/R⌉
// positions. TestShapes checks every shape's sum against crypto/elliptic.
var shapes = []shape{
	{8, 49, 6, 8},  // 128 key points (12 KiB), 48 doublings
	{16, 25, 5, 8}, // 128 key points (12 KiB), 24 doublings
	{20, 20, 5, 8}, // 160 key points (15 KiB), 19 doublings
	{20, 20, 5, 7},
	{21, 19, 5, 8}, // 168 key points (15.75 KiB), 18 doublings
	{30, 13, 4, 8}, // 120 key points (11.25 KiB), 12 doublings
	{33, 12, 4, 8}, // 132 key points (12.4 KiB), 11 doublings
}

// jointVariants is empty: no alternative to the P-384 ordinary chain is
// kept beside JointSum (its Q width is measured with jointSumWidth).
var jointVariants []jointVariant
