//go:build amd64 && !purego

package field

func init() {
	if hasADX {
		benchKernels = append(benchKernels, kernel{"adx-mulx-redc",
			func(z, x, y *Element) { mulADXMulxRedc((*[6]uint64)(z), (*[6]uint64)(x), (*[6]uint64)(y)) },
			func(z, x *Element) { squareADXMulxRedc((*[6]uint64)(z), (*[6]uint64)(x)) },
		}, kernel{"adx-mul",
			// squareADX's predecessor: the multiplication with both
			// operands x, kept to measure the dedicated squaring.
			func(z, x, y *Element) { mulADX((*[6]uint64)(z), (*[6]uint64)(x), (*[6]uint64)(y)) },
			func(z, x *Element) { mulADX((*[6]uint64)(z), (*[6]uint64)(x), (*[6]uint64)(x)) },
		})
	}
}
