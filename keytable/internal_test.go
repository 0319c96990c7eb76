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
	"github.com/p256tls/p256tls/internal/ecdsaverify/ecdsatest"
	"github.com/p256tls/p256tls/internal/point"
	"github.com/p256tls/p256tls/internal/scalar"
)

func TestSize(t *testing.T) {
	if s := unsafe.Sizeof(Table{}); s > 8704 {
		t.Fatalf("a Table takes %d bytes, more than 8.5 KiB", s)
	}
}

// FuzzUnmarshalBinary: UnmarshalBinary never panics, and a table it accepts
// is exactly the table New builds for its key.
func FuzzUnmarshalBinary(f *testing.F) {
	k, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	tab, _ := New(&k.PublicKey)
	enc, _ := tab.MarshalBinary()
	f.Add(enc)
	f.Add(enc[:67])
	f.Add(enc[:100])
	f.Add([]byte{})
	digest := sha256.Sum256([]byte("fuzz"))
	sig, _ := ecdsa.SignASN1(rand.Reader, k, digest[:])
	f.Fuzz(func(t *testing.T, data []byte) {
		var got Table
		if err := got.UnmarshalBinary(data); err != nil {
			return
		}
		fresh, err := NewFromBytes(got.Bytes())
		if err != nil {
			t.Fatalf("accepted a table whose key is refused: %v", err)
		}
		if got != *fresh {
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
	ecdsaverify.Scalar32(&r, &r32)
	ecdsaverify.Scalar32(&s, &s32)
	enc, _ := k.PublicKey.Bytes()
	var q point.Affine
	q.SetBytes(enc)
	for _, w := range []uint{4, 5, 6} {
		tab := make([]point.Affine, ecdsaverify.Runs<<(w-2))
		ecdsaverify.BuildRuns(tab, &q, w)
		b.Run(fmt.Sprintf("verify/w=%d", w), func(b *testing.B) {
			ecdsatest.Loop(b, func() {
				if !ecdsaverify.VerifySplit(tab, w, digest[:], &r, &s) {
					b.Fatal("rejected")
				}
			})
		})
		b.Run(fmt.Sprintf("build/w=%d", w), func(b *testing.B) {
			ecdsatest.Loop(b, func() { ecdsaverify.BuildRuns(tab, &q, w) })
		})
	}
}
