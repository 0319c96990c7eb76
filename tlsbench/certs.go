package main

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"sync"
	"time"
)

// serverName is the DNS name in every leaf; clients verify against it.
const serverName = "tlsbench.test"

// Leaf key types accepted by -key.
var keyTypes = []string{"p256", "p384", "rsa2048", "ed25519"}

func keyLabel(k string) string {
	switch k {
	case "p256":
		return "P-256"
	case "p384":
		return "P-384"
	case "rsa2048":
		return "RSA-2048"
	case "ed25519":
		return "Ed25519"
	}
	return k
}

// pki is the in-memory certificate hierarchy: a P-256 root, a P-256
// intermediate and, on demand, one leaf per key type, all signed by the
// intermediate. Nothing touches the disk unless openssl needs files.
type pki struct {
	rootCert *x509.Certificate
	rootDER  []byte
	interDER []byte
	interKey *ecdsa.PrivateKey
	interCrt *x509.Certificate

	mu     sync.Mutex
	leaves map[string]*leaf
}

// leaf is a server leaf certificate with its key, in the forms the parent,
// the child peer and openssl each need.
type leaf struct {
	keyType  string
	chainPEM []byte // leaf then intermediate
	keyPEM   []byte // PKCS #8
}

func newPKI() (*pki, error) {
	rootKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	rootTmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "tlsbench root (P-256)"},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(48 * time.Hour),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign,
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	rootDER, err := x509.CreateCertificate(rand.Reader, rootTmpl, rootTmpl, rootKey.Public(), rootKey)
	if err != nil {
		return nil, err
	}
	rootCert, err := x509.ParseCertificate(rootDER)
	if err != nil {
		return nil, err
	}
	interKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	interTmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(2),
		Subject:               pkix.Name{CommonName: "tlsbench intermediate (P-256)"},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(48 * time.Hour),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign,
		BasicConstraintsValid: true,
		IsCA:                  true,
		MaxPathLenZero:        true,
	}
	interDER, err := x509.CreateCertificate(rand.Reader, interTmpl, rootCert, interKey.Public(), rootKey)
	if err != nil {
		return nil, err
	}
	interCrt, err := x509.ParseCertificate(interDER)
	if err != nil {
		return nil, err
	}
	return &pki{
		rootCert: rootCert, rootDER: rootDER,
		interDER: interDER, interKey: interKey, interCrt: interCrt,
		leaves: map[string]*leaf{},
	}, nil
}

// generateKey makes a fresh private key of the given type.
func generateKey(keyType string) (crypto.Signer, error) {
	switch keyType {
	case "p256":
		return ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	case "p384":
		return ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	case "rsa2048":
		return rsa.GenerateKey(rand.Reader, 2048)
	case "ed25519":
		_, k, err := ed25519.GenerateKey(rand.Reader)
		return k, err
	}
	return nil, fmt.Errorf("unknown key type %q", keyType)
}

// leaf returns the server leaf for keyType, generating it on first use.
func (p *pki) leaf(keyType string) (*leaf, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if l, ok := p.leaves[keyType]; ok {
		return l, nil
	}
	key, err := generateKey(keyType)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	usage := x509.KeyUsageDigitalSignature
	if keyType == "rsa2048" {
		usage |= x509.KeyUsageKeyEncipherment
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(100 + int64(len(p.leaves))),
		Subject:      pkix.Name{CommonName: serverName},
		DNSNames:     []string{serverName},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(48 * time.Hour),
		KeyUsage:     usage,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, p.interCrt, key.Public(), p.interKey)
	if err != nil {
		return nil, err
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, err
	}
	chain := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	chain = append(chain, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: p.interDER})...)
	l := &leaf{
		keyType:  keyType,
		chainPEM: chain,
		keyPEM:   pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}),
	}
	p.leaves[keyType] = l
	return l, nil
}

func (p *pki) rootPEM() []byte {
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: p.rootDER})
}

// material is what one side of a handshake needs: the root to trust and
// the server's chain and key. It crosses to the child peer as PEM.
type material struct {
	RootPEM  []byte `json:"root_pem"`
	ChainPEM []byte `json:"chain_pem"`
	KeyPEM   []byte `json:"key_pem"`
	KeyType  string `json:"key_type"`
}

func (p *pki) material(keyType string) (material, error) {
	l, err := p.leaf(keyType)
	if err != nil {
		return material{}, err
	}
	return material{RootPEM: p.rootPEM(), ChainPEM: l.chainPEM, KeyPEM: l.keyPEM, KeyType: keyType}, nil
}

// certificate returns the standard tls.Certificate (the private key is the
// crypto/ecdsa, crypto/rsa or crypto/ed25519 key as parsed by crypto/tls).
func (m material) certificate() (tls.Certificate, error) {
	return tls.X509KeyPair(m.ChainPEM, m.KeyPEM)
}

func (m material) rootPool() (*x509.CertPool, error) {
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(m.RootPEM) {
		return nil, errors.New("no root certificate in material")
	}
	return pool, nil
}

func (m material) rootCert() (*x509.Certificate, error) {
	b, _ := pem.Decode(m.RootPEM)
	if b == nil {
		return nil, errors.New("no root certificate in material")
	}
	return x509.ParseCertificate(b.Bytes)
}
