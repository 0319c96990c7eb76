package keytable

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"fmt"
	"testing"
	"unsafe"

	"github.com/p256tls/p256tls/internal/ecdsaverify"
	"github.com/p256tls/p256tls/internal/ecdsaverify/ecdsasig"
	"github.com/p256tls/p256tls/internal/ecdsaverify/ecdsatest"
	"github.com/p256tls/p256tls/internal/point"
	"github.com/p256tls/p256tls/internal/scalar"
)

// TestSize checks the memory of a table: at most 8.5 KiB from New (the
// trust store's budget per key), 32.5 KiB from NewLarge.
func TestSize(t *testing.T) {
	k, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	for _, c := range []struct {
		new   func(*ecdsa.PublicKey) (*Table, error)
		w     uint
		limit uintptr
	}{{New, Width, 8704}, {NewLarge, WidthLarge, 33280}} {
		tab, err := c.new(&k.PublicKey)
		if err != nil {
			t.Fatal(err)
		}
		if tab.w != c.w || len(tab.tab) != runs<<(c.w-2) {
			t.Fatalf("width %d, %d entries; want width %d", tab.w, len(tab.tab), c.w)
		}
		if s := unsafe.Sizeof(*tab) + uintptr(cap(tab.tab))*unsafe.Sizeof(point.Affine{}); s > c.limit {
			t.Fatalf("a width-%d Table takes %d bytes, more than %d", c.w, s, c.limit)
		}
	}
}

// equal reports whether two tables hold the same key and entries.
func equal(a, b *Table) bool {
	if a.q != b.q || a.w != b.w || len(a.tab) != len(b.tab) {
		return false
	}
	for i := range a.tab {
		if a.tab[i] != b.tab[i] {
			return false
		}
	}
	return true
}

// FuzzUnmarshalBinary: UnmarshalBinary never panics, and a table it accepts
// is exactly the table New (or NewLarge, for width 7) builds for its key.
func FuzzUnmarshalBinary(f *testing.F) {
	k, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	tab, _ := New(&k.PublicKey)
	enc, _ := tab.MarshalBinary()
	f.Add(enc)
	f.Add(enc[:67])
	f.Add(enc[:100])
	f.Add([]byte{})
	large, _ := NewLarge(&k.PublicKey)
	encLarge, _ := large.MarshalBinary()
	f.Add(encLarge)
	digest := sha256.Sum256([]byte("fuzz"))
	sig, _ := ecdsa.SignASN1(rand.Reader, k, digest[:])
	f.Fuzz(func(t *testing.T, data []byte) {
		var got Table
		if err := got.UnmarshalBinary(data); err != nil {
			return
		}
		fresh, err := fromBytes(got.Bytes(), got.w)
		if err != nil {
			t.Fatalf("accepted a table whose key is refused: %v", err)
		}
		if !equal(&got, fresh) {
			t.Fatal("accepted a table that differs from a freshly built one")
		}
		if got.VerifyASN1(digest[:], sig) != fresh.VerifyASN1(digest[:], sig) {
			t.Fatal("accepted table verifies differently")
		}
	})
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
