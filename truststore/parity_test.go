package truststore

import (
	"bytes"
	"crypto/x509"
	"fmt"
	mrand "math/rand/v2"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// parityCount is the number of random scenarios: a few thousand by default,
// 100,000 with P256TLS_LONG=1 (never under -short), or P256TLS_PARITY=N.
func parityCount(t *testing.T) int {
	if v := os.Getenv("P256TLS_PARITY"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if os.Getenv("P256TLS_LONG") == "1" && !testing.Short() {
		return 100_000
	}
	if testing.Short() {
		return 1200
	}
	return 2500
}

// TestParity compares Store.Verify and the fast path with
// x509.Certificate.Verify on random chains: the final answers (and chains)
// must be equal, and every fast accept must be a crypto/x509 accept.
func TestParity(t *testing.T) {
	n := parityCount(t)
	seed := uint64(time.Now().UnixNano())
	if v := os.Getenv("P256TLS_SEED"); v != "" {
		seed, _ = strconv.ParseUint(v, 10, 64)
	}
	t.Logf("seed %d (P256TLS_SEED to replay), %d scenarios", seed, n)
	f := newFixture(t)
	workers := runtime.GOMAXPROCS(0)
	var mu sync.Mutex
	var fast, fastAccepts, accepts, total, fastRSA, fastBare int
	reasons := map[reason]int{}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			r := mrand.New(mrand.NewPCG(seed, uint64(w)))
			for i := w; i < n; i += workers {
				if t.Failed() {
					return
				}
				sc := randomScenario(t, r, f)
				ok, why := compareWithX509(t, f.store, sc)
				if r.IntN(4) == 0 {
					// Again, through the caches.
					compareWithX509(t, f.store, sc)
				}
				_, err := f.store.Verify(sc.chain, sc.opts)
				mu.Lock()
				total++
				if ok {
					fast++
					if hasRSALink(sc.chain) {
						fastRSA++
					}
					if hasBareRSALink(sc.chain) {
						fastBare++
					}
				}
				if err == nil {
					accepts++
					if ok {
						fastAccepts++
					}
				}
				reasons[why]++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	var rs []string
	for r, c := range reasons {
		rs = append(rs, fmt.Sprintf("%s=%d", r, c))
	}
	sort.Strings(rs)
	t.Logf("%d scenarios: crypto/x509 accepts %d; fast path accepts %d (%.1f%% of accepts); fast-path outcomes: %s",
		total, accepts, fast, 100*float64(fastAccepts)/float64(max(accepts, 1)), strings.Join(rs, " "))
	t.Logf("fast accepts with an RSA PKCS #1 v1.5 signature on the sent chain: %d (%d without AlgorithmIdentifier parameters)", fastRSA, fastBare)
	st := f.store.Stats()
	t.Logf("store: %d hot tables built, %d link hits, %d fast accepts, %d slow", st.HotBuilt, st.LinkHits, st.FastAccepts, st.SlowVerifies)
	if fast == 0 {
		t.Error("the fast path accepted nothing")
	}
	if n >= 1000 && fastRSA == 0 {
		t.Error("the fast path accepted no chain with an RSA link")
	}
	if n >= 2500 && fastBare == 0 { // about 20 expected at 2,500

		t.Error("the fast path accepted no chain with an RSA link without AlgorithmIdentifier parameters")
	}
}

// hasRSALink reports whether a certificate of chain is signed with RSA
// PKCS #1 v1.5 and SHA-2, the RSA links the fast path verifies.
func hasRSALink(chain []*x509.Certificate) bool {
	for _, c := range chain {
		if _, fam := signatureAlgorithm(c.SignatureAlgorithm); fam == famRSA {
			return true
		}
	}
	return false
}

// hasBareRSALink reports whether a certificate of chain is signed with RSA
// PKCS #1 v1.5 under an AlgorithmIdentifier without parameters.
func hasBareRSALink(chain []*x509.Certificate) bool {
	for _, c := range chain {
		if _, ai, ok := bareRSA(c.SignatureAlgorithm); ok && bytes.Contains(c.Raw, ai) {
			return true
		}
	}
	return false
}

// TestReasonNames: every reason has its own name, as Stats().Declines
// reports it.
func TestReasonNames(t *testing.T) {
	seen := map[string]reason{}
	for r := range numReasons {
		n := r.String()
		if n == "" || n == "unknown" {
			t.Errorf("reason %d has no name", r)
		}
		if o, dup := seen[n]; dup {
			t.Errorf("reasons %d and %d are both %q", o, r, n)
		}
		seen[n] = r
	}
	if numReasons.String() != "unknown" {
		t.Errorf("numReasons.String() = %q", numReasons.String())
	}
}
