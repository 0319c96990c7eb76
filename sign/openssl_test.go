package sign

import (
	"crypto"
	"crypto/rand"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/x509"
	"encoding/pem"
	"hash"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestOpenSSL has the openssl command verify our signatures, when it is
// installed.
func TestOpenSSL(t *testing.T) {
	bin, err := exec.LookPath("openssl")
	if err != nil {
		t.Skip("openssl not installed")
	}
	dir := t.TempDir()
	hashes := []struct {
		name string
		h    crypto.Hash
		f    func() hash.Hash
	}{{"-sha256", crypto.SHA256, sha256.New}, {"-sha384", crypto.SHA384, sha512.New384}, {"-sha512", crypto.SHA512, sha512.New}}
	keys := iterations(1, 3, 200)
	for i := 0; i < keys; i++ {
		k := newKey(t)
		s := newSignerT(t, k)
		der, err := x509.MarshalPKIXPublicKey(s.Public())
		if err != nil {
			t.Fatal(err)
		}
		pub := filepath.Join(dir, "pub.pem")
		if err := os.WriteFile(pub, pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}), 0o600); err != nil {
			t.Fatal(err)
		}
		for _, hh := range hashes {
			msg := make([]byte, 100)
			rand.Read(msg)
			h := hh.f()
			h.Write(msg)
			sig, err := s.Sign(rand.Reader, h.Sum(nil), hh.h)
			if err != nil {
				t.Fatal(err)
			}
			msgPath, sigPath := filepath.Join(dir, "msg"), filepath.Join(dir, "sig")
			os.WriteFile(msgPath, msg, 0o600)
			os.WriteFile(sigPath, sig, 0o600)
			out, err := exec.Command(bin, "dgst", hh.name, "-verify", pub, "-signature", sigPath, msgPath).CombinedOutput()
			if err != nil {
				t.Fatalf("openssl rejects our %s signature %x: %v\n%s", hh.name, sig, err, out)
			}
			// And a corrupted message is rejected (the check is real).
			msg[0] ^= 1
			os.WriteFile(msgPath, msg, 0o600)
			if err := exec.Command(bin, "dgst", hh.name, "-verify", pub, "-signature", sigPath, msgPath).Run(); err == nil {
				t.Fatal("openssl accepts a signature for another message")
			}
		}
	}
}
