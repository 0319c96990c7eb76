package point

// Run with
//
//	go test ./internal/point -run XXX -fuzz FuzzSEC1 -fuzztime 30s
//
// Without -fuzz it runs on its seed corpus as an ordinary test.

import (
	"bytes"
	"crypto/ecdh"
	"math/big"
	"testing"
)

// FuzzSEC1 checks that Affine.SetBytes never panics, agrees with the math/big
// reference decoder (and, for uncompressed encodings, with crypto/ecdh), and
// that every accepted point is on the curve and re-encodes to its input.
func FuzzSEC1(f *testing.F) {
	for _, q := range ptEdgePoints() {
		f.Add(ptEncode(q, false))
		f.Add(ptEncode(q, true))
		f.Add(ptEncode(ptRefNeg(q), true))
	}
	g := ptEncode(ptG, false)
	pBytes := ptP.FillBytes(make([]byte, 32))
	f.Add([]byte{})
	f.Add([]byte{0})
	f.Add([]byte{4})
	f.Add(append([]byte{4}, append(pBytes, g[33:]...)...))
	f.Add(append(append([]byte{}, g[:33]...), pBytes...))
	f.Add(append([]byte{2}, pBytes...))
	f.Add(append([]byte{3}, big.NewInt(1).FillBytes(make([]byte, 32))...))
	f.Add(append([]byte{5}, g[1:]...))
	f.Add(append([]byte{6}, g[1:]...))
	f.Add(g[:33])
	f.Fuzz(func(t *testing.T, in []byte) {
		ptCheckDecode(t, in)
		if len(in) == 65 {
			var a Affine
			_, err := a.SetBytes(in)
			_, stdErr := ecdh.P256().NewPublicKey(in)
			if (err == nil) != (stdErr == nil) {
				t.Fatalf("SetBytes(%x): %v, crypto/ecdh: %v", in, err, stdErr)
			}
			if err == nil {
				u := a.BytesUncompressed()
				if !bytes.Equal(u[:], in) {
					t.Fatalf("re-encoding of %x is %x", in, u)
				}
			}
		}
	})
}
