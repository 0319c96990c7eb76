//go:build amd64 && !purego

package field

// TEMPORARY: replaced by the generated assembly kernels and their dispatch.
func mul(z, x, y *Element) { mulGeneric(z, x, y) }

func square(z, x *Element) { squareGeneric(z, x) }
