package provider

import (
	"crypto/ecdsa"
	"crypto/fips140"
	"errors"
	"fmt"

	"github.com/p256tls/p256tls/internal/signer"
	"github.com/p256tls/p256tls/sign"
)

// combSigner is the checked P-256 signer: comb signing, verify-after-sign
// against the key's own table.
type combSigner = *sign.Signer

// combAllowed reports whether a P-256 key may sign with the comb: not under
// GODEBUG=fips140=only (outside fips140.WithoutEnforcement), where every
// signature must come from the Go Cryptographic Module, which the comb is
// not part of. Under fips140=on the comb signs (docs/provider.md, "FIPS
// 140-3").
func combAllowed() bool { return !fips140.Enforced() }

// newCombKey builds the table of a P-256 key (once per key, never per
// connection) and wraps the checked signer. Its signatures, checks and
// detected faults are counted by the signer itself.
// sign.New leaves priv (and crypto/ecdsa's cached copy of its scalar)
// untouched, so standard signatures made with priv at the same moment stay
// right (TestCombKeyLeavesCallersKeyAlone).
func newCombKey(priv *ecdsa.PrivateKey, label string) (*key, error) {
	s, err := sign.New(priv)
	switch {
	case errors.Is(err, sign.ErrKeyMismatch):
		return nil, fmt.Errorf("provider: %w: the P-256 private key's public point is not d·G (%w)", ErrKeyMismatch, trimPrefix(err, "sign: "))
	case err != nil:
		return nil, fmt.Errorf("provider: %w: invalid P-256 key: %w", ErrUnsupportedKey, trimPrefix(err, "sign: "))
	}
	c := &counters{label: label, algorithm: "P-256", stats: func() Stats {
		st, _ := signer.CountersOf(s)
		return Stats{Signatures: st.Signatures, Checks: st.Checks, FaultsDetected: st.FaultsDetected}
	}}
	k := &key{pub: s.Public(), comb: s, c: c}
	reg.track(k, c)
	return k, nil
}
