package truststore

import (
	"crypto/elliptic"
	"sync"
	"testing"
)

// BenchmarkVerifyMixed: the public web's ECDSA chains (issue 15), a P-256
// leaf with a DNS name under a P-384 intermediate, under an RSA-4096 anchor
// (anchor=rsa4096, Let's Encrypt's default ECDSA chain) or a P-384 anchor
// (anchor=p384), through Store.Verify beside x509.Certificate.Verify in the
// same run. path=x509 is crypto/x509 with a new leaf every time (it caches
// nothing); path=first the first chain through a new intermediate (a new
// intermediate and key every time, caches reset when the list wraps);
// path=leaf a new leaf under one intermediate whose link to the anchor is
// cached (and which has a hot table when its key earns one); path=same the
// same chain again, both links in the link cache.
//
//	go test -c -o ts.test ./truststore
//	for i in 1 2 3 4 5 6; do ./ts.test -test.run '^$' -test.bench BenchmarkVerifyMixed -test.benchtime 0.3s; done > mixed.txt
//	benchstat -col /path mixed.txt
func BenchmarkVerifyMixed(b *testing.B) {
	for _, anchor := range []string{"rsa4096", "p384"} {
		b.Run("anchor="+anchor, func(b *testing.B) {
			mixedSetup(b, anchor).run(b, [3]string{"first", "leaf", "same"}, 8)
		})
	}
}

// mixedCache holds each anchor's chainBench: cold chains under a new P-384
// intermediate each, warm chains under one P-384 intermediate.
var mixedCache struct {
	sync.Mutex
	m map[string]*chainBench
}

func mixedSetup(b *testing.B, anchor string) *chainBench {
	mixedCache.Lock()
	defer mixedCache.Unlock()
	if d := mixedCache.m[anchor]; d != nil {
		return d
	}
	rootKey := poolKey(kRSA4096, 0)
	if anchor == "p384" {
		rootKey = poolKey(kP384, 0)
	}
	root := issue(b, caTemplate("Mixed root "+anchor), rootKey, nil)
	// More warm leaves than the link cache holds.
	d := new(chainBench)
	*d = newChainBench(b, root, elliptic.P384(), "Mixed", 128, 2048)
	if mixedCache.m == nil {
		mixedCache.m = map[string]*chainBench{}
	}
	mixedCache.m[anchor] = d
	return d
}
