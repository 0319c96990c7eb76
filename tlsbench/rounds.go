package main

// Interleaved A/B rounds: a warm-up of every variant, then rounds of
// stdlib, p256tls (, openssl), stdlib, p256tls, … each run lasting the
// same time. Results are medians with min–max; ratios are taken pair by
// pair (p256tls of round i over stdlib of round i), so that a slow spell
// of the shared machine hits both sides of a ratio.

import (
	"context"
	"math"
	"slices"
	"time"
)

// Variants, in the order they run within a round.
const (
	vStdlib  = "stdlib"
	vOurs    = "p256tls"
	vOpenSSL = "openssl"
)

// wideSpread: a ratio whose min–max range is wider than this fraction of
// its median is flagged as too wide to trust.
const wideSpread = 0.20

// sample is one run of one variant.
type sample struct {
	value    float64       // ns per op (primitives) or CPU µs per handshake; NaN if nothing completed
	cpu      time.Duration // CPU time of the run (handshakes only)
	rate     float64       // handshakes per second of wall time (handshakes only)
	n        int64         // ops or handshakes completed
	failures int64
	resumed  int64
	group    string // negotiated key exchange (handshakes only)
	errs     []string
}

// measured is the outcome of interleaved rounds for one row.
type measured struct {
	variants []string
	rounds   [][]sample // [round][variant]
	failures int64      // over every run, warm-up included
	errs     []string
	group    string
	resumed  int64 // in the measured rounds
	n        int64 // completed in the measured rounds
}

// profiledRound is the round number step gets for a profiled run
// (-breakdown), after the timed rounds.
const profiledRound = -1

// runFunc runs one variant for d. warm marks warm-up runs (discarded).
type runFunc func(ctx context.Context, variant string, d time.Duration, warm bool) (sample, error)

// interleave runs the warm-up and the rounds. step is called before every
// run, for the progress indicator (round 0 is the warm-up).
func interleave(ctx context.Context, variants []string, rounds int, d, warmD time.Duration, run runFunc, step func(round int, variant string)) (*measured, error) {
	m := &measured{variants: variants}
	add := m.add
	for _, v := range variants {
		if err := ctx.Err(); err != nil {
			return m, err
		}
		step(0, v)
		s, err := run(ctx, v, warmD, true)
		add(s)
		if err != nil {
			return m, err
		}
	}
	for r := 1; r <= rounds; r++ {
		row := make([]sample, len(variants))
		for i, v := range variants {
			if err := ctx.Err(); err != nil {
				return m, err
			}
			step(r, v)
			s, err := run(ctx, v, d, false)
			add(s)
			if err != nil {
				return m, err
			}
			row[i] = s
			m.resumed += s.resumed
			m.n += s.n
		}
		m.rounds = append(m.rounds, row)
	}
	return m, nil
}

// add counts a run's failures and errors in m (every run's: warm-ups,
// rounds, profiled runs).
func (m *measured) add(s sample) {
	m.failures += s.failures
	for _, e := range s.errs {
		if !slices.Contains(m.errs, e) && len(m.errs) < maxErrs {
			m.errs = append(m.errs, e)
		}
	}
	if s.group != "" {
		m.group = s.group
	}
}

func (m *measured) index(v string) int { return slices.Index(m.variants, v) }

// values are the per-round values of variant v.
func (m *measured) values(v string) []float64 {
	return m.column(v, func(s sample) float64 { return s.value })
}

// rates are the per-round rates of variant v.
func (m *measured) rates(v string) []float64 {
	return m.column(v, func(s sample) float64 { return s.rate })
}

// column is field(sample) for variant v, round by round; nil if v was not
// measured.
func (m *measured) column(v string, field func(sample) float64) []float64 {
	i := m.index(v)
	if i < 0 {
		return nil
	}
	out := make([]float64, 0, len(m.rounds))
	for _, r := range m.rounds {
		out = append(out, field(r[i]))
	}
	return out
}

// ratios are the pairwise ratios num/den, round by round.
func pairRatios(num, den []float64) []float64 {
	var out []float64
	for i := range min(len(num), len(den)) {
		if den[i] > 0 && !math.IsNaN(num[i]) && !math.IsNaN(den[i]) {
			out = append(out, num[i]/den[i])
		}
	}
	return out
}

// stat is a median with its range and a confidence interval for the
// median. N is 0 when there was nothing to summarise (then the other
// fields are NaN).
type stat struct {
	Med, Min, Max float64
	N             int
	// CILo and CIHi are order statistics bracketing the median with
	// confidence Conf (the sign test's interval): the narrowest pair with
	// at least 95%, or min–max when there are too few rounds for 95%
	// (5 rounds: 93.75%).
	CILo, CIHi, Conf float64
}

func statOf(xs []float64) stat {
	var v []float64
	for _, x := range xs {
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			v = append(v, x)
		}
	}
	if len(v) == 0 {
		nan := math.NaN()
		return stat{Med: nan, Min: nan, Max: nan, CILo: nan, CIHi: nan, Conf: nan}
	}
	slices.Sort(v)
	n := len(v)
	med := v[n/2]
	if n%2 == 0 {
		med = (v[n/2-1] + v[n/2]) / 2
	}
	k, conf := medianCI(n)
	return stat{Med: med, Min: v[0], Max: v[n-1], N: n, CILo: v[k-1], CIHi: v[n-k], Conf: conf}
}

// medianCI returns the largest k such that the k-th smallest and k-th
// largest of n samples bracket the median with at least 95% confidence
// (P = 1 − 2·P(Binomial(n, ½) < k)), and that confidence; k = 1 (min–max)
// when even that is below 95%.
func medianCI(n int) (k int, conf float64) {
	// cdf[j] = P(Binomial(n, ½) ≤ j)
	coef, cdf := 1.0, 0.0
	pn := math.Pow(0.5, float64(n))
	k, conf = 1, 1-2*pn
	for j := 0; 2*(j+1) <= n; j++ {
		cdf += coef * pn
		coef = coef * float64(n-j) / float64(j+1)
		// Interval [x(j+2), x(n−j−1)] has confidence 1 − 2·P(B ≤ j+1).
		next := 1 - 2*(cdf+coef*pn)
		if next < 0.95 || j+2 > n-j-1 {
			break
		}
		k, conf = j+2, next
	}
	return k, conf
}

func (s stat) ok() bool { return s.N > 0 }

// verdict reads a cost ratio (p256tls/stdlib, lower is better) through its
// confidence interval.
func (s stat) verdict() string {
	switch {
	case !s.ok():
		return ""
	case s.N < 2:
		return "one round: no interval"
	case s.CIHi < 1:
		return "p256tls cheaper"
	case s.CILo > 1:
		return "p256tls costlier"
	}
	return "no difference resolved"
}

// wide reports whether the range is too wide, relative to the median, to
// trust the median.
func (s stat) wide() bool {
	return s.ok() && s.Med > 0 && (s.Max-s.Min)/s.Med > wideSpread
}
