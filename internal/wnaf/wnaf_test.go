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

// TestRecodeSparse checks that the sparse digits are the dense ones, in
// increasing position, and that the densest NAFs (width 2 over alternating
// bits, whose digits sit at every other position) fit in MaxDigits.
func TestRecodeSparse(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	alt := [4]uint64{0x5555555555555555, 0x5555555555555555, 0x5555555555555555, 0x5555555555555555}
	alt2 := [4]uint64{0xaaaaaaaaaaaaaaab, 0xaaaaaaaaaaaaaaaa, 0xaaaaaaaaaaaaaaaa, 0xaaaaaaaaaaaaaaaa}
	for w := uint(2); w <= 8; w++ {
		for i := 0; i < 3000; i++ {
			k := [4]uint64{r.Uint64(), r.Uint64(), r.Uint64(), r.Uint64()}
			switch i {
			case 0:
				k = alt
			case 1:
				k = alt2
			case 2:
				k = [4]uint64{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}
			case 3:
				k = [4]uint64{}
			}
			var s Sparse
			var d [Len]int8
			RecodeSparse(&s, &k, w)
			Recode(&d, &k, w)
			j := 0
			for pos, v := range d {
				if v == 0 {
					continue
				}
				if j >= s.N || int(s.D[j].Pos) != pos || s.D[j].Val != v {
					t.Fatalf("w=%d k=%x: sparse digit %d disagrees with the dense digit %d at %d", w, k, j, v, pos)
				}
				j++
			}
			if j != s.N {
				t.Fatalf("w=%d k=%x: %d sparse digits, %d dense", w, k, s.N, j)
			}
		}
	}
	var s Sparse
	RecodeSparse(&s, &alt, 2)
	if s.N != 128 {
		t.Fatalf("alternating bits at width 2: %d digits, want 128", s.N)
	}
}

func BenchmarkRecodeSparse(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	var ks [64][4]uint64
	for i := range ks {
		ks[i] = [4]uint64{r.Uint64(), r.Uint64(), r.Uint64(), r.Uint64()}
	}
	var s Sparse
	i := 0
	for b.Loop() {
		RecodeSparse(&s, &ks[i&63], 5)
		i++
	}
}
