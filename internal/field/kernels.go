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

// kernels returns every kernel this CPU can run, the portable one first.
func kernels() []kernel {
	return append([]kernel{{"generic", mulGeneric, squareGeneric}}, archKernels...)
}
