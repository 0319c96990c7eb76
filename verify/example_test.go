package verify_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha512"
	"fmt"
	"log"

	"github.com/p256tls/p256tls/verify"
)

// One signature under a key met once (a peer's certificate): any ECDSA
// curve, crypto/ecdsa's answer.
func ExampleVerifyASN1() {
	priv, err := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	if err != nil {
		log.Fatal(err)
	}
	digest := sha512.Sum384([]byte("message"))
	sig, _ := ecdsa.SignASN1(rand.Reader, priv, digest[:])
	fmt.Println(verify.VerifyASN1(&priv.PublicKey, digest[:], sig))
	digest[0] ^= 1
	fmt.Println(verify.VerifyASN1(&priv.PublicKey, digest[:], sig))
	// Output:
	// true
	// false
}
