//go:build amd64 && !purego

package field

func init() {
	if hasADX {
		benchKernels = append(benchKernels, kernel{"adx-mulx-redc",
			func(z, x, y *Element) { mulADXMulxRedc((*[6]uint64)(z), (*[6]uint64)(x), (*[6]uint64)(y)) },
			func(z, x *Element) { squareADXMulxRedc((*[6]uint64)(z), (*[6]uint64)(x)) },
		}, kernel{"adx-montmuln",
			// mulADX's predecessor, asmlib.MontMulN with asmlib.P384, kept
			// to measure asmlib.Mul384ADX against it.
			func(z, x, y *Element) { mulADXMont((*[6]uint64)(z), (*[6]uint64)(x), (*[6]uint64)(y)) },
			func(z, x *Element) { mulADXMont((*[6]uint64)(z), (*[6]uint64)(x), (*[6]uint64)(x)) },
		}, kernel{"adx-mul",
			// squareADX's predecessor: the multiplication with both
			// operands x, kept to measure the dedicated squaring.
			func(z, x, y *Element) { mulADX((*[6]uint64)(z), (*[6]uint64)(x), (*[6]uint64)(y)) },
			func(z, x *Element) { mulADX((*[6]uint64)(z), (*[6]uint64)(x), (*[6]uint64)(x)) },
		})
	}
	benchKernels = append(benchKernels, kernel{"mulq-montmuln",
		// mulMULQ's predecessor, asmlib.MontMulN's MULQ rows with
		// asmlib.P384; squareMULQ's was this multiplication with x twice.
		func(z, x, y *Element) { mulMULQMont((*[6]uint64)(z), (*[6]uint64)(x), (*[6]uint64)(y)) },
		func(z, x *Element) { mulMULQMont((*[6]uint64)(z), (*[6]uint64)(x), (*[6]uint64)(x)) },
	})
}
