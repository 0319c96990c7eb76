package truststore

import (
	"crypto/x509"
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
		return []*x509.Certificate{lf.cert, in.cert}
	}
	chains := [][]*x509.Certificate{mk(fix.good, kP256), mk(fix.p384, kP384), mk(fix.good, kP384), mk(fix.rsa, kP256)}
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
