//go:build interop

package interop

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// wolfSSL 5.5 and mbed TLS 2.28: a small C client of our own on each
// (testdata/wolfssl/client.c, testdata/mbedtls/client.c, built with
// Debian's gcc against libwolfssl-dev and libmbedtls-dev), and lighttpd as
// the server through mod_wolfssl and mod_mbedtls.

func debVersion(pkg string) func() string {
	return func() string {
		out, _ := exec.Command("dpkg-query", "-W", "-f", "${Version}", pkg).Output()
		v := strings.SplitN(string(out), "-", 2)[0]
		if v == "" {
			return "?"
		}
		return v
	}
}

var (
	wolfClient = &peer{Name: "wolfSSL client (ours)", Stack: "wolfSSL", Package: "libwolfssl-dev", Progs: []string{"gcc", "/usr/include/wolfssl/ssl.h"}, Version: debVersion("libwolfssl35")}
	wolfServer = &peer{Name: "lighttpd mod_wolfssl", Stack: "wolfSSL", Package: "lighttpd-mod-wolfssl", Progs: []string{"lighttpd", "/usr/lib/lighttpd/mod_wolfssl.so"}, Version: func() string {
		return "lighttpd " + debVersion("lighttpd")() + ", wolfSSL " + debVersion("libwolfssl35")()
	}}
	mbedClient = &peer{Name: "mbed TLS client (ours)", Stack: "mbed TLS", Package: "libmbedtls-dev", Progs: []string{"gcc", "/usr/include/mbedtls/ssl.h"}, Version: debVersion("libmbedtls14")}
	mbedServer = &peer{Name: "lighttpd mod_mbedtls", Stack: "mbed TLS", Package: "lighttpd-mod-mbedtls", Progs: []string{"lighttpd", "/usr/lib/lighttpd/mod_mbedtls.so"}, Version: func() string {
		return "lighttpd " + debVersion("lighttpd")() + ", mbed TLS " + debVersion("libmbedtls14")()
	}}
)

func init() {
	register(func(e *Env) []Case {
		var cs []Case
		cs = append(cs, clientCases(wolfClient, wolfClientRun, clientCaps{
			Versions:  []string{"1.3", "1.2", "1.1"}, // Debian builds wolfSSL without TLS 1.0
			UnknownCA: `ASN_NO_SIGNER_E|-188`,
			WrongHost: `DOMAIN_NAME_MISMATCH|-322`,
			Rejected:  `error: `,
		})...)
		cs = append(cs, serverCases(wolfServer, func(c *C, o ps) *proc { return lighttpdRun(c, "mod_wolfssl", o) }, lighttpdCaps)...)
		cs = append(cs, clientCases(mbedClient, mbedClientRun, clientCaps{
			Versions:  []string{"1.2", "1.1", "1.0"}, // mbed TLS 2.28 has no TLS 1.3 (Debian's build)
			NoEd25519: "mbed TLS 2.28 has no Ed25519",
			UnknownCA: `The certificate is not correctly signed by the trusted CA`,
			WrongHost: `The certificate Common Name \(CN\) does not match with the expected CN`,
			Rejected:  `error: `,
		})...)
		cs = append(cs, serverCases(mbedServer, func(c *C, o ps) *proc { return lighttpdRun(c, "mod_mbedtls", o) }, func() serverCaps {
			sc := lighttpdCaps
			sc.Versions = []string{"1.2"}
			return sc
		}())...)
		return cs
	})
}

func init() {
	gccHelper("wolfssl-client", "wolfssl", []*peer{wolfClient}, "-lwolfssl")
	gccHelper("mbedtls-client", "mbedtls", []*peer{mbedClient}, "-lmbedtls", "-lmbedx509", "-lmbedcrypto")
}

func gccHelper(name, lib string, peers []*peer, libs ...string) {
	registerHelper(name, func(out string) (string, error) {
		src, err := filepath.Abs(filepath.Join("testdata", lib, "client.c"))
		if err != nil {
			return "", err
		}
		bin := filepath.Join(out, "client")
		args := append([]string{"-O1", "-Wall", "-Werror", "-o", bin, src}, libs...)
		if b, err := exec.Command("gcc", args...).CombinedOutput(); err != nil {
			return "", &buildError{"gcc", err, b}
		}
		return bin, nil
	}, peers...)
}

func certArgs(o pc) (string, string) {
	if o.Cert == nil {
		return "", ""
	}
	return o.Cert.files.Chain, o.Cert.files.Key
}

func wolfClientRun(c *C, o pc) (string, error) {
	bin := c.BuildHelper("wolfssl-client")
	suite := ""
	if o.Suite != "" {
		suite = opensslSuites[o.Suite]
	}
	sigalgs := ""
	if o.Hash != "" {
		sigalgs = "ECDSA+" + strings.ToUpper(o.Hash)
	}
	chain, key := certArgs(o)
	return c.Run("", bin, strconv.Itoa(o.Port), o.Name, o.CA, o.Ver, suite, sigalgs, chain, key, o.Line)
}

func mbedClientRun(c *C, o pc) (string, error) {
	bin := c.BuildHelper("mbedtls-client")
	suite := o.Suite
	if o.Ver == "1.0" || o.Ver == "1.1" {
		suite = suiteCBC
	}
	chain, key := certArgs(o)
	// mbed TLS spells the IANA names with dashes.
	suite = strings.ReplaceAll(suite, "_", "-")
	return c.Run("", bin, strconv.Itoa(o.Port), o.Name, o.CA, o.Ver, suite, o.Hash, chain, key, o.Line)
}

// lighttpd serves GET /tok with the file the case writes into its
// document root just before the request (Prepare).
var lighttpdCaps = serverCaps{
	Versions: []string{"1.3", "1.2"},
	HTTP:     true,
	Echo:     func(tok string) string { return "pong " + tok },
	Prepare: func(c *C, tok string) {
		if err := os.WriteFile(filepath.Join(c.peerDir, tok), []byte("pong "+tok+"\n"), 0o644); err != nil {
			c.Fatal(err)
		}
	},
	Rejected: "certificate required|bad certificate|handshake failure|connection reset|EOF",
}

func lighttpdRun(c *C, module string, o ps) *proc {
	dir := filepath.Join(c.TempDir(), "www")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		c.Fatal(err)
	}
	c.peerDir = dir
	ver := map[string]string{"1.3": "TLSv1.3", "1.2": "TLSv1.2"}[o.Ver]
	conf := fmt.Sprintf(`server.document-root = %q
server.port = %d
server.bind = "127.0.0.1"
server.errorlog = %q
server.modules = ( %q )
ssl.engine = "enable"
ssl.pemfile = %q
ssl.privkey = %q
`, dir, o.Port, filepath.Join(filepath.Dir(dir), "error.log"), module, o.Cred.files.Chain, o.Cred.files.Key)
	if ver != "" {
		conf += fmt.Sprintf("ssl.openssl.ssl-conf-cmd = ( \"MinProtocol\" => %q, \"MaxProtocol\" => %q )\n", ver, ver)
	}
	// The CA file holds root and intermediate, client certificates or
	// not: wolfSSL's server otherwise aborts Go clients (which always ask
	// for OCSP stapling) with error -188.
	caFile := c.Env.PKI.RootInterPEM
	if o.Cred == c.Env.PKI.foreignServer {
		caFile = c.Env.PKI.ForeignPEM
	}
	conf += fmt.Sprintf("ssl.ca-file = %q\n", caFile)
	if o.RequireClient {
		conf += "ssl.verifyclient.activate = \"enable\"\nssl.verifyclient.enforce = \"enable\"\n"
	}
	path := filepath.Join(filepath.Dir(dir), "lighttpd.conf")
	if err := os.WriteFile(path, []byte(conf), 0o644); err != nil {
		c.Fatal(err)
	}
	cmd, out := c.command("", "lighttpd", "-D", "-f", path)
	c.Cleanup(func() {
		if c.Failed() {
			data, _ := os.ReadFile(filepath.Join(filepath.Dir(dir), "error.log"))
			c.Logf("lighttpd error.log:\n%s", data)
		}
	})
	return c.Start(cmd, out)
}

var _ = time.Second
