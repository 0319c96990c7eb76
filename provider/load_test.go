package provider

import (
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLoadIdentityFormats(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		alg, format string
	}{
		{"P-256", "pkcs8"}, {"P-256", "sec1"},
		{"P-384", "pkcs8"}, {"P-384", "sec1"}, {"P-521", "sec1"},
		{"RSA-2048", "pkcs8"}, {"RSA-2048", "pkcs1"},
		{"Ed25519", "pkcs8"},
	}
	for _, c := range cases {
		t.Run(c.alg+"/"+c.format, func(t *testing.T) {
			cert := ca(t).issue(t, newKey(t, c.alg), "load.test")
			certFile := writeFile(t, dir, "c.crt", chainPEM(cert))
			kp := keyPEM(t, cert.PrivateKey, c.format)
			if c.format == "sec1" {
				// openssl ecparam -genkey writes the parameters first.
				kp = append(pem.EncodeToMemory(&pem.Block{Type: "EC PARAMETERS", Bytes: []byte{6, 8, 42, 134, 72, 206, 61, 3, 1, 7}}), kp...)
			}
			keyFile := writeFile(t, dir, "c.key", kp)
			id, err := LoadIdentity(certFile, keyFile)
			if err != nil {
				t.Fatal(err)
			}
			if !id.Leaf.Equal(cert.Leaf) || id.Algorithm() != c.alg {
				t.Fatalf("loaded %v", id)
			}
			if got := id.Certificate(); len(got.Certificate) != 2 || got.Leaf != id.Leaf {
				t.Fatalf("chain of %d certificates, leaf %p", len(got.Certificate), got.Leaf)
			}
			if id.Checked() != (c.alg == "P-256") {
				t.Fatalf("Checked() = %v", id.Checked())
			}

			// Certificate and key in one file, in either order.
			both := writeFile(t, dir, "both.pem", append(append([]byte{}, kp...), chainPEM(cert)...))
			if _, err := LoadIdentity(both, both); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// loadErr writes cert and key contents and returns LoadIdentity's error.
func loadErr(t *testing.T, certPEM, keyPEMData []byte) (error, string, string) {
	t.Helper()
	dir := t.TempDir()
	certFile := writeFile(t, dir, "cert.pem", certPEM)
	keyFile := writeFile(t, dir, "key.pem", keyPEMData)
	id, err := LoadIdentity(certFile, keyFile)
	if err == nil {
		t.Fatalf("loaded %v, want an error", id)
	}
	var fe *FileError
	if !errors.As(err, &fe) {
		t.Fatalf("error %v is not a *FileError", err)
	}
	return err, certFile, keyFile
}

func TestLoadIdentityErrors(t *testing.T) {
	key := newKey(t, "P-256")
	cert := ca(t).issue(t, key, "err.test")
	goodCert, goodKey := chainPEM(cert), keyPEM(t, key, "pkcs8")
	pkcs8 := func(priv any) []byte { return keyPEM(t, priv, "pkcs8") }
	x25519, _ := ecdh.X25519().GenerateKey(rand.Reader)
	p224 := newKey(t, "P-224")
	p224Cert := ca(t).issue(t, p224, "p224.test")

	cases := []struct {
		name      string
		cert, key []byte
		want      error  // errors.Is target, if any
		file      string // "cert" or "key": which file the message names
		contains  string
	}{
		{"mismatch", goodCert, pkcs8(newKey(t, "P-256")), ErrKeyMismatch, "key", "does not match"},
		{"mismatch type", goodCert, pkcs8(newKey(t, "Ed25519")), ErrKeyMismatch, "key", "cert.pem"},
		{"encrypted pkcs8", goodCert, pem.EncodeToMemory(&pem.Block{Type: "ENCRYPTED PRIVATE KEY", Bytes: []byte{0x30, 0}}), ErrEncryptedKey, "key", "decrypt"},
		{"encrypted legacy", goodCert, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY",
			Headers: map[string]string{"Proc-Type": "4,ENCRYPTED", "DEK-Info": "AES-256-CBC,00112233445566778899AABBCCDDEEFF"},
			Bytes:   make([]byte, 128)}), ErrEncryptedKey, "key", "Proc-Type"},
		{"openssh", goodCert, pem.EncodeToMemory(&pem.Block{Type: "OPENSSH PRIVATE KEY", Bytes: []byte("openssh-key-v1")}), ErrUnsupportedKey, "key", "OpenSSH"},
		{"dsa", goodCert, pem.EncodeToMemory(&pem.Block{Type: "DSA PRIVATE KEY", Bytes: []byte{0x30, 0}}), ErrUnsupportedKey, "key", "DSA"},
		{"x25519", goodCert, pkcs8(x25519), ErrUnsupportedKey, "key", "cannot sign"},
		{"p224", chainPEM(p224Cert), keyPEM(t, p224, "sec1"), ErrUnsupportedKey, "key", "P-224"},
		{"two keys", goodCert, append(append([]byte{}, goodKey...), goodKey...), nil, "key", "2 private keys"},
		{"corrupt key", goodCert, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: []byte{0x30, 3, 1, 2, 3}}), nil, "key", "parsing the PRIVATE KEY block"},
		{"swapped", goodKey, goodCert, ErrNoCertificate, "cert", "swapped"},
		{"key only certs", goodCert, goodCert, ErrNoPrivateKey, "key", "swapped"},
		{"empty cert", nil, goodKey, ErrNoCertificate, "cert", "no PEM data"},
		{"empty key", goodCert, nil, ErrNoPrivateKey, "key", "no PEM data"},
		{"der cert", cert.Certificate[0], goodKey, ErrNoCertificate, "cert", "DER"},
		{"corrupt cert", pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: []byte{0x30, 3, 1, 2, 3}}), goodKey, nil, "cert", "certificate #1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err, certFile, keyFile := loadErr(t, c.cert, c.key)
			if c.want != nil && !errors.Is(err, c.want) {
				t.Errorf("error %q is not %q", err, c.want)
			}
			file := keyFile
			if c.file == "cert" {
				file = certFile
			}
			if !strings.Contains(err.Error(), file) {
				t.Errorf("error %q does not name %s", err, file)
			}
			if !strings.Contains(err.Error(), c.contains) {
				t.Errorf("error %q does not say %q", err, c.contains)
			}
			if strings.Count(err.Error(), "provider:") != 1 {
				t.Errorf("error %q: repeated prefix", err)
			}
		})
	}

	// Missing files.
	dir := t.TempDir()
	_, err := LoadIdentity(filepath.Join(dir, "nope.crt"), filepath.Join(dir, "nope.key"))
	if !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), "nope.crt") {
		t.Errorf("missing file: %v", err)
	}
}

func TestNewIdentityChecks(t *testing.T) {
	priv := newKey(t, "P-256")
	cert := ca(t).issue(t, priv, "n.test")

	bad := cert
	bad.PrivateKey = newKey(t, "P-256")
	if _, err := NewIdentity(bad); !errors.Is(err, ErrKeyMismatch) {
		t.Errorf("mismatched key: %v", err)
	}
	bad = cert
	bad.PrivateKey = nil
	if _, err := NewIdentity(bad); !errors.Is(err, ErrNoPrivateKey) {
		t.Errorf("no key: %v", err)
	}
	bad = cert
	bad.Certificate = nil
	if _, err := NewIdentity(bad); !errors.Is(err, ErrNoCertificate) {
		t.Errorf("no certificate: %v", err)
	}
	bad = cert
	bad.PrivateKey = "not a key"
	if _, err := NewIdentity(bad); !errors.Is(err, ErrUnsupportedKey) {
		t.Errorf("not a signer: %v", err)
	}
	bad = cert
	bad.Certificate = [][]byte{{1, 2, 3}}
	bad.Leaf = nil
	if _, err := NewIdentity(bad); err == nil {
		t.Error("garbage certificate accepted")
	}

	// A private scalar that does not belong to its own public key (and so
	// not to the certificate) is refused by the comb signer's constructor.
	wrongD := *priv.(*ecdsa.PrivateKey)
	wrongD.D = new(big.Int).Add(wrongD.D, big.NewInt(1))
	bad = cert
	bad.PrivateKey = &wrongD
	if _, err := NewIdentity(bad); !errors.Is(err, ErrKeyMismatch) {
		t.Errorf("private scalar not matching its public key: %v", err)
	}

	// A Leaf that disagrees with Certificate[0] is ignored, not trusted.
	other := ca(t).issue(t, newKey(t, "P-256"), "other.test")
	stale := cert
	stale.Leaf = other.Leaf
	id, err := NewIdentity(stale)
	if err != nil {
		t.Fatal(err)
	}
	if !id.Leaf.Equal(cert.Leaf) {
		t.Error("NewIdentity trusted a stale Leaf")
	}

	// What tls.X509KeyPair returns works, and the input is not modified.
	pair, err := tls.X509KeyPair(chainPEM(cert), keyPEM(t, priv, "sec1"))
	if err != nil {
		t.Fatal(err)
	}
	id, err = NewIdentity(pair)
	if err != nil {
		t.Fatal(err)
	}
	if pair.PrivateKey == id.Certificate().PrivateKey {
		t.Error("the identity signs with the raw key")
	}
	if _, ok := pair.PrivateKey.(*key); ok {
		t.Error("input modified")
	}

	// Feeding a provider certificate back in shares the key (one table).
	again, err := NewIdentity(*id.Certificate())
	if err != nil {
		t.Fatal(err)
	}
	if again.k != id.k {
		t.Error("a provider certificate fed back in got a second key")
	}

	// Certificate() returns copies.
	c1, c2 := id.Certificate(), id.Certificate()
	c1.OCSPStaple = []byte("x")
	if c2.OCSPStaple != nil || id.Certificate().OCSPStaple != nil {
		t.Error("Certificate() shares the struct")
	}
	if _, err := x509.ParseCertificate(c2.Certificate[0]); err != nil {
		t.Error(err)
	}
}
