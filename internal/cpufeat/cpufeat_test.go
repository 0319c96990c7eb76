package cpufeat

import (
	"runtime"
	"testing"
)

func TestString(t *testing.T) {
	for _, c := range []struct {
		s    Set
		want string
	}{
		{0, "none"},
		{ADX | BMI2, "BMI2|ADX"},
		{AVX512IFMA | AVX512F | AVX512DQ, "AVX512F|AVX512DQ|AVX512IFMA"},
	} {
		if got := c.s.String(); got != c.want {
			t.Errorf("%#x: %q, want %q", uint16(c.s), got, c.want)
		}
	}
}

func TestAvailable(t *testing.T) {
	if !Set(0).Available() {
		t.Error("the empty set is not available")
	}
	all := BMI2 | ADX | AVX | AVX2 | AVX512F | AVX512DQ | AVX512VL | AVX512IFMA
	if runtime.GOARCH != "amd64" && all.Available() {
		t.Error("x86 extensions available off amd64")
	}
	// Every subset of what the CPU has is available, and a set with one
	// extension the CPU lacks is not.
	h := have()
	for e := Set(1); e <= AVX512IFMA; e <<= 1 {
		if got, want := (h | e).Available(), h&e != 0; got != want {
			t.Errorf("have %v plus %v: Available = %v, want %v", h, e, got, want)
		}
	}
	t.Logf("this CPU: %v", h)
}
