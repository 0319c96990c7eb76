package main

import (
	"context"
	"math"
	"testing"
	"time"
)

func TestStat(t *testing.T) {
	s := statOf([]float64{3, 1, math.NaN(), 2, 10})
	if s.N != 4 || s.Med != 2.5 || s.Min != 1 || s.Max != 10 {
		t.Errorf("statOf: %+v", s)
	}
	if !s.wide() {
		t.Error("1..10 around 2.5 should be too wide")
	}
	if s := statOf([]float64{1.0, 1.05, 1.1}); s.Med != 1.05 || s.wide() {
		t.Errorf("statOf narrow: %+v wide=%v", s, s.wide())
	}
	if s := statOf(nil); s.ok() || !math.IsNaN(s.Med) {
		t.Errorf("statOf(nil): %+v", s)
	}
}

func TestPairRatios(t *testing.T) {
	got := pairRatios([]float64{2, 3, math.NaN(), 4}, []float64{4, 3, 1, 0})
	want := []float64{0.5, 1}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("pairRatios = %v, want %v", got, want)
	}
}

// The rounds alternate the variants after one warm-up run of each.
func TestInterleaveOrder(t *testing.T) {
	var order []string
	run := func(_ context.Context, v string, d time.Duration, warm bool) (sample, error) {
		tag := v
		if warm {
			tag = "warm-" + v
		}
		order = append(order, tag)
		return sample{value: 1, failures: 1}, nil
	}
	m, err := interleave(context.Background(), []string{vStdlib, vOurs}, 3, time.Millisecond, time.Millisecond, run, func(int, string) {})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"warm-stdlib", "warm-p256tls", "stdlib", "p256tls", "stdlib", "p256tls", "stdlib", "p256tls"}
	if len(order) != len(want) {
		t.Fatalf("order %v, want %v", order, want)
	}
	for i := range want {
		if order[i] != want[i] {
			t.Fatalf("order %v, want %v", order, want)
		}
	}
	if len(m.rounds) != 3 || m.failures != 8 {
		t.Errorf("rounds %d, failures %d (warm-up failures must count too)", len(m.rounds), m.failures)
	}
}

func TestParseSpeed(t *testing.T) {
	out := []byte(`options: bn(64,64)
                              sign    verify    sign/s verify/s
 256 bits ecdsa (nistp256)   0.0000s   0.0000s  50000.0  20000.0
`)
	s, v, err := parseSpeed(out)
	if err != nil || s != 20000 || v != 50000 {
		t.Errorf("parseSpeed = %v, %v, %v", s, v, err)
	}
	if _, _, err := parseSpeed([]byte("nothing here")); err == nil {
		t.Error("parseSpeed accepted output without a result line")
	}
}

func TestReverseLine(t *testing.T) {
	if got := string(reverseLine([]byte("abc\n"))); got != "cba\n" {
		t.Errorf("reverseLine = %q", got)
	}
}

func TestMedianCI(t *testing.T) {
	for _, c := range []struct {
		n, k int
		conf float64
	}{
		{1, 1, 0}, {2, 1, 0.5}, {5, 1, 0.9375}, {6, 1, 0.96875}, {8, 1, 0.9921875},
		{9, 2, 0.9609375}, {10, 2, 0.978515625}, {20, 6, 0.9586105346679688}, {40, 14, 0.9615226917157997},
	} {
		k, conf := medianCI(c.n)
		if k != c.k || math.Abs(conf-c.conf) > 1e-9 {
			t.Errorf("medianCI(%d) = %d, %v; want %d, %v", c.n, k, conf, c.k, c.conf)
		}
	}
	s := statOf([]float64{0.9, 0.95, 0.97, 0.98, 0.99})
	if s.verdict() != "p256tls cheaper" {
		t.Errorf("all ratios below 1: %q", s.verdict())
	}
	if s := statOf([]float64{0.97, 1.05, 1.13, 1.15, 1.19}); s.verdict() != "no difference resolved" {
		t.Errorf("ratios around 1: %q", s.verdict())
	}
	if s := statOf([]float64{1.01, 1.05, 1.13}); s.verdict() != "p256tls costlier" {
		t.Errorf("all ratios above 1: %q", s.verdict())
	}
}
