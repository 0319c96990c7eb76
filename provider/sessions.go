package provider

import (
	"crypto/tls"
	"crypto/x509"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/p256tls/p256tls/truststore"
)

// Why hooked clients check sessions. Before it offers a session, crypto/tls
// checks the session's leaf for expiry and, unless InsecureSkipVerify is
// set, that the session was verified, its leaf names the server and one of
// its verified chains is still valid now and rooted in RootCAs; a session
// that fails is not offered, and the handshake is a full one. The hooks set
// InsecureSkipVerify, so only the leaf's expiry was left: a stale session
// (an expired intermediate, an anchor the store no longer has) was offered,
// resumed by the server, and only then refused by VerifyConnection, failing
// the handshake where crypto/tls makes a full one; and QUIC 0-RTT data
// leaves before that check. So a hooked Config's ClientSessionCache is
// wrapped by a sessionCache, which offers a session only if the store
// accepts its chain, for the name the connection will be verified for, at
// the Config's current time: exactly what VerifyConnection will check once
// the session is resumed.
//
// crypto/tls does not expose a session's certificates (SessionState's
// encoding is opaque), so Put records the chain in SessionState.Extra, the
// field crypto/tls keeps for data a ClientSessionCache stores with a
// session, and Get reads it from there (a persistent cache keeps it too).
// Put learns the chain from the hook's VerifyConnection, which runs before
// the session is stored, by name: the chain last verified for the
// session's name. A Config bound to one connection (Client, Dialer) has one
// name and one chain. A Config shared by connections (HookClientConfig)
// may see two connections to one name verified with different chains at
// the same moment (a rotation under way on a server farm): a session may
// then carry the other chain, and be dropped when its own was fine (a full
// handshake) or offered when its own was stale (the resumed handshake is
// still verified, and fails, as before). Nothing is ever accepted on the
// strength of a recorded chain.

// sessionChainPrefix starts the SessionState.Extra entry that holds a
// session's chain: each certificate as a 3-byte length and its DER.
const sessionChainPrefix = "p256tls/provider session chain v1\x00"

// maxSessionNames bounds the names whose last verified chain a shared
// Config remembers until their sessions arrive.
const maxSessionNames = 256

// sessionCache is the ClientSessionCache of a hooked client Config; see
// above.
type sessionCache struct {
	inner  tls.ClientSessionCache
	s      *truststore.Store
	timeFn func() time.Time
	bound  string // the Config's bound name, or "" when unbound

	mu     sync.Mutex
	chains map[string][]*x509.Certificate // last verified chain per name, trailing dots removed
}

func newSessionCache(inner tls.ClientSessionCache, s *truststore.Store, timeFn func() time.Time, bound string) *sessionCache {
	return &sessionCache{inner: inner, s: s, timeFn: timeFn, bound: bound, chains: make(map[string][]*x509.Certificate)}
}

// verified records chain, just verified by the hook for a connection to
// name, for the sessions of that connection.
func (sc *sessionCache) verified(name string, chain []*x509.Certificate) {
	name = strings.TrimRight(name, ".")
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if _, ok := sc.chains[name]; !ok && len(sc.chains) >= maxSessionNames {
		for n := range sc.chains { // any one
			delete(sc.chains, n)
			break
		}
	}
	sc.chains[name] = chain
}

// Put stores cs with the chain last verified for key's name. A session
// without one (its chain unknown: it could not be checked later) is not
// stored.
func (sc *sessionCache) Put(key string, cs *tls.ClientSessionState) {
	if cs == nil {
		sc.inner.Put(key, nil)
		return
	}
	sc.mu.Lock()
	chain := sc.chains[strings.TrimRight(key, ".")]
	sc.mu.Unlock()
	_, st, err := cs.ResumptionState()
	if chain == nil || err != nil || st == nil {
		return
	}
	entry := []byte(sessionChainPrefix)
	for _, c := range chain {
		n := len(c.Raw)
		entry = append(entry, byte(n>>16), byte(n>>8), byte(n))
		entry = append(entry, c.Raw...)
	}
	st.Extra = append(st.Extra, entry)
	sc.inner.Put(key, cs)
}

// Get returns the session stored for key if the store accepts its chain
// for the name the connection will be verified for, now. A session whose
// chain the store refuses is removed from the cache (as crypto/tls removes
// one whose chains are no longer valid); one without a recorded chain (not
// made through a hook) is left there and not offered.
func (sc *sessionCache) Get(key string) (*tls.ClientSessionState, bool) {
	cs, ok := sc.inner.Get(key)
	if !ok || cs == nil {
		return nil, false
	}
	_, st, err := cs.ResumptionState()
	if err != nil || st == nil {
		return nil, false
	}
	chain := sessionChain(st.Extra)
	if chain == nil {
		return nil, false
	}
	name := sc.bound
	if name == "" {
		// What VerifyConnection will see: no name (ErrNoServerName) for an
		// address, with or without trailing dots.
		if name = sniName(key); name == "" || net.ParseIP(name) != nil {
			return nil, false
		}
	}
	if _, err := sc.s.Verify(chain, truststore.VerifyOptions{
		DNSName:     name,
		KeyUsages:   []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		CurrentTime: now(sc.timeFn),
	}); err != nil {
		sc.inner.Put(key, nil) // as crypto/tls removes a session it will not offer
		return nil, false
	}
	return cs, true
}

// sessionChain parses the chain recorded in extra (the last entry of ours),
// or returns nil.
func sessionChain(extra [][]byte) []*x509.Certificate {
	for i := len(extra) - 1; i >= 0; i-- {
		rest, ok := strings.CutPrefix(string(extra[i]), sessionChainPrefix)
		if !ok {
			continue
		}
		var chain []*x509.Certificate
		for len(rest) > 0 {
			if len(rest) < 3 {
				return nil
			}
			n := int(rest[0])<<16 | int(rest[1])<<8 | int(rest[2])
			if len(rest) < 3+n {
				return nil
			}
			c, err := x509.ParseCertificate([]byte(rest[3 : 3+n]))
			if err != nil {
				return nil
			}
			chain = append(chain, c)
			rest = rest[3+n:]
		}
		return chain
	}
	return nil
}

// sniName is the name crypto/tls sends as SNI, and reports to
// VerifyConnection, for a Config's ServerName (RFC 6066: no IP address, no
// trailing dot): "" for an IP address, bracketed or with a zone too; the
// name without its trailing dots otherwise.
func sniName(serverName string) string {
	host := serverName
	if len(host) > 1 && host[0] == '[' && host[len(host)-1] == ']' {
		host = host[1 : len(host)-1]
	}
	if i := strings.LastIndex(host, "%"); i > 0 {
		host = host[:i]
	}
	if net.ParseIP(host) != nil {
		return ""
	}
	return strings.TrimRight(serverName, ".")
}
