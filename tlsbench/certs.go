package main

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/p256tls/p256tls/internal/testsupport/testpki"
)

// serverName is the DNS name in every leaf; clients verify against it.
const serverName = "tlsbench.test"

// Leaf key types accepted by -key.
var keyTypes = []string{"p256", "p384", "rsa2048", "ed25519"}

// keyLabel is the display name of a -key name.
func keyLabel(k string) string {
	if l, ok := algOf[k]; ok {
		return l
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
	inter    *testpki.Node

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

// algOf maps a -key name to testpki's algorithm name.
var algOf = map[string]string{
	"p256":    testpki.P256,
	"p384":    testpki.P384,
	"rsa2048": testpki.RSA2048,
	"ed25519": testpki.Ed25519,
}

func newPKI() (*pki, error) {
	root, inter, err := newCAPair(testpki.P256, testpki.P256, "tlsbench")
	if err != nil {
		return nil, err
	}
	return &pki{
		rootCert: root.Cert, rootDER: root.Cert.Raw,
		interDER: inter.Cert.Raw, inter: inter,
		leaves: map[string]*leaf{},
	}, nil
}

// newCAPair makes a root with a key of rootAlg and, under it, an
// intermediate with a key of interAlg that may issue only leaves, both
// valid from an hour ago for two days, named "<name> root (<alg>)" and
// "<name> intermediate (<alg>)".
func newCAPair(rootAlg, interAlg, name string) (root, inter *testpki.Node, err error) {
	now := time.Now()
	nb, na := now.Add(-time.Hour), now.Add(48*time.Hour)
	rootKey, err := testpki.NewKey(rootAlg)
	if err != nil {
		return nil, nil, err
	}
	if root, err = testpki.Issue(testpki.CATemplate(name+" root ("+rootAlg+")", nb, na), rootKey, nil); err != nil {
		return nil, nil, err
	}
	interKey, err := testpki.NewKey(interAlg)
	if err != nil {
		return nil, nil, err
	}
	it := testpki.CATemplate(name+" intermediate ("+interAlg+")", nb, na)
	it.MaxPathLen, it.MaxPathLenZero = 0, true
	if inter, err = testpki.Issue(it, interKey, root); err != nil {
		return nil, nil, err
	}
	return root, inter, nil
}

// leaf returns the server leaf for keyType, generating it on first use.
func (p *pki) leaf(keyType string) (*leaf, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if l, ok := p.leaves[keyType]; ok {
		return l, nil
	}
	alg, ok := algOf[keyType]
	if !ok {
		return nil, fmt.Errorf("unknown key type %q", keyType)
	}
	key, err := testpki.NewKey(alg)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	tmpl := testpki.LeafTemplate(serverName, now.Add(-time.Hour), now.Add(48*time.Hour), serverName)
	tmpl.IPAddresses = []net.IP{net.IPv4(127, 0, 0, 1)}
	tmpl.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}
	if keyType == "rsa2048" {
		tmpl.KeyUsage |= x509.KeyUsageKeyEncipherment
	}
	n, err := testpki.Issue(tmpl, key, p.inter)
	if err != nil {
		return nil, err
	}
	keyPEM, err := testpki.KeyPEM(key)
	if err != nil {
		return nil, err
	}
	l := &leaf{
		keyType:  keyType,
		chainPEM: testpki.CertsPEM(n.Cert.Raw, p.interDER),
		keyPEM:   keyPEM,
	}
	p.leaves[keyType] = l
	return l, nil
}

func (p *pki) rootPEM() []byte { return testpki.CertsPEM(p.rootDER) }

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
