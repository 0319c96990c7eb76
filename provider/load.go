package provider

import (
	"crypto"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"iter"
	"os"
	"strings"
)

// FileError reports a problem with a certificate or key file. Err wraps one
// of the Err* values of this package when one applies, and errors.Is sees
// through FileError.
type FileError struct {
	Path string // the file
	Kind string // "certificate" or "private key"
	Err  error
}

func (e *FileError) Error() string {
	return fmt.Sprintf("provider: %s file %q: %v", e.Kind, e.Path, e.Err)
}

func (e *FileError) Unwrap() error { return e.Err }

// LoadIdentity reads a PEM certificate chain (leaf first) from certFile and
// a PEM private key from keyFile and builds an Identity (see NewIdentity).
// The key may be PKCS#8 ("PRIVATE KEY"), SEC1 ("EC PRIVATE KEY") or PKCS#1
// ("RSA PRIVATE KEY"); encrypted keys are refused with ErrEncryptedKey.
// certFile and keyFile may name the same file holding both. Errors are
// *FileError values naming the file and what is wrong with it.
func LoadIdentity(certFile, keyFile string) (*Identity, error) {
	certPEM, err := os.ReadFile(certFile)
	if err != nil {
		return nil, &FileError{Path: certFile, Kind: "certificate", Err: err}
	}
	keyPEM, err := os.ReadFile(keyFile)
	if err != nil {
		return nil, &FileError{Path: keyFile, Kind: "private key", Err: err}
	}
	return identityFromPEM(certPEM, keyPEM, certFile, keyFile)
}

func identityFromPEM(certPEM, keyPEM []byte, certFile, keyFile string) (*Identity, error) {
	chain, leaf, err := parseCertificatePEM(certPEM)
	if err != nil {
		return nil, &FileError{Path: certFile, Kind: "certificate", Err: err}
	}
	priv, err := parsePrivateKeyPEM(keyPEM)
	if err != nil {
		return nil, &FileError{Path: keyFile, Kind: "private key", Err: err}
	}
	signer, ok := priv.(crypto.Signer)
	if !ok {
		return nil, &FileError{Path: keyFile, Kind: "private key",
			Err: fmt.Errorf("%w: a %s cannot sign", ErrUnsupportedKey, keyTypeName(priv))}
	}
	if _, err := keyAlgorithm(signer.Public()); err != nil {
		return nil, &FileError{Path: keyFile, Kind: "private key", Err: unprefix(err)}
	}
	if !publicKeysEqual(signer.Public(), leaf.PublicKey) {
		return nil, &FileError{Path: keyFile, Kind: "private key",
			Err: fmt.Errorf("%w in %q (%s)", ErrKeyMismatch, certFile, describe(leaf))}
	}
	id, err := NewIdentity(tls.Certificate{Certificate: chain, PrivateKey: priv, Leaf: leaf})
	if err != nil {
		return nil, &FileError{Path: keyFile, Kind: "private key", Err: unprefix(err)}
	}
	return id, nil
}

// unprefix drops the "provider: " prefix of an error that is about to be
// wrapped in a FileError, which adds its own.
func unprefix(err error) error { return trimPrefix(err, "provider: ") }

// trimPrefix returns err, still matched by errors.Is and errors.As, with
// prefix removed from the front of its message: the error is about to be
// wrapped in one that has its own package prefix.
func trimPrefix(err error, prefix string) error {
	msg := err.Error()
	if !strings.HasPrefix(msg, prefix) {
		return err
	}
	return &plainError{msg: strings.TrimPrefix(msg, prefix), err: err}
}

type plainError struct {
	msg string
	err error
}

func (e *plainError) Error() string { return e.msg }
func (e *plainError) Unwrap() error { return e.err }

// pemBlocks yields the PEM blocks of data in order, as pem.Decode finds
// them; it stops at the first remainder with no block.
func pemBlocks(data []byte) iter.Seq[*pem.Block] {
	return func(yield func(*pem.Block) bool) {
		for rest := data; ; {
			var block *pem.Block
			block, rest = pem.Decode(rest)
			if block == nil || !yield(block) {
				return
			}
		}
	}
}

// parseCertificatePEM returns the DER chain of every CERTIFICATE block and the
// parsed leaf (the first). Other blocks (a private key in a combined file)
// are skipped.
func parseCertificatePEM(data []byte) ([][]byte, *x509.Certificate, error) {
	var chain [][]byte
	var leaf *x509.Certificate
	var others []string
	for block := range pemBlocks(data) {
		if block.Type != "CERTIFICATE" {
			others = append(others, block.Type)
			continue
		}
		c, err := x509.ParseCertificate(block.Bytes)
		if err != nil {
			return nil, nil, fmt.Errorf("certificate #%d of the chain: %w", len(chain)+1, err)
		}
		if leaf == nil {
			leaf = c
		}
		chain = append(chain, block.Bytes)
	}
	if len(chain) > 0 {
		return chain, leaf, nil
	}
	switch {
	case firstPrivateKey(others) != "":
		return nil, nil, fmt.Errorf("%w: the file holds a %s block but no CERTIFICATE block (are the certificate and key files swapped?)", ErrNoCertificate, firstPrivateKey(others))
	case len(others) > 0:
		return nil, nil, fmt.Errorf("%w: no CERTIFICATE block (found %s)", ErrNoCertificate, strings.Join(others, ", "))
	case looksLikeDER(data):
		return nil, nil, fmt.Errorf("%w: the file is binary (DER?), PEM expected; convert it with: openssl x509 -inform der -in FILE -out FILE.pem", ErrNoCertificate)
	default:
		return nil, nil, fmt.Errorf("%w: no PEM data found", ErrNoCertificate)
	}
}

// parsePrivateKeyPEM finds the one private key block of a PEM file and
// parses it according to its type. CERTIFICATE and EC PARAMETERS blocks are
// skipped (combined files, `openssl ecparam -genkey` output).
func parsePrivateKeyPEM(data []byte) (any, error) {
	var keys []*pem.Block
	var others []string
	for block := range pemBlocks(data) {
		if strings.HasSuffix(block.Type, "PRIVATE KEY") {
			keys = append(keys, block)
		} else {
			others = append(others, block.Type)
		}
	}
	switch {
	case len(keys) > 1:
		return nil, fmt.Errorf("the file holds %d private keys; expected exactly one", len(keys))
	case len(keys) == 0 && len(others) > 0 && allEqual(others, "CERTIFICATE"):
		return nil, fmt.Errorf("%w: the file holds only CERTIFICATE blocks (are the certificate and key files swapped?)", ErrNoPrivateKey)
	case len(keys) == 0 && len(others) > 0:
		return nil, fmt.Errorf("%w: no PRIVATE KEY block (found %s)", ErrNoPrivateKey, strings.Join(others, ", "))
	case len(keys) == 0 && looksLikeDER(data):
		return nil, fmt.Errorf("%w: the file is binary (DER?), PEM expected; convert it with: openssl pkey -inform der -in FILE -out FILE.pem", ErrNoPrivateKey)
	case len(keys) == 0:
		return nil, fmt.Errorf("%w: no PEM data found", ErrNoPrivateKey)
	}
	block := keys[0]

	if strings.Contains(block.Headers["Proc-Type"], "ENCRYPTED") {
		return nil, fmt.Errorf("%w: legacy encrypted PEM (%s, Proc-Type: %s); decrypt it first, e.g. openssl pkey -in FILE -out plain.pem",
			ErrEncryptedKey, block.Type, block.Headers["Proc-Type"])
	}
	var parse func([]byte) (any, error)
	switch block.Type {
	case "PRIVATE KEY":
		parse = x509.ParsePKCS8PrivateKey
	case "EC PRIVATE KEY":
		parse = func(der []byte) (any, error) { return x509.ParseECPrivateKey(der) }
	case "RSA PRIVATE KEY":
		parse = func(der []byte) (any, error) { return x509.ParsePKCS1PrivateKey(der) }
	case "ENCRYPTED PRIVATE KEY":
		return nil, fmt.Errorf("%w: encrypted PKCS#8 (ENCRYPTED PRIVATE KEY); decrypt it first, e.g. openssl pkey -in FILE -out plain.pem", ErrEncryptedKey)
	case "OPENSSH PRIVATE KEY":
		return nil, fmt.Errorf("%w: OpenSSH key format; convert it to PKCS#8, e.g. ssh-keygen -p -m PKCS8 -f FILE", ErrUnsupportedKey)
	case "DSA PRIVATE KEY":
		return nil, fmt.Errorf("%w: DSA keys cannot sign TLS 1.2 or 1.3 handshakes", ErrUnsupportedKey)
	default:
		return nil, fmt.Errorf("%w: PEM block type %q", ErrUnsupportedKey, block.Type)
	}
	priv, err := parse(block.Bytes)
	if err == nil {
		return priv, nil
	}
	// A mislabeled block (e.g. PKCS#8 DER under "EC PRIVATE KEY") still
	// parses with one of the other formats; accept it as crypto/tls does.
	for _, alt := range []func([]byte) (any, error){
		x509.ParsePKCS8PrivateKey,
		func(der []byte) (any, error) { return x509.ParseECPrivateKey(der) },
		func(der []byte) (any, error) { return x509.ParsePKCS1PrivateKey(der) },
	} {
		if p, altErr := alt(block.Bytes); altErr == nil {
			return p, nil
		}
	}
	if strings.Contains(err.Error(), "unknown") || strings.Contains(err.Error(), "unsupported") {
		err = fmt.Errorf("%w: %v", ErrUnsupportedKey, err)
	}
	return nil, fmt.Errorf("parsing the %s block: %w", block.Type, err)
}

func keyTypeName(priv any) string {
	switch fmt.Sprintf("%T", priv) {
	case "*ecdh.PrivateKey":
		return "X25519/ECDH key (key agreement only)"
	}
	return fmt.Sprintf("%T", priv)
}

func firstPrivateKey(types []string) string {
	for _, t := range types {
		if strings.HasSuffix(t, "PRIVATE KEY") {
			return t
		}
	}
	return ""
}

func allEqual(types []string, want string) bool {
	for _, t := range types {
		if t != want {
			return false
		}
	}
	return true
}

// looksLikeDER reports whether data starts like a DER SEQUENCE.
func looksLikeDER(data []byte) bool {
	return len(data) > 2 && data[0] == 0x30 && (data[1] == 0x82 || data[1] == 0x81 || data[1] < 0x80)
}
