package main

// -svg: a horizontal bar chart of the per-handshake CPU cost by side, one
// group per row, one bar per implementation, with the min–max range of the
// rounds as a whisker. With -breakdown, a profiled column's bar is stacked:
// one segment per category, its length the category's share of the bar.
// It stands on its own: title, machine, method line, legend, values and
// ratios are all drawn.
//
// The chart is laid out first (layoutSVG: every text, rectangle and line
// with its position, texts placed from their measured widths, svgtext.go),
// then written out (svgChart.render); tests check the layout for overlaps.

import (
	"bytes"
	"fmt"
	"html"
	"math"
	"strconv"
)

var svgColors = map[string]string{vStdlib: "#8a8f98", vOurs: "#1f6fb4", vOpenSSL: "#c0392b"}

// svgTints fill a column's bar that has no breakdown in a chart whose other
// bars have one (outlined in svgColors), so that it cannot be taken for a
// category.
var svgTints = map[string]string{vStdlib: "#e6e8eb", vOurs: "#d6e5f3", vOpenSSL: "#f3d9d5"}

// categoryColors are the segments' colours, by category.
var categoryColors = [numCategories]string{
	catSign:    "#d62728",
	catChain:   "#ff7f0e",
	catSigVer:  "#bcbd22",
	catKex:     "#1f77b4",
	catSym:     "#17becf",
	catTLS:     "#9467bd",
	catRuntime: "#8c564b",
	catNet:     "#7f7f7f",
	catOther:   "#d4d4d4",
}

// The chart's geometry, in pixels.
const (
	svgMargin    = 20.0
	svgMinWidth  = 980.0
	svgMinBarW   = 420.0 // the bar area's least width
	svgFontSize  = 12.0
	svgLineH     = 16.0 // between two lines of 12 px text
	svgBarH      = 16.0
	svgBarGap    = 4.0
	svgGroupGap  = 14.0
	svgGutterGap = 8.0 // between a bar's label and the bar
	svgSwatch    = 12.0
)

// svgBox is a rectangle: top-left corner and size.
type svgBox struct{ x, y, w, h float64 }

// overlaps reports whether a and b share interior points.
func (a svgBox) overlaps(b svgBox) bool {
	return a.x < b.x+b.w && b.x < a.x+a.w && a.y < b.y+b.h && b.y < a.y+a.h
}

// svgText is one line of text, at (x, y) on its baseline.
type svgText struct {
	x, y   float64
	size   float64
	bold   bool
	anchor string // "" (start), "middle" or "end"
	fill   string
	s      string
}

// box is the space the text covers, from its measured width.
func (t svgText) box() svgBox {
	w := textWidth(t.s, t.size, t.bold)
	x := t.x
	switch t.anchor {
	case "middle":
		x -= w / 2
	case "end":
		x -= w
	}
	return svgBox{x, t.y - svgAscent*t.size, w, (svgAscent + svgDescent) * t.size}
}

// svgRect is a bar, a bar's segment or a legend swatch.
type svgRect struct {
	svgBox
	fill   string
	stroke string // "": none
	title  string // tooltip
}

// svgLine is a grid line or (mark) a whisker, which no text may cross.
type svgLine struct {
	x1, y1, x2, y2 float64
	stroke         string
	mark           bool
}

func (l svgLine) box() svgBox {
	return svgBox{math.Min(l.x1, l.x2), math.Min(l.y1, l.y2), math.Abs(l.x2 - l.x1), math.Abs(l.y2 - l.y1)}
}

// svgChart is a laid-out chart.
type svgChart struct {
	width, height float64
	rects         []svgRect
	lines         []svgLine
	texts         []svgText
}

func (c *svgChart) text(t svgText) {
	if t.size == 0 {
		t.size = svgFontSize
	}
	c.texts = append(c.texts, t)
}

// svgGroup is one row of the report: a title, a line with its ratio and
// verdict, and its bars.
type svgGroup struct {
	title string
	sub   string
	bars  []svgBar
}

// svgBar is one column: its median and range, and the segments of its
// breakdown (none without one).
type svgBar struct {
	variant string
	s       stat
	segs    []categoryCost
}

// chartGroups are the chart's groups: the handshake rows, or, with none,
// the primitives; unit and what say what the bars measure.
func chartGroups(r *results) (groups []svgGroup, unit, what string) {
	for i := range r.hs {
		h := &r.hs[i]
		s := summarize(h.m)
		g := svgGroup{title: h.row.side + " · " + h.row.name()}
		for _, b := range []svgBar{{variant: vStdlib, s: s.std}, {variant: vOurs, s: s.ours}, {variant: vOpenSSL, s: s.ossl}} {
			if !b.s.ok() {
				continue
			}
			if bd := h.breakdownOf(b.variant); bd != nil {
				b.segs = bd.costs(b.s.Med)
			}
			g.bars = append(g.bars, b)
		}
		if s.ratio.ok() {
			g.sub = "p256tls/stdlib " + fmtRatio(s.ratio) + ", p256tls on the " + h.row.oursOn()
			if v := s.ratio.verdict(); v != "" {
				g.sub += ": " + v
			}
		}
		if h.m != nil && h.m.failures > 0 {
			g.sub += fmt.Sprintf(" — %d FAILED handshakes", h.m.failures)
		}
		if len(g.bars) > 0 {
			groups = append(groups, g)
		}
	}
	if len(groups) > 0 {
		return groups, "µs", "CPU time per handshake of the measured side (µs, lower is better)"
	}
	for _, p := range r.prims {
		s := summarize(p.m)
		g := svgGroup{title: p.p.name}
		for _, b := range []svgBar{{variant: vStdlib, s: s.std}, {variant: vOurs, s: s.ours}} {
			if b.s.ok() {
				g.bars = append(g.bars, b)
			}
		}
		if s.ratio.ok() {
			g.sub = "p256tls/stdlib " + fmtRatio(s.ratio)
		}
		if len(g.bars) > 0 {
			groups = append(groups, g)
		}
	}
	return groups, "ns", "time per operation (ns, lower is better)"
}

func drawSVG(r *results) []byte { return layoutSVG(r).render() }

// layoutSVG places everything the chart draws. Every text is one line;
// the width grows to hold the longest, and a group's ratio line goes
// beside its title when both fit, else under it.
func layoutSVG(r *results) *svgChart {
	groups, unit, what := chartGroups(r)
	c := &svgChart{}

	header := []svgText{
		{size: 17, bold: true, s: "tlsbench: the standard library against p256tls"},
		{size: 14, s: what},
		{fill: "#444", s: r.machineLine()},
		{fill: "#444", s: r.settingsLine() + "; bars: median over the timed rounds, whiskers: min–max"},
	}
	var cats [numCategories]bool
	variants := map[string]bool{}
	segmented := false
	for _, g := range groups {
		for _, b := range g.bars {
			if b.segs == nil {
				variants[b.variant] = true
				continue
			}
			segmented = true
			for _, k := range b.segs {
				cats[k.cat] = cats[k.cat] || k.samples > 0
			}
		}
	}
	if segmented {
		header = append(header, svgText{fill: "#444", s: fmt.Sprintf(
			"segments: where the CPU goes, each category's share of %d profiled rounds' samples (values and sampling errors in the tooltips and the table)", r.opts.breakdown)})
	}
	footer := svgText{fill: "#666", s: fmt.Sprintf("! after a ratio: its min–max range is wider than %.0f%% of its median, too wide to trust", 100*wideSpread)}

	// Widths: the gutter for the bars' labels, the value labels, every
	// single-line text.
	gutter, valueW := 0.0, 0.0
	maxV := 0.0
	for _, g := range groups {
		for _, b := range g.bars {
			gutter = math.Max(gutter, textWidth(b.variant, svgFontSize, false))
			valueW = math.Max(valueW, textWidth(fmtVal(b.s.Med)+" "+unit, svgFontSize, false))
			maxV = math.Max(maxV, b.s.Max)
		}
	}
	barX := svgMargin + gutter + svgGutterGap
	width := math.Max(svgMinWidth, barX+svgMinBarW+6+valueW+svgMargin)
	for _, t := range append(header, footer) {
		size := t.size
		if size == 0 {
			size = svgFontSize
		}
		width = math.Max(width, 2*svgMargin+textWidth(t.s, size, t.bold))
	}
	for _, g := range groups {
		width = math.Max(width, 2*svgMargin+textWidth(g.title, svgFontSize, true))
		width = math.Max(width, 2*svgMargin+textWidth(g.sub, svgFontSize, false))
	}
	width = math.Ceil(width)
	barW := width - svgMargin - 6 - valueW - barX

	// Header.
	y := 6.0
	for _, t := range header {
		size := t.size
		if size == 0 {
			size = svgFontSize
		}
		y += size + 4
		t.x, t.y = svgMargin, y
		c.text(t)
	}

	// Legend: swatches and labels, wrapped to the width.
	type item struct{ fill, stroke, label string }
	var legend []item
	for _, v := range []string{vStdlib, vOurs, vOpenSSL} {
		switch {
		case !variants[v]:
		case segmented:
			legend = append(legend, item{svgTints[v], svgColors[v], v + " (not profiled)"})
		default:
			legend = append(legend, item{svgColors[v], "", v})
		}
	}
	for k := range numCategories {
		if cats[k] {
			legend = append(legend, item{categoryColors[k], "", k.label()})
		}
	}
	y += 26
	lx := svgMargin
	for _, it := range legend {
		w := svgSwatch + 6 + textWidth(it.label, svgFontSize, false)
		if lx > svgMargin && lx+w > width-svgMargin {
			lx, y = svgMargin, y+svgLineH+2
		}
		c.rects = append(c.rects, svgRect{svgBox: svgBox{lx, y - svgSwatch + 2, svgSwatch, svgSwatch}, fill: it.fill, stroke: it.stroke})
		c.text(svgText{x: lx + svgSwatch + 6, y: y, s: it.label})
		lx += w + 18
	}

	// Axis: at most 7 ticks, 60 px apart or more.
	step := niceStep(maxV / 6)
	if maxV <= 0 {
		maxV, step = 1, 1
	}
	axisMax := math.Ceil(maxV/step) * step
	x := func(v float64) float64 { return barX + v/axisMax*barW }
	var ticks []float64
	for v := 0.0; v <= axisMax+step/2; v += step {
		ticks = append(ticks, v)
	}
	y += 30
	for _, v := range ticks {
		c.text(svgText{x: x(v), y: y, anchor: "middle", fill: "#666", s: strconv.FormatFloat(v, 'f', -1, 64)})
	}
	c.text(svgText{x: barX - svgGutterGap - textWidth("0", svgFontSize, false)/2, y: y, anchor: "end", fill: "#666", s: unit})
	y += svgDescent*svgFontSize + 6

	// Groups.
	for _, g := range groups {
		y += svgAscent * svgFontSize
		c.text(svgText{x: svgMargin, y: y, bold: true, s: g.title})
		if g.sub != "" {
			tw := textWidth(g.title, svgFontSize, true)
			if svgMargin+tw+16+textWidth(g.sub, svgFontSize, false) <= width-svgMargin {
				c.text(svgText{x: svgMargin + tw + 16, y: y, fill: "#444", s: g.sub})
			} else {
				y += svgLineH
				c.text(svgText{x: svgMargin, y: y, fill: "#444", s: g.sub})
			}
		}
		top := y + svgDescent*svgFontSize + 6
		by := top
		for _, b := range g.bars {
			c.barAt(b, by, barX, x, unit, segmented)
			by += svgBarH + svgBarGap
		}
		bottom := by - svgBarGap
		for _, v := range ticks {
			c.lines = append(c.lines, svgLine{x1: x(v), y1: top - 2, x2: x(v), y2: bottom + 2, stroke: "#e3e3e3"})
		}
		y = bottom + svgGroupGap
	}

	y += svgAscent * svgFontSize
	footer.x, footer.y = svgMargin, y
	c.text(footer)
	c.width, c.height = width, math.Ceil(y+svgDescent*svgFontSize+svgMargin)
	return c
}

// barAt places bar b with its top at y: its label in the gutter, the bar
// (whole, or one segment per category), its whisker and its value. tint:
// a whole bar is drawn tinted and outlined (other bars have segments).
func (c *svgChart) barAt(b svgBar, y, barX float64, x func(float64) float64, unit string, tint bool) {
	mid := y + svgBarH/2
	base := mid + 0.35*svgFontSize // centres a line of text on the bar
	c.text(svgText{x: barX - svgGutterGap, y: base, anchor: "end", fill: svgColors[b.variant], s: b.variant})
	if b.segs == nil {
		r := svgRect{svgBox: svgBox{barX, y, x(b.s.Med) - barX, svgBarH}, fill: svgColors[b.variant],
			title: fmt.Sprintf("%s: %s %s", b.variant, fmtStat(b.s), unit)}
		if tint {
			r.fill, r.stroke = svgTints[b.variant], svgColors[b.variant]
		}
		c.rects = append(c.rects, r)
	} else {
		sx := barX
		for _, k := range b.segs {
			if k.samples == 0 {
				continue
			}
			w := k.share * (x(b.s.Med) - barX)
			c.rects = append(c.rects, svgRect{svgBox: svgBox{sx, y, w, svgBarH}, fill: categoryColors[k.cat],
				title: fmt.Sprintf("%s · %s: %.0f ± %.0f %s per handshake, %.1f%% ± %.1f%%", b.variant, k.cat.label(), k.us, k.usErr, unit, 100*k.share, 100*k.shareErr)})
			sx += w
		}
	}
	end := x(b.s.Med)
	if b.s.N > 1 {
		c.lines = append(c.lines,
			svgLine{x1: x(b.s.Min), y1: mid, x2: x(b.s.Max), y2: mid, stroke: "black", mark: true},
			svgLine{x1: x(b.s.Min), y1: mid - 4, x2: x(b.s.Min), y2: mid + 4, stroke: "black", mark: true},
			svgLine{x1: x(b.s.Max), y1: mid - 4, x2: x(b.s.Max), y2: mid + 4, stroke: "black", mark: true})
		end = math.Max(end, x(b.s.Max))
	}
	c.text(svgText{x: end + 6, y: base, s: fmtVal(b.s.Med) + " " + unit})
}

// render writes the chart as SVG.
func (c *svgChart) render() []byte {
	var b bytes.Buffer
	esc := html.EscapeString
	f := func(v float64) string { return strconv.FormatFloat(math.Round(v*10)/10, 'f', -1, 64) }
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="%s" font-size="%s">`+"\n",
		f(c.width), f(c.height), f(c.width), f(c.height), svgFontFamily, f(svgFontSize))
	b.WriteString(`<rect width="100%" height="100%" fill="white"/>` + "\n")
	for _, l := range c.lines {
		if !l.mark {
			fmt.Fprintf(&b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s"/>`+"\n", f(l.x1), f(l.y1), f(l.x2), f(l.y2), l.stroke)
		}
	}
	for _, r := range c.rects {
		if r.stroke != "" {
			// A 1 px outline centred half a pixel inside the box, so
			// that it stays within it.
			fmt.Fprintf(&b, `<rect x="%s" y="%s" width="%s" height="%s" fill="%s" stroke="%s">`,
				f(r.x+0.5), f(r.y+0.5), f(math.Max(r.w-1, 0)), f(math.Max(r.h-1, 0)), r.fill, r.stroke)
		} else {
			fmt.Fprintf(&b, `<rect x="%s" y="%s" width="%s" height="%s" fill="%s">`, f(r.x), f(r.y), f(r.w), f(r.h), r.fill)
		}
		if r.title != "" {
			fmt.Fprintf(&b, `<title>%s</title>`, esc(r.title))
		}
		b.WriteString("</rect>\n")
	}
	for _, l := range c.lines {
		if l.mark {
			fmt.Fprintf(&b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s"/>`+"\n", f(l.x1), f(l.y1), f(l.x2), f(l.y2), l.stroke)
		}
	}
	for _, t := range c.texts {
		fmt.Fprintf(&b, `<text x="%s" y="%s"`, f(t.x), f(t.y))
		if t.size != svgFontSize {
			fmt.Fprintf(&b, ` font-size="%s"`, f(t.size))
		}
		if t.bold {
			b.WriteString(` font-weight="bold"`)
		}
		if t.anchor != "" {
			fmt.Fprintf(&b, ` text-anchor="%s"`, t.anchor)
		}
		if t.fill != "" {
			fmt.Fprintf(&b, ` fill="%s"`, t.fill)
		}
		fmt.Fprintf(&b, ">%s</text>\n", esc(t.s))
	}
	b.WriteString("</svg>\n")
	return b.Bytes()
}

// niceStep rounds a raw axis step up to 1, 2 or 5 times a power of ten.
func niceStep(raw float64) float64 {
	if raw <= 0 || math.IsNaN(raw) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= raw {
			return m * p
		}
	}
	return 10 * p
}
