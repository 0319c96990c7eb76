package sign

// encodeASN1 returns the DER encoding of the ECDSA signature (r, s), both
// 32-byte big-endian values in [1, n−1]: SEQUENCE { INTEGER r, INTEGER s },
// each INTEGER in its minimal two's-complement form, as crypto/ecdsa writes
// it. The content is at most 70 bytes, so every length fits the short form.
// It allocates the result only. r and s are public at this point: the
// branches here depend on the released signature alone.
func encodeASN1(r, s *[32]byte) []byte {
	rb, rpad := trimInt(r)
	sb, spad := trimInt(s)
	rl, sl := len(rb)+rpad, len(sb)+spad
	out := make([]byte, 2+2+rl+2+sl)
	out[0] = 0x30
	out[1] = byte(len(out) - 2)
	i := 2
	out[i], out[i+1] = 0x02, byte(rl)
	i += 2 + rpad // a pad byte is already 0
	i += copy(out[i:], rb)
	out[i], out[i+1] = 0x02, byte(sl)
	i += 2 + spad
	copy(out[i:], sb)
	return out
}

// trimInt returns v without its leading zero bytes (keeping at least one)
// and 1 if a zero byte must precede it to keep the INTEGER positive.
func trimInt(v *[32]byte) ([]byte, int) {
	b := v[:]
	for len(b) > 1 && b[0] == 0 {
		b = b[1:]
	}
	return b, int(b[0] >> 7)
}
