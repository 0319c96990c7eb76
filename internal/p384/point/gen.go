package point

// affine.go, jacobian.go, runs.go, sec1.go and grouplaw_test.go are written
// by genpoint from the templates it shares with internal/point.
//go:generate go run ../../point/internal/genpoint -curve P-384 -dir .
