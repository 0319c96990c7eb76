package wnaf

import (
	"math/big"
	"math/rand/v2"
	"testing"
)

// sizes are the scalar sizes the package serves, in limbs, with the length
// of the dense output each uses.
var sizes = []struct{ limbs, len int }{{4, Len}, {6, Len384}}

func limbs(x *big.Int, n int) []uint64 {
	k := make([]uint64, n)
	for i := range k {
		k[i] = new(big.Int).Rsh(x, uint(64*i)).Uint64()
	}
	return k
}

func check(t *testing.T, x *big.Int, n, outLen int, w uint) {
	t.Helper()
	k := limbs(x, n)
	d := make([]int8, outLen)
	for i := range d {
		d[i] = 99 // Recode must clear all of out
	}
	top := Recode(d, k, w)
	sum := new(big.Int)
	last := -1000
	wantTop := -1
	for i := outLen - 1; i >= 0; i-- {
		sum.Lsh(sum, 1)
		sum.Add(sum, big.NewInt(int64(d[i])))
		if d[i] != 0 {
			if wantTop < 0 {
				wantTop = i
			}
			if dd := int(d[i]); dd%2 == 0 || dd >= 1<<(w-1) || dd <= -(1<<(w-1)) {
				t.Fatalf("%d limbs w=%d x=%x: bad digit %d at %d", n, w, x, d[i], i)
			}
			if last-i < int(w) && last >= 0 {
				t.Fatalf("%d limbs w=%d x=%x: digits at %d and %d too close", n, w, x, last, i)
			}
			last = i
		}
	}
	if sum.Cmp(x) != 0 {
		t.Fatalf("%d limbs w=%d x=%x: digits sum to %x", n, w, x, sum)
	}
	if top != wantTop {
		t.Fatalf("%d limbs w=%d x=%x: top %d, want %d", n, w, x, top, wantTop)
	}
	if wantTop > 64*n {
		t.Fatalf("digit past %d", 64*n)
	}
}

// checkSparse checks RecodeSparse's digits of x (n limbs) at width w:
// increasing positions at least w apart, odd values below 2^(w−1) in
// magnitude, summing to x.
func checkSparse(t *testing.T, x *big.Int, n int, w uint) {
	t.Helper()
	var s Sparse
	RecodeSparse(&s, limbs(x, n), w)
	sum := new(big.Int)
	for j, d := range s.D[:s.N] {
		if v := int(d.Val); v%2 == 0 || v >= 1<<(w-1) || v <= -(1<<(w-1)) {
			t.Fatalf("%d limbs w=%d x=%x: bad digit %d at %d", n, w, x, d.Val, d.Pos)
		}
		if j > 0 && int(d.Pos)-int(s.D[j-1].Pos) < int(w) {
			t.Fatalf("%d limbs w=%d x=%x: digits at %d and %d too close", n, w, x, s.D[j-1].Pos, d.Pos)
		}
		if int(d.Pos) > 64*n {
			t.Fatalf("%d limbs w=%d x=%x: digit past %d", n, w, x, 64*n)
		}
		sum.Add(sum, new(big.Int).Lsh(big.NewInt(int64(d.Val)), uint(d.Pos)))
	}
	if sum.Cmp(x) != 0 {
		t.Fatalf("%d limbs w=%d x=%x: digits sum to %x", n, w, x, sum)
	}
}

func TestRecode(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, sz := range sizes {
		bitsN := uint(64 * sz.limbs)
		max := new(big.Int).Lsh(big.NewInt(1), bitsN)
		special := []*big.Int{big.NewInt(0), big.NewInt(1), big.NewInt(2), big.NewInt(63), big.NewInt(64),
			new(big.Int).Sub(max, big.NewInt(1)), new(big.Int).Rsh(max, 1), new(big.Int).Sub(new(big.Int).Rsh(max, 1), big.NewInt(1))}
		// Ones across every limb boundary, which carry through them.
		for b := uint(64); b < bitsN; b += 64 {
			special = append(special, new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), b), big.NewInt(1)),
				new(big.Int).Lsh(big.NewInt(127), b-3))
		}
		for w := uint(2); w <= MaxWidth; w++ {
			for _, x := range special {
				checkSparse(t, x, sz.limbs, w)
				if w <= DenseMaxWidth {
					check(t, x, sz.limbs, sz.len, w)
				}
			}
			n := 2000
			if w > DenseMaxWidth {
				n = 300
			}
			for i := 0; i < n; i++ {
				b := make([]byte, 8*sz.limbs)
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
				x := new(big.Int).SetBytes(b)
				checkSparse(t, x, sz.limbs, w)
				if w <= DenseMaxWidth {
					check(t, x, sz.limbs, sz.len, w)
				}
			}
		}
	}
}

// TestRecodeShortOutput checks that an output too short for the scalar's
// NAF is a panic, not a silent truncation.
func TestRecodeShortOutput(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("no panic")
		}
	}()
	var d [Len]int8
	var k [6]uint64
	Recode(d[:], k[:], 5)
}

// TestWidthRange checks that widths outside each function's range are a
// panic: above DenseMaxWidth for Recode, outside [2, MaxWidth] for
// RecodeSparse.
func TestWidthRange(t *testing.T) {
	var k [6]uint64
	var d [Len384]int8
	var s Sparse
	for _, f := range []func(){
		func() { Recode(d[:], k[:], DenseMaxWidth+1) },
		func() { RecodeSparse(&s, k[:], 1) },
		func() { RecodeSparse(&s, k[:], MaxWidth+1) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Fatal("no panic")
				}
			}()
			f()
		}()
	}
	RecodeSparse(&s, k[:], MaxWidth) // in range
}

func TestRecodeAllocs(t *testing.T) {
	k := [4]uint64{^uint64(0), 1, 2, ^uint64(0)}
	var d [Len]int8
	k6 := [6]uint64{^uint64(0), 1, 2, ^uint64(0), 5, ^uint64(0)}
	var d6 [Len384]int8
	var s Sparse
	if a := testing.AllocsPerRun(100, func() {
		Recode(d[:], k[:], 7)
		Recode(d6[:], k6[:], 5)
		RecodeSparse(&s, k6[:], 8)
	}); a != 0 {
		t.Fatalf("%v allocations", a)
	}
}

func BenchmarkRecode(b *testing.B) {
	k := [4]uint64{0x0123456789abcdef, 0xfedcba9876543210, 0x5555aaaa5555aaaa, 0xf0f0f0f00f0f0f0f}
	var d [Len]int8
	for b.Loop() {
		Recode(d[:], k[:], 7)
	}
}

// TestRecodeSparse checks that the sparse digits are the dense ones, in
// increasing position, and that the densest NAFs (width 2 over alternating
// bits, whose digits sit at every other position) fit in MaxDigits.
func TestRecodeSparse(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, sz := range sizes {
		alt := make([]uint64, sz.limbs)
		alt2 := make([]uint64, sz.limbs)
		ones := make([]uint64, sz.limbs)
		for i := range alt {
			alt[i], alt2[i], ones[i] = 0x5555555555555555, 0xaaaaaaaaaaaaaaaa, ^uint64(0)
		}
		alt2[0]++
		for w := uint(2); w <= DenseMaxWidth; w++ {
			for i := 0; i < 3000; i++ {
				k := make([]uint64, sz.limbs)
				for j := range k {
					k[j] = r.Uint64()
				}
				switch i {
				case 0:
					k = alt
				case 1:
					k = alt2
				case 2:
					k = ones
				case 3:
					clear(k)
				}
				var s Sparse
				d := make([]int8, sz.len)
				RecodeSparse(&s, k, w)
				Recode(d, k, w)
				j := 0
				for pos, v := range d {
					if v == 0 {
						continue
					}
					if j >= s.N || int(s.D[j].Pos) != pos || s.D[j].Val != int16(v) {
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
		RecodeSparse(&s, alt, 2)
		if s.N != 32*sz.limbs {
			t.Fatalf("%d limbs, alternating bits at width 2: %d digits, want %d", sz.limbs, s.N, 32*sz.limbs)
		}
		// 2^(64·limbs) − 1 at width 2 is 2^(64·limbs) − 1: the top digit
		// sits one past the last bit.
		RecodeSparse(&s, ones, 2)
		if s.N != 2 || int(s.D[1].Pos) != 64*sz.limbs {
			t.Fatalf("%d limbs, all ones: digits %v", sz.limbs, s.D[:s.N])
		}
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
		RecodeSparse(&s, ks[i&63][:], 5)
		i++
	}
}
