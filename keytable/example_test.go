package keytable_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"fmt"
	"log"

	"github.com/p256tls/p256tls/keytable"
	"github.com/p256tls/p256tls/verify"
)

// A key that verifies many signatures gets a table once; Table's methods
// take what verify's take, minus the key.
func ExampleNew() {
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		log.Fatal(err)
	}
	tab, err := keytable.New(&priv.PublicKey)
	if err != nil {
		log.Fatal(err)
	}
	digest := sha256.Sum256([]byte("message"))
	sig, _ := ecdsa.SignASN1(rand.Reader, priv, digest[:])
	r, s, _ := ecdsa.Sign(rand.Reader, priv, digest[:])

	fmt.Println(tab.VerifyASN1(digest[:], sig), verify.VerifyASN1(&priv.PublicKey, digest[:], sig))
	fmt.Println(tab.Verify(digest[:], r.Bytes(), s.Bytes()), verify.Verify(&priv.PublicKey, digest[:], r.Bytes(), s.Bytes()))
	// Output:
	// true true
	// true true
}
