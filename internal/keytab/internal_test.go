package keytab

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"fmt"
	"testing"
	"unsafe"

	"github.com/p256tls/p256tls/internal/ecdsasig"
	"github.com/p256tls/p256tls/internal/ecdsatest"
	"github.com/p256tls/p256tls/internal/p256/ecdsaverify"
	"github.com/p256tls/p256tls/internal/p256/point"
	"github.com/p256tls/p256tls/internal/p256/scalar"
	p384verify "github.com/p256tls/p256tls/internal/p384/ecdsaverify"
	p384point "github.com/p256tls/p256tls/internal/p384/point"
)

// TestSize checks the memory of a table: at most 8.5 KiB at Width (the
// trust store's budget per key), 32.5 KiB at WidthLarge (the signer's), and
// Bytes the memory of a Width table's points, 8 KiB.
func TestSize(t *testing.T) {
	if Bytes != 8<<10 || Bytes384 != 160*96 {
		t.Fatalf("Bytes %d, Bytes384 %d: not the documented 8 KiB and 15 KiB", Bytes, Bytes384)
	}
	k, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	for _, c := range []struct {
		w     uint
		limit uintptr
	}{{Width, 8704}, {WidthLarge, 33280}} {
		tab, err := New(&k.PublicKey, c.w)
		if err != nil {
			t.Fatal(err)
		}
		if tab.w != c.w || len(tab.tab) != runs<<(c.w-2) {
			t.Fatalf("width %d, %d entries; want width %d", tab.w, len(tab.tab), c.w)
		}
		if s := unsafe.Sizeof(*tab) + uintptr(cap(tab.tab))*unsafe.Sizeof(point.Affine{}); s > c.limit {
			t.Fatalf("a width-%d Table takes %d bytes, more than %d", c.w, s, c.limit)
		}
		if b := len(tab.tab) * int(unsafe.Sizeof(point.Affine{})); c.w == Width && b != Bytes {
			t.Fatalf("a width-%d Table's points take %d bytes; Bytes is %d", c.w, b, Bytes)
		}
	}
}

// TestSizeP384 checks the memory of a P-384 table: at most 16 KiB, header
// and both curves' fields included.
func TestSizeP384(t *testing.T) {
	k, _ := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	for _, w := range []uint{Width, WidthLarge} { // a P-384 key gets Width384 whatever w is
		tab, err := New(&k.PublicKey, w)
		if err != nil {
			t.Fatal(err)
		}
		if tab.w != Width384 || tab.tab != nil || len(tab.tab384) != p384verify.Runs<<(Width384-2) {
			t.Fatalf("width %d, %d entries", tab.w, len(tab.tab384))
		}
		if s := unsafe.Sizeof(*tab) + uintptr(cap(tab.tab384))*unsafe.Sizeof(p384point.Affine{}); s > 16384 {
			t.Fatalf("a P-384 Table takes %d bytes, more than 16 KiB", s)
		}
		if b := len(tab.tab384) * int(unsafe.Sizeof(p384point.Affine{})); b != Bytes384 {
			t.Fatalf("a P-384 Table's points take %d bytes; Bytes384 is %d", b, Bytes384)
		}
	}
}

// BenchmarkKeyWidth measures table verification with key runs of width 4,
// 5 and 6 (4, 8 and 16 KiB of entries with 16 runs), against the same
// generator table.
func BenchmarkKeyWidth(b *testing.B) {
	k, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	digest := sha256.Sum256([]byte("width"))
	rb, sb, _ := ecdsa.Sign(rand.Reader, k, digest[:])
	var r, s scalar.Scalar
	var r32, s32 [32]byte
	rb.FillBytes(r32[:])
	sb.FillBytes(s32[:])
	ecdsasig.Scalar32(&r, &r32)
	ecdsasig.Scalar32(&s, &s32)
	enc, _ := k.PublicKey.Bytes()
	var q point.Affine
	q.SetBytes(enc)
	for _, w := range []uint{4, 5, 6} {
		tab := make([]point.Affine, ecdsaverify.Runs<<(w-2))
		point.BuildRuns(tab, &q, w, ecdsaverify.Runs, ecdsaverify.RunLen)
		b.Run(fmt.Sprintf("verify/w=%d", w), func(b *testing.B) {
			ecdsatest.Loop(b, func() {
				if !ecdsaverify.VerifySplit(tab, w, digest[:], &r, &s) {
					b.Fatal("rejected")
				}
			})
		})
		b.Run(fmt.Sprintf("build/w=%d", w), func(b *testing.B) {
			ecdsatest.Loop(b, func() { point.BuildRuns(tab, &q, w, ecdsaverify.Runs, ecdsaverify.RunLen) })
		})
	}
}
