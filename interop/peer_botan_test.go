//go:build interop

package interop

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Botan 2.19 (TLS 1.2 only): botan tls_client and tls_server, configured
// by policy files. The policy keys are ciphers, signature_hashes,
// signature_methods, key_exchange_methods and key_exchange_groups (Botan
// ignores unknown keys such as allowed_ciphers silently, so every case
// asserts the parameters it forced).

var (
	botanVersion = firstLine("botan", "version")
	botanClient  = &peer{Name: "botan tls_client", Stack: "Botan", Package: "botan", Progs: []string{"botan"}, Version: botanVersion}
	botanServer  = &peer{Name: "botan tls_server", Stack: "Botan", Package: "botan", Progs: []string{"botan"}, Version: botanVersion}
)

var botanCiphers = map[string]string{suiteAES128: "AES-128/GCM", suiteAES256: "AES-256/GCM", suiteChaCha: "ChaCha20Poly1305", suiteCBC: "AES-128"}

func init() {
	register(func(e *Env) []Case {
		const noMTLS = "botan tls_client has no option to present a client certificate"
		cs := clientCases(botanClient, botanClientRun, clientCaps{
			Versions:  []string{"1.2", "1.1", "1.0"},
			NoMTLS:    noMTLS,
			NoRefusal: "botan tls_client prints the chain's validation status (e.g. \"Certificate issuer not found\") and carries on: it cannot be made to refuse a chain",
			Rejected:  `Alert|alert|error|Error`,
		})
		cs = append(cs, serverCases(botanServer, botanServerRun, serverCaps{
			Versions: []string{"1.2"},
			NoMTLS:   "botan tls_server has no option to request client certificates",
			Ready:    "Listening for new connections",
		})...)
		return cs
	})
}

func (c *C) botanPolicy(name string, lines ...string) string {
	path := filepath.Join(c.Env.Dir, "botan-"+name+".txt")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		c.Fatal(err)
	}
	return path
}

func botanClientRun(c *C, o pc) (string, error) {
	pol := []string{"signature_methods = ECDSA RSA"}
	if o.Suite != "" {
		pol = append(pol, "ciphers = "+botanCiphers[o.Suite])
	}
	if o.Hash != "" {
		// Only this hash for the handshake signature; the chain's own
		// certificates are verified by Botan's X.509 code, not this policy.
		pol = append(pol, "signature_hashes = "+strings.ToUpper(o.Hash[:3])+"-"+o.Hash[3:])
	}
	if o.Ver == "1.0" || o.Ver == "1.1" {
		pol = append(pol, "ciphers = AES-128", "macs = SHA-1", "signature_hashes = SHA-1 SHA-256", "allow_tls10 = true", "allow_tls11 = true", "allow_tls12 = false")
	}
	args := []string{"tls_client", o.Name, "--port=" + strconv.Itoa(o.Port), "--skip-system-cert-store",
		"--trusted-cas=" + o.CA, "--policy=" + c.botanPolicy(sanitize(c.Name()), pol...)}
	if o.Ver == "1.0" || o.Ver == "1.1" {
		args = append(args, "--tls"+o.Ver)
	}
	return c.RunInteractive(nil, o.Line, "pong "+o.Tok, 10*time.Second, "botan", args...)
}

func botanServerRun(c *C, o ps) *proc {
	cmd, out := c.command("", "botan", "tls_server", o.Cred.files.Chain, o.Cred.files.Key, "--port="+strconv.Itoa(o.Port))
	return c.Start(cmd, out)
}
