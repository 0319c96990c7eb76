package main

// Handshake rows: one side measured in this process, the other in the
// child peer (or, for the openssl column, an openssl s_server child whose
// own CPU time is read).

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"math"
	"runtime"
	"time"

	"github.com/p256tls/p256tls/internal/testsupport/cputime"
)

// hsRow is one handshake row: a scenario measured on one side. In server
// rows and plain client rows the variants are the server's identity (a
// standard key or a p256tls provider identity); in trust-store rows they
// are the client's verification (crypto/x509 with RootCAs, or the p256tls
// trust store) against a standard server.
//
// A dynamic server row serves the certificate from a GetCertificate that
// returns a new *tls.Certificate on every handshake, as ACME clients
// (autocert, certmagic) and SPIFFE sources do: the standard column serves
// it as it is, the p256tls column through provider.DefaultCache().WrapGetCertificate.
//
// A chain row is a trust-store row over a public-web chain (chains.go)
// instead of the P-256 root and intermediate of certs.go: the server sends
// a P-256 leaf and a P-384 intermediate, the clients trust a root of
// algorithm chain (one of chainRoots).
type hsRow struct {
	s       scenario
	side    string // "server" or "client"
	trust   bool   // client row comparing the client's verification
	openssl bool   // add openssl s_server as a third server
	dynamic bool   // server row: the certificate comes from GetCertificate
	chain   string // trust row: the public-web chain's root algorithm; "" for certs.go's chain
}

func (r hsRow) name() string {
	if r.chain != "" {
		return r.s.name() + ", P-384 intermediate, " + r.chain + " root, trust store"
	}
	if r.trust {
		return r.s.name() + ", trust store"
	}
	if r.dynamic {
		return r.s.name() + ", GetCertificate"
	}
	return r.s.name()
}

// oursOn says which side runs p256tls in the row's p256tls column.
func (r hsRow) oursOn() string {
	if r.trust {
		return "client"
	}
	return "server"
}

func (r hsRow) label() string { return r.side + " " + r.name() }

// profiled says whether the row gets a CPU breakdown: with -breakdown, the
// rows that measure the side p256tls is on (not the plain client rows,
// whose client runs the same code in both columns).
func (r hsRow) profiled(o options) bool { return o.breakdown > 0 && r.side == r.oursOn() }

type hsResult struct {
	row   hsRow
	m     *measured
	notes []string
	err   error
	bd    []breakdown // the profiled rounds (-breakdown), stdlib then p256tls
	bdErr error
}

// peerCallTimeout bounds one command to the peer.
func peerCallTimeout(d time.Duration) time.Duration { return d + 2*hsTimeout + 10*time.Second }

// oursAvailable builds the p256tls identity for the scenario's key once in
// this process, to know whether the p256tls column can run and what to say
// about it.
func oursAvailable(m material) (ok bool, note string) {
	sc, err := variantCertificate(vOurs, m, map[string]serverCert{})
	if err != nil {
		return false, "p256tls: " + err.Error()
	}
	return true, sc.note
}

// measureRow measures one row: its timed rounds, then, when the row is
// profiled, its -breakdown profiled rounds. file names the row's profiles
// for -pprof.
func measureRow(ctx context.Context, row hsRow, pk *pki, o options, ossl *opensslTool, tmpDir, file string, step func(round int, v string)) hsResult {
	res := hsResult{row: row}
	mat, err := row.material(pk)
	if err != nil {
		res.err = err
		return res
	}
	if row.chain != "" {
		res.notes = append(res.notes, chainRowNote)
	}
	variants := []string{vStdlib, vOurs}
	if !row.trust {
		ok, note := oursAvailable(mat)
		if !ok {
			variants = variants[:1]
		}
		if note != "" {
			res.notes = append(res.notes, note)
		}
	}
	// After the timed rounds, the row's run again, for the profiled rounds.
	profiled := func(run profiledRunFunc, m *measured) {
		if row.profiled(o) && ctx.Err() == nil {
			res.bd, res.bdErr = profileColumns(ctx, m.variants, o.breakdown, o.duration, run, m, o.pprofDir, file, step)
		}
	}
	var notes []string
	if row.side == "server" {
		res.m, notes, res.err = measureServerRow(ctx, row, mat, variants, o, ossl, tmpDir, step, profiled)
	} else {
		res.m, notes, res.err = measureClientRow(ctx, row, mat, variants, o, step, profiled)
	}
	res.notes = append(res.notes, notes...)
	if res.err != nil && ctx.Err() != nil {
		res.err = errors.New("interrupted")
	}
	return res
}

// material is the row's certificates: the public-web chain of a chain row
// (chainPKIFor), else pk's chain with a leaf of the scenario's key.
func (r hsRow) material(pk *pki) (material, error) {
	if r.chain == "" {
		return pk.material(r.s.Key)
	}
	c, err := chainPKIFor(r.chain)
	if err != nil {
		return material{}, fmt.Errorf("chain under a %s root: %w", r.chain, err)
	}
	return c.material()
}

func perHandshake(cpu time.Duration, n int64) float64 {
	if n <= 0 {
		return math.NaN()
	}
	return float64(cpu.Nanoseconds()) / 1e3 / float64(n)
}

// measureServerRow runs the timed rounds of a server row, then calls
// profiled with the row's run (when the rounds succeeded).
func measureServerRow(ctx context.Context, row hsRow, mat material, variants []string, o options, ossl *opensslTool, tmpDir string, step func(int, string), profiled func(profiledRunFunc, *measured)) (*measured, []string, error) {
	certs := map[string]serverCert{}
	for _, v := range variants {
		if _, err := variantCertificate(v, mat, certs); err != nil {
			return nil, nil, err
		}
	}
	var ss *sServer
	if row.openssl && ossl != nil {
		var err error
		if ss, err = ossl.startServer(ctx, tmpDir, row.s, mat); err != nil {
			return nil, nil, err
		}
		defer ss.stop()
		variants = append(variants, vOpenSSL)
	}
	peer, err := startPeer(ctx, peerSetup{Role: "client", Scenario: row.s, Concurrency: o.concurrency, Material: mat})
	if err != nil {
		return nil, nil, err
	}
	defer peer.close()

	run := func(ctx context.Context, v string, d time.Duration, rec *recorder) (sample, error) {
		var (
			target  string
			measure func() (time.Duration, error)
			t       *tally
		)
		if v == vOpenSSL {
			target, measure = ss.addr, ss.cpu
		} else {
			t = &tally{}
			cfg := serverTLSConfig(row.s, certs[v].cert, t, o.failEvery)
			if row.dynamic {
				dynamicConfig(cfg, certs[vStdlib].cert, v == vOurs)
			}
			srv, err := startServer(row.s, cfg, t)
			if err != nil {
				return sample{}, err
			}
			defer srv.close()
			target, measure = srv.addr, cputime.Process
		}
		if row.s.Resume {
			if r, err := peer.call(peerCmd{Op: "prime", Addr: target}, peerCallTimeout(0)); err != nil {
				return sample{failures: r.Failures, errs: []string{err.Error()}}, err
			}
		}
		runtime.GC()
		var before counts
		if t != nil {
			before = t.snap()
		}
		defer rec.stop()
		if err := rec.start(); err != nil {
			return sample{}, err
		}
		c0, err := measure()
		if err != nil {
			return sample{}, err
		}
		t0 := time.Now()
		rep, err := peer.call(peerCmd{Op: "run", Addr: target, Duration: d}, peerCallTimeout(d))
		wall := time.Since(t0)
		c1, cerr := measure()
		if err != nil {
			return sample{}, err
		}
		if cerr != nil {
			return sample{}, cerr
		}
		if err := rec.stop(); err != nil {
			return sample{}, err
		}
		s := sample{failures: rep.Failures, errs: rep.Errors, group: rep.Group}
		if t != nil {
			dc := t.snap().sub(before)
			s.n, s.resumed = dc.OK, dc.Resumed
			s.failures = max(s.failures, serverFailures(row.s, dc))
			s.errs = append(s.errs, t.errors()...)
		} else {
			s.n, s.resumed = rep.OK, rep.Resumed
		}
		s.cpu = c1 - c0
		s.value = perHandshake(s.cpu, s.n)
		s.rate = float64(s.n) / wall.Seconds()
		return s, nil
	}
	var dynamicStats func() string
	if row.dynamic {
		dynamicStats = oursDynamicStats()
	}
	m, err := interleave(ctx, variants, o.rounds, o.duration, o.duration/2, timed(run), step)
	if err == nil {
		profiled(run, m)
	}
	var notes []string
	switch sc, ok := certs[vOurs]; {
	case row.dynamic:
		notes = append(notes, dynamicStats())
	case ok && sc.stats != nil:
		notes = append(notes, sc.stats())
	}
	return m, notes, err
}

// dynamicConfig makes cfg serve std from a GetCertificate that returns a
// new certificate value per handshake, wrapped by p256tls when ours.
func dynamicConfig(cfg *tls.Config, std tls.Certificate, ours bool) {
	get := func(*tls.ClientHelloInfo) (*tls.Certificate, error) {
		c := std
		return &c, nil
	}
	cfg.Certificates = nil
	cfg.GetCertificate = get
	if ours {
		cfg.GetCertificate = oursGetCertificate(get)
	}
}

// measureClientRow runs the timed rounds of a client row, then calls
// profiled with the row's run (when the rounds succeeded).
func measureClientRow(ctx context.Context, row hsRow, mat material, variants []string, o options, step func(int, string), profiled func(profiledRunFunc, *measured)) (*measured, []string, error) {
	roots, err := mat.rootPool()
	if err != nil {
		return nil, nil, err
	}
	// pools[v] are the clients for variant v; the variant selects the
	// server (plain client rows) or the client's verification (trust rows).
	pools := map[string]*clientPool{}
	defer func() {
		for _, p := range pools {
			p.close()
		}
	}()
	if pools[vStdlib], err = newClientPool(row.s, roots, o.concurrency, nil); err != nil {
		return nil, nil, err
	}
	var storeStats func() string
	if row.trust {
		root, err := mat.rootCert()
		if err != nil {
			return nil, nil, err
		}
		wrap, stats, err := oursClientHook(root)
		if err != nil {
			return nil, nil, err
		}
		storeStats = stats
		if pools[vOurs], err = newClientPool(row.s, roots, o.concurrency, wrap); err != nil {
			return nil, nil, err
		}
	} else {
		pools[vOurs] = pools[vStdlib]
	}
	peer, err := startPeer(ctx, peerSetup{Role: "server", Scenario: row.s, Concurrency: o.concurrency, Material: mat, FailEvery: o.failEvery})
	if err != nil {
		return nil, nil, err
	}
	defer peer.close()

	run := func(ctx context.Context, v string, d time.Duration, rec *recorder) (sample, error) {
		serverVariant, pool := v, pools[v]
		if row.trust {
			serverVariant = vStdlib
		}
		rep, err := peer.call(peerCmd{Op: "serve", Variant: serverVariant}, peerCallTimeout(0))
		if err != nil {
			return sample{}, err
		}
		stop := func() (peerReply, error) { return peer.call(peerCmd{Op: "stop"}, peerCallTimeout(0)) }
		if row.s.Resume {
			before := pool.t.snap()
			if err := pool.prime(ctx, rep.Addr); err != nil {
				stop()
				return sample{failures: pool.t.snap().sub(before).Failed, errs: []string{err.Error()}}, err
			}
		}
		runtime.GC()
		before := pool.t.snap()
		defer rec.stop()
		if err := rec.start(); err != nil {
			stop()
			return sample{}, err
		}
		c0, err := cputime.Process()
		if err != nil {
			stop()
			return sample{}, err
		}
		t0 := time.Now()
		pool.run(ctx, rep.Addr, d)
		wall := time.Since(t0)
		c1, _ := cputime.Process()
		perr := rec.stop()
		dc := pool.t.snap().sub(before)
		srep, err := stop()
		if err != nil {
			return sample{failures: dc.Failed}, err
		}
		s := sample{
			n: dc.OK, resumed: dc.Resumed, group: pool.t.groupName(),
			failures: max(dc.Failed, srep.Failures),
			errs:     append(pool.t.errors(), srep.Errors...),
			cpu:      c1 - c0,
			value:    perHandshake(c1-c0, dc.OK),
			rate:     float64(dc.OK) / wall.Seconds(),
		}
		if perr != nil {
			return s, perr
		}
		return s, ctx.Err()
	}
	m, err := interleave(ctx, variants, o.rounds, o.duration, o.duration/2, timed(run), step)
	if err == nil {
		profiled(run, m)
	}
	var notes []string
	if storeStats != nil {
		notes = append(notes, storeStats())
	}
	return m, notes, err
}

// timed is run for the timed rounds and warm-ups: nothing recorded.
func timed(run profiledRunFunc) runFunc {
	return func(ctx context.Context, v string, d time.Duration, _ bool) (sample, error) {
		return run(ctx, v, d, nil)
	}
}

// describeRow is the short label the progress indicator shows.
func describeRow(r hsRow) string {
	return fmt.Sprintf("%s, %s", r.side, r.name())
}
