package sign_test

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"errors"
	"fmt"
	"log"

	"github.com/p256tls/p256tls/sign"
)

// A key from PKCS #8 DER: crypto/x509 parses it, New checks it and builds
// its table; every signature is verified before Sign returns it.
func ExampleNew() {
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	der, _ := x509.MarshalPKCS8PrivateKey(key) // stands in for a key file

	parsed, err := x509.ParsePKCS8PrivateKey(der)
	if err != nil {
		log.Fatal(err)
	}
	priv, ok := parsed.(*ecdsa.PrivateKey)
	if !ok {
		log.Fatal("not an ECDSA key")
	}
	s, err := sign.New(priv)
	if err != nil {
		log.Fatal(err)
	}
	digest := sha256.Sum256([]byte("message"))
	sig, err := s.Sign(rand.Reader, digest[:], crypto.SHA256)
	if errors.Is(err, sign.ErrFaultDetected) {
		log.Fatal("a fault was caught; the signature was withheld")
	}
	fmt.Println(ecdsa.VerifyASN1(s.Public().(*ecdsa.PublicKey), digest[:], sig))
	// Output: true
}
