package a64

// productRow emits row i of the schoolbook product of the n-limb x and y,
// yi = y[i], into t: row 0 sets t[0..n] = x·y0; row i > 0 adds x·yi into
// t[i..i+n−1] and sets the new limb t[i+n]; t[i..i+n−1] + x·yi <
// 2^(64(n+1)) whatever those limbs hold, so t[i+n] takes the whole carry.
// The low halves go on one carry chain, then the high halves; MUL and
// UMULH leave the flags alone, so they run inside the chains. tmp is two
// scratch registers. A row is n MUL, n UMULH and 2n+1 additions (row 0:
// n).
func productRow(fn *Func, t, x []GP, yi GP, i int, tmp []GP) {
	n := len(x)
	if i == 0 {
		for j := 0; j < n; j++ {
			fn.MUL(t[j], x[j], yi)
		}
		fn.UMULH(t[n], x[n-1], yi)
		for j := 0; j < n-1; j++ {
			fn.UMULH(tmp[j%2], x[j], yi)
			if j == 0 {
				fn.ADDS(t[1], t[1], tmp[0])
			} else {
				fn.ADCS(t[j+1], t[j+1], tmp[j%2])
			}
		}
		fn.ADC(t[n], t[n], ZR)
		return
	}
	for j := 0; j < n; j++ {
		fn.MUL(tmp[j%2], x[j], yi)
		if j == 0 {
			fn.ADDS(t[i], t[i], tmp[0])
		} else {
			fn.ADCS(t[i+j], t[i+j], tmp[j%2])
		}
	}
	fn.ADC(t[i+n], ZR, ZR)
	for j := 0; j < n; j++ {
		fn.UMULH(tmp[j%2], x[j], yi)
		switch j {
		case 0:
			fn.ADDS(t[i+1], t[i+1], tmp[0])
		case n - 1:
			fn.ADC(t[i+n], t[i+n], tmp[j%2])
		default:
			fn.ADCS(t[i+1+j], t[i+1+j], tmp[j%2])
		}
	}
}
