//go:build interop

package interop

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Java: SunJSSE (openjdk-17-jdk-headless) and Bouncy Castle's JSSE
// (libbctls-java with libbcprov-java and libbcutil-java), through one small
// client/echo server of our own (testdata/java/Peer.java) that picks the
// provider by flag.

const bcClasspath = "/usr/share/java/bcprov.jar:/usr/share/java/bctls.jar:/usr/share/java/bcutil.jar"

var (
	javaVersion = versionMatch(`version "([^"]+)"`, "java", "-version")
	bcVersion   = func() string {
		out, _ := exec.Command("dpkg-query", "-W", "-f", "${Version}", "libbctls-java").Output()
		return "bctls " + strings.SplitN(string(out), "-", 2)[0] + " on Java " + javaVersion()
	}
	sunClient = &peer{Name: "Java SunJSSE client", Stack: "Java SunJSSE", Package: "openjdk-17-jdk-headless", Progs: []string{"java", "javac", "openssl"}, Version: javaVersion}
	sunServer = &peer{Name: "Java SunJSSE server", Stack: "Java SunJSSE", Package: "openjdk-17-jdk-headless", Progs: []string{"java", "javac", "openssl"}, Version: javaVersion}
	bcClient  = &peer{Name: "BCJSSE client", Stack: "Bouncy Castle JSSE", Package: "libbctls-java", Progs: []string{"java", "javac", "openssl", "/usr/share/java/bctls.jar", "/usr/share/java/bcprov.jar", "/usr/share/java/bcutil.jar"}, Version: bcVersion}
	bcServer  = &peer{Name: "BCJSSE server", Stack: "Bouncy Castle JSSE", Package: "libbctls-java", Progs: []string{"java", "javac", "openssl", "/usr/share/java/bctls.jar", "/usr/share/java/bcprov.jar", "/usr/share/java/bcutil.jar"}, Version: bcVersion}
)

var javaVersions = map[string]string{"1.3": "TLSv1.3", "1.2": "TLSv1.2", "1.1": "TLSv1.1", "1.0": "TLSv1"}

func init() {
	register(func(e *Env) []Case {
		var cs []Case
		for _, pp := range []struct {
			client, server     *peer
			prov               string
			unknownCA, badName string
		}{
			{sunClient, sunServer, "SunJSSE", `PKIX path building failed.*unable to find valid certification path`, `No subject alternative DNS name matching wrong.interop.test`},
			{bcClient, bcServer, "BCJSSE", `No issuer certificate for certificate in certification path found`, `No subject alternative name found matching domain name wrong.interop.test`},
		} {
			prov := pp.prov
			cs = append(cs, clientCases(pp.client, func(c *C, o pc) (string, error) { return javaClient(c, prov, o) }, clientCaps{
				Versions:  []string{"1.3", "1.2", "1.1", "1.0"},
				UnknownCA: pp.unknownCA,
				WrongHost: pp.badName,
				Rejected:  `error: `,
			})...)
			cs = append(cs, serverCases(pp.server, func(c *C, o ps) *proc { return javaServer(c, prov, o) }, serverCaps{
				Versions: []string{"1.3", "1.2"},
				Ready:    "READY",
				Rejected: "certificate required|bad certificate|handshake failure",
			})...)
		}
		return cs
	})
}

func init() {
	registerHelper("java", func(out string) (string, error) {
		src, err := filepath.Abs("testdata/java/Peer.java")
		if err != nil {
			return "", err
		}
		cmd := exec.Command("javac", "-d", out, src)
		if b, err := cmd.CombinedOutput(); err != nil {
			return "", &buildError{"javac", err, b}
		}
		return out, nil
	}, sunClient, sunServer, bcClient, bcServer)
}

// javaSecurity lets Java offer TLS 1.0 and 1.1 (Debian's java.security
// disables them): the same list minus the two versions.
func (c *C) javaSecurity() string {
	path := filepath.Join(c.Env.Dir, "java.security")
	if _, err := os.Stat(path); err != nil {
		os.WriteFile(path, []byte("jdk.tls.disabledAlgorithms=SSLv3, RC4, DES, MD5withRSA, DH keySize < 1024, EC keySize < 224, 3DES_EDE_CBC, anon, NULL\n"), 0o644)
	}
	return path
}

func javaArgs(c *C, prov string, props ...string) []string {
	dir := c.BuildHelper("java")
	args := []string{"-XX:TieredStopAtLevel=1", "-Xshare:auto", "-cp", dir + ":" + bcClasspath}
	return append(append(args, props...), "Peer")
}

func javaClient(c *C, prov string, o pc) (string, error) {
	var props []string
	if o.Hash != "" {
		// jdk.tls.client.SignatureSchemes also restricts the schemes
		// accepted in certificates: the chain's own must stay, after the
		// forced one.
		forced := map[string]string{"sha256": "ecdsa_secp256r1_sha256", "sha384": "ecdsa_secp384r1_sha384", "sha512": "ecdsa_secp521r1_sha512"}[o.Hash]
		props = append(props, "-Djdk.tls.client.SignatureSchemes="+forced+",ecdsa_secp256r1_sha256,ecdsa_secp384r1_sha384")
	}
	if o.Ver == "1.0" || o.Ver == "1.1" {
		props = append(props, "-Djava.security.properties="+c.javaSecurity())
	}
	p12 := ""
	if o.Cert != nil {
		p12 = c.p12(o.Cert)
	}
	args := append(javaArgs(c, prov, props...), "client", prov, o.Name, strconv.Itoa(o.Port), javaVersions[o.Ver], o.Suite, o.CA, p12, o.Line)
	return c.RunInteractive(nil, "", "pong "+o.Tok, 20*time.Second, "java", args...)
}

func javaServer(c *C, prov string, o ps) *proc {
	req := "-"
	if o.RequireClient {
		req = "require"
	}
	args := append(javaArgs(c, prov), "server", prov, "-", strconv.Itoa(o.Port), javaVersions[o.Ver], "", o.ClientCA, c.p12(o.Cred), req)
	cmd, out := c.command("", "java", args...)
	return c.Start(cmd, out)
}
