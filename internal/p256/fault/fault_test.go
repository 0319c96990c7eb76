package fault

import (
	"math/big"
	"testing"

	"github.com/p256tls/p256tls/internal/p256/scalar"
)

func scalarOf(t *testing.T, v *big.Int) scalar.Scalar {
	t.Helper()
	var b [32]byte
	v.FillBytes(b[:])
	var s scalar.Scalar
	if _, err := s.SetBytes(b[:]); err != nil {
		t.Fatal(err)
	}
	return s
}

func limbsOf(v *big.Int) [4]uint64 {
	var l [4]uint64
	for i, w := range new(big.Int).Set(v).Bits() {
		l[i] = uint64(w)
	}
	return l
}

func TestInject(t *testing.T) {
	n := new(big.Int).SetBytes(func() []byte { b := [32]byte{}; return putN(b[:]) }())
	v, _ := new(big.Int).SetString("123456789abcdef0fedcba98765432100f1e2d3c4b5a69788796a5b4c3d2e1f0", 16)
	x := scalarOf(t, v)
	orig := x

	Inject(R, &x) // no hook
	if x != orig || Active() {
		t.Fatal("Inject changed x without a hook")
	}

	var seen [4]uint64
	var seenPoint Point = -1
	write := new(big.Int).Add(n, big.NewInt(5)) // ≥ n: reduced to 5
	restore := Set(func(p Point, l *[4]uint64) {
		seen, seenPoint = *l, p
		*l = limbsOf(write)
	})
	if !Active() {
		t.Fatal("Active() = false with a hook")
	}
	Inject(KInv, &x)
	if seenPoint != KInv || seen != limbsOf(v) {
		t.Errorf("hook saw %v, %x; want KInv and the plain value %x", seenPoint, seen, limbsOf(v))
	}
	if want := scalarOf(t, big.NewInt(5)); x != want {
		t.Errorf("after the hook wrote n+5, x = %x; want 5", x.Bytes())
	}
	write = v
	Inject(S, &x)
	if x != orig {
		t.Errorf("after the hook wrote v, x = %x; want v", x.Bytes())
	}

	inner := Set(nil)
	if Active() {
		t.Error("Set(nil) left a hook")
	}
	inner()
	if !Active() {
		t.Error("restore of Set(nil) did not bring the hook back")
	}
	restore()
	if Active() {
		t.Error("restore left a hook")
	}
}

// putN writes the group order n big-endian into b.
func putN(b []byte) []byte {
	for i, w := range scalar.N {
		for j := range 8 {
			b[31-8*i-j] = byte(w >> (8 * j))
		}
	}
	return b
}
