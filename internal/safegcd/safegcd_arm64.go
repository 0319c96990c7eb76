//go:build arm64 && !purego

package safegcd

// On arm64 the whole of Div's divsteps with their updates (divConstAsm),
// the update of f and g at every length and the update of d and e at both
// sizes are the generated kernels of safegcd_arm64.s (_asm/arm64). The
// choices depend on public counts only.
//
// The assembly kernels on the secret path (audited by scripts/branch-audit):
//
//p256tls:secret-asm divConstAsm

// divConstSteps runs Div's divsteps and updates, as divConstStepsGeneric
// does.
//
//p256tls:secret
func divConstSteps(d, e, f, g *num, mod *core) {
	divConstAsm(d, e, f, g, &mod.m, mod.minv)
}

// updateFG applies t to f and g on their low n limbs, as updateFGGeneric
// does.
//
//p256tls:secret
func updateFG(f, g *num, t *matrix, n int) {
	switch n {
	case 1:
		updateFG1Asm(f, g, t)
	case 2:
		updateFG2Asm(f, g, t)
	case 3:
		updateFG3Asm(f, g, t)
	case 4:
		updateFG4Asm(f, g, t)
	case 5:
		updateFG5Asm(f, g, t)
	case 6:
		updateFG6Asm(f, g, t)
	default:
		updateFG7Asm(f, g, t)
	}
}

// updateDE applies t to d and e modulo M, as updateDEGeneric does.
//
//p256tls:secret
func updateDE(d, e *num, t *matrix, mod *core) {
	switch mod.n {
	case nLimbs256:
		updateDE5Asm(d, e, t, &mod.m, mod.minv)
	case nLimbs384:
		updateDE7Asm(d, e, t, &mod.m, mod.minv)
	default:
		updateDEGeneric(d, e, t, mod)
	}
}
