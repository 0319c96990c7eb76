package truststore_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"fmt"
	"log"
	"math/big"
	"time"

	"github.com/p256tls/p256tls/truststore"
)

// A store of one root verifies a leaf it issued, with crypto/x509's answer;
// a TLS client uses the same store through provider.HookClientConfig.
func ExampleStore_Verify() {
	mk := func(tmpl, parent *x509.Certificate, pub, signer *ecdsa.PrivateKey) *x509.Certificate {
		der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, &pub.PublicKey, signer)
		if err != nil {
			log.Fatal(err)
		}
		c, _ := x509.ParseCertificate(der)
		return c
	}
	now := time.Now()
	rootKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	leafKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	rootTmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "Example Root"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(time.Hour), IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign}
	root := mk(rootTmpl, rootTmpl, rootKey, rootKey)
	leaf := mk(&x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "www.example.com"},
		DNSNames: []string{"www.example.com"}, NotBefore: now.Add(-time.Hour), NotAfter: now.Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}},
		root, leafKey, rootKey)

	store, err := truststore.New([]*x509.Certificate{root}, truststore.WithLinkCache(0))
	if err != nil {
		log.Fatal(err)
	}
	chains, err := store.Verify([]*x509.Certificate{leaf}, truststore.VerifyOptions{DNSName: "www.example.com"})
	fmt.Println(len(chains), err, store.Stats().FastAccepts)
	_, err = store.Verify([]*x509.Certificate{leaf}, truststore.VerifyOptions{DNSName: "other.example.com"})
	fmt.Println(err != nil)
	// Output:
	// 1 <nil> 1
	// true
}
