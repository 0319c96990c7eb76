package truststore

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"fmt"
	"math/big"
	"testing"
	"time"
)

// FuzzVerify mutates the DER of a valid chain's certificates and checks
// that Store.Verify and the fast path still agree with crypto/x509.
func FuzzVerify(f *testing.F) {
	fix := newFixture(f)
	mk := func(root *node, kind keyKind) []*x509.Certificate {
		in := issue(f, caTemplate("Fuzz intermediate"), poolKey(kind, 3), root)
		lf := issue(f, leafTemplate("fuzz leaf", "www.example.com", "*.example.org"), poolKey(kP256, 4), in)
		return []*x509.Certificate{lf.Cert, in.Cert}
	}
	chains := [][]*x509.Certificate{mk(fix.good, kP256), mk(fix.p384, kP384), mk(fix.good, kP384), mk(fix.rsa, kP256),
		// Mixed chains: P-384 under RSA-4096 (Let's Encrypt's ECDSA
		// chain), an RSA intermediate under P-256, RSA under RSA.
		mk(fix.rsa4096, kP384), mk(fix.good, kRSA), mk(fix.rsa, kRSA3072)}
	f.Add(uint8(0), uint8(0), []byte{})
	f.Add(uint8(1), uint8(1), []byte{0, 10, 1})
	f.Add(uint8(4), uint8(2), []byte{1, 0, 0x80, 0, 200, 0xff})
	f.Add(uint8(2), uint8(3), []byte{0, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, which, optSel uint8, edits []byte) {
		base := chains[int(which>>1)%len(chains)]
		target := int(which) & 1
		der := append([]byte(nil), base[target].Raw...)
		for i := 0; i+2 < len(edits) && i < 30; i += 3 {
			pos := (int(edits[i])<<8 | int(edits[i+1])) % len(der)
			der[pos] ^= edits[i+2]
		}
		c, err := x509.ParseCertificate(der)
		if err != nil {
			return
		}
		chain := append([]*x509.Certificate(nil), base...)
		chain[target] = c
		opts := VerifyOptions{CurrentTime: t0}
		switch optSel % 4 {
		case 0:
			opts.DNSName = "www.example.com"
		case 1:
			opts.DNSName = "a.example.org"
			opts.KeyUsages = []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}
		case 2:
			opts.CurrentTime = c.NotAfter.Add(time.Duration(optSel) * time.Millisecond)
		}
		compareWithX509(t, fix.store, &scenario{desc: []string{"fuzz"}, chain: chain, opts: opts})
	})
}

// FuzzVerifyStruct mutates the parsed structs of valid chains (keys,
// raw fields, policy fields, nil pointers) after warming the caches with
// the genuine chain: the fast path must not panic, Store.Verify must give
// crypto/x509's answer and chains (errX509Panic where crypto/x509 panics),
// and a fast accept must be a crypto/x509 accept. Each pair of bytes of
// ops is (target certificate, operation), with the next byte as argument.
func FuzzVerifyStruct(f *testing.F) {
	fix := newFixture(f)
	mk := func(root *node, key crypto.Signer, extra ...*x509.Certificate) []*x509.Certificate {
		in := issue(f, caTemplate("Fuzz struct intermediate"), key, root)
		lf := issue(f, leafTemplate("fuzz leaf", "www.example.com"), poolKey(kP256, 4), in)
		return append([]*x509.Certificate{lf.Cert, in.Cert}, extra...)
	}
	bases := [][]*x509.Certificate{
		mk(fix.good, poolKey(kP256, 3)),
		mk(fix.p384, poolKey(kP256, 3)),
		mk(fix.good, poolKey(kP256, 3), fix.good.Cert),
		mk(fix.sub, poolKey(kP256, 3), fix.sub.Cert),
		mk(fix.good, poolKey(kP384, 3)),
		mk(fix.good2, fix.good.Key), // shares Root A's key and table
		mk(fix.rsa4096, poolKey(kP384, 3)),
		mk(fix.good, poolKey(kRSA, 1)),
		mk(fix.rsa, poolKey(kRSA4096, 1), fix.rsa.Cert),
	}
	for op := range numStructOps {
		for target := range 3 {
			f.Add(uint8(op+target), []byte{byte(target), byte(op), byte(op * 37)})
		}
	}
	f.Add(uint8(2), []byte{2, 0, 0, 2, 29, 0})
	f.Add(uint8(0), []byte{1, 0, 0, 1, 3, 200, 0, 33, 1})
	f.Fuzz(func(t *testing.T, which uint8, ops []byte) {
		base := bases[int(which)%len(bases)]
		opts := VerifyOptions{DNSName: "www.example.com", CurrentTime: t0}
		if _, err := fix.store.Verify(base, opts); err != nil {
			t.Fatalf("genuine chain %d: %v", which, err)
		}
		chain := append([]*x509.Certificate(nil), base...)
		for i := 0; i+1 < len(ops) && i < 24; i += 2 {
			var arg byte
			if i+2 < len(ops) {
				arg = ops[i+2]
			}
			chain = mutateStruct(chain, int(ops[i])%len(chain), int(ops[i+1])%numStructOps, arg)
		}
		if chain[0] == nil {
			if _, err := fix.store.Verify(chain, opts); err == nil {
				t.Fatal("Verify accepted a nil leaf")
			}
			return
		}
		compareWithX509(t, fix.store, &scenario{desc: []string{"fuzz struct", fmt.Sprint(which, ops)}, chain: chain, opts: opts})
	})
}

const numStructOps = 45

// mutateStruct returns chain with chain[i] replaced by a mutated shallow
// copy (or by nil, or with an extra element); shared values are never
// written.
func mutateStruct(chain []*x509.Certificate, i, op int, arg byte) []*x509.Certificate {
	if chain[i] == nil {
		return chain
	}
	d := *chain[i]
	c := &d
	pub, _ := c.PublicKey.(*ecdsa.PublicKey)
	setKey := func(f func(k *ecdsa.PublicKey)) {
		// Only keys with every field set (earlier operations may have
		// cleared some).
		if pub != nil && pub.X != nil && pub.Y != nil && pub.Curve != nil {
			k := *pub
			f(&k)
			c.PublicKey = &k
		}
	}
	rpub, _ := c.PublicKey.(*rsa.PublicKey)
	setRSA := func(f func(k *rsa.PublicKey)) {
		if rpub != nil && rpub.N != nil {
			k := *rpub
			f(&k)
			c.PublicKey = &k
		}
	}
	cut := func(b []byte) []byte {
		if len(b) == 0 {
			return b
		}
		return b[:int(arg)%len(b)]
	}
	other := chain[(i+1)%len(chain)]
	switch op {
	case 0:
		setKey(func(k *ecdsa.PublicKey) { k.X = new(big.Int).Neg(k.X) })
	case 1:
		setKey(func(k *ecdsa.PublicKey) { k.Y = new(big.Int).Neg(k.Y) })
	case 2:
		setKey(func(k *ecdsa.PublicKey) { k.X = new(big.Int).Add(k.X, k.Curve.Params().P) })
	case 3:
		setKey(func(k *ecdsa.PublicKey) { k.X = new(big.Int).Lsh(big.NewInt(1), 200+uint(arg)) })
	case 4:
		setKey(func(k *ecdsa.PublicKey) { k.X = nil })
	case 5:
		setKey(func(k *ecdsa.PublicKey) { k.Y = nil })
	case 6:
		setKey(func(k *ecdsa.PublicKey) { k.Curve = nil })
	case 7:
		setKey(func(k *ecdsa.PublicKey) {
			if k.Curve == elliptic.P256() {
				k.Curve = elliptic.P384()
			} else {
				k.Curve = elliptic.P256()
			}
		})
	case 8:
		c.PublicKey = (*ecdsa.PublicKey)(nil)
	case 9:
		c.PublicKey = nil
	case 10:
		if pub != nil {
			c.PublicKey = *pub
		}
	case 11:
		c.PublicKey = &rsa.PublicKey{}
	case 12:
		c.PublicKey = (*rsa.PublicKey)(nil)
	case 13:
		c.Raw = cut(c.Raw)
	case 14:
		c.Raw = nil
	case 15:
		c.RawTBSCertificate = cut(c.RawTBSCertificate)
	case 16:
		c.RawSubject = nil
	case 17:
		c.RawIssuer = c.RawSubject
	case 18:
		if other != nil {
			c.RawSubject = other.RawSubject
		}
	case 19:
		c.Signature = cut(c.Signature)
	case 20:
		c.SignatureAlgorithm = x509.SignatureAlgorithm(arg % 20)
	case 21:
		c.PublicKeyAlgorithm = x509.PublicKeyAlgorithm(arg % 5)
	case 22:
		c.NotBefore, c.NotAfter = c.NotAfter, c.NotBefore
	case 23:
		c.IsCA = !c.IsCA
	case 24:
		c.BasicConstraintsValid = !c.BasicConstraintsValid
	case 25:
		c.MaxPathLen, c.MaxPathLenZero = int(arg%5)-2, arg&8 != 0
	case 26:
		c.KeyUsage = x509.KeyUsage(arg)
	case 27:
		c.ExtKeyUsage = append(append([]x509.ExtKeyUsage(nil), c.ExtKeyUsage...), x509.ExtKeyUsage(int(arg%32)-10))
	case 28:
		c.Extensions = nil
	case 29:
		c.Extensions = append(append([]pkix.Extension(nil), c.Extensions...), pkix.Extension{Id: oidSubjectAltName})
	case 30:
		c.UnhandledCriticalExtensions = []asn1.ObjectIdentifier{oidCriticalTest}
	case 31:
		c.DNSNames = []string{"*", string(rune('a' + arg%26))}
	case 32:
		chain = append([]*x509.Certificate(nil), chain...)
		chain[i] = nil
		return chain
	case 33:
		if other != nil {
			c.PublicKey = other.PublicKey
		}
	case 34:
		c.RawSubjectPublicKeyInfo = nil
	case 35:
		c.PermittedDNSDomains = []string{"example.com"}
	case 36:
		c.UnknownExtKeyUsage = []asn1.ObjectIdentifier{oidUnknownEKU}
	case 37:
		return append(append([]*x509.Certificate(nil), chain...), c)
	case 38:
		setRSA(func(k *rsa.PublicKey) { k.N = new(big.Int).Neg(k.N) })
	case 39:
		setRSA(func(k *rsa.PublicKey) { k.N = new(big.Int).Add(k.N, big.NewInt(2*int64(arg)+2)) })
	case 40:
		setRSA(func(k *rsa.PublicKey) { k.E = int(arg) })
	case 41:
		setRSA(func(k *rsa.PublicKey) { k.N = nil })
	case 42:
		setRSA(func(k *rsa.PublicKey) { k.N = new(big.Int).Lsh(k.N, uint(arg%9)) })
	case 43:
		c.SignatureAlgorithm = []x509.SignatureAlgorithm{x509.SHA256WithRSA, x509.SHA384WithRSA, x509.SHA512WithRSA,
			x509.SHA256WithRSAPSS, x509.SHA1WithRSA, x509.ECDSAWithSHA256}[arg%6]
	case 44:
		if rpub != nil {
			c.PublicKey = *rpub
		}
	}
	chain = append([]*x509.Certificate(nil), chain...)
	chain[i] = c
	return chain
}
