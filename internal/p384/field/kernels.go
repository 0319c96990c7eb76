package field

// kernel is one implementation of the Montgomery multiplication and squaring
// kernels, for tests and benchmarks that must exercise each of them.
type kernel struct {
	name   string
	mul    func(z, x, y *Element)
	square func(z, x *Element)
}

// archKernels lists the assembly kernels this CPU can run; it is filled in
// by the architecture's init and is empty where there are none.
var archKernels []kernel

// selectADX, where not nil, makes mul and square use the ADX kernels if adx
// is true and the CPU has them, the MULQ kernels otherwise, and returns the
// previous choice. It lets tests reach both sides of the dispatch.
var selectADX func(adx bool) (old bool)

// kernels returns every kernel this CPU can run, the portable one first.
func kernels() []kernel {
	return append([]kernel{{"generic", mulGeneric, squareGeneric}}, archKernels...)
}
