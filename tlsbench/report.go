package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"
	"time"
)

type results struct {
	opts        options
	machine     map[string]any
	started     time.Time
	elapsed     time.Duration
	prims       []primResult
	primErr     error
	hs          []hsResult
	interrupted bool
}

type primResult struct {
	p         primitive
	m         *measured
	err       error
	opensslNs float64 // 0 when openssl speed was not run for this row
}

// summary is what the table, the JSON and the SVG show for a row.
type summary struct {
	std, ours, ossl             stat // values per variant (N = 0 when absent)
	ratio, osslRatio            stat // ours/std and ours/openssl, round by round
	stdRate, oursRate, osslRate stat // handshakes per second
	rateRatio                   stat
}

func summarize(m *measured) summary {
	var s summary
	if m == nil {
		return s
	}
	s.std, s.ours, s.ossl = statOf(m.values(vStdlib)), statOf(m.values(vOurs)), statOf(m.values(vOpenSSL))
	s.ratio = statOf(pairRatios(m.values(vOurs), m.values(vStdlib)))
	s.osslRatio = statOf(pairRatios(m.values(vOurs), m.values(vOpenSSL)))
	s.stdRate, s.oursRate, s.osslRate = statOf(m.rates(vStdlib)), statOf(m.rates(vOurs)), statOf(m.rates(vOpenSSL))
	s.rateRatio = statOf(pairRatios(m.rates(vOurs), m.rates(vStdlib)))
	return s
}

// problems are the reasons for exit status 1: failed handshakes, rows that
// could not be measured.
func (r *results) problems() []string {
	var out []string
	if r.primErr != nil {
		out = append(out, "primitives: "+r.primErr.Error())
	}
	for _, p := range r.prims {
		if p.err != nil && !r.interrupted {
			out = append(out, p.err.Error())
		}
	}
	for _, h := range r.hs {
		if h.m != nil && h.m.failures > 0 {
			out = append(out, fmt.Sprintf("%s: %d failed handshakes (%s)", h.row.label(), h.m.failures, strings.Join(h.m.errs, "; ")))
		}
		if h.err != nil && !r.interrupted {
			out = append(out, fmt.Sprintf("%s: %v", h.row.label(), h.err))
		}
	}
	return out
}

// warnings are what went wrong without spoiling a measurement: a
// breakdown that could not be made (say, a profiled round too short to
// get a sample on a loaded machine). They are in the notes and on stderr;
// the exit status stays 0.
func (r *results) warnings() []string {
	var out []string
	for _, h := range r.hs {
		if h.bdErr != nil && !r.interrupted {
			out = append(out, fmt.Sprintf("%s: no breakdown: %v", h.row.label(), h.bdErr))
		}
	}
	return out
}

func fmtVal(x float64) string {
	switch {
	case math.IsNaN(x):
		return "—"
	case x >= 100:
		return fmt.Sprintf("%.0f", x)
	case x >= 10:
		return fmt.Sprintf("%.1f", x)
	}
	return fmt.Sprintf("%.2f", x)
}

func fmtStat(s stat) string {
	if !s.ok() {
		return "—"
	}
	if s.N == 1 {
		return fmtVal(s.Med)
	}
	return fmt.Sprintf("%s [%s–%s]", fmtVal(s.Med), fmtVal(s.Min), fmtVal(s.Max))
}

func fmtRatio(s stat) string {
	if !s.ok() {
		return "—"
	}
	// Two decimals, or two significant digits for a ratio below 0.1 (a
	// warm chain's 0.0026 would otherwise read 0.00).
	f := "%.2f"
	if s.Max < 0.1 {
		f = "%.2g"
	}
	out := fmt.Sprintf(f, s.Med)
	if s.N > 1 {
		out += fmt.Sprintf(" ["+f+"–"+f+"]", s.Min, s.Max)
	}
	if s.wide() {
		out += " !"
	}
	return out
}

func (r *results) machineLine() string {
	m := r.machine
	line := fmt.Sprintf("%v, %v CPUs (GOMAXPROCS %v), %v/%v", m["cpu"], m["cpus"], m["gomaxprocs"], m["os"], m["arch"])
	if k, ok := m["kernel"]; ok {
		line += fmt.Sprintf(", kernel %v", k)
	}
	line += fmt.Sprintf(", %v", m["go"])
	if v, ok := m["openssl"]; ok {
		line += fmt.Sprintf(", %v", v)
	}
	return line
}

func (r *results) settingsLine() string {
	o := r.opts
	rounds := "interleaved rounds"
	if o.rounds == 1 {
		rounds = "round"
	}
	return fmt.Sprintf("%d %s after a warm-up, %v per run (primitives %v), %d concurrent clients over 127.0.0.1",
		o.rounds, rounds, o.duration, o.duration/2, o.concurrency)
}

func writeTable(w io.Writer, r *results) {
	o := r.opts
	fmt.Fprintln(w, "tlsbench: the standard library (stdlib) against p256tls")
	fmt.Fprintln(w, "machine:", r.machineLine())
	fmt.Fprintf(w, "run:     %s; took %s\n", r.settingsLine(), roundDuration(r.elapsed))
	fmt.Fprintln(w, "values:  median [min–max] over the rounds; ratio = p256tls/stdlib taken round by round (below 1: p256tls costs less)")
	withOpenSSL := o.openssl

	if len(r.prims) > 0 || r.primErr != nil {
		tw := newTable(w, "PRIMITIVES (ns/op)\tstdlib\tp256tls\tratio\tverdict", "\topenssl speed\tp256tls/openssl", withOpenSSL)
		for _, p := range r.prims {
			s := summarize(p.m)
			line := fmt.Sprintf("%s\t%s\t%s\t%s\t%s", p.p.name, fmtStat(s.std), fmtStat(s.ours), fmtRatio(s.ratio), verdictText(s.ratio))
			if withOpenSSL {
				if p.opensslNs > 0 {
					line += fmt.Sprintf("\t%s\t%s", fmtVal(p.opensslNs), fmtVal(s.ours.Med/p.opensslNs))
				} else {
					line += "\t—\t—"
				}
			}
			fmt.Fprintln(tw, line+"\t")
		}
		tw.Flush()
		for _, p := range r.prims {
			if p.err != nil {
				fmt.Fprintf(w, "  error: %v\n", p.err)
			}
			if note := p.p.noteText(); note != "" {
				fmt.Fprintf(w, "  %s: %s\n", p.p.name, note)
			}
		}
		if be := tableBreakEven(r.prims); be != "" {
			fmt.Fprintln(w, "  "+be)
		}
		if r.primErr != nil {
			fmt.Fprintf(w, "  error: %v\n", r.primErr)
		}
	}

	if len(r.hs) > 0 {
		tw := newTable(w, "HANDSHAKES (CPU µs per handshake, measured side only)\tside\tp256tls on\tstdlib\tp256tls\tratio\tverdict\tfailed", "\topenssl s_server\tp256tls/openssl", withOpenSSL)
		for _, h := range r.hs {
			s := summarize(h.m)
			failed := "—"
			if h.m != nil {
				failed = fmt.Sprint(h.m.failures)
			}
			line := fmt.Sprintf("%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s", h.row.name(), h.row.side, h.row.oursOn(), fmtStat(s.std), fmtStat(s.ours), fmtRatio(s.ratio), verdictText(s.ratio), failed)
			if withOpenSSL {
				line += fmt.Sprintf("\t%s\t%s", fmtStat(s.ossl), fmtRatio(s.osslRatio))
			}
			fmt.Fprintln(tw, line+"\t")
			if h.row.side == "server" && s.std.ok() {
				line := fmt.Sprintf("  ↳ handshakes/s, %d clients (whole machine)\t\t\t%s\t%s\t%s\t\t", o.concurrency, fmtStat(s.stdRate), fmtStat(s.oursRate), fmtRatio(s.rateRatio))
				if withOpenSSL {
					line += fmt.Sprintf("\t%s\t", fmtStat(s.osslRate))
				}
				fmt.Fprintln(tw, line+"\t")
			}
		}
		tw.Flush()
		for _, h := range r.hs {
			if h.err != nil {
				fmt.Fprintf(w, "  %s: error: %v\n", h.row.label(), h.err)
			}
		}
		writeBreakdownTable(w, r)
	}
	notes := r.notes()
	if len(notes) > 0 {
		fmt.Fprintln(w)
		fmt.Fprintln(w, "Notes:")
		for _, n := range notes {
			fmt.Fprintln(w, "  - "+n)
		}
	}
}

// writeBreakdownTable is -breakdown's table: per row, each category's µs
// per handshake ± its sampling error and share, stdlib beside p256tls.
// Categories without a sample in either column are left out.
func writeBreakdownTable(w io.Writer, r *results) {
	shown := false
	for _, h := range r.hs {
		shown = shown || len(h.bd) > 0 || h.bdErr != nil
	}
	if !shown {
		return
	}
	tw := newTable(w, "WHERE THE CPU GOES (measured side; ± one standard error of the sampling)\tstdlib: µs, share\tp256tls: µs, share", "", false)
	for _, h := range r.hs {
		if len(h.bd) == 0 && h.bdErr == nil {
			continue
		}
		s := summarize(h.m)
		fmt.Fprintf(tw, "%s\t\t\t\n", describeRow(h.row))
		cols := []struct {
			b   *breakdown
			med stat
		}{{h.breakdownOf(vStdlib), s.std}, {h.breakdownOf(vOurs), s.ours}}
		var costs [2][]categoryCost
		for i, c := range cols {
			if c.b != nil && c.med.ok() {
				costs[i] = c.b.costs(c.med.Med)
			}
		}
		for c := range numCategories {
			line, seen := "  "+c.label(), false
			for i := range cols {
				cell := "—"
				if costs[i] != nil {
					k := costs[i][c]
					seen = seen || k.samples > 0
					cell = fmtCost(k)
				}
				line += "\t" + cell
			}
			if seen {
				fmt.Fprintln(tw, line+"\t")
			}
		}
		line := "  = total, the timed rounds' median"
		for _, c := range cols {
			line += "\t" + fmt.Sprintf("%5.0f", c.med.Med)
		}
		fmt.Fprintln(tw, line+"\t")
		line = "  profiled rounds: CPU per handshake, samples"
		for _, c := range cols {
			cell := "—"
			if c.b != nil {
				cell = fmt.Sprintf("%5.0f, %d samples", c.b.cpuUS, c.b.samples)
			}
			line += "\t" + cell
		}
		fmt.Fprintln(tw, line+"\t")
		if h.bdErr != nil {
			fmt.Fprintf(tw, "  not made: %v\t\t\t\n", h.bdErr)
		}
	}
	tw.Flush()
}

// fmtCost is a category's cell: µs ± error, share ± error, in whole
// units (the sampling error is rarely below 1).
func fmtCost(k categoryCost) string {
	return fmt.Sprintf("%5.0f ± %-4.0f %8s", k.us, k.usErr, fmt.Sprintf("%.0f ± %.0f%%", 100*k.share, 100*k.shareErr))
}

// newTable starts a table of the report after a blank line: a tabwriter on
// w with the header row head, followed by osslHead's columns when
// withOpenSSL. Flush it after the rows.
func newTable(w io.Writer, head, osslHead string, withOpenSSL bool) *tabwriter.Writer {
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	if withOpenSSL {
		head += osslHead
	}
	fmt.Fprintln(tw, head+"\t")
	return tw
}

// verdictText is the verdict, with its interval when that is narrower
// than the min–max range the ratio column shows.
func verdictText(s stat) string {
	v := s.verdict()
	if v != "" && s.N > 1 && (s.CILo != s.Min || s.CIHi != s.Max) {
		v += fmt.Sprintf(" [%.2f–%.2f]", s.CILo, s.CIHi)
	}
	return v
}

func ordinal(k int) string {
	suffix := "th"
	if k%100 < 11 || k%100 > 13 {
		switch k % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return fmt.Sprint(k) + suffix
}

// tableBreakEven says after how many verifications a key's table has paid
// for itself.
func tableBreakEven(prims []primResult) string {
	var build, tableV, plainV stat
	for _, p := range prims {
		s := summarize(p.m)
		switch {
		case strings.HasPrefix(p.p.name, "table build"):
			build = s.ours
		case strings.HasPrefix(p.p.name, "verify P-256 with the key's table"):
			tableV = s.ours
		case strings.HasPrefix(p.p.name, "verify P-256, ordinary"):
			plainV = s.ours
		}
	}
	if !build.ok() || !tableV.ok() || !plainV.ok() || plainV.Med <= tableV.Med {
		return ""
	}
	return fmt.Sprintf("a key's table pays for its build after about %.0f verifications with that key (build / (ordinary − table))",
		math.Ceil(build.Med/(plainV.Med-tableV.Med)))
}

// notes are the lines under the table (and in the JSON).
func (r *results) notes() []string {
	var out []string
	groups := map[string][]string{}
	var order []string
	for _, h := range r.hs {
		if h.m == nil || h.m.group == "" {
			continue
		}
		k := "TLS " + h.row.s.TLS
		if !slices.Contains(groups[k], h.m.group) {
			groups[k] = append(groups[k], h.m.group)
		}
		if !slices.Contains(order, k) {
			order = append(order, k)
		}
	}
	if len(order) > 0 {
		var parts []string
		for _, k := range order {
			parts = append(parts, k+": "+strings.Join(groups[k], ", "))
		}
		line := "key exchange negotiated (Go's defaults): " + strings.Join(parts, "; ")
		if r.opts.openssl {
			line = "key exchange negotiated (clients offer X25519 only, for parity with openssl s_server): " + strings.Join(parts, "; ")
		}
		out = append(out, line)
	}
	// Row notes: a note every row shares is said once.
	var noteOrder []string
	noteRows := map[string][]string{}
	for _, h := range r.hs {
		for _, n := range h.notes {
			if _, ok := noteRows[n]; !ok {
				noteOrder = append(noteOrder, n)
			}
			noteRows[n] = append(noteRows[n], h.row.label())
		}
	}
	serverSideRows := 0
	for _, h := range r.hs {
		if !h.row.trust {
			serverSideRows++
		}
	}
	for _, n := range noteOrder {
		if len(noteRows[n]) == serverSideRows && serverSideRows > 1 {
			out = append(out, "every row with p256tls on the server: "+n)
		} else {
			out = append(out, strings.Join(noteRows[n], ", ")+": "+n)
		}
	}
	for _, h := range r.hs {
		if h.row.s.Resume && h.row.trust {
			out = append(out, h.row.label()+": the trust store's VerifyConnection checks the chain on resumed handshakes too (through its caches), where crypto/x509 verification is skipped on resumption")
		}
		if h.row.s.Resume && h.m != nil && h.m.n > 0 {
			out = append(out, fmt.Sprintf("%s: %.1f%% of the measured handshakes resumed", h.row.label(), 100*float64(h.m.resumed)/float64(h.m.n)))
		}
	}
	hasClient := false
	for _, h := range r.hs {
		hasClient = hasClient || h.row.side == "client"
	}
	if hasClient {
		out = append(out, "p256tls on = server: the columns are the server's identity (a standard key, a p256tls provider identity), and clients verify with crypto/x509 (chain to the root, then CertificateVerify) in both; p256tls on = client (trust store rows): the columns are the client's verification (crypto/x509 with RootCAs, the p256tls trust store), against a standard server")
	}
	if len(r.hs) > 0 {
		out = append(out, fmt.Sprintf("handshakes/s are wall-clock rates with both processes sharing this machine's %v CPUs, not a server's capacity", r.machine["cpus"]))
	}
	wide := false
	for _, p := range r.prims {
		wide = wide || summarize(p.m).ratio.wide()
	}
	for _, h := range r.hs {
		s := summarize(h.m)
		wide = wide || s.ratio.wide() || s.osslRatio.wide()
	}
	if len(r.prims) > 0 || len(r.hs) > 0 {
		k, conf := medianCI(r.opts.rounds)
		ci := "min–max"
		if k > 1 {
			ci = fmt.Sprintf("the %s smallest to the %s largest ratio, shown after the verdict", ordinal(k), ordinal(k))
		}
		out = append(out, fmt.Sprintf("verdict: read from a %.1f%% confidence interval for the median ratio (sign test; with %d rounds, %s): \"cheaper\"/\"costlier\" when it excludes 1, \"no difference resolved\" when it contains 1",
			100*conf, r.opts.rounds, ci))
	}
	if wide {
		out = append(out, fmt.Sprintf("! the ratio's min–max range is wider than %.0f%% of its median: too wide to trust; rerun with more -rounds or a longer -duration on a quieter machine", 100*wideSpread))
	}
	if note := r.breakdownNote(); note != "" {
		out = append(out, note)
	}
	out = append(out, r.warnings()...)
	if r.opts.openssl {
		out = append(out, "openssl s_server column: OpenSSL's server CPU per handshake (from /proc), same chain and key, same Go clients, one line echoed (-rev) after each handshake as with the Go servers")
	}
	if r.interrupted {
		out = append(out, "interrupted: the results are partial")
	}
	return out
}

// breakdownNote says how the breakdown was made, with the sample rate the
// profiler reached; "" without a breakdown.
func (r *results) breakdownNote() string {
	var samples, cpuNs int64
	for _, h := range r.hs {
		for _, b := range h.bd {
			samples += b.samples
			cpuNs += b.cpuNs
		}
	}
	if samples == 0 || cpuNs <= 0 {
		return ""
	}
	return fmt.Sprintf("where the CPU goes: after the timed rounds of each row that measures the side p256tls is on, %d more rounds with the CPU profiler on (asked %d Hz, got %.0f samples per CPU second); "+
		"each sample goes to one category by its stack (docs/tlsbench.md); a category's µs = its share of the column's samples × the column's median above, "+
		"± the binomial standard error sqrt(p(1−p)/N) of that share scaled the same way; the categories add up to the median by construction, "+
		"and the profiled rounds' own CPU per handshake (getrusage) shows they ran like the timed rounds",
		r.opts.breakdown, profileRate, float64(samples)/(float64(cpuNs)/1e9))
}

// JSON output.

type jsonOut struct {
	Machine    map[string]any `json:"machine"`
	Settings   map[string]any `json:"settings"`
	Primitives []jsonPrim     `json:"primitives"`
	Handshakes []jsonHS       `json:"handshakes"`
	Notes      []string       `json:"notes"`
	Problems   []string       `json:"problems,omitempty"`
}

type jsonPrim struct {
	Name         string    `json:"name"`
	StdlibNs     *float64  `json:"stdlib_ns"`
	P256tlsNs    *float64  `json:"p256tls_ns"`
	Ratio        *float64  `json:"ratio"`
	StdlibRange  []float64 `json:"stdlib_range,omitempty"`
	P256tlsRange []float64 `json:"p256tls_range,omitempty"`
	RatioRange   []float64 `json:"ratio_range,omitempty"`
	Wide         bool      `json:"spread_too_wide,omitempty"`
	RatioCI      []float64 `json:"ratio_ci,omitempty"`
	CIConf       *float64  `json:"ratio_ci_confidence,omitempty"`
	Verdict      string    `json:"verdict,omitempty"`
	OpenSSLNs    *float64  `json:"openssl_ns,omitempty"`
	Note         string    `json:"note,omitempty"`
	Error        string    `json:"error,omitempty"`
}

type jsonHS struct {
	Name           string    `json:"name"`
	Side           string    `json:"side"`
	OursOn         string    `json:"p256tls_on"`
	StdlibCPUus    *float64  `json:"stdlib_cpu_us"`
	P256tlsCPUus   *float64  `json:"p256tls_cpu_us"`
	Ratio          *float64  `json:"ratio"`
	Failures       int64     `json:"failures"`
	StdlibRange    []float64 `json:"stdlib_range,omitempty"`
	P256tlsRange   []float64 `json:"p256tls_range,omitempty"`
	RatioRange     []float64 `json:"ratio_range,omitempty"`
	Wide           bool      `json:"spread_too_wide,omitempty"`
	RatioCI        []float64 `json:"ratio_ci,omitempty"`
	CIConf         *float64  `json:"ratio_ci_confidence,omitempty"`
	Verdict        string    `json:"verdict,omitempty"`
	Handshakes     int64     `json:"handshakes"`
	StdlibPerSec   *float64  `json:"stdlib_per_sec,omitempty"`
	P256tlsPerSec  *float64  `json:"p256tls_per_sec,omitempty"`
	OpenSSLCPUus   *float64  `json:"openssl_cpu_us,omitempty"`
	Transport      string    `json:"transport"`
	TLS            string    `json:"tls"`
	Resumed        bool      `json:"resumed"`
	Key            string    `json:"key"`
	Group          string    `json:"group,omitempty"`
	ResumedPercent *float64  `json:"resumed_percent,omitempty"`
	Note           string    `json:"note,omitempty"`
	Error          string    `json:"error,omitempty"`

	Breakdown      []jsonBreakdown `json:"breakdown,omitempty"`
	BreakdownError string          `json:"breakdown_error,omitempty"`
}

// jsonBreakdown is one column's breakdown.
type jsonBreakdown struct {
	Variant         string         `json:"variant"`
	CPUus           float64        `json:"cpu_us"`          // the timed rounds' median, which the categories add up to
	ProfiledCPUus   float64        `json:"profiled_cpu_us"` // the profiled run's own (getrusage)
	Handshakes      int64          `json:"handshakes"`      // in the profiled run
	Samples         int64          `json:"samples"`
	ProfileRateHz   int64          `json:"profile_rate_hz"`
	SampledFraction float64        `json:"sampled_fraction"` // the samples' own time over getrusage's
	Categories      []jsonCategory `json:"categories"`
}

type jsonCategory struct {
	Category   string  `json:"category"`
	US         float64 `json:"us"`
	Share      float64 `json:"share"`
	ErrorUS    float64 `json:"error_us"`
	ErrorShare float64 `json:"error_share"`
	Samples    int64   `json:"samples"`
}

// jsonBreakdowns are h's breakdowns; columns without a median are left out.
func jsonBreakdowns(h *hsResult) []jsonBreakdown {
	s := summarize(h.m)
	var out []jsonBreakdown
	for _, b := range h.bd {
		med := s.std
		if b.variant == vOurs {
			med = s.ours
		}
		if !med.ok() {
			continue
		}
		j := jsonBreakdown{
			Variant: b.variant, CPUus: med.Med, ProfiledCPUus: b.cpuUS, Handshakes: b.handshakes,
			Samples: b.samples, ProfileRateHz: b.rateHz, SampledFraction: b.coverage(),
			Categories: []jsonCategory{},
		}
		for _, c := range b.costs(med.Med) {
			j.Categories = append(j.Categories, jsonCategory{Category: c.cat.id(), US: c.us, Share: c.share,
				ErrorUS: c.usErr, ErrorShare: c.shareErr, Samples: c.samples})
		}
		out = append(out, j)
	}
	return out
}

func ptr(s stat) *float64 {
	if !s.ok() {
		return nil
	}
	v := s.Med
	return &v
}

func rng(s stat) []float64 {
	if !s.ok() {
		return nil
	}
	return []float64{s.Min, s.Max}
}

func ci(s stat) []float64 {
	if !s.ok() || s.N < 2 {
		return nil
	}
	return []float64{s.CILo, s.CIHi}
}

func ciConf(s stat) *float64 {
	if !s.ok() || s.N < 2 {
		return nil
	}
	v := s.Conf
	return &v
}

func writeJSON(w io.Writer, r *results) error {
	o := r.opts
	out := jsonOut{
		Machine: r.machine,
		Settings: map[string]any{
			"duration_ms":           float64(o.duration) / 1e6,
			"primitive_duration_ms": float64(o.duration/2) / 1e6,
			"rounds":                o.rounds,
			"concurrency":           o.concurrency,
			"key":                   o.key,
			"transport":             o.transport,
			"tls":                   o.tls,
			"resume":                o.resume,
			"only":                  o.only,
			"openssl":               o.openssl,
			"spread_limit":          wideSpread,
			"elapsed_s":             r.elapsed.Seconds(),
			"interrupted":           r.interrupted,
		},
		Primitives: []jsonPrim{},
		Handshakes: []jsonHS{},
		Notes:      r.notes(),
		Problems:   r.problems(),
	}
	for _, p := range r.prims {
		s := summarize(p.m)
		j := jsonPrim{
			Name: p.p.name, StdlibNs: ptr(s.std), P256tlsNs: ptr(s.ours), Ratio: ptr(s.ratio),
			StdlibRange: rng(s.std), P256tlsRange: rng(s.ours), RatioRange: rng(s.ratio),
			Wide: s.ratio.wide(), Note: p.p.noteText(),
			RatioCI: ci(s.ratio), CIConf: ciConf(s.ratio), Verdict: s.ratio.verdict(),
		}
		if p.opensslNs > 0 {
			v := p.opensslNs
			j.OpenSSLNs = &v
		}
		if p.err != nil {
			j.Error = p.err.Error()
		}
		out.Primitives = append(out.Primitives, j)
	}
	for _, h := range r.hs {
		s := summarize(h.m)
		j := jsonHS{
			Name: h.row.name(), Side: h.row.side, OursOn: h.row.oursOn(),
			StdlibCPUus: ptr(s.std), P256tlsCPUus: ptr(s.ours), Ratio: ptr(s.ratio),
			StdlibRange: rng(s.std), P256tlsRange: rng(s.ours), RatioRange: rng(s.ratio),
			Wide:    s.ratio.wide(),
			RatioCI: ci(s.ratio), CIConf: ciConf(s.ratio), Verdict: s.ratio.verdict(),
			Transport: h.row.s.Transport, TLS: h.row.s.TLS, Resumed: h.row.s.Resume, Key: h.row.s.Key,
			OpenSSLCPUus: ptr(s.ossl),
			Note:         strings.Join(h.notes, "; "),
		}
		if h.row.side == "server" {
			j.StdlibPerSec, j.P256tlsPerSec = ptr(s.stdRate), ptr(s.oursRate)
		}
		if h.m != nil {
			j.Failures, j.Handshakes, j.Group = h.m.failures, h.m.n, h.m.group
			if h.row.s.Resume && h.m.n > 0 {
				v := 100 * float64(h.m.resumed) / float64(h.m.n)
				j.ResumedPercent = &v
			}
		}
		if h.err != nil {
			j.Error = h.err.Error()
		}
		j.Breakdown = jsonBreakdowns(&h)
		if h.bdErr != nil {
			j.BreakdownError = h.bdErr.Error()
		}
		out.Handshakes = append(out.Handshakes, j)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
