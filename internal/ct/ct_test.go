package ct

import (
	"math/big"
	"math/rand/v2"
	"testing"
)

func limbsOf(x *big.Int) [4]uint64 {
	var l [4]uint64
	b := make([]byte, 32)
	x.FillBytes(b)
	for i := range l {
		for j := 0; j < 8; j++ {
			l[i] |= uint64(b[31-8*i-j]) << (8 * j)
		}
	}
	return l
}

func TestIsZeroMask(t *testing.T) {
	for _, x := range []uint64{0, 1, 2, 1 << 63, 1<<63 + 1, ^uint64(0), 0x8000000000000001} {
		want := 0
		if x == 0 {
			want = 1
		}
		if got := IsZero(x); got != want {
			t.Errorf("IsZero(%#x) = %d, want %d", x, got, want)
		}
	}
	if Mask(1) != ^uint64(0) || Mask(0) != 0 {
		t.Errorf("Mask(1) = %#x, Mask(0) = %#x", Mask(1), Mask(0))
	}
}

// TestLessInRange compares with math/big on the edges (equal, off by one
// in every limb, zero, all ones) and at random.
func TestLessInRange(t *testing.T) {
	n, _ := new(big.Int).SetString("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551", 16)
	one := big.NewInt(1)
	vals := []*big.Int{big.NewInt(0), big.NewInt(1), new(big.Int).Sub(n, one), n, new(big.Int).Add(n, one),
		new(big.Int).Sub(new(big.Int).Lsh(one, 256), one)}
	for i := 0; i < 4; i++ {
		bit := new(big.Int).Lsh(one, uint(64*i))
		vals = append(vals, new(big.Int).Add(n, bit), new(big.Int).Sub(n, bit), bit)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 200; i++ {
		var l [4]uint64
		for j := range l {
			l[j] = r.Uint64()
		}
		if i%2 == 0 {
			l[3] = 0xffffffff00000000 // near n
		}
		b := new(big.Int)
		for j := 3; j >= 0; j-- {
			b.Lsh(b, 64).Or(b, new(big.Int).SetUint64(l[j]))
		}
		vals = append(vals, b)
	}
	nl := limbsOf(n)
	for _, a := range vals {
		al := limbsOf(a)
		for _, b := range vals {
			bl := limbsOf(b)
			want := 0
			if a.Cmp(b) < 0 {
				want = 1
			}
			if got := Less(&al, &bl); got != want {
				t.Fatalf("Less(%x, %x) = %d, want %d", a, b, got, want)
			}
		}
		want := 0
		if a.Sign() > 0 && a.Cmp(n) < 0 {
			want = 1
		}
		if got := InRange(&al, &nl); got != want {
			t.Fatalf("InRange(%x, n) = %d, want %d", a, got, want)
		}
	}
}

// TestBigEndian checks Load4, Store4, Load6 and Store6 against math/big on
// values whose every byte differs, the extremes and random ones.
func TestBigEndian(t *testing.T) {
	var vals [][48]byte
	var seq, ones [48]byte
	for i := range seq {
		seq[i] = byte(i + 1)
		ones[i] = 0xff
	}
	vals = append(vals, [48]byte{}, seq, ones)
	for i := 0; i < 200; i++ {
		var b [48]byte
		for j := range b {
			b[j] = byte(rand.Uint32())
		}
		vals = append(vals, b)
	}
	for _, b := range vals {
		var b4 [32]byte
		copy(b4[:], b[16:])
		v4 := Load4(&b4)
		if got, want := limbsOf(new(big.Int).SetBytes(b4[:])), v4; got != want {
			t.Fatalf("Load4(%x) = %x, want %x", b4, want, got)
		}
		var o4 [32]byte
		Store4(&o4, &v4)
		if o4 != b4 {
			t.Fatalf("Store4(Load4(%x)) = %x", b4, o4)
		}
		v6 := Load6(&b)
		x := new(big.Int).SetBytes(b[:])
		for i := 0; i < 6; i++ {
			w := new(big.Int).Rsh(x, uint(64*i))
			if w.And(w, new(big.Int).SetUint64(^uint64(0))).Uint64() != v6[i] {
				t.Fatalf("Load6(%x) limb %d = %x", b, i, v6[i])
			}
		}
		var o6 [48]byte
		Store6(&o6, &v6)
		if o6 != b {
			t.Fatalf("Store6(Load6(%x)) = %x", b, o6)
		}
	}
}
