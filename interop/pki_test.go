//go:build interop

package interop

import (
	"crypto"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"net"
	"os"
	"path/filepath"
	"time"

	"github.com/p256tls/p256tls/internal/testsupport/testpki"
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

func newPKI(dir string) (*pki, error) {
	p := &pki{dir: dir}
	err := os.MkdirAll(dir, 0o755)
	notBefore, notAfter := time.Now().Add(-time.Hour), time.Now().Add(30*24*time.Hour)
	key := func(alg string) crypto.Signer {
		if err != nil {
			return nil
		}
		var k crypto.Signer
		k, err = testpki.NewKey(alg)
		return k
	}
	mk := func(name string, key crypto.Signer, tmpl *x509.Certificate, parent *credential, alg x509.SignatureAlgorithm) *credential {
		if err != nil {
			return nil
		}
		tmpl.Subject = pkix.Name{CommonName: "p256tls interop " + name, Organization: []string{"p256tls"}}
		tmpl.SignatureAlgorithm = alg
		var pn *testpki.Node
		if parent != nil {
			pn = &testpki.Node{Cert: parent.cert, Key: parent.key}
		}
		var n *testpki.Node
		if n, err = testpki.Issue(tmpl, key, pn); err != nil {
			return nil
		}
		c := &credential{name: name, cert: n.Cert, key: key, chain: [][]byte{n.Cert.Raw}}
		if parent != nil && parent.cert.IsCA && parent != p.root && parent != p.foreignRoot {
			c.chain = append(c.chain, parent.chain...)
		}
		c.files, err = writeCredential(dir, c)
		return c
	}
	// The templates start from testpki's and keep this matrix's key usages:
	// CAs may also sign (digitalSignature), servers may also encipher
	// (keyEncipherment, for RSA key exchange), each leaf has one extended
	// key usage.
	ca := func() *x509.Certificate {
		t := testpki.CATemplate("", notBefore, notAfter)
		t.KeyUsage |= x509.KeyUsageDigitalSignature
		return t
	}
	server := func() *x509.Certificate {
		t := testpki.LeafTemplate("", notBefore, notAfter, hostName)
		t.IPAddresses = []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback}
		t.KeyUsage = x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment
		t.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}
		return t
	}
	client := func() *x509.Certificate {
		t := testpki.LeafTemplate("", notBefore, notAfter, "client.interop.test")
		t.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}
		return t
	}
	p256 := func() crypto.Signer { return key(testpki.P256) }
	p.root = mk("root", p256(), ca(), nil, x509.ECDSAWithSHA256)
	p.foreignRoot = mk("foreign root", p256(), ca(), nil, x509.ECDSAWithSHA256)
	interTmpl := ca()
	interTmpl.MaxPathLen, interTmpl.MaxPathLenZero = 0, true
	p.inter = mk("intermediate", p256(), interTmpl, p.root, x509.ECDSAWithSHA384)
	p.serverP256 = mk("server P-256", p256(), server(), p.inter, x509.ECDSAWithSHA256)
	p.peerServer = mk("peer server P-256", p256(), server(), p.inter, x509.ECDSAWithSHA256)
	p.serverRSA = mk("server RSA-2048", key(testpki.RSA2048), server(), p.inter, x509.ECDSAWithSHA256)
	p.serverP384 = mk("server P-384", key(testpki.P384), server(), p.inter, x509.ECDSAWithSHA256)
	p.serverEd25519 = mk("server Ed25519", key(testpki.Ed25519), server(), p.inter, x509.ECDSAWithSHA256)
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

func pemCert(der []byte) []byte { return testpki.CertsPEM(der) }

func writeCredential(dir string, c *credential) (keyFiles, error) {
	base := filepath.Join(dir, sanitize(c.name))
	f := keyFiles{Cert: base + ".crt", Chain: base + ".chain.pem", Key: base + ".key", P12: base + ".p12"}
	chain := testpki.CertsPEM(c.chain...)
	keyPEM, err := testpki.KeyPEM(c.key)
	if err != nil {
		return f, err
	}
	if err := os.WriteFile(f.Cert, pemCert(c.cert.Raw), 0o644); err != nil {
		return f, err
	}
	if err := os.WriteFile(f.Chain, chain, 0o644); err != nil {
		return f, err
	}
	if err := os.WriteFile(f.Key, keyPEM, 0o600); err != nil {
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
