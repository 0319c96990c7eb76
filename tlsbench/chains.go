package main

// Chain rows: a client's verification of a server chain as the public Web
// PKI serves it, a P-256 leaf under a P-384 intermediate (Let's Encrypt's
// ECDSA intermediates are P-384), under a P-384 root and under an RSA-4096
// root (Let's Encrypt's default ECDSA chain). crypto/x509
// (x509.Certificate.Verify with the root in Roots and the intermediate in a
// fresh Intermediates pool, as crypto/tls does per handshake) against the
// trust store (truststore.New with the root, Store.Verify). Two cases:
// cold, a new leaf for every verification (the intermediate seen before),
// and warm, the same chain again.
//
// A new leaf costs a P-384 signature to make, which must not be charged to
// the verification, so these rows time each verification alone: the
// calling thread's CPU time around the one call (cputime.Thread, on a
// locked thread), summed over the run; making the next leaf happens
// between the readings.
//
// The same two chains serve the chain handshake rows (hsRow.chain): a
// standard crypto/tls server sends the fixed leaf and the intermediate in
// every handshake, and the clients trust the root alone.

import (
	"context"
	"crypto"
	"crypto/x509"
	"fmt"
	"math"
	"runtime"
	"sync"
	"time"

	"github.com/p256tls/p256tls/internal/testsupport/cputime"
	"github.com/p256tls/p256tls/internal/testsupport/testpki"
)

// chainPKI is one root, a P-384 intermediate under it, and leaves.
type chainPKI struct {
	rootAlg string
	root    *testpki.Node
	inter   *testpki.Node
	leafKey crypto.Signer // every leaf certifies this key: only the signatures differ
	roots   *x509.CertPool
	warm    []*x509.Certificate // one fixed chain: leaf, intermediate
}

// chainRoots are the root algorithms of the public-web chains, in row order.
var chainRoots = []string{testpki.P384, testpki.RSA4096}

var chainCache struct {
	sync.Mutex
	m map[string]*chainPKI
}

// chainPKIFor returns the process's chainPKI for rootAlg, made by
// newChainPKI on first use, so that the primitive rows and the handshake
// rows of a run use the same chain (and an RSA-4096 key is generated once).
// A failure is returned and not remembered.
func chainPKIFor(rootAlg string) (*chainPKI, error) {
	chainCache.Lock()
	defer chainCache.Unlock()
	if c, ok := chainCache.m[rootAlg]; ok {
		return c, nil
	}
	c, err := newChainPKI(rootAlg)
	if err != nil {
		return nil, err
	}
	if chainCache.m == nil {
		chainCache.m = map[string]*chainPKI{}
	}
	chainCache.m[rootAlg] = c
	return c, nil
}

func newChainPKI(rootAlg string) (*chainPKI, error) {
	root, inter, err := newCAPair(rootAlg, testpki.P384, "tlsbench chain")
	if err != nil {
		return nil, err
	}
	leafKey, err := testpki.NewKey(testpki.P256)
	if err != nil {
		return nil, err
	}
	c := &chainPKI{rootAlg: rootAlg, root: root, inter: inter, leafKey: leafKey, roots: x509.NewCertPool()}
	c.roots.AddCert(root.Cert)
	leaf, err := c.newLeaf()
	if err != nil {
		return nil, err
	}
	c.warm = []*x509.Certificate{leaf, inter.Cert}
	return c, nil
}

// newLeaf issues a new P-256 leaf for serverName under the intermediate.
func (c *chainPKI) newLeaf() (*x509.Certificate, error) {
	now := time.Now()
	tm := testpki.LeafTemplate(serverName, now.Add(-time.Hour), now.Add(48*time.Hour), serverName)
	tm.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}
	n, err := testpki.Issue(tm, c.leafKey, c.inter)
	if err != nil {
		return nil, err
	}
	return n.Cert, nil
}

// material is what a chain handshake row gives both processes: the root
// to trust, the fixed chain (leaf, intermediate) the server sends in every
// handshake, and the leaf's key.
func (c *chainPKI) material() (material, error) {
	keyPEM, err := testpki.KeyPEM(c.leafKey)
	if err != nil {
		return material{}, err
	}
	return material{
		RootPEM:  testpki.CertsPEM(c.root.Cert.Raw),
		ChainPEM: testpki.CertsPEM(c.warm[0].Raw, c.inter.Cert.Raw),
		KeyPEM:   keyPEM,
		KeyType:  "p256",
	}, nil
}

// chainRowNote is the note of the chain handshake rows: what the server
// sends and what the clients trust.
const chainRowNote = "a standard crypto/tls server with the leaf's P-256 key sends the same leaf and P-384 intermediate in every handshake, as a real server does; the clients trust the root alone (crypto/x509: RootCAs; p256tls: a trust store holding that root)"

// stdVerify is what crypto/tls does with a server's chain: the
// intermediates in a new pool, the root in RootCAs.
func (c *chainPKI) stdVerify(chain []*x509.Certificate) error {
	inters := x509.NewCertPool()
	for _, ic := range chain[1:] {
		inters.AddCert(ic)
	}
	_, err := chain[0].Verify(x509.VerifyOptions{Roots: c.roots, Intermediates: inters, DNSName: serverName,
		KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}})
	return err
}

// chainRows returns the two rows (cold, warm) of one root algorithm.
func chainRows(rootAlg string) ([]primitive, error) {
	c, err := chainPKIFor(rootAlg)
	if err != nil {
		return nil, fmt.Errorf("chain under a %s root: %w", rootAlg, err)
	}
	store, storeStats, err := oursChainVerifier(c.root.Cert)
	if err != nil {
		return nil, fmt.Errorf("truststore.New: %w", err)
	}
	// Both verifiers accept the chain and refuse it without its
	// intermediate before anything is timed.
	for name, f := range map[string]func([]*x509.Certificate) error{"crypto/x509": c.stdVerify, "trust store": store} {
		if err := f(c.warm); err != nil {
			return nil, fmt.Errorf("%s refuses the chain under the %s root: %w", name, rootAlg, err)
		}
		if f(c.warm[:1]) == nil {
			return nil, fmt.Errorf("%s accepts the leaf without its intermediate", name)
		}
	}
	cold := func(verify func([]*x509.Certificate) error) func() (time.Duration, error) {
		return func() (time.Duration, error) {
			leaf, err := c.newLeaf()
			if err != nil {
				return 0, err
			}
			chain := []*x509.Certificate{leaf, c.inter.Cert}
			return threadTimed(func() error { return verify(chain) })
		}
	}
	warm := func(verify func([]*x509.Certificate) error) func() (time.Duration, error) {
		return func() (time.Duration, error) { return threadTimed(func() error { return verify(c.warm) }) }
	}
	what := "verify chain P-256 leaf, P-384 intermediate, " + rootAlg + " root"
	return []primitive{
		{name: what + ", cold: a new leaf each time (truststore Store.Verify vs x509 Certificate.Verify)",
			stdTimed: cold(c.stdVerify), oursTimed: cold(store)},
		{name: what + ", warm: the same chain again (truststore Store.Verify vs x509 Certificate.Verify)",
			stdTimed: warm(c.stdVerify), oursTimed: warm(store), stats: storeStats},
	}, nil
}

// threadTimed runs f and returns the calling thread's CPU time in it (the
// caller holds the thread locked), or its wall time where the thread clock
// is unavailable.
func threadTimed(f func() error) (time.Duration, error) {
	c0, err := cputime.Thread()
	if err != nil {
		w0 := time.Now()
		err := f()
		return time.Since(w0), err
	}
	if err := f(); err != nil {
		return 0, err
	}
	c1, err := cputime.Thread()
	return c1 - c0, err
}

// timeSelfTimed runs op, which times itself, for about d of wall time on
// one locked thread and returns the mean of the times op reported.
func timeSelfTimed(ctx context.Context, op func() (time.Duration, error), d time.Duration) (sample, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start := time.Now()
	var spent time.Duration
	var n int64
	for {
		c, err := op()
		if err != nil {
			return sample{value: math.NaN(), n: n}, err
		}
		spent += c
		n++
		if time.Since(start) >= d || ctx.Err() != nil {
			return sample{value: float64(spent.Nanoseconds()) / float64(n), n: n}, ctx.Err()
		}
	}
}
