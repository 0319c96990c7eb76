package main

import (
	"encoding/xml"
	"fmt"
	"html"
	"strings"
	"testing"
	"time"
)

// fakeResults are results for rows, every column measured over three
// rounds around med (the p256tls column at ratio times it), and, for the
// profiled rows, a breakdown with samples in every category.
func fakeResults(t *testing.T, o options, rows []hsRow, med, ratio float64) *results {
	t.Helper()
	r := &results{opts: o, machine: machineInfo(nil), started: time.Now()}
	for i, row := range rows {
		variants := []string{vStdlib, vOurs}
		if row.openssl {
			variants = append(variants, vOpenSSL)
		}
		m := &measured{variants: variants}
		for k := range 3 {
			var round []sample
			for j := range variants {
				v := med * (1 + float64(i)/4) * (0.95 + 0.05*float64(k))
				if j == 1 {
					v *= ratio
				}
				round = append(round, sample{value: v, n: 100})
			}
			m.rounds = append(m.rounds, round)
		}
		h := hsResult{row: row, m: m}
		if i == 2 {
			m.failures = 12345
		}
		if row.profiled(o) {
			for _, v := range []string{vStdlib, vOurs} {
				b := breakdown{variant: v, handshakes: 100, cpuUS: med, cpuNs: int64(med * 1e5), rateHz: 1000, sampledNs: int64(med * 2e4)}
				for c := range numCategories {
					b.counts[c] = int64(3 + 5*int(c))
					b.samples += b.counts[c]
				}
				h.bd = append(h.bd, b)
			}
		}
		r.hs = append(r.hs, h)
	}
	return r
}

// checkLayout fails if any text overlaps another text, a bar, a segment, a
// swatch or a whisker, if bars overlap, or if anything leaves the chart.
func checkLayout(t *testing.T, c *svgChart) {
	t.Helper()
	inside := func(what string, b svgBox) {
		if b.x < 0 || b.y < 0 || b.x+b.w > c.width || b.y+b.h > c.height {
			t.Errorf("%s at %+v leaves the %v×%v chart", what, b, c.width, c.height)
		}
	}
	for i, a := range c.texts {
		ab := a.box()
		inside(fmt.Sprintf("text %q", a.s), ab)
		for _, b := range c.texts[i+1:] {
			if ab.overlaps(b.box()) {
				t.Errorf("text %q %+v overlaps text %q %+v", a.s, ab, b.s, b.box())
			}
		}
		for _, r := range c.rects {
			if ab.overlaps(r.svgBox) {
				t.Errorf("text %q %+v overlaps a bar %+v (%s)", a.s, ab, r.svgBox, r.title)
			}
		}
		for _, l := range c.lines {
			if l.mark && ab.overlaps(l.box()) {
				t.Errorf("text %q %+v overlaps a whisker %+v", a.s, ab, l)
			}
		}
	}
	for i, a := range c.rects {
		inside("bar "+a.title, a.svgBox)
		for _, b := range c.rects[i+1:] {
			if a.overlaps(b.svgBox) {
				t.Errorf("bar %+v (%s) overlaps bar %+v (%s)", a.svgBox, a.title, b.svgBox, b.title)
			}
		}
	}
}

// The default matrix (its longest labels and verdicts included), with a
// breakdown, without one, with the openssl column, and the primitives:
// nothing overlaps, and the SVG is well-formed and says every text.
func TestSVGLayout(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		med  float64
	}{
		{"default", nil, 612},
		{"no breakdown", []string{"-breakdown", "0"}, 1672},
		{"openssl", []string{"-openssl", "-transport", "tcp", "-tls", "1.3"}, 33333},
		{"tiny", []string{"-rounds", "1"}, 0.5},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := parseOpts(t, c.args...)
			r := fakeResults(t, o, o.rows(), c.med, 0.97)
			chart := layoutSVG(r)
			checkLayout(t, chart)
			out := chart.render()
			if err := xml.Unmarshal(out, new(struct{})); err != nil {
				t.Fatalf("SVG is not well-formed: %v", err)
			}
			for _, tx := range chart.texts {
				if !strings.Contains(string(out), ">"+html.EscapeString(tx.s)+"<") {
					t.Errorf("SVG does not draw %q", tx.s)
				}
			}
			segs := 0
			for _, rc := range chart.rects {
				if strings.Contains(rc.title, " · ") {
					segs++
				}
			}
			want := 0
			for _, row := range o.rows() {
				if row.profiled(o) {
					want += 2 * int(numCategories)
				}
			}
			if segs != want {
				t.Errorf("%d segments, want %d", segs, want)
			}
		})
	}
	o := parseOpts(t, "-only", "primitives")
	r := &results{opts: o, machine: machineInfo(nil)}
	prims, err := buildPrimitives()
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range prims {
		m := &measured{variants: p.variants(), rounds: [][]sample{{{value: 1e3 * float64(i+1)}, {value: 500}}}}
		r.prims = append(r.prims, primResult{p: p, m: m})
	}
	checkLayout(t, layoutSVG(r))
	// A name wider than every other line: the chart grows to hold it.
	long := primitive{name: strings.Repeat("verify a chain of Ws, WWW ", 8), std: func() error { return nil }, ours: func() error { return nil }}
	r.prims = append(r.prims, primResult{p: long, m: &measured{variants: long.variants(), rounds: [][]sample{{{value: 7}, {value: 5}}}}})
	chart := layoutSVG(r)
	checkLayout(t, chart)
	if w := 2*svgMargin + textWidth(long.name, svgFontSize, true); chart.width < w {
		t.Errorf("chart %v wide, the name needs %v", chart.width, w)
	}
}

func TestTextWidth(t *testing.T) {
	// DejaVu Sans at 1000 px: "W" 989, bold 1103; µ 636; unknown runes 1 em.
	if w := textWidth("W", 1000, false); w != 989 {
		t.Errorf("W: %v", w)
	}
	if w := textWidth("W", 1000, true); w != 1103 {
		t.Errorf("bold W: %v", w)
	}
	if w := textWidth("µ→漢", 10, false); w != 6.36+10+10 {
		t.Errorf("µ→漢 at 10 px: %v", w)
	}
	if textWidth("p256tls/stdlib", 12, true) <= textWidth("p256tls/stdlib", 12, false) {
		t.Error("bold is not wider")
	}
}
