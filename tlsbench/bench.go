package main

// Handshake rows: one side measured in this process, the other in the
// child peer (or, for the openssl column, an openssl s_server child whose
// own CPU time is read).

import (
	"context"
	"crypto/tls"
	"fmt"
	"math"
	"runtime"
	"time"
)

// hsRow is one handshake row: a scenario measured on one side.
type hsRow struct {
	s       scenario
	side    string // "server" or "client"
	openssl bool   // add openssl s_server as a third server
}

func (r hsRow) label() string { return r.side + " " + r.s.name() }

type hsResult struct {
	row   hsRow
	m     *measured
	notes []string
	err   error
}

// peerCallTimeout bounds one command to the peer.
func peerCallTimeout(d time.Duration) time.Duration { return d + 2*hsTimeout + 10*time.Second }

// oursAvailable builds the p256tls identity for the scenario's key once in
// this process, to know whether the p256tls column can run and what to say
// about it.
func oursAvailable(m material) (ok bool, note string) {
	_, note, err := variantCertificate(vOurs, m, map[string]tls.Certificate{}, map[string]string{})
	if err != nil {
		return false, "p256tls: " + err.Error()
	}
	return true, note
}

func measureRow(ctx context.Context, row hsRow, pk *pki, o options, ossl *opensslTool, tmpDir string, step func(round int, v string)) hsResult {
	res := hsResult{row: row}
	mat, err := pk.material(row.s.Key)
	if err != nil {
		res.err = err
		return res
	}
	variants := []string{vStdlib}
	ok, note := oursAvailable(mat)
	if ok {
		variants = append(variants, vOurs)
	}
	if note != "" {
		res.notes = append(res.notes, note)
	}
	if row.side == "server" {
		res.m, res.err = measureServerRow(ctx, row, mat, variants, o, ossl, tmpDir, step)
	} else {
		res.m, res.err = measureClientRow(ctx, row, mat, variants, o, step)
	}
	return res
}

func perHandshake(cpu time.Duration, n int64) float64 {
	if n <= 0 {
		return math.NaN()
	}
	return float64(cpu.Nanoseconds()) / 1e3 / float64(n)
}

func measureServerRow(ctx context.Context, row hsRow, mat material, variants []string, o options, ossl *opensslTool, tmpDir string, step func(int, string)) (*measured, error) {
	certs := map[string]tls.Certificate{}
	for _, v := range variants {
		c, _, err := variantCertificate(v, mat, certs, map[string]string{})
		if err != nil {
			return nil, err
		}
		certs[v] = c
	}
	var ss *sServer
	if row.openssl && ossl != nil {
		var err error
		if ss, err = ossl.startServer(ctx, tmpDir, row.s, mat); err != nil {
			return nil, err
		}
		defer ss.stop()
		variants = append(variants, vOpenSSL)
	}
	peer, err := startPeer(ctx, peerSetup{Role: "client", Scenario: row.s, Concurrency: o.concurrency, Material: mat})
	if err != nil {
		return nil, err
	}
	defer peer.close()

	run := func(ctx context.Context, v string, d time.Duration, warm bool) (sample, error) {
		var (
			target  string
			measure func() (time.Duration, error)
			t       *tally
		)
		if v == vOpenSSL {
			target, measure = ss.addr, ss.cpu
		} else {
			t = &tally{}
			srv, err := startServer(row.s, serverTLSConfig(row.s, certs[v], t, o.failEvery), t)
			if err != nil {
				return sample{}, err
			}
			defer srv.close()
			target, measure = srv.addr, cpuTime
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
		s := sample{failures: rep.Failures, errs: rep.Errors, group: rep.Group}
		if t != nil {
			dc := t.snap().sub(before)
			s.n, s.resumed = dc.OK, dc.Resumed
			s.failures = max(s.failures, serverFailures(row.s, dc))
			s.errs = append(s.errs, t.errors()...)
		} else {
			s.n, s.resumed = rep.OK, rep.Resumed
		}
		s.value = perHandshake(c1-c0, s.n)
		s.rate = float64(s.n) / wall.Seconds()
		return s, nil
	}
	return interleave(ctx, variants, o.rounds, o.duration, o.duration/2, run, step)
}

func measureClientRow(ctx context.Context, row hsRow, mat material, variants []string, o options, step func(int, string)) (*measured, error) {
	roots, err := mat.rootPool()
	if err != nil {
		return nil, err
	}
	pool, err := newClientPool(row.s, roots, o.concurrency)
	if err != nil {
		return nil, err
	}
	defer pool.close()
	peer, err := startPeer(ctx, peerSetup{Role: "server", Scenario: row.s, Concurrency: o.concurrency, Material: mat, FailEvery: o.failEvery})
	if err != nil {
		return nil, err
	}
	defer peer.close()

	run := func(ctx context.Context, v string, d time.Duration, warm bool) (sample, error) {
		rep, err := peer.call(peerCmd{Op: "serve", Variant: v}, peerCallTimeout(0))
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
		c0, err := cpuTime()
		if err != nil {
			stop()
			return sample{}, err
		}
		t0 := time.Now()
		pool.run(ctx, rep.Addr, d)
		wall := time.Since(t0)
		c1, _ := cpuTime()
		dc := pool.t.snap().sub(before)
		srep, err := stop()
		if err != nil {
			return sample{failures: dc.Failed}, err
		}
		s := sample{
			n: dc.OK, resumed: dc.Resumed, group: pool.t.groupName(),
			failures: max(dc.Failed, srep.Failures),
			errs:     append(pool.t.errors(), srep.Errors...),
			value:    perHandshake(c1-c0, dc.OK),
			rate:     float64(dc.OK) / wall.Seconds(),
		}
		return s, ctx.Err()
	}
	return interleave(ctx, variants, o.rounds, o.duration, o.duration/2, run, step)
}

// describeRow is the short label the progress indicator shows.
func describeRow(r hsRow) string {
	return fmt.Sprintf("%s, %s", r.side, r.s.name())
}
