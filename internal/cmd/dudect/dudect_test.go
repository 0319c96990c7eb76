package main

import (
	"os"
	"testing"
)

// TestDudect runs every test in its short form (10^5 measurements each)
// and applies the |t| gate. It takes a minute or more, so it only runs with
// P256TLS_DUDECT=1; the full run is `go run ./internal/cmd/dudect`.
func TestDudect(t *testing.T) {
	if os.Getenv("P256TLS_DUDECT") == "" {
		t.Skip("set P256TLS_DUDECT=1 to run the timing test")
	}
	n := 100_000
	if testing.Short() {
		n = 20_000
	}
	for _, tc := range Tests() {
		r := tc.Run(n)
		t.Log(r)
		if !r.Pass() {
			t.Errorf("%s: |t| = %.2f ≥ %.1f", r.Name, r.MaxT, Threshold)
		}
	}
}

// TestWelch checks the statistic on synthetic data: equal distributions give
// a small |t|, shifted ones a large |t|.
func TestWelch(t *testing.T) {
	var same, shifted welch
	for i := 0; i < 10000; i++ {
		x := float64(i%97) + float64(i%13)
		same.add(i&1, x)
		shifted.add(i&1, x+float64(i&1)*5)
	}
	if tt := same.t(); tt > 1 || tt < -1 {
		t.Errorf("equal classes: t = %.2f", tt)
	}
	if tt := shifted.t(); tt > -5 {
		t.Errorf("shifted classes: t = %.2f", tt)
	}
}
