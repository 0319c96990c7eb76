package truststore

import (
	"bytes"
	"crypto/x509"
	"encoding/asn1"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"
)

// DER AlgorithmIdentifiers of ecdsa-with-SHA256/384/512 (parameters absent).
var (
	algECDSASHA256 = []byte{0x30, 0x0a, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x02}
	algECDSASHA384 = []byte{0x30, 0x0a, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x03}
	algECDSASHA512 = []byte{0x30, 0x0a, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x04}
)

// DER AlgorithmIdentifiers of sha256/384/512WithRSAEncryption, with the
// NULL parameters RFC 4055 requires and without parameters, which RFC 4055
// (section 5) asks implementations to accept too and crypto/x509 parses as
// the same algorithm. Any other parameters leave the certificate to
// crypto/x509.
var (
	algRSASHA256 = []byte{0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0b, 0x05, 0x00}
	algRSASHA384 = []byte{0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0c, 0x05, 0x00}
	algRSASHA512 = []byte{0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0d, 0x05, 0x00}

	algRSASHA256Bare = []byte{0x30, 0x0b, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0b}
	algRSASHA384Bare = []byte{0x30, 0x0b, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0c}
	algRSASHA512Bare = []byte{0x30, 0x0b, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0d}
)

// fromParser reports whether c looks as x509.ParseCertificate leaves it:
// Raw is the DER of a certificate whose TBS and signature are exactly
// RawTBSCertificate and Signature, and whose algorithm is the one in
// SignatureAlgorithm when that is one the fast path verifies (ECDSA or RSA
// PKCS #1 v1.5, see signatureAlgorithm). The link cache is keyed by a
// hash of Raw, so this is what makes a cache hit mean the same as verifying
// RawTBSCertificate and Signature again.
func fromParser(c *x509.Certificate) bool {
	if len(c.Raw) == 0 || len(c.RawTBSCertificate) == 0 {
		return false
	}
	in := cryptobyte.String(c.Raw)
	var cert, tbs, alg cryptobyte.String
	var sig asn1.BitString
	if !in.ReadASN1(&cert, cbasn1.SEQUENCE) || !in.Empty() ||
		!cert.ReadASN1Element(&tbs, cbasn1.SEQUENCE) ||
		!cert.ReadASN1Element(&alg, cbasn1.SEQUENCE) ||
		!cert.ReadASN1BitString(&sig) || !cert.Empty() {
		return false
	}
	if !bytes.Equal(tbs, c.RawTBSCertificate) || sig.BitLength%8 != 0 || !bytes.Equal(sig.Bytes, c.Signature) {
		return false
	}
	switch c.SignatureAlgorithm {
	case x509.ECDSAWithSHA256:
		return bytes.Equal(alg, algECDSASHA256)
	case x509.ECDSAWithSHA384:
		return bytes.Equal(alg, algECDSASHA384)
	case x509.ECDSAWithSHA512:
		return bytes.Equal(alg, algECDSASHA512)
	case x509.SHA256WithRSA:
		return bytes.Equal(alg, algRSASHA256) || bytes.Equal(alg, algRSASHA256Bare)
	case x509.SHA384WithRSA:
		return bytes.Equal(alg, algRSASHA384) || bytes.Equal(alg, algRSASHA384Bare)
	case x509.SHA512WithRSA:
		return bytes.Equal(alg, algRSASHA512) || bytes.Equal(alg, algRSASHA512Bare)
	}
	return true // not a fast-path algorithm: signatureAlgorithm refuses it
}
