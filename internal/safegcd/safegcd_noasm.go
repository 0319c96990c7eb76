//go:build !arm64 || purego

package safegcd

// Without the arm64 kernels (other architectures, the purego tag) the
// divsteps and the matrix updates are the portable twins of safegcd.go.

// divstepsConst is divstepsConstGeneric.
//
//p256tls:secret
func divstepsConst(h int64, f, g uint64, n int) (int64, matrix) {
	return divstepsConstGeneric(h, f, g, n)
}

// updateFG is updateFGGeneric.
//
//p256tls:secret
func updateFG(f, g *num, t *matrix, n int) { updateFGGeneric(f, g, t, n) }

// updateDE is updateDEGeneric.
//
//p256tls:secret
func updateDE(d, e *num, t *matrix, mod *core) { updateDEGeneric(d, e, t, mod) }
