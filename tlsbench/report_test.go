package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

var (
	combSigs     = regexp.MustCompile(`(\d+) signatures by the comb signer, (\d+) checks`)
	storeFast    = regexp.MustCompile(`(\d+) chains accepted by the trust store's fast path`)
	estimateLine = regexp.MustCompile(`tlsbench: measuring .*; this takes about (\d+) s\.\n`)
)

// A short run of the default matrix, as CI does it: the JSON follows the
// schema, no handshake fails, and the SVG is well-formed.
func TestShortRunJSON(t *testing.T) {
	if testing.Short() {
		t.Skip("about 15 s")
	}
	svgPath := filepath.Join(t.TempDir(), "chart.svg")
	o := parseOpts(t, "-duration", "200ms", "-rounds", "2", "-json", "-svg", svgPath)
	code, stdout, stderr := runBench(t, o)
	if code != 0 {
		t.Fatalf("exit %d; stderr:\n%s\nstdout:\n%s", code, stderr, stdout)
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, stdout)
	}
	checkSchema(t, doc, primitiveRows, 15)
	checkBreakdownJSON(t, doc, 11)
	// The estimate comes first, and the run takes about that long.
	m := estimateLine.FindStringSubmatch(stderr)
	if m == nil || !strings.HasPrefix(stderr, m[0]) {
		t.Fatalf("stderr does not start with the estimate:\n%s", stderr)
	}
	est, _ := strconv.Atoi(m[1])
	if el := doc["settings"].(map[string]any)["elapsed_s"].(float64); el > 1.25*float64(est)+5 || el < 0.6*float64(est) {
		t.Errorf("the run took %.0f s, estimated %d s", el, est)
	}
	chainRowsSeen := 0
	for _, h := range doc["handshakes"].([]any) {
		h := h.(map[string]any)
		if h["failures"].(float64) != 0 {
			t.Errorf("%v %v: %v failures", h["side"], h["name"], h["failures"])
		}
		if h["stdlib_cpu_us"] == nil || h["p256tls_cpu_us"] == nil {
			t.Errorf("%v %v: stdlib %v, p256tls %v", h["side"], h["name"], h["stdlib_cpu_us"], h["p256tls_cpu_us"])
		}
		// The chain rows' p256tls column really went through the trust
		// store's fast path, and they say what the server sends.
		if name := h["name"].(string); strings.Contains(name, "P-384 intermediate") {
			chainRowsSeen++
			note := h["note"].(string)
			m := storeFast.FindStringSubmatch(note)
			if m == nil || m[1] == "0" || !strings.Contains(note, chainRowNote) {
				t.Errorf("%v: note %q", name, note)
			}
		}
		// The p256tls server column really signed with the provider's
		// checked comb signer.
		if h["side"] == "server" {
			m := combSigs.FindStringSubmatch(h["note"].(string))
			if m == nil || m[1] == "0" {
				t.Errorf("%v: the provider identity's counters say %q", h["name"], h["note"])
			}
		}
	}
	if chainRowsSeen != 2 {
		t.Errorf("%d chain handshake rows, want 2", chainRowsSeen)
	}
	b, err := os.ReadFile(svgPath)
	if err != nil {
		t.Fatal(err)
	}
	checkSVG(t, b, 2*15) // two bars a row
}

// checkSchema checks the documented JSON shape:
// {"machine": {...}, "primitives": [{"name", "stdlib_ns", "p256tls_ns",
// "ratio"}], "handshakes": [{"name", "side", "stdlib_cpu_us",
// "p256tls_cpu_us", "ratio", "failures"}]}.
func checkSchema(t *testing.T, doc map[string]any, nPrims, nHS int) {
	t.Helper()
	machine, ok := doc["machine"].(map[string]any)
	if !ok {
		t.Fatalf("machine: %T", doc["machine"])
	}
	for _, k := range []string{"cpu", "cpus", "os", "arch", "go"} {
		if _, ok := machine[k]; !ok {
			t.Errorf("machine.%s missing", k)
		}
	}
	numOrNull := func(where string, v any, present bool) {
		if !present {
			t.Errorf("%s missing", where)
			return
		}
		if _, ok := v.(float64); v != nil && !ok {
			t.Errorf("%s: %T, want number or null", where, v)
		}
	}
	prims, ok := doc["primitives"].([]any)
	if !ok || len(prims) != nPrims {
		t.Fatalf("primitives: %d entries (%T), want %d", len(prims), doc["primitives"], nPrims)
	}
	for _, p := range prims {
		p := p.(map[string]any)
		if _, ok := p["name"].(string); !ok {
			t.Errorf("primitive name: %T", p["name"])
		}
		for _, k := range []string{"stdlib_ns", "p256tls_ns", "ratio"} {
			v, present := p[k]
			numOrNull("primitive "+k, v, present)
		}
	}
	hs, ok := doc["handshakes"].([]any)
	if !ok || len(hs) != nHS {
		t.Fatalf("handshakes: %d entries (%T), want %d", len(hs), doc["handshakes"], nHS)
	}
	for _, h := range hs {
		h := h.(map[string]any)
		if _, ok := h["name"].(string); !ok {
			t.Errorf("handshake name: %T", h["name"])
		}
		if side := h["side"]; side != "server" && side != "client" {
			t.Errorf("handshake side %v", side)
		}
		for _, k := range []string{"stdlib_cpu_us", "p256tls_cpu_us", "ratio"} {
			v, present := h[k]
			numOrNull("handshake "+k, v, present)
		}
		if f, ok := h["failures"].(float64); !ok || f != float64(int64(f)) || f < 0 {
			t.Errorf("handshake failures: %v", h["failures"])
		}
	}
}

// checkBreakdownJSON checks the breakdowns: the rows that measure the
// side p256tls is on (want of them) have one per column, each with every
// category in order, shares adding up to 1 and µs to the column's value;
// the other rows have none.
func checkBreakdownJSON(t *testing.T, doc map[string]any, want int) {
	t.Helper()
	rows := 0
	for _, h := range doc["handshakes"].([]any) {
		h := h.(map[string]any)
		name := fmt.Sprint(h["side"], " ", h["name"])
		bds, _ := h["breakdown"].([]any)
		if h["side"] != h["p256tls_on"] {
			if bds != nil {
				t.Errorf("%s: a breakdown on a row that measures the other side", name)
			}
			continue
		}
		rows++
		if e, ok := h["breakdown_error"].(string); ok {
			// A column can get no sample at all in a short run on a
			// loaded machine; anything else is wrong.
			if strings.Contains(e, "no CPU sample") && bds == nil {
				t.Logf("%s: %s", name, e)
				continue
			}
			t.Errorf("%s: breakdown_error %v", name, e)
		}
		if len(bds) != 2 {
			t.Errorf("%s: %d breakdowns, want 2", name, len(bds))
			continue
		}
		for i, b := range bds {
			b := b.(map[string]any)
			v := []string{vStdlib, vOurs}[i]
			if b["variant"] != v || b["cpu_us"] != h[v+"_cpu_us"] {
				t.Errorf("%s: breakdown %d is %v at %v µs, want %s at %v", name, i, b["variant"], b["cpu_us"], v, h[v+"_cpu_us"])
			}
			for _, k := range []string{"profiled_cpu_us", "handshakes", "samples", "sampled_fraction"} {
				if f, ok := b[k].(float64); !ok || f <= 0 {
					t.Errorf("%s %s: %s = %v", name, v, k, b[k])
				}
			}
			if b["profile_rate_hz"] != float64(profileRate) {
				t.Errorf("%s %s: profile_rate_hz %v", name, v, b["profile_rate_hz"])
			}
			cats := b["categories"].([]any)
			if len(cats) != int(numCategories) {
				t.Fatalf("%s %s: %d categories", name, v, len(cats))
			}
			share, us, samples := 0.0, 0.0, 0.0
			for j, c := range cats {
				c := c.(map[string]any)
				if c["category"] != category(j).id() {
					t.Errorf("%s %s: category %d is %v, want %s", name, v, j, c["category"], category(j).id())
				}
				for _, k := range []string{"us", "share", "error_us", "error_share", "samples"} {
					if f, ok := c[k].(float64); !ok || f < 0 {
						t.Errorf("%s %s %v: %s = %v", name, v, c["category"], k, c[k])
					}
				}
				share += c["share"].(float64)
				us += c["us"].(float64)
				samples += c["samples"].(float64)
			}
			if math.Abs(share-1) > 1e-9 || math.Abs(us-b["cpu_us"].(float64)) > 1e-6 || samples != b["samples"] {
				t.Errorf("%s %s: shares add up to %v, µs to %v (want %v), samples to %v (want %v)", name, v, share, us, b["cpu_us"], samples, b["samples"])
			}
		}
	}
	if rows != want {
		t.Errorf("%d rows measure the side p256tls is on, want %d", rows, want)
	}
}

func checkSVG(t *testing.T, b []byte, wantGroups int) {
	t.Helper()
	var root struct {
		XMLName xml.Name
		Rects   []struct {
			Title string `xml:"title"`
		} `xml:"rect"`
	}
	if err := xml.Unmarshal(b, &root); err != nil {
		t.Fatalf("SVG is not well-formed XML: %v", err)
	}
	if root.XMLName.Local != "svg" {
		t.Fatalf("root element %q", root.XMLName.Local)
	}
	bars := 0
	for _, r := range root.Rects {
		if r.Title != "" {
			bars++
		}
	}
	if bars < wantGroups {
		t.Errorf("%d bars, want at least %d", bars, wantGroups)
	}
	for _, want := range []string{"stdlib", "p256tls", "µs"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("SVG does not say %q", want)
		}
	}
}

// A server that refuses every third handshake: the failures are counted on
// both sides' rows, reported, and make the exit status 1.
func TestFailuresReported(t *testing.T) {
	for _, tr := range []string{"tcp", "quic"} {
		t.Run(tr, func(t *testing.T) {
			o := parseOpts(t, "-only", "handshakes", "-transport", tr, "-duration", "200ms", "-rounds", "1", "-json")
			o.failEvery = 3
			code, stdout, stderr := runBench(t, o)
			if code != 1 {
				t.Errorf("exit %d, want 1", code)
			}
			var doc map[string]any
			if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
				t.Fatalf("stdout is not JSON: %v\n%s", err, stdout)
			}
			// server, server through GetCertificate, client, client with
			// trust store; over TCP also the two chain rows.
			want := map[string]int{"tcp": 6, "quic": 4}[tr]
			checkSchema(t, doc, 0, want)
			for _, h := range doc["handshakes"].([]any) {
				h := h.(map[string]any)
				if f := h["failures"].(float64); f == 0 {
					t.Errorf("%v row: no failures counted", h["side"])
				}
			}
			// Over TCP the server's own error is reported too; quic-go does
			// not surface the server's failed connections.
			if !strings.Contains(stderr, "FAILED") || (tr == "tcp" && !strings.Contains(stderr, "injected")) {
				t.Errorf("stderr does not report the failures:\n%s", stderr)
			}
		})
	}
	// The table says so too.
	o := parseOpts(t, "-only", "handshakes", "-transport", "tcp", "-duration", "100ms", "-rounds", "1")
	o.failEvery = 2
	code, stdout, _ := runBench(t, o)
	if code != 1 || !strings.Contains(stdout, "failed") {
		t.Errorf("exit %d; table:\n%s", code, stdout)
	}
}

// -only primitives draws the primitives in the SVG.
func TestPrimitivesOnly(t *testing.T) {
	svgPath := filepath.Join(t.TempDir(), "p.svg")
	o := parseOpts(t, "-only", "primitives", "-duration", "40ms", "-rounds", "1", "-svg", svgPath)
	code, stdout, stderr := runBench(t, o)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "PRIMITIVES") || strings.Contains(stdout, "HANDSHAKES") {
		t.Errorf("table:\n%s", stdout)
	}
	b, err := os.ReadFile(svgPath)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "ns, lower is better") {
		t.Error("SVG of primitives does not say its unit")
	}
}

// The breakdown in the JSON and the table, from results made up to hold
// one in each row that measures the side p256tls is on.
func TestBreakdownReport(t *testing.T) {
	o := parseOpts(t)
	r := fakeResults(t, o, o.rows(), 612, 0.97)
	var out bytes.Buffer
	if err := writeJSON(&out, r); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	checkSchema(t, doc, 0, 15)
	checkBreakdownJSON(t, doc, 11)

	out.Reset()
	writeTable(&out, r)
	table := out.String()
	_, bd, ok := strings.Cut(table, "WHERE THE CPU GOES")
	if !ok || !strings.Contains(table, "HANDSHAKES") || strings.Index(table, "HANDSHAKES") > strings.Index(table, "WHERE THE CPU GOES") {
		t.Fatalf("no breakdown under the HANDSHAKES table:\n%s", table)
	}
	bd, _, _ = strings.Cut(bd, "Notes:")
	// Each profiled row: its name, every category (each has samples here),
	// the median and the profiled rounds.
	h := r.hs[0]
	b := h.breakdownOf(vOurs)
	k := b.costs(summarize(h.m).ours.Med)[catKex]
	for _, want := range []string{describeRow(h.row), "  key exchange", "  other", "= total, the timed rounds' median", "profiled rounds: CPU per handshake, samples",
		fmtCost(k), fmt.Sprintf("%d samples", b.samples)} {
		if !strings.Contains(bd, want) {
			t.Errorf("the breakdown table lacks %q:\n%s", want, bd)
		}
	}
	if got := strings.Count(bd, "  = total"); got != 11 {
		t.Errorf("%d rows in the breakdown table, want 11", got)
	}
	if !strings.Contains(table, "where the CPU goes: after the timed rounds") {
		t.Error("no note on the breakdown's method")
	}
	// A row whose profiled rounds failed says so, in the JSON and the
	// notes, without failing the run.
	problems := len(r.problems())
	r.hs[0].bdErr = errors.New("profiled rounds broke")
	want := r.hs[0].row.label() + ": no breakdown: profiled rounds broke"
	if w := r.warnings(); len(w) != 1 || w[0] != want || !slices.Contains(r.notes(), want) || len(r.problems()) != problems {
		t.Errorf("warnings %q, notes %q, %d problems", w, r.notes(), len(r.problems()))
	}
	out.Reset()
	if err := writeJSON(&out, r); err != nil || !strings.Contains(out.String(), `"breakdown_error": "profiled rounds broke"`) {
		t.Errorf("the JSON does not carry the breakdown's error (%v)", err)
	}
	if got := fmtCost(categoryCost{us: 41.4, usErr: 9.2, share: 0.0676, shareErr: 0.0151}); got != "   41 ± 9      7 ± 2%" {
		t.Errorf("fmtCost = %q", got)
	}
}
