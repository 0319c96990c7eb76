package comb

import (
	"bytes"
	"crypto/ecdh"
	"crypto/rand"
	"crypto/sha256"
	"fmt"
	"math/big"
	"os"
	"testing"

	"github.com/p256tls/p256tls/internal/p256/field"
	"github.com/p256tls/p256tls/internal/p256/point"
)

var (
	bigP = hexBig("ffffffff00000001000000000000000000000000ffffffffffffffffffffffff")
	bigN = hexBig("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")
	// rInvP is 2^-256 mod p, to leave Montgomery form with math/big.
	rInvP = new(big.Int).ModInverse(new(big.Int).Lsh(big.NewInt(1), 256), bigP)
)

func hexBig(s string) *big.Int {
	v, ok := new(big.Int).SetString(s, 16)
	if !ok {
		panic(s)
	}
	return v
}

func limbsOf(v *big.Int) [4]uint64 {
	var l [4]uint64
	for i := range l {
		l[i] = new(big.Int).Rsh(v, uint(64*i)).Uint64()
	}
	return l
}

func bigOf(l [4]uint64) *big.Int {
	v := new(big.Int)
	for i := 3; i >= 0; i-- {
		v.Lsh(v, 64).Or(v, new(big.Int).SetUint64(l[i]))
	}
	return v
}

// fromMont converts Montgomery limbs to a plain value with math/big only.
func fromMont(e field.Element) *big.Int {
	v := bigOf(e)
	return v.Mul(v, rInvP).Mod(v, bigP)
}

// ecdhBase returns the SEC1 uncompressed encoding of (k mod n)·G computed by
// crypto/ecdh, or nil when k ≡ 0 (mod n).
func ecdhBase(t testing.TB, k *big.Int) []byte {
	t.Helper()
	m := new(big.Int).Mod(k, bigN)
	if m.Sign() == 0 {
		return nil
	}
	var b [32]byte
	m.FillBytes(b[:])
	priv, err := ecdh.P256().NewPrivateKey(b[:])
	if err != nil {
		t.Fatal(err)
	}
	return priv.PublicKey().Bytes()
}

// impl is an implementation of k·G; tests run every one available here.
type impl struct {
	name string
	f    func(out *point.Projective, k *[4]uint64)
}

// impls holds ScalarBaseMult and, on amd64, each of the kernels it chooses
// between (added by wide_test.go).
var impls = []impl{{"ScalarBaseMult", ScalarBaseMult}}

// combBase returns the SEC1 encoding of k·G from ScalarBaseMult, or nil for
// the point at infinity.
func combBase(k *big.Int) []byte { return combBaseWith(ScalarBaseMult, k) }

func combBaseWith(f func(*point.Projective, *[4]uint64), k *big.Int) []byte {
	l := limbsOf(k)
	var p point.Projective
	f(&p, &l)
	a, ok := p.Affine()
	if ok == 0 {
		return nil
	}
	b := a.BytesUncompressed()
	return b[:]
}

func checkScalar(t *testing.T, k *big.Int) {
	t.Helper()
	want := ecdhBase(t, k)
	for _, im := range impls {
		if got := combBaseWith(im.f, k); !bytes.Equal(got, want) {
			t.Fatalf("%s: k = %#x:\n got %x\nwant %x", im.name, k, got, want)
		}
	}
}

// TestTableIndependent recomputes every entry of the static table with
// crypto/ecdh, (j+1)·2^(w·i) mod n times G, and compares coordinates
// converted out of Montgomery form with math/big.
func TestTableIndependent(t *testing.T) {
	for i := 0; i < positions; i++ {
		for j := 0; j < entries; j++ {
			k := new(big.Int).Lsh(big.NewInt(int64(j+1)), uint(width*i))
			want := ecdhBase(t, k)
			e := table[i][j]
			x, y := fromMont(e.X), fromMont(e.Y)
			got := make([]byte, 65)
			got[0] = 4
			x.FillBytes(got[1:33])
			y.FillBytes(got[33:])
			if !bytes.Equal(got, want) {
				t.Fatalf("table[%d][%d] is wrong", i, j)
			}
			if bigOf(e.X).Cmp(bigP) >= 0 || bigOf(e.Y).Cmp(bigP) >= 0 {
				t.Fatalf("table[%d][%d] is not reduced", i, j)
			}
		}
	}
}

// boothDigits recodes k with math/big, independently of digit.
func TestDigitRecoding(t *testing.T) {
	check := func(k *big.Int) {
		l := limbsOf(k)
		kk := [8]uint64{l[0] << 1, l[1]<<1 | l[0]>>63, l[2]<<1 | l[1]>>63, l[3]<<1 | l[2]>>63, l[3] >> 63}
		sum := new(big.Int)
		for i := positions - 1; i >= 0; i-- {
			abs, neg, zero := digit(&kk, uint(i))
			if abs < 0 || abs > entries || neg|1 != 1 || zero|1 != 1 {
				t.Fatalf("k = %#x position %d: digit (%d, %d, %d) out of range", k, i, abs, neg, zero)
			}
			if (abs == 0) != (zero == 1) || (zero == 1 && neg == 1) {
				t.Fatalf("k = %#x position %d: inconsistent flags (%d, %d, %d)", k, i, abs, neg, zero)
			}
			if i == positions-1 && neg == 1 {
				t.Fatalf("k = %#x: negative top digit", k)
			}
			d := big.NewInt(int64(abs))
			if neg == 1 {
				d.Neg(d)
			}
			sum.Lsh(sum, width).Add(sum, d)
		}
		if sum.Cmp(k) != 0 {
			t.Fatalf("digits of %#x sum to %#x", k, sum)
		}
	}
	max := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
	for _, k := range []*big.Int{big.NewInt(0), big.NewInt(1), max, bigN} {
		check(k)
	}
	for i := 0; i < 2000; i++ {
		k, _ := rand.Int(rand.Reader, new(big.Int).Add(max, big.NewInt(1)))
		check(k)
	}
}

// TestLookup checks both the selection in use and the portable one against
// plain indexing, for every index of every position.
func TestLookup(t *testing.T) {
	for i := 0; i < positions; i++ {
		for idx := 1; idx <= entries; idx++ {
			var a, b point.Affine
			lookup(&a, &table[i], idx)
			lookupGeneric(&b, &table[i], idx)
			if a != table[i][idx-1] || b != table[i][idx-1] {
				t.Fatalf("lookup(position %d, %d) is wrong", i, idx)
			}
		}
	}
}

// at returns the index, sign and zero flag of position i of d.
func (d *recoding) at(i uint) (idx, neg, zero int) {
	r, l := i/8%rounds8, i%8
	return int(d[r][0][l]), int(d[r][1][l]), int(d[r][2][l])
}

// TestZeroDigitAddend checks that a zero digit's addend is a real point of
// the curve (the dummy addition never sees zero operands) and that the
// caller is told to keep its sum.
// addend sets e to the point that position i adds: d_i·2^(w·i)·G, or the
// real point 2^(w·i)·G when d_i = 0, exactly as the kernels read it, and
// returns 1 if d_i = 0 (the sum is then kept) and 0 otherwise.
func addend(e *point.Affine, d *recoding, i uint) (zero int) {
	idx, neg, zero := d.at(i)
	lookup(e, &table[i%positions], idx)
	e.CondNeg(neg)
	return zero
}

func TestZeroDigitAddend(t *testing.T) {
	var kk [8]uint64 // k = 0: every digit is zero
	var d recoding
	recode(&d, &kk)
	for i := uint(0); i < positions; i++ {
		var e point.Affine
		if zero := addend(&e, &d, i); zero != 1 {
			t.Fatalf("position %d: zero digit not reported", i)
		}
		if e.IsOnCurve() != 1 || e != table[i][0] {
			t.Fatalf("position %d: zero digit's addend is not the real point 2^(w·i)·G", i)
		}
		// The eight-lane kernel reads the same index.
		if idx, _, zero := d.at(i); idx != 1 || zero != 1 {
			t.Fatalf("position %d: recoding of a zero digit is (%d, %d)", i, idx, zero)
		}
	}
}

// TestOffsetIndependent recomputes the offset point T = t·G and the
// corrections −T and −8T with crypto/ecdh.
func TestOffsetIndependent(t *testing.T) {
	h := sha256.Sum256([]byte("p256tls comb offset"))
	ts := new(big.Int).SetBytes(h[:])
	ts.Mod(ts, bigN)
	enc := func(a point.Affine) []byte {
		x, y := fromMont(a.X), fromMont(a.Y)
		b := make([]byte, 65)
		b[0] = 4
		x.FillBytes(b[1:33])
		y.FillBytes(b[33:])
		return b
	}
	neg := func(k *big.Int) *big.Int { return new(big.Int).Sub(bigN, new(big.Int).Mod(k, bigN)) }
	for _, c := range []struct {
		name string
		got  point.Affine
		k    *big.Int
	}{
		{"T", offsetT, ts},
		{"−T", negOffsetT, neg(ts)},
	} {
		if !bytes.Equal(enc(c.got), ecdhBase(t, c.k)) {
			t.Errorf("%s is wrong", c.name)
		}
	}
	for z, p := range negOffsetZT {
		a, ok := p.Affine()
		if z == 0 {
			if ok != 0 {
				t.Error("−0·T is not infinity")
			}
			continue
		}
		if ok != 1 || p.Z != negOffsetZT[1].Z || !bytes.Equal(enc(a), ecdhBase(t, neg(new(big.Int).Mul(ts, big.NewInt(int64(z)))))) {
			t.Errorf("−%d·T is wrong", z)
		}
	}
}

func TestEdgeScalars(t *testing.T) {
	one := big.NewInt(1)
	two256 := new(big.Int).Lsh(one, 256)
	ks := []*big.Int{
		big.NewInt(1), big.NewInt(2), big.NewInt(3),
		new(big.Int).Sub(bigN, one), new(big.Int).Sub(bigN, big.NewInt(2)),
		new(big.Int).Add(bigN, one), new(big.Int).Sub(two256, one),
		new(big.Int).Lsh(one, 255), new(big.Int).Lsh(one, 256-width),
		new(big.Int).Rsh(bigN, 1), new(big.Int).Add(new(big.Int).Rsh(bigN, 1), one),
	}
	for _, k := range ks {
		checkScalar(t, k)
	}
	// k = 0 and k = n give the point at infinity.
	for _, k := range []*big.Int{new(big.Int), bigN} {
		for _, im := range impls {
			if got := combBaseWith(im.f, k); got != nil {
				t.Fatalf("%s: k = %#x: got %x, want infinity", im.name, k, got)
			}
		}
	}
}

// TestEveryDigit makes every digit value appear at every position where the
// recoding can produce it: for 0 ≤ d < 2^(w−1) the scalar d·2^(w·i); for
// d < 0 the scalar 2^(w·(i+1)) + d·2^(w·i) (digit d at position i, 1 at
// position i+1); for d = 2^(w−1) the scalar d·2^(w·i) − d·2^(w·(i−1)).
// The top digit is never negative and position 0 never reaches 2^(w−1).
func TestEveryDigit(t *testing.T) {
	half := 1 << (width - 1)
	for i := 0; i < positions; i++ {
		for d := -half; d <= half; d++ {
			k := new(big.Int).Lsh(big.NewInt(int64(d)), uint(width*i))
			switch {
			case d < 0:
				if i == positions-1 {
					continue // the top digit is never negative
				}
				k.Add(k, new(big.Int).Lsh(big.NewInt(1), uint(width*(i+1))))
			case d == half:
				if i == 0 {
					continue // position 0 has no carry in: its digits are < 2^(w−1)
				}
				// Booth reads d·2^(w·i) as (−d, +1): write it as d at i and −d at i−1.
				k.Sub(k, new(big.Int).Lsh(big.NewInt(int64(half)), uint(width*(i-1))))
			}
			if k.BitLen() > 256 {
				continue
			}
			t.Run(fmt.Sprintf("pos%d/d%d", i, d), func(t *testing.T) {
				// Check the recoding puts d at position i.
				l := limbsOf(k)
				kk := [8]uint64{l[0] << 1, l[1]<<1 | l[0]>>63, l[2]<<1 | l[1]>>63, l[3]<<1 | l[2]>>63, l[3] >> 63}
				abs, neg, _ := digit(&kk, uint(i))
				if got := abs * (1 - 2*neg); got != d {
					t.Fatalf("digit %d at position %d recoded as %d", d, i, got)
				}
				if d != 0 || i == 0 {
					checkScalar(t, k)
				}
			})
		}
	}
}

func TestRandomScalars(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 50
	}
	if os.Getenv("P256TLS_LONG") != "" {
		n = 20000
	}
	for i := 0; i < n; i++ {
		k, _ := rand.Int(rand.Reader, bigN)
		checkScalar(t, k)
	}
}

var sink point.Projective

func BenchmarkScalarBaseMult(b *testing.B) {
	k, _ := rand.Int(rand.Reader, bigN)
	l := limbsOf(k)
	b.ReportAllocs()
	for b.Loop() {
		ScalarBaseMult(&sink, &l)
	}
}

func BenchmarkScalarBaseMultAffine(b *testing.B) {
	k, _ := rand.Int(rand.Reader, bigN)
	l := limbsOf(k)
	b.ReportAllocs()
	for b.Loop() {
		ScalarBaseMult(&sink, &l)
		a, _ := sink.Affine()
		sink.X = a.X
	}
}

// BenchmarkECDHPublicKey is crypto/ecdh's P-256 public key derivation
// (a scalar base multiplication, its affine conversion and encoding), for
// comparison in the same run.
func BenchmarkECDHPublicKey(b *testing.B) {
	k, _ := ecdh.P256().GenerateKey(rand.Reader)
	s := k.Bytes()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ecdh.P256().NewPrivateKey(s); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLookup(b *testing.B) {
	var e point.Affine
	for b.Loop() {
		lookup(&e, &table[3], 7)
	}
}

func BenchmarkAddMixed(b *testing.B) {
	var p point.Projective
	p.SetAffine(&table[0][0])
	for b.Loop() {
		p.AddMixed(&p, &table[1][3])
	}
	sink = p
}

// TestAddMixed compares addMixed (the assembly kernel where it runs) with
// point's AddMixed on random points, infinity, equal and opposite points.
func TestAddMixed(t *testing.T) {
	var qs []point.Projective
	var as []point.Affine
	var inf point.Projective
	inf.SetInfinity()
	qs = append(qs, inf)
	for i := 0; i < 20; i++ {
		a := table[i][i%entries]
		as = append(as, a)
		var q point.Projective
		q.SetAffine(&table[(i*7)%positions][(i*5)%entries])
		// Randomize Z: (X·z, Y·z, z).
		var z field.Element
		z.One()
		for j := 0; j <= i; j++ {
			z.Add(&z, &z)
			z.Add(&z, &q.X)
		}
		q.X.Mul(&q.X, &z)
		q.Y.Mul(&q.Y, &z)
		q.Z.Mul(&q.Z, &z)
		qs = append(qs, q)
		var eq, opp point.Projective
		eq.SetAffine(&a)
		n := a
		n.Neg(&a)
		opp.SetAffine(&n)
		qs = append(qs, eq, opp)
	}
	for _, q := range qs {
		for _, a := range as {
			var got, want point.Projective
			addMixed(&got, &q, &a)
			want.AddMixed(&q, &a)
			if got != want {
				t.Fatalf("addMixed differs from point.AddMixed")
			}
			// Aliasing the output with the input.
			got = q
			addMixed(&got, &got, &a)
			if got != want {
				t.Fatalf("addMixed with aliased output differs")
			}
		}
	}
}

func BenchmarkAddMixedKernel(b *testing.B) {
	var p point.Projective
	p.SetAffine(&table[0][0])
	for b.Loop() {
		addMixed(&p, &p, &table[1][3])
	}
	sink = p
}

func BenchmarkLookupGeneric(b *testing.B) {
	var e point.Affine
	for b.Loop() {
		lookupGeneric(&e, &table[3], 7)
	}
}

// TestStep compares the comb step in use (the fused assembly kernel where it
// runs) with the portable one, for every index, both signs and both keep
// values.
func TestStep(t *testing.T) {
	var start point.Projective
	start.SetAffine(&table[5][9])
	var z field.Element
	z.One()
	z.Add(&z, &z).Add(&z, &table[1][1].X) // some Z ≠ 1
	start.X.Mul(&start.X, &z)
	start.Y.Mul(&start.Y, &z)
	start.Z.Mul(&start.Z, &z)
	var inf point.Projective
	inf.SetInfinity()
	for _, acc0 := range []point.Projective{start, inf} {
		for pos := 0; pos < positions; pos += 7 {
			for idx := 1; idx <= entries; idx++ {
				for neg := 0; neg < 2; neg++ {
					for keep := 0; keep < 2; keep++ {
						a, b := acc0, acc0
						step(&a, &table[pos], idx, neg, keep)
						stepGeneric(&b, &table[pos], idx, neg, keep)
						if a != b {
							t.Fatalf("step(pos %d, idx %d, neg %d, keep %d) differs", pos, idx, neg, keep)
						}
						if keep == 1 && a != acc0 {
							t.Fatalf("keep = 1 changed the sum")
						}
					}
				}
			}
		}
	}
}

// digit returns the Booth digit of position i of the scalar whose doubled
// value is kk (window then booth, as the kernels' portable twin reads them), as its magnitude |d| ∈ [0, 2^(w−1)], its sign (1 if d < 0)
// and whether it is zero (1 if d = 0). Branch-free: i is public and only
// selects which bits are read.
//
// The window is the w+1 bits u = b_(wi+w−1) … b_(wi) b_(wi−1) of k (bit −1
// being 0). With m = u >> 1 (w bits), c = u & 1 and s the top bit of m, the
// digit is d = m + c − s·2^w: the window's top bit weighs −2^(w−1) here and
// +1 in the next window, which telescopes to k.
func digit(kk *[8]uint64, i uint) (abs, neg, zero int) {
	return booth(window(kk, i))
}
