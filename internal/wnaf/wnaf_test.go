package wnaf

import (
	"math/big"
	"math/rand/v2"
	"testing"
)

func limbs(x *big.Int) [4]uint64 {
	var k [4]uint64
	b := x.FillBytes(make([]byte, 32))
	for i := 0; i < 4; i++ {
		for j := 0; j < 8; j++ {
			k[i] = k[i]<<8 | uint64(b[31-8*i-(7-j)])
		}
	}
	return k
}

func check(t *testing.T, x *big.Int, w uint) {
	t.Helper()
	k := limbs(x)
	var d [Len]int8
	top := Recode(&d, &k, w)
	sum := new(big.Int)
	last := -1000
	wantTop := -1
	for i := Len - 1; i >= 0; i-- {
		sum.Lsh(sum, 1)
		sum.Add(sum, big.NewInt(int64(d[i])))
		if d[i] != 0 {
			if wantTop < 0 {
				wantTop = i
			}
			if dd := int(d[i]); dd%2 == 0 || dd >= 1<<(w-1) || dd <= -(1<<(w-1)) {
				t.Fatalf("w=%d x=%x: bad digit %d at %d", w, x, d[i], i)
			}
			if last-i < int(w) && last >= 0 {
				t.Fatalf("w=%d x=%x: digits at %d and %d too close", w, x, last, i)
			}
			last = i
		}
	}
	if sum.Cmp(x) != 0 {
		t.Fatalf("w=%d x=%x: digits sum to %x", w, x, sum)
	}
	if top != wantTop {
		t.Fatalf("w=%d x=%x: top %d, want %d", w, x, top, wantTop)
	}
	if wantTop > 256 {
		t.Fatalf("digit past 256")
	}
}

func TestRecode(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	max := new(big.Int).Lsh(big.NewInt(1), 256)
	special := []*big.Int{big.NewInt(0), big.NewInt(1), big.NewInt(2), big.NewInt(63), big.NewInt(64),
		new(big.Int).Sub(max, big.NewInt(1)), new(big.Int).Rsh(max, 1), new(big.Int).Sub(new(big.Int).Rsh(max, 1), big.NewInt(1))}
	for w := uint(2); w <= 8; w++ {
		for _, x := range special {
			check(t, x, w)
		}
		for i := 0; i < 2000; i++ {
			var b [32]byte
			for j := range b {
				b[j] = byte(r.Uint32())
			}
			// Mix in runs of ones and zeros, which stress the carries.
			if i%3 == 0 {
				for j := range b {
					if r.IntN(2) == 0 {
						b[j] = 0xff
					} else if r.IntN(2) == 0 {
						b[j] = 0
					}
				}
			}
			check(t, new(big.Int).SetBytes(b[:]), w)
		}
	}
}

func TestRecodeAllocs(t *testing.T) {
	k := [4]uint64{^uint64(0), 1, 2, ^uint64(0)}
	var d [Len]int8
	if a := testing.AllocsPerRun(100, func() { Recode(&d, &k, 7) }); a != 0 {
		t.Fatalf("%v allocations", a)
	}
}

func BenchmarkRecode(b *testing.B) {
	k := [4]uint64{0x0123456789abcdef, 0xfedcba9876543210, 0x5555aaaa5555aaaa, 0xf0f0f0f00f0f0f0f}
	var d [Len]int8
	for b.Loop() {
		Recode(&d, &k, 7)
	}
}
