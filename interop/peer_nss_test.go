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

// NSS 3.87: tstclnt and selfserv, with databases made by certutil and
// pk12util (package libnss3-tools).

var (
	nssVersion = func() string {
		out, _ := exec.Command("dpkg-query", "-W", "-f", "${Version}", "libnss3").Output()
		if v := strings.SplitN(string(out), "-", 2)[0]; v != "" {
			return strings.TrimPrefix(v, "2:")
		}
		return "?"
	}
	nssTools  = []string{"certutil", "pk12util", "openssl"}
	tstclnt   = &peer{Name: "NSS tstclnt", Stack: "NSS", Package: "libnss3-tools", Progs: append([]string{"tstclnt"}, nssTools...), Version: nssVersion}
	selfserv  = &peer{Name: "NSS selfserv", Stack: "NSS", Package: "libnss3-tools", Progs: append([]string{"selfserv"}, nssTools...), Version: nssVersion}
	nssSuites = map[string]string{suiteAES128: ":C02B", suiteAES256: ":C02C", suiteChaCha: ":CCA9", suiteCBC: ":C009"}
)

func init() {
	register(func(e *Env) []Case {
		cs := clientCases(tstclnt, nssClient, clientCaps{
			Versions:  []string{"1.3", "1.2", "1.1", "1.0"},
			NoEd25519: "NSS 3.87 does not implement Ed25519 in TLS",
			UnknownCA: `SEC_ERROR_UNKNOWN_ISSUER`,
			WrongHost: `SSL_ERROR_BAD_CERT_DOMAIN`,
			Rejected:  `SSL_ERROR|SEC_ERROR|PR_END_OF_FILE_ERROR|PR_CONNECT_RESET_ERROR`,
		})
		cs = append(cs, serverCases(selfserv, nssServer, serverCaps{
			Versions: []string{"1.3", "1.2"},
			HTTP:     true,
			Echo:     func(tok string) string { return "GET /" + tok + " HTTP/1.0" },
			Rejected: "certificate required|bad certificate|handshake failure",
		})...)
		return cs
	})
}

// p12 makes a PKCS #12 file of a credential with openssl.
func (c *C) p12(cr *credential) string {
	c.T.Helper()
	path := filepath.Join(c.Env.Dir, "p12", sanitize(cr.name)+".p12")
	if _, err := os.Stat(path); err == nil {
		return path
	}
	os.MkdirAll(filepath.Dir(path), 0o755)
	out, err := exec.Command("openssl", "pkcs12", "-export", "-in", cr.files.Chain, "-inkey", cr.files.Key,
		"-out", path, "-passout", "pass:"+p12Password, "-name", sanitize(cr.name)).CombinedOutput()
	if err != nil {
		c.Fatalf("openssl pkcs12: %v\n%s", err, out)
	}
	return path
}

// nssDB returns an NSS database (sql:dir) trusting root (as the CA of
// servers and clients) and holding the given credentials, made once per
// run.
func (c *C) nssDB(name string, root *credential, creds ...*credential) string {
	c.T.Helper()
	dir := filepath.Join(c.Env.Dir, "nss-"+name)
	if _, err := os.Stat(filepath.Join(dir, "cert9.db")); err == nil {
		return "sql:" + dir
	}
	os.MkdirAll(dir, 0o755)
	run := func(args ...string) {
		if out, err := exec.Command(args[0], args[1:]...).CombinedOutput(); err != nil {
			c.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	run("certutil", "-N", "-d", "sql:"+dir, "--empty-password")
	run("certutil", "-A", "-d", "sql:"+dir, "-n", "root", "-t", "CT,C,C", "-i", root.files.Cert)
	for _, cr := range creds {
		run("pk12util", "-i", c.p12(cr), "-d", "sql:"+dir, "-W", p12Password)
	}
	return "sql:" + dir
}

func nssVersionRange(v string) string {
	if v == "" {
		return "tls1.2:tls1.3"
	}
	v = "tls" + v
	return v + ":" + v
}

func nssClient(c *C, o pc) (string, error) {
	p := c.Env.PKI
	// NSS picks a client certificate from the database by itself: the
	// database holds one only when the case presents one.
	db := c.nssDB("client-nocert", p.root)
	if o.Cert != nil {
		db = c.nssDB("client", p.root, p.clientP256, p.foreignClient)
	}
	if o.CA == p.ForeignPEM {
		db = c.nssDB("client-foreign", p.foreignRoot)
	}
	// -h names the host to verify (and, by default, to send as SNI); -4
	// because localhost resolves to ::1 first.
	args := []string{"-h", o.Name, "-4", "-p", strconv.Itoa(o.Port), "-d", db, "-V", nssVersionRange(o.Ver)}
	if o.Name != hostName {
		// The wrong name cannot be resolved: connect to localhost and
		// present (and verify) the wrong name.
		args = []string{"-h", hostName, "-a", o.Name, "-4", "-p", strconv.Itoa(o.Port), "-d", db, "-V", nssVersionRange(o.Ver)}
	}
	if o.Suite != "" {
		args = append(args, "-c", nssSuites[o.Suite])
	}
	if o.Hash != "" {
		args = append(args, "-J", map[string]string{"sha256": "ecdsa_secp256r1_sha256", "sha384": "ecdsa_secp384r1_sha384", "sha512": "ecdsa_secp521r1_sha512"}[o.Hash])
	}
	if o.Cert != nil {
		args = append(args, "-n", sanitize(o.Cert.name))
	}
	return c.RunInteractive(nil, o.Line, "pong "+o.Tok, 10*time.Second, "tstclnt", args...)
}

func nssServer(c *C, o ps) *proc {
	p := c.Env.PKI
	db := c.nssDB("server", p.root, p.peerServer, p.foreignServer)
	args := []string{"-p", strconv.Itoa(o.Port), "-d", db, "-n", sanitize(o.Cred.name), "-V", nssVersionRange(o.Ver)}
	if o.RequireClient {
		args = append(args, "-r", "-r")
	}
	cmd, out := c.command("", "selfserv", args...)
	return c.Start(cmd, out)
}

var _ = fmt.Sprint
