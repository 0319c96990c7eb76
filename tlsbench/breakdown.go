package main

// -breakdown: where the measured side's CPU goes. After a row's timed
// rounds, a few more rounds (stdlib, p256tls) with the CPU profiler on;
// every sample is given one category by the rules below, and each
// category's share of the samples, times the column's measured CPU per
// handshake, is its cost per handshake.

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/pprof/profile"
)

// category is where a profile sample's CPU went.
type category int

// The categories, in the order the reports list them.
const (
	catSign    category = iota // the server's handshake signature
	catChain                   // certificate chain verification
	catSigVer                  // the handshake signature's verification
	catKex                     // key exchange
	catSym                     // symmetric ciphers, hashing, key schedule, random bytes
	catTLS                     // crypto/tls (and quic-go) themselves
	catRuntime                 // the Go runtime
	catNet                     // system calls and the network
	catOther
	numCategories

	noCategory category = -1 // a neutral rule's
)

// categoryNames: id (JSON) and label (table, SVG).
var categoryNames = [numCategories]struct{ id, label string }{
	catSign:    {"signing", "signing"},
	catChain:   {"chain_verification", "chain verification"},
	catSigVer:  {"signature_verification", "handshake signature verification"},
	catKex:     {"key_exchange", "key exchange"},
	catSym:     {"symmetric_hashing", "symmetric ciphers, hashing"},
	catTLS:     {"tls", "crypto/tls, quic-go"},
	catRuntime: {"runtime", "Go runtime"},
	catNet:     {"syscalls_network", "system calls, network"},
	catOther:   {"other", "other"},
}

func (c category) id() string    { return categoryNames[c].id }
func (c category) label() string { return categoryNames[c].label }

// ruleScope says how a rule's frames claim a sample.
type ruleScope int

const (
	// enclosing: the sample is the rule's when any frame of its stack
	// matches, whatever runs beneath that frame (its hashing, allocation,
	// GC assists, system calls). Enclosing rules are tried in table order,
	// before any innermost rule; the first that matches wins.
	enclosing ruleScope = iota
	// innermost: otherwise the stack is walked from the leaf toward the
	// root, and the first frame matching an innermost rule decides; a
	// neutral frame matches but decides nothing (the walk goes on).
	innermost
	// neutral: an innermost-pass rule for frames that say nothing of
	// who did the work (goroutine roots, memmove and its kin).
	neutral
)

// ourModule prefixes the function names of p256tls's packages.
const ourModule = "github.com/p256tls/p256tls/"

// categoryRules is the categorizer: a frame matches a rule when its
// function name (package path and name, as the profile has it) starts with
// one of the rule's prefixes. Samples matching no rule are "other".
//
// The order is the precedence. An operation owns everything it calls:
// SHA-256 inside ECDSA signing is signing, not hashing; an allocation
// inside ML-KEM is key exchange. The operations come first, the most
// specific first: signing (which verifies its own signature in p256tls),
// then chain verification (crypto/tls's verifyServerCertificate holds
// parsing, crypto/x509 or the trust store through VerifyConnection), then
// the handshake signature's verification, key exchange, then symmetric
// cryptography and hashing, then system calls and the network (under
// which the runtime's syscall entry and exit run). What is left is the
// TLS stack's own work, the runtime's, or tlsbench's, decided by the
// innermost frame: an allocation made by crypto/tls is the runtime's, a
// copy (memmove) made by crypto/tls is crypto/tls's.
var categoryRules = []struct {
	cat      category
	scope    ruleScope
	prefixes []string
}{
	{catSign, enclosing, []string{
		"crypto.SignMessage", // hashes the signed content for a plain crypto.Signer
		"crypto/ecdsa.(*PrivateKey).Sign", "crypto/ecdsa.Sign", "crypto/ecdsa.sign",
		"crypto/internal/fips140/ecdsa.Sign", "crypto/internal/fips140/ecdsa.sign",
		"crypto/rsa.(*PrivateKey).Sign", "crypto/rsa.Sign", "crypto/internal/fips140/rsa.Sign",
		"crypto/ed25519.PrivateKey.Sign", "crypto/ed25519.Sign", "crypto/internal/fips140/ed25519.Sign",
		ourModule + "sign.", ourModule + "internal/signer.",
		ourModule + "provider.(*key).Sign", ourModule + "provider.(*Cache).",
	}},
	{catChain, enclosing, []string{
		"crypto/tls.(*Conn).verifyServerCertificate", "crypto/x509.(*Certificate).Verify",
		ourModule + "truststore.", ourModule + "provider.clientVerifier", ourModule + "provider.verifyChains",
	}},
	{catSigVer, enclosing, []string{"crypto/tls.verifyHandshakeSignature"}},
	{catKex, enclosing, []string{
		"crypto/ecdh.", "crypto/internal/fips140/ecdh.", "crypto/mlkem.", "crypto/internal/fips140/mlkem.",
	}},
	{catSym, enclosing, []string{
		"crypto/aes.", "crypto/internal/fips140/aes", "crypto/cipher.",
		"vendor/golang.org/x/crypto/chacha20", "golang.org/x/crypto/chacha20",
		"vendor/golang.org/x/crypto/internal/poly1305", "golang.org/x/crypto/internal/poly1305",
		"crypto/sha1.", "crypto/sha256.", "crypto/sha512.", "crypto/sha3.", "crypto/md5.",
		"crypto/internal/fips140/sha256.", "crypto/internal/fips140/sha512.", "crypto/internal/fips140/sha3.",
		"crypto/hmac.", "crypto/hkdf.", "crypto/internal/fips140/hmac.", "crypto/internal/fips140/hkdf.",
		"crypto/internal/fips140/tls12.", "crypto/internal/fips140/tls13.",
		"crypto/internal/fips140/subtle.", "crypto/subtle.",
		"crypto/rand.", "crypto/internal/sysrand.", "crypto/internal/fips140/drbg.",
	}},
	{catNet, enclosing, []string{
		"syscall.", "internal/poll.", "net.", "runtime.netpoll", "internal/runtime/syscall.",
		"golang.org/x/sys/unix.", "golang.org/x/net/",
	}},
	{noCategory, neutral, []string{
		"runtime.goexit", "runtime.main", "runtime.memmove", "runtime.memclrNoHeapPointers",
		"runtime.memequal", "internal/bytealg.",
	}},
	{catRuntime, innermost, []string{"runtime.", "internal/runtime/"}},
	{catTLS, innermost, []string{
		"crypto/tls.", "github.com/quic-go/quic-go", "vendor/golang.org/x/crypto/cryptobyte", "golang.org/x/crypto/cryptobyte",
	}},
	{catOther, innermost, []string{"main.", "runtime/pprof."}},
}

// categorize returns the category of a sample whose stack is frames,
// function names from the leaf (innermost) to the root.
func categorize(frames []string) category {
	for _, r := range categoryRules {
		if r.scope != enclosing {
			continue
		}
		for _, f := range frames {
			if hasAnyPrefix(f, r.prefixes) {
				return r.cat
			}
		}
	}
	for _, f := range frames {
		for _, r := range categoryRules {
			if r.scope == enclosing || !hasAnyPrefix(f, r.prefixes) {
				continue
			}
			if r.scope == innermost {
				return r.cat
			}
			break // neutral: on to the next frame
		}
	}
	return catOther
}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// stackOf is the sample's function names from the leaf to the root,
// inlined calls included (a location lists its inlined frames innermost
// first).
func stackOf(s *profile.Sample) []string {
	var out []string
	for _, loc := range s.Location {
		for _, l := range loc.Line {
			if l.Function != nil {
				out = append(out, l.Function.Name)
			}
		}
	}
	return out
}

// breakdown is one column's profiled runs.
type breakdown struct {
	variant    string
	handshakes int64
	cpuUS      float64 // getrusage CPU per handshake over the profiled runs, µs
	samples    int64
	sampledNs  int64 // the samples' own CPU time (count × period)
	cpuNs      int64 // getrusage CPU over the profiled runs
	rateHz     int64 // the profiler's rate
	counts     [numCategories]int64
}

// tally categorizes every sample of p into b.
func (b *breakdown) tally(p *profile.Profile) {
	ci, ti := -1, -1
	for i, st := range p.SampleType {
		switch st.Type {
		case "samples":
			ci = i
		case "cpu":
			ti = i
		}
	}
	if p.Period > 0 {
		b.rateHz = int64(math.Round(1e9 / float64(p.Period)))
	}
	for _, s := range p.Sample {
		n := int64(1)
		if ci >= 0 {
			n = s.Value[ci]
		}
		if ti >= 0 {
			b.sampledNs += s.Value[ti]
		}
		b.samples += n
		b.counts[categorize(stackOf(s))] += n
	}
}

// share is category c's fraction of the samples and its standard error,
// sqrt(p(1−p)/N): the samples taken as N independent draws.
func (b *breakdown) share(c category) (p, se float64) {
	if b.samples == 0 {
		return math.NaN(), math.NaN()
	}
	n := float64(b.samples)
	p = float64(b.counts[c]) / n
	return p, math.Sqrt(p * (1 - p) / n)
}

// coverage is the samples' own time over the CPU time getrusage measured
// in the same run (below 1: the kernel's tick capped the rate, see
// profileRate).
func (b *breakdown) coverage() float64 {
	if b.cpuNs <= 0 {
		return math.NaN()
	}
	return float64(b.sampledNs) / float64(b.cpuNs)
}

// recorder brackets one run's measured window with the CPU profiler. A nil
// recorder records nothing (the timed rounds).
type recorder struct {
	p    *cpuProfile
	prof *profile.Profile
}

// start starts the profiler; call it just before the window's first CPU
// reading.
func (r *recorder) start() error {
	if r == nil {
		return nil
	}
	p, err := startCPUProfile()
	r.p = p
	return err
}

// stop stops the profiler, if running, and keeps the profile; call it just
// after the window's last CPU reading. Safe to call again (it then does
// nothing), so that error paths can defer it.
func (r *recorder) stop() error {
	if r == nil || r.p == nil {
		return nil
	}
	var err error
	r.prof, err = r.p.stop()
	r.p = nil
	return err
}

// profiledRunFunc runs variant v once for d, its measured window recorded
// by rec when rec is not nil.
type profiledRunFunc func(ctx context.Context, v string, d time.Duration, rec *recorder) (sample, error)

// profileColumns runs rounds more rounds of the stdlib and p256tls columns
// among variants, interleaved as the timed rounds are and each run lasting
// d, with the profiler on, and returns the columns' breakdowns (their
// runs' samples and CPU time added up). Failed handshakes count in m like
// the timed rounds'. With dir set, each column's profiles are also
// written there, merged, named after file and the variant.
func profileColumns(ctx context.Context, variants []string, rounds int, d time.Duration, run profiledRunFunc, m *measured, dir, file string, step func(round int, v string)) ([]breakdown, error) {
	var out []breakdown
	profs := map[string][]*profile.Profile{}
	for _, v := range variants {
		if v == vStdlib || v == vOurs {
			out = append(out, breakdown{variant: v})
		}
	}
	for range rounds {
		for i := range out {
			b := &out[i]
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			step(profiledRound, b.variant)
			rec := &recorder{}
			s, err := run(ctx, b.variant, d, rec)
			m.add(s)
			if err != nil {
				return nil, err
			}
			if rec.prof == nil {
				return nil, fmt.Errorf("%s: no CPU profile recorded", b.variant)
			}
			b.handshakes += s.n
			b.cpuNs += s.cpu.Nanoseconds()
			b.tally(rec.prof)
			profs[b.variant] = append(profs[b.variant], rec.prof)
		}
	}
	for i := range out {
		b := &out[i]
		switch {
		case b.handshakes == 0:
			return nil, fmt.Errorf("%s: no handshake completed in the profiled rounds", b.variant)
		case b.samples == 0:
			return nil, fmt.Errorf("%s: no CPU sample in the profiled rounds (too short for this machine's load: raise -breakdown)", b.variant)
		}
		b.cpuUS = float64(b.cpuNs) / 1e3 / float64(b.handshakes)
		if dir != "" {
			if err := writeProfile(filepath.Join(dir, file+"-"+b.variant+".pb.gz"), profs[b.variant]); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// writeProfile writes profs, merged, to path.
func writeProfile(path string, profs []*profile.Profile) error {
	p, err := profile.Merge(profs)
	if err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := p.Write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// categoryCost is one category of a column: its samples, its share of them
// and its cost per handshake (the share times the column's median CPU per
// handshake over the timed rounds), each with its standard error.
type categoryCost struct {
	cat             category
	samples         int64
	share, shareErr float64
	us, usErr       float64
}

// costs are b's categories, in category order, scaled to median µs per
// handshake.
func (b *breakdown) costs(median float64) []categoryCost {
	out := make([]categoryCost, numCategories)
	for c := range numCategories {
		p, se := b.share(c)
		out[c] = categoryCost{cat: c, samples: b.counts[c], share: p, shareErr: se, us: p * median, usErr: se * median}
	}
	return out
}

// breakdownOf returns h's breakdown of variant v, or nil.
func (h *hsResult) breakdownOf(v string) *breakdown {
	for i := range h.bd {
		if h.bd[i].variant == v {
			return &h.bd[i]
		}
	}
	return nil
}
