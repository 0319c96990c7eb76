// Package ecdsatest holds test helpers shared by the tests of keytable,
// verify and ecdsaverify: the Wycheproof vectors, crafted signatures with
// chosen u1 and u2, and a reference for u1·G + u2·Q. It is imported by tests
// only.
package ecdsatest

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/p256tls/p256tls/internal/testsupport/cputime"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	_ "crypto/sha256"
	"crypto/sha3"
	_ "crypto/sha512"
)

// WycheproofModule is the Go module that carries the Wycheproof vectors.
const WycheproofModule = "github.com/C2SP/wycheproof@v0.0.0-20250901140545-b51abcfb8daf"

// Vector is one Wycheproof ECDSA verification test.
type Vector struct {
	ID      int
	Comment string
	Msg     []byte
	Sig     []byte
	Result  string // "valid", "invalid" or "acceptable"
}

// Group is the vectors under one public key.
type Group struct {
	Curve elliptic.Curve
	Key   *ecdsa.PublicKey // nil if crypto/ecdsa refuses the key
	SEC1  []byte           // the key's uncompressed encoding
	Hash  crypto.Hash      // 0 for SHAKE256 (Shake) and SHAKE128 (Shake128)
	Shake bool             // the digest is SHAKE256's first 64 bytes (Wycheproof's "SHAKE256")
	// Shake128: the digest is SHAKE128's first 64 bytes (Wycheproof's
	// "SHAKE128").
	Shake128 bool
	P1363    bool // r ‖ s signatures instead of DER
	Tests    []Vector
}

var vectorDir string

// P256Files are the Wycheproof module's ECDSA secp256r1 files: DER and
// P1363, SHA-2, SHA-3, SHAKE128 and WebCrypto (every one it has;
// TestFileLists checks that against the module).
var P256Files = []string{
	"ecdsa_secp256r1_sha256_test.json", "ecdsa_secp256r1_sha512_test.json",
	"ecdsa_secp256r1_sha256_p1363_test.json", "ecdsa_secp256r1_sha512_p1363_test.json",
	"ecdsa_secp256r1_sha3_256_test.json", "ecdsa_secp256r1_sha3_512_test.json",
	"ecdsa_secp256r1_shake128_test.json", "ecdsa_secp256r1_shake128_p1363_test.json",
	"ecdsa_secp256r1_webcrypto_test.json",
}

// P384Files are the Wycheproof module's ECDSA secp384r1 files: DER and
// P1363, SHA-2, SHA-3, SHAKE256 and WebCrypto (every one it has;
// TestFileLists checks that against the module).
var P384Files = []string{
	"ecdsa_secp384r1_sha256_test.json", "ecdsa_secp384r1_sha384_test.json", "ecdsa_secp384r1_sha512_test.json",
	"ecdsa_secp384r1_sha384_p1363_test.json", "ecdsa_secp384r1_sha512_p1363_test.json",
	"ecdsa_secp384r1_sha3_384_test.json", "ecdsa_secp384r1_sha3_512_test.json",
	"ecdsa_secp384r1_shake256_test.json", "ecdsa_secp384r1_shake256_p1363_test.json",
	"ecdsa_secp384r1_webcrypto_test.json",
}

// Dir returns the directory of the Wycheproof vectors, fetched through the
// Go module proxy with `go mod download -json`. When they cannot be had, the
// test fails if the environment variable CI is "true" (as in .ci/run: a CI
// run must never pass without the vectors) and is skipped otherwise, with a
// message that says how to get them.
func Dir(t testing.TB) string {
	t.Helper()
	if vectorDir != "" {
		return vectorDir
	}
	dir, err := download()
	if err != nil {
		unavailable(t, os.Getenv("CI") == "true", err)
		return ""
	}
	vectorDir = dir
	return vectorDir
}

// download asks the go command for the module's directory in the module
// cache (downloading it if needed) and returns its testvectors_v1.
func download() (string, error) {
	out, err := exec.Command("go", "mod", "download", "-json", WycheproofModule).Output()
	var info struct{ Dir, Error string }
	if jerr := json.Unmarshal(out, &info); jerr == nil && info.Error != "" {
		err = errors.New(info.Error)
	}
	if err != nil {
		return "", fmt.Errorf("go mod download -json %s: %w", WycheproofModule, err)
	}
	if info.Dir == "" {
		return "", fmt.Errorf("go mod download -json %s reported no directory", WycheproofModule)
	}
	return filepath.Join(info.Dir, "testvectors_v1"), nil
}

// unavailable fails t (in CI) or skips it, saying why and what to do.
func unavailable(t testing.TB, ci bool, err error) {
	t.Helper()
	if ci {
		t.Fatalf("the Wycheproof vectors are required when CI=true and could not be had: %v", err)
		return
	}
	t.Skipf("skipping: the Wycheproof vectors are not available (%v); "+
		"get them with `go mod download %s` on a machine that reaches the Go module proxy "+
		"(or set GOPROXY/GOFLAGS=-mod=mod to a proxy that serves it), then run the tests again; "+
		"with CI=true this is a failure", err, WycheproofModule)
}

var hashes = map[string]crypto.Hash{
	"SHA-256": crypto.SHA256, "SHA-384": crypto.SHA384, "SHA-512": crypto.SHA512,
	"SHA3-256": crypto.SHA3_256, "SHA3-384": crypto.SHA3_384, "SHA3-512": crypto.SHA3_512,
}

var curves = map[string]elliptic.Curve{"secp256r1": elliptic.P256(), "secp384r1": elliptic.P384(), "secp521r1": elliptic.P521()}

// Load reads one Wycheproof ECDSA verification file (a name under
// testvectors_v1).
func Load(t testing.TB, name string) []Group {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(Dir(t), name))
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Algorithm  string
		TestGroups []struct {
			Type      string
			Sha       string
			PublicKey struct {
				Curve        string
				Uncompressed string
			}
			Tests []struct {
				TcID    int
				Comment string
				Msg     string
				Sig     string
				Result  string
			}
		}
	}
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if file.Algorithm != "ECDSA" {
		t.Fatalf("%s: algorithm %q", name, file.Algorithm)
	}
	var groups []Group
	for _, g := range file.TestGroups {
		h, ok := hashes[g.Sha]
		if !ok && g.Sha != "SHAKE256" && g.Sha != "SHAKE128" {
			t.Fatalf("%s: hash %q", name, g.Sha)
		}
		c, ok := curves[g.PublicKey.Curve]
		if !ok {
			t.Fatalf("%s: curve %q", name, g.PublicKey.Curve)
		}
		gr := Group{Curve: c, Hash: h, Shake: g.Sha == "SHAKE256", Shake128: g.Sha == "SHAKE128", SEC1: mustHex(t, g.PublicKey.Uncompressed)}
		switch g.Type {
		case "EcdsaVerify":
		case "EcdsaP1363Verify":
			gr.P1363 = true
		default:
			t.Fatalf("%s: group type %q", name, g.Type)
		}
		if k, err := ecdsa.ParseUncompressedPublicKey(c, gr.SEC1); err == nil {
			gr.Key = k
		}
		for _, v := range g.Tests {
			gr.Tests = append(gr.Tests, Vector{v.TcID, v.Comment, mustHex(t, v.Msg), mustHex(t, v.Sig), v.Result})
		}
		groups = append(groups, gr)
	}
	return groups
}

func mustHex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Digest hashes msg with the group's hash: h's digest, or SHAKE256's or
// SHAKE128's first 64 bytes (an XOF's shorter outputs are prefixes of its
// longer ones, so bits2int sees the same leftmost bits for any length ≥ n's
// size).
func (g *Group) Digest(msg []byte) []byte {
	switch {
	case g.Shake:
		return sha3.SumSHAKE256(msg, 64)
	case g.Shake128:
		return sha3.SumSHAKE128(msg, 64)
	}
	return Digest(g.Hash, msg)
}

// Digest hashes msg with h.
func Digest(h crypto.Hash, msg []byte) []byte {
	w := h.New()
	w.Write(msg)
	return w.Sum(nil)
}

// SplitP1363 cuts an r ‖ s signature for a curve of size bytes, or reports
// false if it has the wrong length.
func SplitP1363(sig []byte, size int) (r, s []byte, ok bool) {
	if len(sig) != 2*size {
		return nil, nil, false
	}
	return sig[:size], sig[size:], true
}

// EncodeDER encodes (r, s) as crypto/ecdsa would.
func EncodeDER(r, s *big.Int) []byte {
	enc := func(x *big.Int) []byte {
		b := x.Bytes()
		if len(b) == 0 || b[0]&0x80 != 0 {
			b = append([]byte{0}, b...)
		}
		return append([]byte{0x02, byte(len(b))}, b...)
	}
	body := append(enc(r), enc(s)...)
	return append([]byte{0x30, byte(len(body))}, body...)
}

// N is the P-256 group order.
var N = elliptic.P256().Params().N

// PrivateKey returns the P-256 key with secret scalar d (1 ≤ d < n).
func PrivateKey(d *big.Int) *ecdsa.PrivateKey { return PrivateKeyOn(elliptic.P256(), d) }

// PrivateKeyOn returns the key on c (P-256, P-384 or P-521) with secret
// scalar d (1 ≤ d < n).
func PrivateKeyOn(c elliptic.Curve, d *big.Int) *ecdsa.PrivateKey {
	b := make([]byte, (c.Params().N.BitLen()+7)/8)
	d.FillBytes(b)
	k, err := ecdsa.ParseRawPrivateKey(c, b)
	if err != nil {
		panic(err)
	}
	return k
}

// Crafted is a signature built so that verification computes chosen u1
// and u2.
type Crafted struct {
	Key    *ecdsa.PublicKey
	Digest []byte // the size of n, e = u1·s
	R, S   *big.Int
}

// Craft builds, for the P-256 key d·G, a signature whose verification
// computes u1 = e·s⁻¹ and u2 = r·s⁻¹ equal to the given values (u2 ≠ 0). It
// reports false when k = u1 + u2·d is 0 mod n (no signature exists).
func Craft(d, u1, u2 *big.Int) (Crafted, bool) { return CraftOn(elliptic.P256(), d, u1, u2) }

// CraftOn is Craft on the curve c (P-256 or P-384).
func CraftOn(c elliptic.Curve, d, u1, u2 *big.Int) (Crafted, bool) {
	n := c.Params().N
	size := (n.BitLen() + 7) / 8
	k := new(big.Int).Mul(u2, d)
	k.Add(k, u1).Mod(k, n)
	if k.Sign() == 0 || new(big.Int).Mod(u2, n).Sign() == 0 {
		return Crafted{}, false
	}
	//lint:ignore SA1019 the deprecated API is the independent reference here.
	x, _ := c.ScalarBaseMult(k.FillBytes(make([]byte, size)))
	r := new(big.Int).Mod(x, n)
	if r.Sign() == 0 {
		return Crafted{}, false
	}
	s := new(big.Int).ModInverse(new(big.Int).Mod(u2, n), n)
	s.Mul(s, r).Mod(s, n)
	e := new(big.Int).Mul(u1, s)
	e.Mod(e, n)
	return Crafted{Key: &PrivateKeyOn(c, d).PublicKey, Digest: e.FillBytes(make([]byte, size)), R: r, S: s}, true
}

// Sum returns u1·G + u2·Q on P-256 with crypto/elliptic, as (x, y) or
// (0, 0) for the point at infinity.
func Sum(qx, qy, u1, u2 *big.Int) (x, y *big.Int) { return SumOn(elliptic.P256(), qx, qy, u1, u2) }

// SumOn is Sum on the curve c.
func SumOn(c elliptic.Curve, qx, qy, u1, u2 *big.Int) (x, y *big.Int) {
	n := c.Params().N
	size := (n.BitLen() + 7) / 8
	m := func(u *big.Int) []byte { return new(big.Int).Mod(u, n).FillBytes(make([]byte, size)) }
	//lint:ignore SA1019 the deprecated API is the independent reference here.
	x1, y1 := c.ScalarBaseMult(m(u1))
	//lint:ignore SA1019 as above.
	x2, y2 := c.ScalarMult(qx, qy, m(u2))
	//lint:ignore SA1019 as above.
	return c.Add(x1, y1, x2, y2)
}

// LargeX returns a P-256 point whose x-coordinate is at least n (there are
// about 2^127 of them), found by trying x = n, n+1, … .
func LargeX() (x, y *big.Int) { return LargeXOn(elliptic.P256()) }

// LargeXOn is LargeX on the curve c (P-384: about 2^189 such points); it
// starts at n + 1, so that x − n is a valid r.
func LargeXOn(c elliptic.Curve) (x, y *big.Int) {
	params := c.Params()
	p := params.P
	x = new(big.Int).Add(params.N, big.NewInt(1))
	for {
		rhs := new(big.Int).Mul(x, x)
		rhs.Mul(rhs, x)
		rhs.Sub(rhs, new(big.Int).Mul(big.NewInt(3), x))
		rhs.Add(rhs, params.B).Mod(rhs, p)
		if y = new(big.Int).ModSqrt(rhs, p); y != nil {
			return x, y
		}
		x = new(big.Int).Add(x, big.NewInt(1))
	}
}

// Loop runs f in b.Loop on a locked OS thread and reports, besides the wall
// time, the thread's CPU time per operation as cpu-ns/op: on a shared,
// loaded machine it is the steadier number.
func Loop(b *testing.B, f func()) {
	b.ReportAllocs()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start, err := cputime.Thread()
	n := 0
	for b.Loop() {
		f()
		n++
	}
	if end, err2 := cputime.Thread(); err == nil && err2 == nil && n > 0 {
		b.ReportMetric(float64(end-start)/float64(n), "cpu-ns/op")
	}
}
