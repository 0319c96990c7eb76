//go:build interop

package interop

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
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"

	"github.com/p256tls/p256tls/provider"
	"github.com/p256tls/p256tls/truststore"
)

// The test PKI. Every peer trusts root; the chain is
//
//	leaf ←(ECDSA-SHA256)— intermediate (P-256) ←(ECDSA-SHA384)— root (P-256)
//
// so the two links are signed with different hashes. A foreign root, which
// nobody trusts, issues the certificates of the negative cases.

const hostName = "localhost" // every server certificate names it (and 127.0.0.1, ::1)

// keyFiles names the PEM files of one certificate: Cert is the leaf, Chain
// is the leaf followed by the intermediate, Key is PKCS #8, P12 is a PKCS
// #12 file (password p12Password) holding key and chain.
type keyFiles struct {
	Cert, Chain, Key, P12 string
}

const p12Password = "interop"

type credential struct {
	name  string
	cert  *x509.Certificate
	key   crypto.Signer
	chain [][]byte // DER, leaf first, without the root
	files keyFiles
}

func (c *credential) tlsCertificate() tls.Certificate {
	return tls.Certificate{Certificate: c.chain, PrivateKey: c.key, Leaf: c.cert}
}

// identity builds a fresh provider identity for c (a new key object, so
// that its counters start at zero).
func (c *credential) identity() *provider.Identity {
	id, err := provider.NewIdentity(c.tlsCertificate())
	if err != nil {
		panic("interop: " + err.Error())
	}
	return id
}

type pki struct {
	dir string

	root, inter, foreignRoot *credential
	// Server identities for the provider server.
	serverP256, serverRSA, serverP384, serverEd25519 *credential
	// peerServer is what peer servers present (P-256, chain to root).
	peerServer *credential
	// client certificates (ClientAuth usage).
	clientP256, foreignClient, foreignServer *credential

	RootPEM      string // root only
	RootInterPEM string // root and intermediate
	ForeignPEM   string // the foreign root

	store *truststore.Store // trusts root
	pool  *x509.CertPool
}

var serial int64

func newPKI(dir string) (*pki, error) {
	p := &pki{dir: dir}
	err := os.MkdirAll(dir, 0o755)
	mk := func(name string, key crypto.Signer, tmpl *x509.Certificate, parent *credential, alg x509.SignatureAlgorithm) *credential {
		if err != nil {
			return nil
		}
		serial++
		tmpl.SerialNumber = big.NewInt(serial)
		tmpl.Subject = pkix.Name{CommonName: "p256tls interop " + name, Organization: []string{"p256tls"}}
		tmpl.NotBefore = time.Now().Add(-time.Hour)
		tmpl.NotAfter = time.Now().Add(30 * 24 * time.Hour)
		tmpl.SignatureAlgorithm = alg
		parentCert, parentKey := tmpl, key
		if parent != nil {
			parentCert, parentKey = parent.cert, parent.key
		}
		var der []byte
		der, err = x509.CreateCertificate(rand.Reader, tmpl, parentCert, key.Public(), parentKey)
		if err != nil {
			return nil
		}
		var cert *x509.Certificate
		if cert, err = x509.ParseCertificate(der); err != nil {
			return nil
		}
		c := &credential{name: name, cert: cert, key: key, chain: [][]byte{der}}
		if parent != nil && parent.cert.IsCA && parent != p.root && parent != p.foreignRoot {
			c.chain = append(c.chain, parent.chain...)
		}
		c.files, err = writeCredential(dir, c)
		return c
	}
	ca := func() *x509.Certificate {
		return &x509.Certificate{IsCA: true, BasicConstraintsValid: true,
			KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageCRLSign | x509.KeyUsageDigitalSignature}
	}
	server := func() *x509.Certificate {
		return &x509.Certificate{DNSNames: []string{hostName},
			IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
			KeyUsage:    x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment,
			ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	}
	client := func() *x509.Certificate {
		return &x509.Certificate{DNSNames: []string{"client.interop.test"},
			KeyUsage:    x509.KeyUsageDigitalSignature,
			ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}
	}
	p256 := func() crypto.Signer {
		k, e := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if e != nil {
			err = e
		}
		return k
	}
	p.root = mk("root", p256(), ca(), nil, x509.ECDSAWithSHA256)
	p.foreignRoot = mk("foreign root", p256(), ca(), nil, x509.ECDSAWithSHA256)
	interTmpl := ca()
	interTmpl.MaxPathLen, interTmpl.MaxPathLenZero = 0, true
	p.inter = mk("intermediate", p256(), interTmpl, p.root, x509.ECDSAWithSHA384)
	p.serverP256 = mk("server P-256", p256(), server(), p.inter, x509.ECDSAWithSHA256)
	p.peerServer = mk("peer server P-256", p256(), server(), p.inter, x509.ECDSAWithSHA256)
	rk, e := rsa.GenerateKey(rand.Reader, 2048)
	if e != nil {
		return nil, e
	}
	p.serverRSA = mk("server RSA-2048", rk, server(), p.inter, x509.ECDSAWithSHA256)
	k384, e := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	if e != nil {
		return nil, e
	}
	p.serverP384 = mk("server P-384", k384, server(), p.inter, x509.ECDSAWithSHA256)
	_, edk, e := ed25519.GenerateKey(rand.Reader)
	if e != nil {
		return nil, e
	}
	p.serverEd25519 = mk("server Ed25519", edk, server(), p.inter, x509.ECDSAWithSHA256)
	p.clientP256 = mk("client P-256", p256(), client(), p.inter, x509.ECDSAWithSHA256)
	p.foreignClient = mk("foreign client P-256", p256(), client(), p.foreignRoot, x509.ECDSAWithSHA256)
	p.foreignServer = mk("foreign server P-256", p256(), server(), p.foreignRoot, x509.ECDSAWithSHA256)
	if err != nil {
		return nil, err
	}
	p.RootPEM = p.root.files.Cert
	p.ForeignPEM = p.foreignRoot.files.Cert
	p.RootInterPEM = filepath.Join(dir, "root+intermediate.pem")
	if err := os.WriteFile(p.RootInterPEM, append(pemCert(p.root.cert.Raw), pemCert(p.inter.cert.Raw)...), 0o644); err != nil {
		return nil, err
	}
	if p.store, err = truststore.New([]*x509.Certificate{p.root.cert}); err != nil {
		return nil, err
	}
	p.pool = x509.NewCertPool()
	p.pool.AddCert(p.root.cert)
	return p, nil
}

func pemCert(der []byte) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
}

func writeCredential(dir string, c *credential) (keyFiles, error) {
	base := filepath.Join(dir, sanitize(c.name))
	f := keyFiles{Cert: base + ".crt", Chain: base + ".chain.pem", Key: base + ".key", P12: base + ".p12"}
	var chain []byte
	for _, der := range c.chain {
		chain = append(chain, pemCert(der)...)
	}
	pk, err := x509.MarshalPKCS8PrivateKey(c.key)
	if err != nil {
		return f, err
	}
	if err := os.WriteFile(f.Cert, pemCert(c.cert.Raw), 0o644); err != nil {
		return f, err
	}
	if err := os.WriteFile(f.Chain, chain, 0o644); err != nil {
		return f, err
	}
	if err := os.WriteFile(f.Key, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: pk}), 0o600); err != nil {
		return f, err
	}
	f.P12 = "" // made on demand by p12For (needs openssl)
	return f, nil
}

func sanitize(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			b[i] = '-'
		}
	}
	return string(b)
}
