package main

// Primitive rows: each operation is timed in its own loop in one goroutine
// (ns per op of process CPU time), the standard library and p256tls
// interleaved round by round like the handshakes.

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/sha512"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/p256tls/p256tls/internal/testsupport/cputime"
)

// primitive is one row. A side is std or ours (an operation timed by its
// loop) or stdTimed or oursTimed (an operation that times itself, see
// chains.go); a side with neither has no implementation to time, and note
// says why. stats, if set, describes what p256tls did (read after the run).
type primitive struct {
	name                string
	std, ours           func() error
	stdTimed, oursTimed func() (time.Duration, error)
	note                string
	stats               func() string
	openssl             string // which openssl speed figure goes with this row: "sign", "verify" or ""
}

// noteText is the row's note and its stats, as the report prints them.
func (p primitive) noteText() string {
	switch {
	case p.stats == nil:
		return p.note
	case p.note == "":
		return p.stats()
	}
	return p.note + "; " + p.stats()
}

// nInputs distinct digests (and signatures) are cycled through.
const nInputs = 64

type sigSet struct {
	digests, sigs [][]byte
}

func makeSigs(priv *ecdsa.PrivateKey, hash func([]byte) []byte) (sigSet, error) {
	var s sigSet
	for i := 0; i < nInputs; i++ {
		d := hash([]byte(fmt.Sprintf("tlsbench message %d", i)))
		sig, err := ecdsa.SignASN1(rand.Reader, priv, d)
		if err != nil {
			return s, err
		}
		s.digests = append(s.digests, d)
		s.sigs = append(s.sigs, sig)
	}
	return s, nil
}

var errBadSig = errors.New("a valid signature did not verify")

func verifier(f func(digest, sig []byte) bool, s sigSet) func() error {
	i := 0
	return func() error {
		k := i % nInputs
		i++
		if !f(s.digests[k], s.sigs[k]) {
			return errBadSig
		}
		return nil
	}
}

func signer(f func(digest []byte) ([]byte, error), s sigSet) func() error {
	i := 0
	return func() error {
		_, err := f(s.digests[i%nInputs])
		i++
		return err
	}
}

func buildPrimitives() ([]primitive, error) {
	p256, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	p384, err := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	if err != nil {
		return nil, err
	}
	s256, err := makeSigs(p256, func(b []byte) []byte { h := sha256.Sum256(b); return h[:] })
	if err != nil {
		return nil, err
	}
	s384, err := makeSigs(p384, func(b []byte) []byte { h := sha512.Sum384(b); return h[:] })
	if err != nil {
		return nil, err
	}
	pub := &p256.PublicKey

	stdSign := signer(func(d []byte) ([]byte, error) { return ecdsa.SignASN1(rand.Reader, p256, d) }, s256)
	stdVerify := verifier(func(d, sig []byte) bool { return ecdsa.VerifyASN1(pub, d, sig) }, s256)
	std384 := verifier(func(d, sig []byte) bool { return ecdsa.VerifyASN1(&p384.PublicKey, d, sig) }, s384)

	rows := []primitive{
		{name: "sign P-256, checked (Signer.Sign vs ecdsa.SignASN1)", std: stdSign, openssl: "sign"},
		{name: "sign P-256, unchecked (internal/signer.SignUnchecked vs ecdsa.SignASN1)", std: stdSign, openssl: "sign"},
		{name: "verify P-256 with the key's table (keytable.Table.VerifyASN1 vs ecdsa.VerifyASN1)", std: stdVerify},
		{name: "verify P-256, ordinary (verify.VerifyASN1 vs ecdsa.VerifyASN1)", std: stdVerify, openssl: "verify"},
		{name: "table build for one P-256 key (keytable.New; stdlib has none)"},
		{name: "verify P-384 (verify.VerifyASN1 vs ecdsa.VerifyASN1)", std: std384},
	}

	sg, err := newOursSigner(p256)
	if err != nil {
		return nil, fmt.Errorf("sign.New: %w", err)
	}
	tableVerify, err := oursTable(pub)
	if err != nil {
		return nil, fmt.Errorf("keytable.New: %w", err)
	}
	// Every p256tls signature is checked once against crypto/ecdsa, and
	// every verifier once against a wrong digest, before timing.
	for _, d := range s256.digests[:4] {
		for _, f := range []func([]byte) ([]byte, error){sg.Sign, sg.SignUnchecked} {
			sig, err := f(d)
			if err != nil {
				return nil, fmt.Errorf("p256tls signer: %w", err)
			}
			if !ecdsa.VerifyASN1(pub, d, sig) {
				return nil, errors.New("p256tls signer: a signature does not verify with crypto/ecdsa")
			}
		}
	}
	if tableVerify(s256.digests[1], s256.sigs[0]) || oursVerify(pub, s256.digests[1], s256.sigs[0]) ||
		oursVerify(&p384.PublicKey, s384.digests[1], s384.sigs[0]) {
		return nil, errors.New("p256tls verification accepted a signature over another digest")
	}
	rows[0].ours = signer(sg.Sign, s256)
	rows[1].ours = signer(sg.SignUnchecked, s256)
	rows[2].ours = verifier(tableVerify, s256)
	rows[3].ours = verifier(func(d, sig []byte) bool { return oursVerify(pub, d, sig) }, s256)
	rows[4].ours = func() error { _, err := oursTable(pub); return err }
	rows[5].ours = verifier(func(d, sig []byte) bool { return oursVerify(&p384.PublicKey, d, sig) }, s384)
	for _, rootAlg := range chainRoots {
		cr, err := chainRows(rootAlg)
		if err != nil {
			return nil, err
		}
		rows = append(rows, cr...)
	}
	return rows, nil
}

// timeOps runs op for about d of wall time and returns ns per op of
// process CPU time (getrusage): on a busy machine, time spent waiting for a
// core is not charged to the operation. Where CPU time is unavailable it
// falls back to wall time.
func timeOps(ctx context.Context, op func() error, d time.Duration) (sample, error) {
	const batch = 4
	c0, cerr := cputime.Process()
	start := time.Now()
	var n int64
	for {
		for i := 0; i < batch; i++ {
			if err := op(); err != nil {
				return sample{value: math.NaN(), n: n}, err
			}
		}
		n += batch
		el := time.Since(start)
		if el >= d || ctx.Err() != nil {
			spent := el
			if cerr == nil {
				c1, err := cputime.Process()
				if err != nil {
					return sample{value: math.NaN(), n: n}, err
				}
				spent = c1 - c0
			}
			return sample{value: float64(spent.Nanoseconds()) / float64(n), n: n}, ctx.Err()
		}
	}
}

// primVariants are the variants a row can time.
func (p primitive) variants() []string {
	var v []string
	if p.std != nil || p.stdTimed != nil {
		v = append(v, vStdlib)
	}
	if p.ours != nil || p.oursTimed != nil {
		v = append(v, vOurs)
	}
	return v
}

func (p primitive) run(ctx context.Context, v string, d time.Duration, warm bool) (sample, error) {
	op, timed := p.std, p.stdTimed
	if v == vOurs {
		op, timed = p.ours, p.oursTimed
	}
	var s sample
	var err error
	if timed != nil {
		s, err = timeSelfTimed(ctx, timed, d)
	} else {
		s, err = timeOps(ctx, op, d)
	}
	if err != nil {
		return s, fmt.Errorf("%s (%s): %w", p.name, v, err)
	}
	return s, nil
}
