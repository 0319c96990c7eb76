package main

// Text widths for the SVG chart's layout (svg.go), so that no text runs
// into a bar or another text.
//
// The advance widths are DejaVu Sans's and Liberation Sans's (Arial's
// metrics), the wider of the two for each character, in thousandths of the
// font size; the chart asks for one of those fonts (svgFontFamily), so a
// text is never wider than measured here. They were measured in Chromium
// 156 (Debian 12) with a canvas's measureText at 1000 px.

// svgFontFamily is the chart's font-family: every named font is one whose
// widths are measured below (Bitstream Vera has DejaVu Sans's, Arial has
// Liberation Sans's).
const svgFontFamily = "DejaVu Sans, Bitstream Vera Sans, Liberation Sans, Arial, sans-serif"

// svgAdvance[bold][c-' '] is the advance width of ASCII character c.
var svgAdvance = [2][95]uint16{
	{ // regular
		318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337,
		636, 636, 636, 636, 636, 636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 556,
		1015, 684, 686, 722, 770, 667, 611, 778, 752, 295, 500, 667, 557, 863, 748, 787,
		667, 787, 722, 667, 611, 732, 684, 989, 685, 667, 685, 390, 337, 390, 838, 556,
		500, 613, 635, 550, 635, 615, 352, 635, 634, 278, 278, 579, 278, 974, 634, 612,
		635, 635, 411, 521, 392, 634, 592, 818, 592, 592, 525, 636, 337, 636, 838,
	},
	{ // bold
		348, 456, 521, 838, 696, 1002, 872, 306, 457, 457, 523, 838, 380, 415, 380, 365,
		696, 696, 696, 696, 696, 696, 696, 696, 696, 696, 400, 400, 838, 838, 838, 611,
		1000, 774, 762, 734, 830, 683, 683, 821, 837, 372, 556, 775, 637, 995, 837, 850,
		733, 850, 770, 720, 682, 812, 774, 1103, 771, 724, 725, 457, 365, 457, 838, 556,
		500, 675, 716, 593, 716, 678, 435, 716, 712, 343, 343, 665, 343, 1042, 712, 687,
		716, 716, 493, 595, 478, 712, 652, 924, 645, 652, 582, 712, 365, 712, 838,
	},
}

// svgAdvanceExtra are the non-ASCII characters the chart uses: [regular,
// bold]. Any other character counts as one em (1000).
var svgAdvanceExtra = map[rune][2]uint16{
	'µ': {636, 736},
	'–': {556, 556},
	'—': {1000, 1000},
	'·': {318, 380},
	'±': {838, 838},
	'×': {838, 838},
	'≥': {838, 838},
	'≤': {838, 838},
	'…': {1000, 1000},
	'→': {1000, 1000},
}

// textWidth is the width in pixels of s set at size px, bold or not.
func textWidth(s string, size float64, bold bool) float64 {
	b := 0
	if bold {
		b = 1
	}
	var units int
	for _, r := range s {
		switch w, ok := svgAdvanceExtra[r]; {
		case r >= ' ' && r <= '~':
			units += int(svgAdvance[b][r-' '])
		case ok:
			units += int(w[b])
		default:
			units += 1000
		}
	}
	return float64(units) * size / 1000
}

// A text's box around its baseline: DejaVu Sans's ascent and descent
// (Liberation Sans's are within them), in font sizes.
const (
	svgAscent  = 0.93
	svgDescent = 0.24
)
