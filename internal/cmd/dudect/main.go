// Command dudect measures whether the signing secret path runs in constant
// time, with the fixed-versus-random test of Reparaz, Balasch and
// Verbauwhede, "Dude, is my code constant time?" (DATE 2017).
//
// Each test times one operation on inputs of two classes, interleaved at
// random: class 0 is one fixed secret, class 1 is a fresh random secret per
// measurement. The inputs of both classes are prepared in the same array
// before timing, so memory layout and cache behaviour do not depend on the
// class. Welch's t statistic compares the two timing distributions, on the
// raw measurements and after cropping them at several upper percentiles (as
// dudect does, to shed interrupts and other long outliers); the test reports
// the largest |t|. A leak of the secret's value into the running time shows
// up as |t| growing with the number of measurements; |t| < 4.5 after 10^6
// measurements is the gate.
//
//	go run ./internal/cmd/dudect            # every test, 10^6 measurements each
//	go run ./internal/cmd/dudect -n 2000000 -run comb
//	go run ./internal/cmd/dudect -short     # 10^5 measurements, for a quick look
//
// Tests:
//
//	comb/one          k·G, fixed k = 1 (only the lowest digit nonzero)
//	comb/top-digit    k·G, fixed k = 2^252 (every digit zero but the top one)
//	comb/n-1          k·G, fixed k = n − 1
//	comb/fixed        k·G, fixed k = a random scalar chosen at start
//	comb/control      k·G, both classes random: an A/A test of the harness
//	                  itself, whose |t| shows the noise floor of the machine
//	sign/nonce        internal/signer.SignUnchecked with a deterministic (RFC 6979) signer and
//	                  a fixed digest (so a fixed nonce k and fixed e) versus
//	                  random digests (random k and e): nonce derivation, comb,
//	                  the division X/Z, the one inversion of k·t and s
//	sign/key-one      internal/signer.SignUnchecked with private key d = 1 versus random keys
//	                  (64 signer objects per class), fixed digest, hedged
//	                  nonces
//
// Sign (checked) is the unchecked signature followed by the verification of the
// signature about to be released, which is variable time on public data
// only (the signature, the digest and the public key), so it is not a
// subject of this test.
package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"flag"
	"fmt"
	"io"
	"math"
	"math/big"
	mrand "math/rand/v2"
	"os"
	"regexp"
	"runtime"
	"sort"
	"time"

	"github.com/p256tls/p256tls/internal/p256/comb"
	"github.com/p256tls/p256tls/internal/p256/point"
	"github.com/p256tls/p256tls/internal/signer"
	"github.com/p256tls/p256tls/sign"
)

// Threshold is the |t| gate.
const Threshold = 4.5

func main() {
	n := flag.Int("n", 1_000_000, "measurements per test")
	short := flag.Bool("short", false, "quick run: 10^5 measurements per test")
	run := flag.String("run", "", "run only the tests whose name matches this regular expression")
	flag.Parse()
	if *short {
		*n = 100_000
	}
	re, err := regexp.Compile(*run)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	fmt.Printf("dudect: %d measurements per test, gate |t| < %.1f, %s/%s, GOMAXPROCS=%d\n",
		*n, Threshold, runtime.GOOS, runtime.GOARCH, runtime.GOMAXPROCS(0))
	ok := true
	for _, tc := range Tests() {
		if !re.MatchString(tc.Name) {
			continue
		}
		r := tc.Run(*n)
		fmt.Println(r)
		ok = ok && r.Pass()
	}
	if !ok {
		fmt.Println("dudect: FAIL")
		os.Exit(1)
	}
	fmt.Println("dudect: PASS")
}

// A Test times op on prepared inputs of two classes.
type Test struct {
	Name string
	// setup prepares the input of measurement i for the given class into
	// slot i of its own storage.
	setup func(slot, class int)
	// op runs the operation on slot i.
	op func(slot int)
	// slots is the size of the input array (inputs are prepared in batches).
	slots int
}

// Result is the outcome of one test.
type Result struct {
	Name     string
	N        [2]int
	Mean     [2]float64 // nanoseconds, raw measurements
	MaxT     float64    // largest |t| over the raw and cropped statistics
	MaxTName string     // which statistic gave it
	Elapsed  time.Duration
}

// Pass reports whether the test stayed under the gate.
func (r Result) Pass() bool { return r.MaxT < Threshold }

func (r Result) String() string {
	verdict := "ok"
	if !r.Pass() {
		verdict = "LEAK?"
	}
	return fmt.Sprintf("%-16s n=%d/%d  mean %.0f/%.0f ns  max|t| = %5.2f (%s)  %s  [%s]",
		r.Name, r.N[0], r.N[1], r.Mean[0], r.Mean[1], r.MaxT, r.MaxTName, verdict, r.Elapsed.Round(time.Second))
}

// welch accumulates the two classes' means and variances (Welford).
type welch struct {
	n    [2]float64
	mean [2]float64
	m2   [2]float64
}

func (w *welch) add(class int, x float64) {
	w.n[class]++
	d := x - w.mean[class]
	w.mean[class] += d / w.n[class]
	w.m2[class] += d * (x - w.mean[class])
}

func (w *welch) t() float64 {
	if w.n[0] < 2 || w.n[1] < 2 {
		return 0
	}
	v0 := w.m2[0] / (w.n[0] - 1)
	v1 := w.m2[1] / (w.n[1] - 1)
	den := math.Sqrt(v0/w.n[0] + v1/w.n[1])
	if den == 0 {
		return 0
	}
	return (w.mean[0] - w.mean[1]) / den
}

// crops is the number of percentile thresholds, as in dudect.
const crops = 10

// Run performs n measurements (about n/2 per class).
func (tc Test) Run(n int) Result {
	start := time.Now()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	rng := mrand.New(mrand.NewPCG(mrand.Uint64(), mrand.Uint64()))
	classes := make([]int, tc.slots)
	times := make([]float64, tc.slots)

	var raw welch
	cropped := make([]welch, crops)
	var thresholds []float64

	// Warm up.
	for i := 0; i < tc.slots; i++ {
		tc.setup(i, i&1)
	}
	for i := 0; i < tc.slots; i++ {
		tc.op(i)
	}

	done := 0
	for done < n {
		batch := min(tc.slots, n-done)
		for i := 0; i < batch; i++ {
			classes[i] = rng.IntN(2)
			tc.setup(i, classes[i])
		}
		for i := 0; i < batch; i++ {
			t0 := time.Now()
			tc.op(i)
			times[i] = float64(time.Since(t0))
		}
		if thresholds == nil {
			// Percentile thresholds from the first batch, as in dudect:
			// 1 − 0.5^(10·(j+1)/crops).
			s := append([]float64(nil), times[:batch]...)
			sort.Float64s(s)
			for j := 0; j < crops; j++ {
				p := 1 - math.Pow(0.5, 10*float64(j+1)/crops)
				thresholds = append(thresholds, s[int(p*float64(len(s)-1))])
			}
			// The first batch only calibrates (dudect also discards it).
			done += batch
			continue
		}
		for i := 0; i < batch; i++ {
			c, x := classes[i], times[i]
			raw.add(c, x)
			for j := range cropped {
				if x <= thresholds[j] {
					cropped[j].add(c, x)
				}
			}
		}
		done += batch
	}

	r := Result{Name: tc.Name, Elapsed: time.Since(start)}
	r.N = [2]int{int(raw.n[0]), int(raw.n[1])}
	r.Mean = raw.mean
	r.MaxT, r.MaxTName = math.Abs(raw.t()), "raw"
	for j := range cropped {
		if t := math.Abs(cropped[j].t()); t > r.MaxT {
			r.MaxT, r.MaxTName = t, fmt.Sprintf("crop p%.1f", 100*(1-math.Pow(0.5, 10*float64(j+1)/crops)))
		}
	}
	return r
}

var (
	bigN = elliptic.P256().Params().N
)

func limbsOf(v *big.Int) [4]uint64 {
	var b [32]byte
	v.FillBytes(b[:])
	var l [4]uint64
	for i := range l {
		for j := 0; j < 8; j++ {
			l[i] |= uint64(b[31-8*i-j]) << (8 * j)
		}
	}
	return l
}

func randomScalar() [4]uint64 {
	k, err := rand.Int(rand.Reader, new(big.Int).Sub(bigN, big.NewInt(1)))
	if err != nil {
		panic(err)
	}
	return limbsOf(k.Add(k, big.NewInt(1)))
}

// combTest times comb.ScalarBaseMult with the fixed scalar k against
// uniformly random 256-bit scalars (drawn from a ChaCha8 generator seeded
// from crypto/rand, outside the timed region).
func combTest(name string, fixed [4]uint64) Test { return combTestControl(name, fixed, false) }

// combTestControl is combTest; with control set, class 0 is random too (an
// A/A test of the harness: its |t| shows the noise floor).
func combTestControl(name string, fixed [4]uint64, control bool) Test {
	const slots = 4096
	in := make([][4]uint64, slots)
	var out point.Projective
	var seed [32]byte
	rand.Read(seed[:])
	rng := mrand.NewChaCha8(seed)
	return Test{
		Name:  name,
		slots: slots,
		setup: func(i, class int) {
			if class == 0 && !control {
				in[i] = fixed
				return
			}
			in[i] = [4]uint64{rng.Uint64(), rng.Uint64(), rng.Uint64(), rng.Uint64()}
		},
		op: func(i int) { comb.ScalarBaseMult(&out, &in[i]) },
	}
}

func mustSigner(d *big.Int, deterministic bool) *sign.Signer {
	var b [32]byte
	d.FillBytes(b[:])
	k, err := ecdsa.ParseRawPrivateKey(elliptic.P256(), b[:])
	if err != nil {
		panic(err)
	}
	var s *sign.Signer
	if deterministic {
		s, err = sign.NewDeterministic(k)
	} else {
		s, err = sign.New(k)
	}
	if err != nil {
		panic(err)
	}
	return s
}

// nonceTest: a deterministic signer, fixed digest (fixed k, e) versus random
// digests.
func nonceTest() Test {
	const slots = 4096
	d, _ := rand.Int(rand.Reader, bigN)
	d.Add(d, big.NewInt(1)).Mod(d, bigN)
	s := mustSigner(d, true)
	fixed := sha256.Sum256([]byte("dudect fixed digest"))
	digests := make([][32]byte, slots)
	return Test{
		Name:  "sign/nonce",
		slots: slots,
		setup: func(i, class int) {
			if class == 0 {
				digests[i] = fixed
			} else {
				rand.Read(digests[i][:])
			}
		},
		op: func(i int) {
			if _, err := signer.SignUnchecked(s, nil, digests[i][:]); err != nil {
				panic(err)
			}
		},
	}
}

// keyTest: private key d = 1 versus random keys, fixed digest, hedged
// nonces from a fixed-cost reader. Each class has 64 Signer objects (64
// copies of the d = 1 key, 64 random keys), picked at random, so that both
// classes touch as many objects and the test compares key values, not
// cache footprints.
func keyTest() Test {
	const slots = 4096
	const copies = 64
	var ones, others []*sign.Signer
	for i := 0; i < copies; i++ {
		ones = append(ones, mustSigner(big.NewInt(1), false))
		d, _ := rand.Int(rand.Reader, new(big.Int).Sub(bigN, big.NewInt(1)))
		others = append(others, mustSigner(d.Add(d, big.NewInt(1)), false))
	}
	signers := make([]*sign.Signer, slots)
	digest := sha256.Sum256([]byte("dudect key test"))
	rnd := &fastRand{}
	return Test{
		Name:  "sign/key-one",
		slots: slots,
		setup: func(i, class int) {
			if class == 0 {
				signers[i] = ones[mrand.IntN(copies)]
			} else {
				signers[i] = others[mrand.IntN(copies)]
			}
		},
		op: func(i int) {
			if _, err := signer.SignUnchecked(signers[i], rnd, digest[:]); err != nil {
				panic(err)
			}
		},
	}
}

// fastRand is a cheap, non-cryptographic reader for the hedged nonces of
// the key test (the same cost for both classes; the nonces differ anyway).
type fastRand struct{ x uint64 }

func (r *fastRand) Read(p []byte) (int, error) {
	for i := range p {
		r.x = r.x*6364136223846793005 + 1442695040888963407
		p[i] = byte(r.x >> 56)
	}
	return len(p), nil
}

var _ io.Reader = (*fastRand)(nil)

// Tests returns every test, in order.
func Tests() []Test {
	top := new(big.Int).Lsh(big.NewInt(1), 252)
	nm1 := new(big.Int).Sub(bigN, big.NewInt(1))
	return []Test{
		combTest("comb/one", limbsOf(big.NewInt(1))),
		combTest("comb/top-digit", limbsOf(top)),
		combTest("comb/n-1", limbsOf(nm1)),
		combTest("comb/fixed", randomScalar()),
		combTestControl("comb/control", [4]uint64{}, true),
		nonceTest(),
		keyTest(),
	}
}
