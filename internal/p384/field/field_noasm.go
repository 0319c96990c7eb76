//go:build !amd64 || purego

package field

func mul(z, x, y *Element) { mulGeneric(z, x, y) }

func square(z, x *Element) { squareGeneric(z, x) }
