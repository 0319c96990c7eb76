package provider

import (
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
)

// Stats is a snapshot of the signing counters of one identity, of a set of
// identities, or of the whole process (TotalStats).
type Stats struct {
	// Signatures counts signatures computed by the comb signer of a P-256
	// identity. Each was verified before release; those that failed the
	// check are also counted in FaultsDetected and were withheld, so
	// Signatures - FaultsDetected signatures left the process.
	Signatures uint64 `json:"signatures"`
	// Checks counts the verify-after-sign checks run by the comb signer.
	Checks uint64 `json:"checks"`
	// FaultsDetected counts signatures that failed their check and were
	// therefore never released: the handshake that asked for them failed.
	FaultsDetected uint64 `json:"faults_detected"`
	// Fallbacks counts signatures made by the standard signer, for keys the
	// comb does not handle (RSA, P-384, P-521, Ed25519, opaque signers).
	Fallbacks uint64 `json:"fallbacks"`
}

// Add returns the field-wise sum of s and o.
func (s Stats) Add(o Stats) Stats {
	return Stats{
		Signatures:     s.Signatures + o.Signatures,
		Checks:         s.Checks + o.Checks,
		FaultsDetected: s.FaultsDetected + o.FaultsDetected,
		Fallbacks:      s.Fallbacks + o.Fallbacks,
	}
}

// counters holds everything needed to read the counters of one signing key.
// It is deliberately separate from the key itself: the registry keeps the
// counters, never the key, so a key that nobody uses any more can be
// collected, and a cleanup attached to the key folds the counters into the
// retired total (see registry).
type counters struct {
	label     string // e.g. "example.com (P-256)", for expvar
	algorithm string
	fallbacks atomic.Uint64
	// stats, when set, reads the counters kept by the comb signer.
	stats func() Stats
}

func (c *counters) snapshot() Stats {
	s := Stats{Fallbacks: c.fallbacks.Load()}
	if c.stats != nil {
		s = s.Add(c.stats())
	}
	return s
}

// registry is the process-wide set of signing keys, for TotalStats and
// expvar. A key registers its counters when it is created; when the key
// becomes unreachable (no Identity, no tls.Certificate and no handshake refers
// to it), a runtime cleanup moves its final counts into retired and drops
// the entry, so the registry holds only live keys and the totals never go
// down.
type registry struct {
	mu      sync.Mutex
	live    map[*counters]struct{}
	retired Stats
}

var reg = registry{live: make(map[*counters]struct{})}

// track registers c for the lifetime of owner.
func (r *registry) track(owner *key, c *counters) {
	r.mu.Lock()
	r.live[c] = struct{}{}
	r.mu.Unlock()
	runtime.AddCleanup(owner, r.retire, c)
}

func (r *registry) retire(c *counters) {
	final := c.snapshot()
	r.mu.Lock()
	delete(r.live, c)
	r.retired = r.retired.Add(final)
	r.mu.Unlock()
}

func (r *registry) total() (Stats, int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	t := r.retired
	for c := range r.live {
		t = t.Add(c.snapshot())
	}
	return t, len(r.live)
}

// TotalStats returns the counters summed over every identity the process has
// created, including identities that have since been garbage collected.
func TotalStats() Stats {
	t, _ := reg.total()
	return t
}

// liveKeys reports how many signing keys are currently registered.
func liveKeys() int {
	_, n := reg.total()
	return n
}

// expvarKey describes one live key in the published expvar document.
type expvarKey struct {
	Name      string `json:"name"`
	Algorithm string `json:"algorithm"`
	Stats
}

// expvarDoc is the value published under the expvar name "p256tls".
type expvarDoc struct {
	Total Stats       `json:"total"`
	Live  int         `json:"live_keys"`
	Keys  []expvarKey `json:"keys"`
}

func snapshotDoc() expvarDoc {
	reg.mu.Lock()
	doc := expvarDoc{Total: reg.retired, Live: len(reg.live), Keys: make([]expvarKey, 0, len(reg.live))}
	for c := range reg.live {
		s := c.snapshot()
		doc.Total = doc.Total.Add(s)
		doc.Keys = append(doc.Keys, expvarKey{Name: c.label, Algorithm: c.algorithm, Stats: s})
	}
	reg.mu.Unlock()
	sort.Slice(doc.Keys, func(i, j int) bool {
		if doc.Keys[i].Name != doc.Keys[j].Name {
			return doc.Keys[i].Name < doc.Keys[j].Name
		}
		return doc.Keys[i].Algorithm < doc.Keys[j].Algorithm
	})
	return doc
}

// ExpvarName is the name to publish the counters under with package expvar
// (and therefore serve them at /debug/vars): see ExpvarValue.
const ExpvarName = "p256tls"

// ExpvarValue returns the process's counters as a JSON-encodable document:
// the total (as TotalStats), the number of live keys, and each live key's
// name, algorithm and counters. Importing provider publishes nothing and
// imports neither expvar nor net/http; a program that wants the counters
// served publishes them itself:
//
//	expvar.Publish(provider.ExpvarName, expvar.Func(provider.ExpvarValue))
//
// (importing expvar registers /debug/vars on http.DefaultServeMux: public
// servers should use their own mux).
func ExpvarValue() any { return snapshotDoc() }

// Stats sums the counters of the identities currently in service (a key
// shared by several identities is counted once). Counts of identities
// replaced by a reload are not included; TotalStats includes them.
func (s *Identities) Stats() Stats {
	var t Stats
	seen := make(map[*key]bool)
	for _, id := range s.List() {
		if !seen[id.k] {
			seen[id.k] = true
			t = t.Add(id.Stats())
		}
	}
	return t
}
