//go:build !arm64 || purego

package safegcd

// Without the arm64 kernels (other architectures, the purego tag) Div's
// divsteps and the matrix updates are the portable twins of safegcd.go.

// divConstSteps is divConstStepsGeneric.
//
//p256tls:secret
func divConstSteps(d, e, f, g *num, mod *core) { divConstStepsGeneric(d, e, f, g, mod) }

// updateFG is updateFGGeneric.
//
//p256tls:secret
func updateFG(f, g *num, t *matrix, n int) { updateFGGeneric(f, g, t, n) }

// updateDE is updateDEGeneric.
//
//p256tls:secret
func updateDE(d, e *num, t *matrix, mod *core) { updateDEGeneric(d, e, t, mod) }
