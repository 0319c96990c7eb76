package safegcd

import "testing"

// TestCancelTable checks every entry of the generated table by its defining
// property: g + f·e ≡ 0 (mod 64) for odd f, so one addition of e·f clears
// the six low bits of g.
func TestCancelTable(t *testing.T) {
	for f := uint64(1); f < 64; f += 2 {
		for g := uint64(0); g < 64; g++ {
			e := uint64(cancelTable[(f-1)/2*64+g])
			if e >= 64 || (g+f*e)&63 != 0 {
				t.Fatalf("cancelTable for f ≡ %d, g ≡ %d is %d: g + f·e ≡ %d (mod 64), want 0", f, g, e, (g+f*e)&63)
			}
		}
	}
}
