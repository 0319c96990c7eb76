package gentab

import (
	"strings"
	"testing"

	"github.com/p256tls/p256tls/internal/wnaf"
)

// TestSourceRefuses checks the shapes the generator refuses: widths outside
// [2, RunsMaxWidth], run counts outside [1, 64], splits whose last run would hold no
// digit position (32 runs of 13 positions for P-384's 385 digits), and
// odd-multiples widths outside [3, wnaf.MaxWidth].
func TestSourceRefuses(t *testing.T) {
	p256, err := Lookup("P-256")
	if err != nil {
		t.Fatal(err)
	}
	p384, err := Lookup("P-384")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		tg      Target
		w, runs int
		want    string
	}{
		{p256, 1, 16, "width"}, {p256, RunsMaxWidth + 1, 16, "width"}, {p256, 8, 0, "runs out of range"},
		{p256, 8, 65, "runs out of range"}, {p384, 5, 32, "empty"}, {p256, 5, 30, "empty"},
	} {
		if _, err := Source(c.tg, c.w, c.runs); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s w=%d runs=%d: %v, want an error about %q", c.tg.Curve.Name, c.w, c.runs, err, c.want)
		}
	}
	for _, w := range []int{2, wnaf.MaxWidth + 1} {
		if _, err := OddSource(p256, w); err == nil || !strings.Contains(err.Error(), "width") {
			t.Errorf("odd multiples at width %d: %v, want an error about the width", w, err)
		}
	}
	if _, err := OddSource(p384, wnaf.MaxWidth); err != nil {
		t.Errorf("odd multiples at width %d: %v", wnaf.MaxWidth, err)
	}
	if _, err := Lookup("P-521"); err == nil {
		t.Error("P-521 accepted")
	}
	if Digits(p256.Curve) != 257 || Digits(p384.Curve) != 385 || RunLen(p384.Curve, 20) != 20 || RunLen(p256.Curve, 16) != 17 {
		t.Error("digit counts")
	}
	if _, err := Source(p256, RunsMaxWidth, 16); err != nil {
		t.Errorf("width %d: %v", RunsMaxWidth, err)
	}
	if _, err := Source(p384, 4, 33); err != nil {
		t.Errorf("33 runs of 12 for P-384: %v", err)
	}
}
