package provider

import (
	"errors"
	"strings"
	"sync"
	"sync/atomic"
)

// This file holds the set itself and its snapshots. Loading and watching
// files is in identities_files.go, choosing an identity per handshake in
// identities_select.go, the set's counters (Identities.Stats) in stats.go.

// Identities is a set of identities served by one TLS server, chosen per
// handshake by the client's server name (SNI) the way crypto/tls chooses
// among tls.Config.Certificates. Identities loaded from files can be
// reloaded, by hand (Reload) or by polling the files (Watch).
//
// The set in use is an immutable snapshot replaced atomically: a handshake
// works with the snapshot it started with, and the signing tables of new
// identities are built before the swap, so handshakes never wait for a
// reload and never see a half-loaded set. An Identities is safe for
// concurrent use.
type Identities struct {
	mu    sync.Mutex // serializes reloads; guards slots
	slots []*slot
	cur   atomic.Pointer[selection]
}

// selection is an immutable snapshot of the set, indexed by name.
type selection struct {
	ids   []*Identity
	names map[string][]*Identity // lower-case DNS name or wildcard → identities, in set order
}

// NewIdentities returns a set holding ids, the first being the default.
// Such identities are not backed by files: Reload leaves them as they are.
func NewIdentities(ids ...*Identity) *Identities {
	s := &Identities{}
	for _, id := range ids {
		if id != nil {
			s.slots = append(s.slots, &slot{id: id})
		}
	}
	s.publish()
	return s
}

// publish builds a new selection from the slots and makes it current.
func (s *Identities) publish() {
	sel := &selection{names: make(map[string][]*Identity)}
	for _, sl := range s.slots {
		id := sl.id
		sel.ids = append(sel.ids, id)
		names := id.Leaf.DNSNames
		if len(names) == 0 && id.Leaf.Subject.CommonName != "" {
			// Legacy certificates without SANs, as crypto/tls's
			// BuildNameToCertificate.
			names = []string{id.Leaf.Subject.CommonName}
		}
		seen := make(map[string]bool, len(names))
		for _, n := range names {
			n = strings.ToLower(strings.TrimSuffix(n, "."))
			if n == "" || seen[n] {
				continue
			}
			seen[n] = true
			sel.names[n] = append(sel.names[n], id)
		}
	}
	s.cur.Store(sel)
}

var errNoIdentities = errors.New("provider: no identities configured")

// current returns the selection in service; nil for a nil or zero set.
func (s *Identities) current() *selection {
	if s == nil {
		return nil
	}
	return s.cur.Load()
}

// List returns the identities currently in service, the default first.
func (s *Identities) List() []*Identity {
	sel := s.current()
	if sel == nil {
		return nil
	}
	return append([]*Identity(nil), sel.ids...)
}
