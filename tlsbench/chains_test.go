package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/p256tls/p256tls/internal/testsupport/testpki"
)

// TestChainRows: both sides of every chain row verify, cold rows make a new
// leaf per operation, and each side reports a positive time per operation.
func TestChainRows(t *testing.T) {
	rows, err := chainRows(testpki.P384)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || !strings.Contains(rows[0].name, "cold") || !strings.Contains(rows[1].name, "warm") {
		t.Fatalf("rows %q, want cold then warm", []string{rows[0].name, rows[len(rows)-1].name})
	}
	for _, r := range rows {
		if v := r.variants(); len(v) != 2 {
			t.Errorf("%s: variants %v", r.name, v)
		}
		for _, v := range r.variants() {
			s, err := r.run(context.Background(), v, 20*time.Millisecond, false)
			if err != nil || s.n == 0 || !(s.value > 0) {
				t.Errorf("%s (%s): %+v, %v", r.name, v, s, err)
			}
		}
	}
	if note := rows[1].noteText(); !strings.Contains(note, "chains accepted by its fast path") {
		t.Errorf("warm row note %q", note)
	}

	c, err := newChainPKI(testpki.P384)
	if err != nil {
		t.Fatal(err)
	}
	a, err := c.newLeaf()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := c.newLeaf()
	if string(a.Raw) == string(b.Raw) || a.SerialNumber.Cmp(b.SerialNumber) == 0 {
		t.Error("newLeaf returned the same leaf twice")
	}
	if err := b.CheckSignatureFrom(c.inter.Cert); err != nil {
		t.Errorf("leaf not signed by the intermediate: %v", err)
	}
	if err := c.stdVerify(c.warm[:1]); err == nil {
		t.Error("crypto/x509 verified a leaf without its intermediate")
	}
}

func TestFmtRatioSmall(t *testing.T) {
	for _, c := range []struct {
		s    stat
		want string
	}{
		{stat{N: 3, Med: 0.0026, Min: 0.0025, Max: 0.0027}, "0.0026 [0.0025–0.0027]"},
		{stat{N: 3, Med: 0.28, Min: 0.27, Max: 0.29}, "0.28 [0.27–0.29]"},
	} {
		if got := fmtRatio(c.s); got != c.want {
			t.Errorf("fmtRatio(%+v) = %q, want %q", c.s, got, c.want)
		}
	}
}
