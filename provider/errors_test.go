package provider

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/p256tls/p256tls/keytable"
	"github.com/p256tls/p256tls/sign"
	"github.com/p256tls/p256tls/truststore"
)

// TestErrorConvention walks the error paths of the public packages and
// checks docs/internal-api.md's convention: each message starts with its
// package's prefix and names no package of this module a second time, and
// each error matches its sentinel with errors.Is.
func TestErrorConvention(t *testing.T) {
	prefixes := []string{"provider: ", "truststore: ", "sign: ", "keytable: ", "verify: "}
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.pem")
	garbage := filepath.Join(dir, "garbage.pem")
	if err := os.WriteFile(garbage, []byte("not PEM"), 0o600); err != nil {
		t.Fatal(err)
	}
	k256, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	k384, _ := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	other, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	cert := ca(t).issue(t, k256, "errors.test")
	mismatched := tls.Certificate{Certificate: cert.Certificate, PrivateKey: other}
	withNames := &tls.Config{Certificates: []tls.Certificate{cert},
		NameToCertificate: map[string]*tls.Certificate{"x": {Certificate: [][]byte{{1}}}}}
	badD := &ecdsa.PrivateKey{PublicKey: k256.PublicKey, D: new(big.Int).Add(k256.D, big.NewInt(1))}

	type errCase struct {
		name, prefix string
		err          error
		want         error // nil: no sentinel to match
	}
	var cases []errCase
	add := func(name, prefix string, want error, err error) {
		cases = append(cases, errCase{name, prefix, err, want})
	}
	_, err := HookServerConfig(nil)
	add("HookServerConfig(nil)", "provider: ", ErrNothingToHook, err)
	_, err = HookServerConfig(withNames)
	add("HookServerConfig unlisted", "provider: ", ErrUnlistedCertificate, err)
	_, err = HookServerConfig(&tls.Config{Certificates: []tls.Certificate{mismatched}})
	add("HookServerConfig mismatched", "provider: ", ErrKeyMismatch, err)
	_, err = NewIdentity(tls.Certificate{})
	add("NewIdentity empty", "provider: ", ErrNoCertificate, err)
	_, err = NewIdentity(tls.Certificate{Certificate: cert.Certificate})
	add("NewIdentity no key", "provider: ", ErrNoPrivateKey, err)
	_, err = NewIdentity(mismatched)
	add("NewIdentity mismatched", "provider: ", ErrKeyMismatch, err)
	_, err = newCombKey(badD, "bad d")
	add("newCombKey d·G", "provider: ", ErrKeyMismatch, err)
	_, err = LoadIdentity(missing, missing)
	add("LoadIdentity missing", "provider: ", os.ErrNotExist, err)
	_, err = LoadIdentity(garbage, garbage)
	add("LoadIdentity garbage", "provider: ", ErrNoCertificate, err)
	_, err = LoadIdentities()
	add("LoadIdentities()", "provider: ", nil, err)
	_, err = (&Dialer{}).Dial("tcp", "127.0.0.1:1")
	add("Dialer nil store", "provider: ", ErrNilStore, err)
	var noCtx context.Context
	store, serr := truststore.New([]*x509.Certificate{ca(t).cert})
	if serr != nil {
		t.Fatal(serr)
	}
	_, err = (&Dialer{Store: store}).DialContext(noCtx, "tcp", "127.0.0.1:1")
	add("Dialer nil context", "provider: ", nil, err)
	_, err = (&Dialer{Store: store}).Dial("tcp", ":1")
	add("Dialer empty name", "provider: ", ErrNoServerName, err)

	_, err = sign.New(nil)
	add("sign.New(nil)", "sign: ", sign.ErrCurve, err)
	_, err = sign.New(k384)
	add("sign.New(P-384)", "sign: ", sign.ErrCurve, err)
	_, err = sign.New(badD)
	add("sign.New(d·G mismatch)", "sign: ", sign.ErrKeyMismatch, err)
	det, _ := sign.NewDeterministic(k256)
	_, err = det.Sign(nil, make([]byte, 32), nil)
	add("deterministic Sign nil opts", "sign: ", sign.ErrHash, err)
	_, err = det.Sign(nil, make([]byte, 31), crypto256{})
	add("deterministic Sign short digest", "sign: ", sign.ErrDigestLength, err)

	_, err = keytable.New(nil)
	add("keytable.New(nil)", "keytable: ", keytable.ErrInvalidKey, err)
	k521, _ := ecdsa.GenerateKey(elliptic.P521(), rand.Reader)
	_, err = keytable.New(&k521.PublicKey)
	add("keytable.New(P-521)", "keytable: ", keytable.ErrInvalidKey, err)

	_, err = truststore.New(nil)
	add("truststore.New(nil)", "truststore: ", truststore.ErrNoCertificates, err)
	_, err = truststore.LoadFile(missing)
	add("truststore.LoadFile missing", "truststore: ", os.ErrNotExist, err)
	_, err = truststore.LoadFile(garbage)
	add("truststore.LoadFile garbage", "truststore: ", truststore.ErrNoCertificates, err)
	_, err = truststore.LoadDir(missing)
	add("truststore.LoadDir missing", "truststore: ", nil, err)
	_, err = store.Verify(nil, truststore.VerifyOptions{})
	add("Store.Verify(nil)", "truststore: ", nil, err)

	for _, c := range cases {
		if c.err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		msg := c.err.Error()
		t.Logf("%s: %s", c.name, msg)
		if !strings.HasPrefix(msg, c.prefix) {
			t.Errorf("%s: %q does not start with %q", c.name, msg, c.prefix)
		}
		n := 0
		for _, p := range prefixes {
			n += strings.Count(msg, p)
		}
		if n != 1 {
			t.Errorf("%s: %q names a package of this module %d times", c.name, msg, n)
		}
		if c.want != nil && !errors.Is(c.err, c.want) {
			t.Errorf("%s: %v does not match %v", c.name, c.err, c.want)
		}
	}
}

// crypto256 is SignerOpts for SHA-256.
type crypto256 struct{}

func (crypto256) HashFunc() crypto.Hash { return crypto.SHA256 }
