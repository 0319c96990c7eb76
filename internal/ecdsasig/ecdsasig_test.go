package ecdsasig

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"math/big"
	mrand "math/rand"
	"math/rand/v2"
	"testing"

	"golang.org/x/crypto/cryptobyte"
	"golang.org/x/crypto/cryptobyte/asn1"

	"github.com/p256tls/p256tls/internal/ecdsatest"
	"github.com/p256tls/p256tls/internal/p256/scalar"
	p384scalar "github.com/p256tls/p256tls/internal/p384/scalar"
)

var (
	pBig = elliptic.P256().Params().P
	nBig = elliptic.P256().Params().N
)

// refParse is crypto/ecdsa's DER parsing, written with ReadASN1Integer.
func refParse(sig []byte) (r, s *big.Int, ok bool) {
	var inner cryptobyte.String
	in := cryptobyte.String(sig)
	r, s = new(big.Int), new(big.Int)
	if !in.ReadASN1(&inner, asn1.SEQUENCE) || !in.Empty() ||
		!inner.ReadASN1Integer(r) || !inner.ReadASN1Integer(s) || !inner.Empty() ||
		r.Sign() < 0 || s.Sign() < 0 {
		return nil, nil, false
	}
	return r, s, true
}

func checkParse(t *testing.T, sig []byte) {
	t.Helper()
	rb, sb, ok := ParseDER(sig)
	r, s, rok := refParse(sig)
	if ok != rok {
		t.Fatalf("ParseDER(%x) ok = %v, reference %v", sig, ok, rok)
	}
	if ok && (new(big.Int).SetBytes(rb).Cmp(r) != 0 || new(big.Int).SetBytes(sb).Cmp(s) != 0) {
		t.Fatalf("ParseDER(%x) = %x, %x; reference %x, %x", sig, rb, sb, r, s)
	}
	if ok && ((len(rb) > 1 && rb[0] == 0) || (len(sb) > 1 && sb[0] == 0)) {
		t.Fatalf("ParseDER(%x) left a leading zero", sig)
	}
}

func TestParseDER(t *testing.T) {
	cases := [][]byte{
		{}, {0x30, 0x00}, {0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01},
		{0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01, 0x00},             // trailing byte
		{0x30, 0x07, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01, 0x00},             // trailing inside
		{0x30, 0x07, 0x02, 0x02, 0x00, 0x01, 0x02, 0x01, 0x01},             // non-minimal
		{0x30, 0x07, 0x02, 0x02, 0x00, 0x81, 0x02, 0x01, 0x01},             // needed zero
		{0x30, 0x06, 0x02, 0x01, 0x81, 0x02, 0x01, 0x01},                   // negative
		{0x30, 0x06, 0x02, 0x01, 0x00, 0x02, 0x01, 0x00},                   // zeros
		{0x30, 0x81, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01},             // long-form length
		{0x30, 0x80, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01, 0x00, 0x00},       // indefinite
		{0x31, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01},                   // SET
		{0x30, 0x06, 0x03, 0x01, 0x01, 0x02, 0x01, 0x01},                   // BIT STRING
		{0x30, 0x05, 0x02, 0x00, 0x02, 0x01, 0x01},                         // empty INTEGER
		{0x30, 0x09, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01}, // three INTEGERs
		{0x30, 0x03, 0x02, 0x01, 0x01},                                     // one INTEGER
	}
	for _, c := range cases {
		checkParse(t, c)
	}
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 20000; i++ {
		a := new(big.Int).Rand(mr(r), new(big.Int).Lsh(big.NewInt(1), uint(r.IntN(300))))
		b := new(big.Int).Rand(mr(r), new(big.Int).Lsh(big.NewInt(1), uint(r.IntN(300))))
		sig := ecdsatest.EncodeDER(a, b)
		checkParse(t, sig)
		for j := 0; j < 3; j++ {
			m := bytes.Clone(sig)
			m[r.IntN(len(m))] ^= byte(1 << r.IntN(8))
			checkParse(t, m)
		}
		checkParse(t, sig[:r.IntN(len(sig))])
	}
}

type randSource struct{ r *rand.Rand }

func (s randSource) Int63() int64 { return int64(s.r.Uint64() >> 1) }
func (s randSource) Seed(int64)   {}

// mr adapts a math/rand/v2 generator for big.Int.Rand.
func mr(r *rand.Rand) *mrand.Rand { return mrand.New(randSource{r}) }

func FuzzParseDER(f *testing.F) {
	f.Add([]byte{0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01})
	f.Add(ecdsatest.EncodeDER(nBig, pBig))
	f.Fuzz(func(t *testing.T, sig []byte) { checkParse(t, sig) })
}

func TestScalarFromBytes(t *testing.T) {
	max := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
	for _, c := range []struct {
		v  *big.Int
		ok bool
	}{
		{big.NewInt(0), false}, {big.NewInt(1), true}, {new(big.Int).Sub(nBig, big.NewInt(1)), true},
		{nBig, false}, {new(big.Int).Add(nBig, big.NewInt(1)), false}, {max, false},
		{new(big.Int).Lsh(big.NewInt(1), 256), false},
	} {
		var s scalar.Scalar
		b := c.v.Bytes()
		if got := ScalarFromBytes(&s, b); got != c.ok {
			t.Errorf("ScalarFromBytes(%x) = %v", b, got)
		}
		if got := ScalarFromBytes(&s, append([]byte{0, 0, 0}, b...)); got != c.ok {
			t.Errorf("ScalarFromBytes(00 00 00 %x) = %v", b, got)
		}
		if c.v.BitLen() <= 256 {
			var b32 [32]byte
			c.v.FillBytes(b32[:])
			if got := Scalar32(&s, &b32); got != c.ok {
				t.Errorf("Scalar32(%x) = %v", b32, got)
			}
		}
	}
}

// TestScalarFromBytes384 checks P-384's range [1, n−1] on the edges, with
// and without leading zeros, and the value read.
func TestScalarFromBytes384(t *testing.T) {
	n := elliptic.P384().Params().N
	one := big.NewInt(1)
	max := new(big.Int).Sub(new(big.Int).Lsh(one, 384), one)
	for _, c := range []struct {
		v  *big.Int
		ok bool
	}{
		{big.NewInt(0), false}, {one, true}, {big.NewInt(2), true}, {new(big.Int).Sub(n, one), true},
		{n, false}, {new(big.Int).Add(n, one), false}, {max, false},
		{new(big.Int).Lsh(one, 384), false}, {nBig, true}, // P-256's n is a valid P-384 scalar
	} {
		b := c.v.Bytes()
		for _, in := range [][]byte{b, append([]byte{0, 0, 0}, b...), c.v.FillBytes(make([]byte, 60))} {
			var s p384scalar.Scalar
			if got := ScalarFromBytes384(&s, in); got != c.ok {
				t.Errorf("ScalarFromBytes384(%x) = %v", in, got)
			} else if got {
				var want p384scalar.Scalar
				want.SetBytes(c.v.FillBytes(make([]byte, 48)))
				if s != want {
					t.Errorf("ScalarFromBytes384(%x) read the wrong value", in)
				}
			}
		}
	}
}

// TestPublicKeyBytes checks PublicKeyBytes against a reference written with
// big.Int arithmetic, at both sizes, on the edges of the coordinate range.
func TestPublicKeyBytes(t *testing.T) {
	one := big.NewInt(1)
	for _, size := range []int{32, 48} {
		top := new(big.Int).Lsh(one, uint(8*size)) // 2^(8·size): too large
		max := new(big.Int).Sub(top, one)
		vals := []*big.Int{nil, big.NewInt(0), one, big.NewInt(-1), new(big.Int).Neg(max), max, top, new(big.Int).Lsh(one, uint(8*size+1))}
		for _, x := range vals {
			for _, y := range vals {
				ok := x != nil && y != nil && x.Sign() >= 0 && y.Sign() >= 0 && x.Cmp(top) < 0 && y.Cmp(top) < 0
				var want []byte
				if ok {
					want = append([]byte{4}, x.FillBytes(make([]byte, size))...)
					want = append(want, y.FillBytes(make([]byte, size))...)
				}
				dst := make([]byte, 1+2*size+3)
				got := PublicKeyBytes(dst, &ecdsa.PublicKey{X: x, Y: y}, size)
				if (got == nil) != !ok || !bytes.Equal(got, want) {
					t.Errorf("size %d, (%v, %v): got %x, want %x (ok %v)", size, x, y, got, want, ok)
				}
				if got != nil && &got[0] != &dst[0] {
					t.Errorf("size %d: result is not a prefix of dst", size)
				}
			}
		}
		pub := &ecdsa.PublicKey{X: one, Y: one}
		if PublicKeyBytes(make([]byte, 2*size), pub, size) != nil {
			t.Errorf("size %d: a dst one byte short was written", size)
		}
		if PublicKeyBytes(make([]byte, 1+2*size), pub, size) == nil {
			t.Errorf("size %d: a dst of exactly 1+2·size bytes was refused", size)
		}
	}
	if PublicKeyBytes(make([]byte, 97), nil, 32) != nil {
		t.Error("nil key accepted")
	}
	if PublicKeyBytes(make([]byte, 97), &ecdsa.PublicKey{X: big.NewInt(0), Y: big.NewInt(0)}, 0) != nil {
		t.Error("size 0 accepted")
	}
	pub := &ecdsa.PublicKey{X: big.NewInt(5), Y: big.NewInt(7)}
	var buf [97]byte
	if a := testing.AllocsPerRun(20, func() { PublicKeyBytes(buf[:], pub, 48) }); a != 0 {
		t.Errorf("PublicKeyBytes allocates %v times", a)
	}
}
