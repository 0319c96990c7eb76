package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// A run's output as the testing package writes it, and the plugin's marks
// (one per write, the counts when it was issued).
const sampleOutput = "goos: linux\ngoarch: arm64\n" +
	"BenchmarkA         \t       4\t  100 ns/op\n" +
	"BenchmarkB/x       \t       4\t  100 ns/op\n" +
	"PASS\n"

func sampleMarks(a, b int64) []mark {
	ws, _ := writes(sampleOutput)
	// Start-up 1000; A's work before its name, B's before its results.
	c := []int64{1000, 1010, 1000 + a, 1000 + a + 5, 1000 + a + 7, 1000 + a + 7 + b, 1000 + a + 7 + b + 3}
	var ms []mark
	for i, w := range ws {
		ms = append(ms, mark{int64(len(w)), counts{c[i], c[i] / 10}})
	}
	return ms
}

func TestWrites(t *testing.T) {
	ws, results := writes(sampleOutput)
	if len(ws) != 7 || len(results) != 2 || results[0] != 3 || results[1] != 5 {
		t.Fatalf("writes = %q, results %v", ws, results)
	}
	if ws[2] != "BenchmarkA         \t" || ws[3] != "       4\t  100 ns/op\n" {
		t.Errorf("benchmark line split as %q, %q", ws[2], ws[3])
	}
}

func TestSegmentsAndDifference(t *testing.T) {
	a, err := segments(sampleOutput, sampleMarks(400, 800))
	if err != nil {
		t.Fatal(err)
	}
	out44 := strings.ReplaceAll(sampleOutput, "       4\t", "      44\t")
	b, err := segments(out44, sampleMarks(400+40*1000, 800+40*3000))
	if err != nil {
		t.Fatal(err)
	}
	if a[0].name != "BenchmarkA" || a[1].name != "BenchmarkB/x" || a[1].iters != 4 {
		t.Fatalf("segments = %+v", a)
	}
	d, err := difference(a, b, 4, 44)
	if err != nil {
		t.Fatal(err)
	}
	if d[0].insns != 1000 || d[1].insns != 3000 {
		t.Errorf("per iteration: %+v, want 1000 and 3000", d)
	}
	if d[0].muls != 100 || d[1].muls != 300 {
		t.Errorf("multiplies per iteration: %+v, want 100 and 300", d)
	}
	if _, err := difference(a, b, 4, 40); err == nil {
		t.Error("difference accepted runs of other iteration counts than asked")
	}
}

// TestSegmentsMismatch: counts that do not pair with the output's writes
// are refused, never split wrongly.
func TestSegmentsMismatch(t *testing.T) {
	ms := sampleMarks(400, 800)
	if _, err := segments(sampleOutput, ms[1:]); err == nil {
		t.Error("one write missing: accepted")
	}
	ms[2].len++
	if _, err := segments(sampleOutput, ms); err == nil {
		t.Error("a write of another length: accepted")
	}
}

var testOps = []op{
	{"sign/ecdsa", "./sign", "BenchmarkECDSASignASN1", "", false},
	{"sign/checked", "./sign", "BenchmarkSign", "sign/ecdsa", true},
	{"sign/unchecked", "./sign", "BenchmarkSignUnchecked", "sign/ecdsa", false},
}

func verdicts(rows []row) map[key]row {
	m := map[key]row{}
	for _, r := range rows {
		m[r.key] = r
	}
	return m
}

func TestJudgeGrowth(t *testing.T) {
	base := map[key]cost{
		{"amd64", "sign/unchecked"}: {1000, -1},
		{"arm64", "sign/unchecked"}: {1000, 100},
		{"arm64", "sign/checked"}:   {1000, 100},
		{"arm64", "sign/ecdsa"}:     {5000, 500},
	}
	cur := map[key]cost{
		{"amd64", "sign/ecdsa"}:     {5000, -1},
		{"amd64", "sign/unchecked"}: {1020, -1},  // +2.0%: at the limit
		{"arm64", "sign/ecdsa"}:     {6000, 600}, // +20%: not ours, a note
		{"arm64", "sign/unchecked"}: {1000, 103}, // multiplies +3%
		{"arm64", "sign/checked"}:   {1021, 100}, // instructions +2.1%
	}
	v := verdicts(judge(testOps, cur, base))
	if r := v[key{"amd64", "sign/unchecked"}]; r.failed {
		t.Errorf("+2.0%%: %s", r.verdict)
	}
	if r := v[key{"arm64", "sign/unchecked"}]; !r.failed || !strings.Contains(r.verdict, "multiplies +3.0%") {
		t.Errorf("multiplies +3%%: %s", r.verdict)
	}
	if r := v[key{"arm64", "sign/checked"}]; !r.failed || !strings.Contains(r.verdict, "instructions +2.1%") {
		t.Errorf("instructions +2.1%%: %s", r.verdict)
	}
	if r := v[key{"arm64", "sign/ecdsa"}]; r.failed || !strings.Contains(r.verdict, "note") {
		t.Errorf("the standard library's growth: %s", r.verdict)
	}
	if r := v[key{"amd64", "sign/ecdsa"}]; r.failed {
		t.Errorf("a reference without a baseline: %s", r.verdict)
	}
	delete(base, key{"amd64", "sign/unchecked"})
	if r := verdicts(judge(testOps, cur, base))[key{"amd64", "sign/unchecked"}]; !r.failed {
		t.Errorf("an op of ours without a baseline: %s", r.verdict)
	}
}

func TestJudgeNeverSlower(t *testing.T) {
	base := map[key]cost{
		{"arm64", "sign/unchecked"}: {1500, 150},
		{"arm64", "sign/checked"}:   {1500, 150},
		{"amd64", "sign/unchecked"}: {1500, -1},
	}
	for _, c := range []struct {
		unchecked cost
		fail      bool
	}{
		{cost{1001, 101}, true},  // both above the reference: routed to it, or fail
		{cost{1001, 100}, false}, // multiplies equal
		{cost{1400, 90}, false},  // more instructions, fewer multiplies
		{cost{900, 140}, false},  // fewer instructions
	} {
		cur := map[key]cost{
			{"arm64", "sign/ecdsa"}:     {1000, 100},
			{"arm64", "sign/unchecked"}: c.unchecked,
			{"arm64", "sign/checked"}:   {1400, 140}, // exempt
			{"amd64", "sign/ecdsa"}:     {1000, -1},
			{"amd64", "sign/unchecked"}: {1400, -1}, // amd64: no such rule
		}
		v := verdicts(judge(testOps, cur, base))
		if r := v[key{"arm64", "sign/unchecked"}]; r.failed != c.fail || (c.fail && !strings.Contains(r.verdict, "never-slower")) {
			t.Errorf("unchecked %v against ecdsa {1000 100}: %s", c.unchecked, r.verdict)
		}
		if r := v[key{"arm64", "sign/checked"}]; r.failed {
			t.Errorf("checked signing is exempt: %s", r.verdict)
		}
		if r := v[key{"amd64", "sign/unchecked"}]; r.failed {
			t.Errorf("amd64: %s", r.verdict)
		}
		if r := v[key{"arm64", "sign/unchecked"}]; r.refRatio.insns != c.unchecked.insns/1000 {
			t.Errorf("ratio %v", r.refRatio)
		}
	}
}

func TestBaselineRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "baseline")
	cur := map[key]cost{
		{"arm64", "sign/ecdsa"}:     {1000, 100},
		{"arm64", "sign/unchecked"}: {600, 40},
	}
	old := map[key]cost{{"amd64", "sign/unchecked"}: {700, -1}, {"arm64", "sign/unchecked"}: {1, 1}}
	if err := writeBaseline(path, "# test\n", judge(testOps, cur, old), old); err != nil {
		t.Fatal(err)
	}
	got, err := readBaseline(path)
	if err != nil {
		t.Fatal(err)
	}
	want := map[key]cost{
		{"amd64", "sign/unchecked"}: {700, -1}, // an architecture not measured is kept
		{"arm64", "sign/ecdsa"}:     {1000, 100},
		{"arm64", "sign/unchecked"}: {600, 40},
	}
	if len(got) != len(want) {
		t.Fatalf("read %v, want %v", got, want)
	}
	for k, c := range want {
		if got[k] != c {
			t.Errorf("%v: read %v, want %v", k, got[k], c)
		}
	}
}

func TestAttribute(t *testing.T) {
	syms := []symbol{{"f", 0x100, 0x200}, {"g", 0x200, 0x300}}
	a := []block{{0x100, 10, 2, 5}, {0x180, 4, 0, 5}, {0x200, 20, 0, 1}, {0x900, 3, 0, 1}}
	b := []block{{0x100, 10, 2, 45}, {0x180, 4, 0, 45}, {0x200, 20, 0, 1}, {0x900, 3, 0, 41}}
	fs := attribute(syms, a, b, 4, 44)
	if len(fs) != 2 || fs[0].name != "f" || fs[0].insns != 14 || fs[0].muls != 2 || fs[1].name != "?" || fs[1].insns != 3 {
		t.Errorf("attribute = %+v", fs)
	}
}
