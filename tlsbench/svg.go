package main

// -svg: a horizontal bar chart of the per-handshake CPU cost by side, one
// group per row, one bar per implementation, with the min–max range of the
// rounds as a whisker. It stands on its own: title, machine, method line,
// legend, values and ratios are all drawn.

import (
	"bytes"
	"fmt"
	"html"
	"math"
	"strconv"
)

type svgGroup struct {
	title string
	sub   string // ratio line
	bars  []svgBar
}

type svgBar struct {
	variant string
	s       stat
}

var svgColors = map[string]string{vStdlib: "#8a8f98", vOurs: "#1f6fb4", vOpenSSL: "#c0392b"}

func drawSVG(r *results) []byte {
	var groups []svgGroup
	unit, what := "µs", "CPU time per handshake of the measured side (µs, lower is better)"
	for _, h := range r.hs {
		s := summarize(h.m)
		g := svgGroup{title: h.row.side + " · " + h.row.name()}
		for _, b := range []svgBar{{vStdlib, s.std}, {vOurs, s.ours}, {vOpenSSL, s.ossl}} {
			if b.s.ok() {
				g.bars = append(g.bars, b)
			}
		}
		if s.ratio.ok() {
			g.sub = "p256tls/stdlib " + fmtRatio(s.ratio) + ", p256tls on the " + h.row.oursOn()
			if v := s.ratio.verdict(); v != "" {
				g.sub += ": " + v
			}
		}
		if h.m != nil && h.m.failures > 0 {
			g.sub += fmt.Sprintf("  — %d FAILED handshakes", h.m.failures)
		}
		if len(g.bars) > 0 {
			groups = append(groups, g)
		}
	}
	if len(groups) == 0 { // -only primitives: draw those instead
		unit, what = "ns", "time per operation (ns, lower is better)"
		for _, p := range r.prims {
			s := summarize(p.m)
			g := svgGroup{title: p.p.name}
			for _, b := range []svgBar{{vStdlib, s.std}, {vOurs, s.ours}} {
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
	}

	const (
		width   = 980
		left    = 20
		barX    = 475
		barW    = 345
		barH    = 16
		barGap  = 4
		groupGp = 18
		top     = 146
	)
	maxV := 0.0
	for _, g := range groups {
		for _, b := range g.bars {
			maxV = math.Max(maxV, b.s.Max)
		}
	}
	step := niceStep(maxV / 5)
	if maxV <= 0 {
		maxV, step = 1, 1
	}
	axisMax := math.Ceil(maxV/step) * step
	x := func(v float64) float64 { return barX + v/axisMax*barW }

	height := top + 40
	for _, g := range groups {
		height += max(len(g.bars)*(barH+barGap), 36) + groupGp
	}

	var b bytes.Buffer
	esc := html.EscapeString
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n", width, height, width, height)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(&b, `<text x="%d" y="24" font-size="17" font-weight="bold">tlsbench: the standard library against p256tls</text>`+"\n", left)
	fmt.Fprintf(&b, `<text x="%d" y="42" font-size="14">%s</text>`+"\n", left, esc(what))
	fmt.Fprintf(&b, `<text x="%d" y="60" fill="#444">%s</text>`+"\n", left, esc(r.machineLine()))
	fmt.Fprintf(&b, `<text x="%d" y="76" fill="#444">%s; bars: median over rounds, whiskers: min–max</text>`+"\n", left, esc(r.settingsLine()))
	lx := left
	for _, v := range []string{vStdlib, vOurs, vOpenSSL} {
		if v == vOpenSSL && !r.opts.openssl {
			continue
		}
		fmt.Fprintf(&b, `<rect x="%d" y="102" width="14" height="14" fill="%s"/><text x="%d" y="114">%s</text>`+"\n", lx, svgColors[v], lx+20, v)
		lx += 110
	}
	// Axis and grid.
	axisY := top - 8
	for v := 0.0; v <= axisMax+step/2; v += step {
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#e3e3e3"/>`+"\n", x(v), axisY, x(v), height-30)
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle" fill="#666">%s</text>`+"\n", x(v), axisY-4, strconv.FormatFloat(v, 'f', -1, 64))
	}
	fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="end" fill="#666">%s</text>`+"\n", barX+barW, height-12, unit)
	fmt.Fprintf(&b, `<text x="%d" y="%d" fill="#666">! after a ratio: its min–max range is wider than %.0f%% of its median, too wide to trust</text>`+"\n", left, height-12, 100*wideSpread)

	y := top
	for _, g := range groups {
		fmt.Fprintf(&b, `<text x="%d" y="%d" font-weight="bold">%s</text>`+"\n", left, y+12, esc(g.title))
		if g.sub != "" {
			fmt.Fprintf(&b, `<text x="%d" y="%d" fill="#444">%s</text>`+"\n", left, y+28, esc(g.sub))
		}
		by := y
		for _, bar := range g.bars {
			fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%.1f" height="%d" fill="%s"><title>%s: %s %s</title></rect>`+"\n",
				barX, by, x(bar.s.Med)-barX, barH, svgColors[bar.variant], bar.variant, esc(fmtStat(bar.s)), unit)
			mid := by + barH/2
			if bar.s.N > 1 {
				fmt.Fprintf(&b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="black"/>`, x(bar.s.Min), mid, x(bar.s.Max), mid)
				fmt.Fprintf(&b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="black"/>`, x(bar.s.Min), mid-4, x(bar.s.Min), mid+4)
				fmt.Fprintf(&b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="black"/>`+"\n", x(bar.s.Max), mid-4, x(bar.s.Max), mid+4)
			}
			fmt.Fprintf(&b, `<text x="%.1f" y="%d">%s %s %s</text>`+"\n", x(bar.s.Max)+6, mid+4, bar.variant, fmtVal(bar.s.Med), unit)
			by += barH + barGap
		}
		y += max(len(g.bars)*(barH+barGap), 36) + groupGp
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
