package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/pprof/profile"
	"github.com/p256tls/p256tls/internal/testsupport/cputime"
)

// recordedStacks are stacks from tlsbench's own profiles (go run ./tlsbench
// -pprof DIR; Go 1.26, linux/amd64), leaf first, with the category each
// must get: at least one per category.
var recordedStacks = []struct {
	want   category
	frames []string
}{
	// standard ECDSA signing: SHA-512 in its nonce DRBG is signing, not hashing
	{catSign, frames([]string{
		"crypto/internal/fips140/sha512.blockAVX2",
		"crypto/internal/fips140/sha512.block",
		"crypto/internal/fips140/sha512.(*Digest).Write",
		"crypto/internal/fips140/hmac.New[go.shape.interface { BlockSize() int; Reset(); Size() int; Sum([]uint8) []uint8; Write([]uint8) (int, error) }]",
		"crypto/internal/fips140/ecdsa.newDRBG[go.shape.interface { BlockSize() int; Reset(); Size() int; Sum([]uint8) []uint8; Write([]uint8) (int, error) }]",
		"crypto/internal/fips140/ecdsa.Sign[go.shape.*crypto/internal/fips140/nistec.P256Point,go.shape.interface { BlockSize() int; Reset(); Size() int; Sum([]uint8) []uint8; Write([]uint8) (int, error) }]",
		"crypto/ecdsa.signFIPS[go.shape.*crypto/internal/fips140/nistec.P256Point]",
		"crypto/ecdsa.SignASN1",
		"crypto/ecdsa.(*PrivateKey).Sign",
		"crypto.SignMessage",
		"crypto/tls.(*serverHandshakeStateTLS13).sendServerCertificate",
		"crypto/tls.(*serverHandshakeStateTLS13).handshake",
	}, serverHandshake)},
	// p256tls signing: an internal package under sign
	{catSign, frames([]string{
		"github.com/p256tls/p256tls/internal/safegcd.divstepsConst",
		"github.com/p256tls/p256tls/internal/safegcd.(*Modulus).divConst",
		"github.com/p256tls/p256tls/internal/safegcd.(*Modulus).Div",
		"github.com/p256tls/p256tls/internal/field.DivCanonical",
		"github.com/p256tls/p256tls/internal/point.(*Projective).AffineX",
		"github.com/p256tls/p256tls/sign.(*state).core",
		"github.com/p256tls/p256tls/sign.(*Signer).sign",
		"github.com/p256tls/p256tls/sign.(*Signer).Sign",
		"github.com/p256tls/p256tls/provider.(*key).Sign",
		"github.com/p256tls/p256tls/provider.(*key).SignMessage",
		"crypto.SignMessage",
		"crypto/tls.(*serverHandshakeStateTLS13).sendServerCertificate",
		"crypto/tls.(*serverHandshakeStateTLS13).handshake",
	}, serverHandshake)},
	// p256tls signing: hashing the content and allocating, both under the provider's SignMessage
	{catSign, frames([]string{
		"runtime.mallocgcSmallNoscan",
		"runtime.mallocgc",
		"runtime.growslice",
		"crypto/internal/fips140/sha256.(*Digest).Sum",
		"github.com/p256tls/p256tls/provider.(*key).SignMessage",
		"crypto.SignMessage",
		"crypto/tls.(*serverHandshakeStateTLS13).sendServerCertificate",
		"crypto/tls.(*serverHandshakeStateTLS13).handshake",
	}, serverHandshake, serveTCPRoot)},
	// crypto/x509: the RSA-4096 root's signature on the intermediate
	{catChain, frames([]string{
		"crypto/internal/fips140/bigmod.addMulVVW",
		"crypto/internal/fips140/bigmod.(*Nat).montgomeryMul",
		"crypto/internal/fips140/bigmod.(*Nat).ExpShortVarTime",
		"crypto/internal/fips140/rsa.encrypt",
		"crypto/internal/fips140/rsa.verifyPKCS1v15",
		"crypto/internal/fips140/rsa.VerifyPKCS1v15",
		"crypto/rsa.VerifyPKCS1v15",
		"crypto/x509.checkSignature",
		"crypto/x509.(*Certificate).CheckSignatureFrom",
		"crypto/x509.(*Certificate).buildChains.func1",
		"crypto/x509.(*Certificate).buildChains",
		"crypto/x509.(*Certificate).buildChains.func1",
		"crypto/x509.(*Certificate).buildChains",
		"crypto/x509.(*Certificate).Verify",
		"crypto/tls.(*Conn).verifyServerCertificate",
		"crypto/tls.(*clientHandshakeStateTLS13).readServerCertificate",
		"crypto/tls.(*clientHandshakeStateTLS13).handshake",
	}, clientHandshake, clientWorkerRoot)},
	// the trust store, called by the provider's VerifyConnection
	{catChain, frames([]string{
		"math/big.nat.bytes",
		"math/big.(*Int).FillBytes",
		"crypto/ecdsa.pointFromAffine",
		"crypto/ecdsa.publicKeyToFIPS[go.shape.*crypto/internal/fips140/nistec.P384Point]",
		"crypto/ecdsa.publicKeyBytes[go.shape.*crypto/internal/fips140/nistec.P384Point]",
		"crypto/ecdsa.(*PublicKey).Bytes",
		"github.com/p256tls/p256tls/truststore.ecdsaKeyID",
		"github.com/p256tls/p256tls/truststore.keyIDOf",
		"github.com/p256tls/p256tls/truststore.checkPath",
		"github.com/p256tls/p256tls/truststore.(*Store).fastPath",
		"github.com/p256tls/p256tls/truststore.(*Store).Verify",
		"github.com/p256tls/p256tls/provider.verifyChains",
		"github.com/p256tls/p256tls/provider.clientVerifier.func1",
		"crypto/tls.(*Conn).verifyServerCertificate",
		"crypto/tls.(*clientHandshakeStateTLS13).readServerCertificate",
		"crypto/tls.(*clientHandshakeStateTLS13).handshake",
	}, clientHandshake, clientWorkerRoot)},
	// CertificateVerify, standard verification
	{catSigVer, frames([]string{
		"crypto/internal/fips140/nistec.p256SelectAffine",
		"crypto/internal/fips140/nistec.(*P256Point).p256BaseMult",
		"crypto/internal/fips140/nistec.(*P256Point).ScalarBaseMult",
		"crypto/internal/fips140/ecdsa.verifyGeneric[go.shape.*crypto/internal/fips140/nistec.P256Point]",
		"crypto/internal/fips140/ecdsa.verify[go.shape.*crypto/internal/fips140/nistec.P256Point]",
		"crypto/internal/fips140/ecdsa.Verify[go.shape.*crypto/internal/fips140/nistec.P256Point]",
		"crypto/ecdsa.verifyFIPS[go.shape.*crypto/internal/fips140/nistec.P256Point]",
		"crypto/ecdsa.VerifyASN1",
		"crypto/tls.verifyHandshakeSignature",
		"crypto/tls.(*clientHandshakeStateTLS13).readServerCertificate",
		"crypto/tls.(*clientHandshakeStateTLS13).handshake",
	}, clientHandshake, clientWorkerRoot)},
	// the server's ML-KEM encapsulation
	{catKex, frames([]string{
		"crypto/internal/fips140/mlkem.inverseNTT",
		"crypto/internal/fips140/mlkem.pkeEncrypt",
		"crypto/internal/fips140/mlkem.kemEncaps",
		"crypto/internal/fips140/mlkem.(*EncapsulationKey768).encapsulate",
		"crypto/internal/fips140/mlkem.(*EncapsulationKey768).Encapsulate",
		"crypto/mlkem.(*EncapsulationKey768).Encapsulate",
		"crypto/tls.(*hybridKeyExchange).serverSharedSecret",
		"crypto/tls.(*serverHandshakeStateTLS13).processClientHello",
		"crypto/tls.(*serverHandshakeStateTLS13).handshake",
	}, serverHandshake)},
	// the transcript hash
	{catSym, frames([]string{
		"crypto/internal/fips140/sha256.blockSHANI",
		"crypto/internal/fips140/sha256.block",
		"crypto/internal/fips140/sha256.(*Digest).Write",
		"crypto/tls.(*Conn).writeHandshakeRecord",
		"crypto/tls.(*serverHandshakeStateTLS13).sendServerCertificate",
		"crypto/tls.(*serverHandshakeStateTLS13).handshake",
	}, serverHandshake)},
	// marshalling the ClientHello
	{catTLS, frames([]string{
		"vendor/golang.org/x/crypto/cryptobyte.(*Builder).add",
		"vendor/golang.org/x/crypto/cryptobyte.(*Builder).AddUint16",
		"crypto/tls.(*clientHelloMsg).marshalMsg",
		"crypto/tls.(*clientHelloMsg).marshal",
		"crypto/tls.transcriptMsg",
		"crypto/tls.(*clientHandshakeStateTLS13).handshake",
	}, clientHandshake)},
	// a copy made by crypto/tls is crypto/tls's
	{catTLS, frames([]string{
		"runtime.memmove",
		"slices.Clone[go.shape.[]uint16,go.shape.uint16]",
		"crypto/tls.supportedCipherSuites",
		"crypto/tls.defaultCipherSuites",
		"crypto/tls.(*Config).cipherSuites",
		"crypto/tls.(*Conn).makeClientHello",
	}, clientHandshake, clientWorkerRoot)},
	// the background scavenger (a system call of the runtime's own)
	{catRuntime, []string{
		"runtime.madvise",
		"runtime.sysUnusedOS",
		"runtime.sysUnused",
		"runtime.(*pageAlloc).scavengeOne",
		"runtime.(*pageAlloc).scavenge.func1",
		"runtime.systemstack",
		"runtime.(*pageAlloc).scavenge",
		"runtime.(*scavengerState).init.func2",
		"runtime.(*scavengerState).run",
		"runtime.bgscavenge",
	}},
	// an allocation made by crypto/tls is the runtime's
	{catRuntime, frames([]string{
		"runtime.nextFreeFast",
		"runtime.mallocgcSmallScanNoHeader",
		"runtime.mallocgc",
		"runtime.newobject",
		"crypto/tls.(*Conn).readFromUntil",
		"crypto/tls.(*Conn).readRecordOrCCS",
		"crypto/tls.(*Conn).readRecord",
		"crypto/tls.(*Conn).Read",
		"main.readLine",
	}, clientWorkerRoot)},
	// connect(2) under the dialer
	{catNet, frames([]string{
		"internal/runtime/syscall/linux.Syscall6",
		"syscall.RawSyscall6",
		"syscall.Syscall",
		"syscall.connect",
		"syscall.Connect",
		"net.(*netFD).connect",
		"net.(*netFD).dial",
		"net.socket",
		"net.internetSocket",
		"net.(*sysDialer).doDialTCPProto",
		"net.(*sysDialer).doDialTCP",
		"net.(*sysDialer).dialTCP",
		"net.(*sysDialer).dialSingle",
		"net.(*sysDialer).dialSerial",
		"net.(*sysDialer).dialParallel",
		"net.(*Dialer).DialContext",
	}, clientWorkerRoot)},
	// the runtime's network poller
	{catNet, []string{
		"internal/runtime/syscall/linux.Syscall6",
		"internal/runtime/syscall/linux.EpollWait",
		"runtime.netpoll",
		"runtime.findRunnable",
		"runtime.schedule",
		"runtime.goexit0",
		"runtime.mcall",
	}},
	// tlsbench's own code
	{catOther, []string{
		"main.startQUICServer.func1.1",
	}},
}

// The roots the recorded stacks share: a handshake of tlsbench's server
// or of one of its clients.
var (
	serverHandshake  = []string{"crypto/tls.(*Conn).serverHandshake", "crypto/tls.(*Conn).handshakeContext", "crypto/tls.(*Conn).HandshakeContext"}
	serveTCPRoot     = []string{"crypto/tls.(*Conn).Handshake", "main.serveTCP", "main.startServer.func1.1"}
	clientHandshake  = []string{"crypto/tls.(*Conn).clientHandshake", "crypto/tls.(*Conn).handshakeContext", "crypto/tls.(*Conn).HandshakeContext"}
	clientWorkerRoot = []string{"main.(*clientWorker).tcpHandshake", "main.(*clientWorker).handshake", "main.(*clientPool).run.func1"}
)

// frames is the stack made of parts, leaf first.
func frames(parts ...[]string) []string {
	var out []string
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func TestCategorize(t *testing.T) {
	seen := map[category]bool{}
	for _, c := range recordedStacks {
		if got := categorize(c.frames); got != c.want {
			t.Errorf("%s ... %s: %s, want %s", c.frames[0], c.frames[len(c.frames)-1], got.id(), c.want.id())
		}
		seen[c.want] = true
	}
	for c := range numCategories {
		if !seen[c] {
			t.Errorf("no recorded stack for %s", c.id())
		}
	}
	// Stacks nothing identifies are "other": an unknown package, only
	// neutral frames, nothing at all.
	for _, frames := range [][]string{
		{"example.com/unknown.(*T).Method", "example.com/unknown.main", "runtime.main"},
		{"runtime.memmove", "runtime.goexit"},
		nil,
	} {
		if got := categorize(frames); got != catOther {
			t.Errorf("%q: %s, want other", frames, got.id())
		}
	}
}

// The precedence, on stacks that hold frames of two categories.
func TestCategorizePrecedence(t *testing.T) {
	tls := []string{"crypto/tls.(*Conn).clientHandshake", "crypto/tls.(*Conn).handshakeContext", "main.(*clientWorker).tcpHandshake", "runtime.goexit"}
	under := func(leaf ...string) []string { return append(leaf, tls...) }
	for _, c := range []struct {
		want   category
		frames []string
	}{
		// Operations own what they call, the first in the table first.
		{catSign, under("crypto/internal/fips140/sha256.(*Digest).Write", "crypto.SignMessage")},
		{catSign, under("github.com/p256tls/p256tls/keytable.(*Table).VerifyASN1", "github.com/p256tls/p256tls/sign.(*Signer).Sign")},
		{catChain, under("runtime.mallocgc", "crypto/x509.(*Certificate).Verify")},
		{catChain, under("crypto/ecdsa.VerifyASN1", "github.com/p256tls/p256tls/truststore.(*Store).Verify")},
		{catSigVer, under("crypto/internal/fips140/sha256.(*Digest).Sum", "crypto/tls.verifyHandshakeSignature")},
		{catKex, under("crypto/rand.Read", "crypto/mlkem.GenerateKey768")},
		{catSym, under("runtime.mallocgc", "crypto/internal/fips140/hkdf.Expand")},
		{catNet, under("runtime.exitsyscall", "syscall.Syscall", "net.(*conn).Read")},
		// Then the innermost frame of the runtime, crypto/tls, tlsbench.
		{catRuntime, under("runtime.mallocgc", "bytes.(*Buffer).grow")},
		{catTLS, under("runtime.memmove", "sync.(*Mutex).Lock")},
		{catTLS, []string{"crypto/tls.(*Conn).Read", "main.serveTCP", "runtime.goexit"}},
		{catOther, []string{"fmt.Errorf", "main.(*clientWorker).tcpHandshake", "runtime.goexit"}},
		{catRuntime, []string{"runtime.nanotime", "time.Now", "main.(*clientPool).run.func1", "runtime.goexit"}},
	} {
		if got := categorize(c.frames); got != c.want {
			t.Errorf("%s < %s: %s, want %s", c.frames[0], c.frames[1], got.id(), c.want.id())
		}
	}
}

// fakeProfile is a profile with one sample per stack, of n[i] samples.
func fakeProfile(stacks [][]string, n []int64, period int64) *profile.Profile {
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"},
		Period:     period,
	}
	for i, st := range stacks {
		s := &profile.Sample{Value: []int64{n[i], n[i] * period}}
		for _, name := range st {
			fn := &profile.Function{ID: uint64(len(p.Function) + 1), Name: name}
			loc := &profile.Location{ID: uint64(len(p.Location) + 1), Line: []profile.Line{{Function: fn}}}
			p.Function = append(p.Function, fn)
			p.Location = append(p.Location, loc)
			s.Location = append(s.Location, loc)
		}
		p.Sample = append(p.Sample, s)
	}
	return p
}

func TestBreakdownTally(t *testing.T) {
	p := fakeProfile([][]string{
		{"crypto/ecdsa.SignASN1", "main.serveTCP"},
		{"runtime.mallocgc", "crypto/tls.(*Conn).Handshake"},
		{"crypto/tls.(*Conn).Handshake"},
		{"example.com/x.F"},
	}, []int64{10, 30, 40, 20}, 4e6)
	// An inlined frame: Line[0] of a location is the inlined callee.
	loc := p.Sample[2].Location[0]
	loc.Line = append([]profile.Line{{Function: &profile.Function{Name: "crypto/mlkem.(*DecapsulationKey768).Decapsulate"}}}, loc.Line...)
	b := breakdown{cpuNs: 1e9}
	b.tally(p)
	b.tally(p) // two runs add up
	want := map[category]int64{catSign: 20, catRuntime: 60, catKex: 80, catOther: 40}
	for c := range numCategories {
		if b.counts[c] != want[c] {
			t.Errorf("%s: %d samples, want %d", c.id(), b.counts[c], want[c])
		}
	}
	if b.samples != 200 || b.rateHz != 250 || b.sampledNs != 200*4e6 || b.coverage() != 0.8 {
		t.Errorf("samples %d, rate %d Hz, sampled %d ns, coverage %v", b.samples, b.rateHz, b.sampledNs, b.coverage())
	}
	sum, sumUS := 0.0, 0.0
	for _, k := range b.costs(500) {
		sum += k.share
		sumUS += k.us
		wantSE := math.Sqrt(k.share * (1 - k.share) / 200)
		if math.Abs(k.shareErr-wantSE) > 1e-12 || math.Abs(k.usErr-500*wantSE) > 1e-9 || math.Abs(k.us-500*k.share) > 1e-9 {
			t.Errorf("%s: share %v ± %v, %v ± %v µs", k.cat.id(), k.share, k.shareErr, k.us, k.usErr)
		}
	}
	if math.Abs(sum-1) > 1e-12 || math.Abs(sumUS-500) > 1e-9 {
		t.Errorf("shares add up to %v, µs to %v", sum, sumUS)
	}
	if p, se := (&breakdown{}).share(catSign); !math.IsNaN(p) || !math.IsNaN(se) {
		t.Errorf("no samples: share %v ± %v, want NaN", p, se)
	}
}

// Every category has a rule, and no prefix is given twice.
func TestCategoryRules(t *testing.T) {
	seen := map[string]bool{}
	has := map[category]bool{}
	for _, r := range categoryRules {
		has[r.cat] = true
		for _, p := range r.prefixes {
			if seen[p] || strings.TrimSpace(p) != p || p == "" {
				t.Errorf("prefix %q repeated or blank", p)
			}
			seen[p] = true
		}
	}
	for c := range numCategories {
		if !has[c] {
			t.Errorf("no rule gives %s", c.id())
		}
	}
}

// profileColumns on a run that hashes for its whole window (d of CPU
// time, so that a busy machine still gives it samples): the columns
// are stdlib and p256tls (openssl is not profiled), their rounds add up,
// the samples land in hashing at the rate asked, failures count, and
// -pprof's files are profiles.
func TestProfileColumns(t *testing.T) {
	dir := t.TempDir()
	var steps []string
	run := func(ctx context.Context, v string, d time.Duration, rec *recorder) (sample, error) {
		defer rec.stop()
		if err := rec.start(); err != nil {
			return sample{}, err
		}
		c0, _ := cputime.Process()
		c1 := c0
		buf := make([]byte, 4096)
		for c1-c0 < d {
			for range 100 {
				sha256.Sum256(buf)
			}
			c1, _ = cputime.Process()
		}
		if err := rec.stop(); err != nil {
			return sample{}, err
		}
		return sample{n: 10, cpu: c1 - c0, failures: 1}, nil
	}
	m := &measured{}
	bds, err := profileColumns(context.Background(), []string{vStdlib, vOurs, vOpenSSL}, 2, 60*time.Millisecond, run, m, dir, "01-row",
		func(round int, v string) { steps = append(steps, fmt.Sprintf("%d %s", round, v)) })
	if err != nil {
		t.Fatal(err)
	}
	if want := "-1 stdlib,-1 p256tls,-1 stdlib,-1 p256tls"; strings.Join(steps, ",") != want {
		t.Errorf("steps %q, want %q", steps, want)
	}
	if m.failures != 4 {
		t.Errorf("%d failures counted, want 4", m.failures)
	}
	if len(bds) != 2 || bds[0].variant != vStdlib || bds[1].variant != vOurs {
		t.Fatalf("breakdowns %+v", bds)
	}
	for _, b := range bds {
		p, _ := b.share(catSym)
		if b.handshakes != 20 || b.samples < 5 || b.rateHz != profileRate || p < 0.5 ||
			math.Abs(b.cpuUS-float64(b.cpuNs)/1e3/20) > 1e-9 || b.cpuNs < 2*60e6 {
			t.Errorf("%s: %d handshakes, %d samples at %d Hz, %.0f%% hashing, %v µs per handshake of %v ns",
				b.variant, b.handshakes, b.samples, b.rateHz, 100*p, b.cpuUS, b.cpuNs)
		}
		raw, err := os.ReadFile(filepath.Join(dir, "01-row-"+b.variant+".pb.gz"))
		if err != nil {
			t.Fatal(err)
		}
		prof, err := profile.ParseData(raw)
		if err != nil {
			t.Fatal(err)
		}
		var fromFile breakdown
		fromFile.tally(prof)
		if fromFile.samples != b.samples {
			t.Errorf("%s: the file has %d samples, the breakdown %d", b.variant, fromFile.samples, b.samples)
		}
	}
	// A run that completes nothing, or is not profiled, is an error.
	none := func(ctx context.Context, v string, d time.Duration, rec *recorder) (sample, error) {
		s, err := run(ctx, v, d, rec)
		s.n = 0
		return s, err
	}
	if _, err := profileColumns(context.Background(), []string{vStdlib}, 1, 20*time.Millisecond, none, &measured{}, "", "", func(int, string) {}); err == nil {
		t.Error("no handshakes: no error")
	}
	unprofiled := func(ctx context.Context, v string, d time.Duration, _ *recorder) (sample, error) {
		return run(ctx, v, d, nil)
	}
	if _, err := profileColumns(context.Background(), []string{vStdlib}, 1, 20*time.Millisecond, unprofiled, &measured{}, "", "", func(int, string) {}); err == nil {
		t.Error("no profile: no error")
	}
}

// The profiler starts at profileRate without a word on stderr (the
// runtime's complaint about the rate is silenced), in a child process
// whose stderr is its own.
func TestProfileQuiet(t *testing.T) {
	if os.Getenv(profileChildEnv) == "1" {
		t.Skip("in the child")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), profileChildEnv+"=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, stderr.String())
	}
	if stderr.Len() != 0 {
		t.Errorf("the child wrote to stderr: %q", stderr.String())
	}
	if got := strings.TrimSpace(string(out)); got != fmt.Sprint(profileRate) {
		t.Errorf("the child profiled at %q Hz, want %d", got, profileRate)
	}
}

// profileChildEnv makes the test binary (TestMain) a child of
// TestProfileQuiet: it records a profile and prints its rate.
const profileChildEnv = "TLSBENCH_PROFILE_CHILD"

func profileChild() int {
	p, err := startCPUProfile()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	buf := make([]byte, 4096)
	for t0 := time.Now(); time.Since(t0) < 50*time.Millisecond; {
		sha256.Sum256(buf)
	}
	prof, err := p.stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println(1e9 / prof.Period)
	return 0
}
