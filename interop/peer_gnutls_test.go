//go:build interop

package interop

import (
	"strconv"
	"strings"
	"time"
)

// GnuTLS 3.7: gnutls-cli and gnutls-serv (package gnutls-bin).

var (
	gnutlsVersion = versionMatch(`gnutls-cli (\S+)`, "gnutls-cli", "--version")
	gnutlsCli     = &peer{Name: "gnutls-cli", Stack: "GnuTLS", Package: "gnutls-bin", Progs: []string{"gnutls-cli"}, Version: gnutlsVersion}
	gnutlsServ    = &peer{Name: "gnutls-serv", Stack: "GnuTLS", Package: "gnutls-bin", Progs: []string{"gnutls-serv"}, Version: gnutlsVersion}
)

var gnutlsCiphers = map[string]string{suiteAES128: "+AES-128-GCM", suiteAES256: "+AES-256-GCM", suiteChaCha: "+CHACHA20-POLY1305"}

func init() {
	register(func(e *Env) []Case {
		cs := clientCases(gnutlsCli, gnutlsClient, clientCaps{
			Versions:  []string{"1.3", "1.2", "1.1", "1.0"},
			UnknownCA: `issuer is unknown`,
			WrongHost: `name in the certificate does not match the expected`,
			Rejected:  `Error|alert|\*\*\*`,
		})
		cs = append(cs, serverCases(gnutlsServ, gnutlsServer, serverCaps{
			Versions: []string{"1.3", "1.2"},
			Ready:    "listening on IPv4",
			// With a required client certificate gnutls-serv cannot echo
			// (its --echo excludes --require-client-cert): it answers
			// the GET with a page showing the client's certificate.
			MTLSHTTP: true,
			MTLSEcho: func(tok string) string { return "Subject: CN=p256tls interop client P-256,O=p256tls" },
			Rejected: "certificate required|handshake failure|certificate|broken pipe|connection reset",
		})...)
		return cs
	})
}

func gnutlsPriority(ver, suite, hash string) string {
	p := "NORMAL"
	switch ver {
	case "1.3":
		p += ":-VERS-ALL:+VERS-TLS1.3"
	case "1.2":
		p += ":-VERS-ALL:+VERS-TLS1.2"
	case "1.1":
		p += ":-VERS-ALL:+VERS-TLS1.1:%VERIFY_ALLOW_SIGN_WITH_SHA1"
	case "1.0":
		p += ":-VERS-ALL:+VERS-TLS1.0:%VERIFY_ALLOW_SIGN_WITH_SHA1"
	}
	if suite != "" {
		p += ":-CIPHER-ALL:" + gnutlsCiphers[suite]
	}
	if hash != "" {
		// The forced scheme first; the chain's own (SHA-256, SHA-384)
		// stay allowed for certificate verification, after it.
		p += ":-SIGN-ALL:+SIGN-ECDSA-" + strings.ToUpper(hash) + ":+SIGN-ECDSA-SHA256:+SIGN-ECDSA-SHA384"
	}
	return p
}

func gnutlsClient(c *C, o pc) (string, error) {
	args := []string{"-p", strconv.Itoa(o.Port), "--x509cafile", o.CA, "--verify-hostname", o.Name, "--sni-hostname", o.Name,
		"--priority", gnutlsPriority(o.Ver, o.Suite, o.Hash)}
	if o.Cert != nil {
		args = append(args, "--x509certfile", o.Cert.files.Chain, "--x509keyfile", o.Cert.files.Key)
	}
	args = append(args, "127.0.0.1")
	return c.RunInteractive(nil, o.Line, "pong "+o.Tok, 10*time.Second, "gnutls-cli", args...)
}

func gnutlsServer(c *C, o ps) *proc {
	args := []string{"-p", strconv.Itoa(o.Port), "--x509certfile", o.Cred.files.Chain, "--x509keyfile", o.Cred.files.Key,
		"--priority", gnutlsPriority(o.Ver, "", "")}
	if o.RequireClient {
		args = append(args, "--require-client-cert", "--verify-client-cert", "--x509cafile", o.ClientCA)
	} else {
		args = append(args, "--echo")
	}
	cmd, out := c.command("", "gnutls-serv", args...)
	return c.Start(cmd, out)
}
