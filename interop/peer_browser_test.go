//go:build interop

package interop

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Chromium headless (BoringSSL; its QUIC for HTTP/3). It takes its trust
// anchors from $HOME/.pki/nssdb, so each run gets a HOME of its own with a
// database trusting the matrix's root (or, for the wrong-CA case, only the
// foreign root). As root it needs --no-sandbox; the other flags keep it
// from reaching for the network, which would stall it here.

var chromium = &peer{Name: "Chromium headless", Stack: "BoringSSL (Chromium)", Package: "chromium", Progs: []string{"chromium", "certutil", "pk12util", "openssl"},
	Version: versionMatch(`Chromium (\S+)`, "chromium", "--version")}

// Chromium's code points for the TLS 1.2 ECDHE-ECDSA suites; a case keeps
// one by disabling the others.
var chromiumSuites = map[string]string{suiteAES128: "0xc02b", suiteAES256: "0xc02c", suiteChaCha: "0xcca9"}

func init() {
	register(func(e *Env) []Case {
		cs := clientCases(chromium, chromiumClient, clientCaps{
			Versions:  []string{"1.3", "1.2"}, // Chromium removed TLS 1.0/1.1
			NoHash:    "Chromium has no setting for the signature algorithms it offers",
			NoEd25519: "Chromium does not accept Ed25519 certificates",
			NoMTLS:    chromiumNoPolicy(),
			// Seen: with the policy and only a foreign certificate,
			// Chromium ends the handshake itself (the server reads EOF
			// and verifies no chain).
			NoForeign: "Chromium offers only a certificate whose issuer the server named; with none it aborts the handshake",
			UnknownCA: `ERR_CERT_AUTHORITY_INVALID`,
			WrongHost: `ERR_CERT_COMMON_NAME_INVALID`,
			Rejected:  `Page load failed: net::ERR_`,
			// Chromium opens connections of its own and retries a
			// handshake that died of an internal_error alert.
			ExtraConns: true,
			Retries:    true,
		})
		cs = append(cs, quicClientCases(chromiumQUIC, chromiumQUICRun, quicClientCaps{
			Rejected:   `Page load failed: net::ERR_`,
			NoForeign:  "Chromium sends no client certificate over QUIC",
			NoEd25519:  "Chromium does not accept Ed25519 certificates",
			ExtraConns: true,
			Retries:    true, // sometimes: seen both ways
		})...)
		return cs
	})
}

var chromiumQUIC = &peer{Name: "Chromium headless (QUIC)", Stack: "BoringSSL (Chromium)", Package: "chromium", Progs: []string{"chromium", "certutil"},
	Version: versionMatch(`Chromium (\S+)`, "chromium", "--version")}

// chromiumHome returns a HOME whose NSS database trusts root.
func (c *C) chromiumHome(name string, root *credential) string {
	c.T.Helper()
	home := filepath.Join(c.Env.Dir, "chromium-home-"+name)
	db := filepath.Join(home, ".pki", "nssdb")
	if _, err := os.Stat(filepath.Join(db, "cert9.db")); err == nil {
		return home
	}
	os.MkdirAll(db, 0o700)
	for _, args := range [][]string{
		{"-N", "-d", "sql:" + db, "--empty-password"},
		{"-A", "-d", "sql:" + db, "-n", "root", "-t", "C,,", "-i", root.files.Cert},
	} {
		if out, err := exec.Command("certutil", args...).CombinedOutput(); err != nil {
			c.Fatalf("certutil %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	return home
}

func chromiumArgs(c *C, extra ...string) []string {
	args := []string{"--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--disable-extensions", "--disable-default-apps",
		"--user-data-dir=" + c.TempDir(), "--host-resolver-rules=MAP localhost 127.0.0.1, MAP wrong.interop.test 127.0.0.1"}
	return append(args, extra...)
}

// Headless Chromium sends a client certificate only where the managed
// policy AutoSelectCertificateForUrls says so, and managed policies live
// in a machine-wide directory: the mTLS cases write a policy file there for
// the duration of the case (and remove it), which needs that directory to
// be writable (root, as in CI and the container).
const chromiumPolicyDir = "/etc/chromium/policies/managed"

func chromiumNoPolicy() string {
	if os.Geteuid() != 0 {
		return "headless Chromium sends a client certificate only by managed policy (AutoSelectCertificateForUrls) in " + chromiumPolicyDir + ", writable by root only"
	}
	return ""
}

func (c *C) chromiumPolicy() {
	c.T.Helper()
	var made []string
	for d := chromiumPolicyDir; d != "/etc"; d = filepath.Dir(d) {
		if _, err := os.Stat(d); err != nil {
			made = append(made, d)
		}
	}
	if err := os.MkdirAll(chromiumPolicyDir, 0o755); err != nil {
		c.Fatal(err)
	}
	path := filepath.Join(chromiumPolicyDir, "p256tls-interop.json")
	policy := `{"AutoSelectCertificateForUrls": ["{\"pattern\":\"https://` + hostName + `\",\"filter\":{}}"]}`
	if err := os.WriteFile(path, []byte(policy), 0o644); err != nil {
		c.Fatal(err)
	}
	c.Cleanup(func() {
		os.Remove(path)
		for _, d := range made { // innermost first
			os.Remove(d)
		}
	})
}

func chromiumClient(c *C, o pc) (string, error) {
	p := c.Env.PKI
	home := c.chromiumHome("root", p.root)
	if o.CA == p.ForeignPEM {
		home = c.chromiumHome("foreign", p.foreignRoot)
	}
	if o.Cert != nil {
		home = c.chromiumHome("client-"+sanitize(o.Cert.name), p.root)
		db := "sql:" + filepath.Join(home, ".pki", "nssdb")
		if out, err := exec.Command("certutil", "-L", "-d", db, "-n", sanitize(o.Cert.name)).CombinedOutput(); err != nil {
			if out, err := exec.Command("pk12util", "-i", c.p12(o.Cert), "-d", db, "-W", p12Password).CombinedOutput(); err != nil {
				c.Fatalf("pk12util: %v\n%s", err, out)
			}
		} else {
			_ = out
		}
		c.chromiumPolicy()
	}
	var extra []string
	switch o.Ver {
	case "1.3":
		extra = append(extra, "--ssl-version-min=tls1.3")
	case "1.2":
		extra = append(extra, "--ssl-version-max=tls1.2")
	}
	if o.Suite != "" {
		var off []string
		for s, code := range chromiumSuites {
			if s != o.Suite {
				off = append(off, code)
			}
		}
		extra = append(extra, "--cipher-suite-blacklist="+strings.Join(off, ","))
	}
	url := "https://" + o.Name + ":" + strconv.Itoa(o.Port) + "/" + o.Tok
	args := append(chromiumArgs(c, extra...), "--dump-dom", url)
	return c.RunEnv([]string{"HOME=" + home}, "", "chromium", args...)
}

func chromiumQUICRun(c *C, port int, tok string, cert *credential, ciphers string) (string, error) {
	if cert != nil {
		c.NA("Chromium sends no client certificate over QUIC")
	}
	home := c.chromiumHome("root", c.Env.PKI.root)
	origin := hostName + ":" + strconv.Itoa(port)
	args := append(chromiumArgs(c, "--enable-quic", "--origin-to-force-quic-on="+origin), "--dump-dom", "https://"+origin+"/"+tok)
	return c.RunEnv([]string{"HOME=" + home}, "", "chromium", args...)
}

// Firefox ESR headless (NSS). Firefox prints nothing about the pages it
// loads, so the page the provider server sends a browser names an image,
// /ack/<tok>: Firefox fetching it shows that it read the response. The
// profile is fresh for every run: an NSS database trusting the root (and
// holding the client certificate when the case presents one) and prefs that
// keep Firefox off the network and force the case's version and suite.

var firefox = &peer{Name: "Firefox ESR headless", Stack: "NSS", Package: "firefox-esr", Progs: []string{"firefox-esr", "certutil", "pk12util", "openssl"},
	Version: versionMatch(`Firefox (\S+)`, "firefox-esr", "--version")}

var firefoxSuites = map[string]string{
	suiteAES128: "security.ssl3.ecdhe_ecdsa_aes_128_gcm_sha256",
	suiteAES256: "security.ssl3.ecdhe_ecdsa_aes_256_gcm_sha384",
	suiteChaCha: "security.ssl3.ecdhe_ecdsa_chacha20_poly1305_sha256",
}

func init() {
	register(func(e *Env) []Case {
		return clientCases(firefox, firefoxClient, clientCaps{
			Versions:   []string{"1.3", "1.2"},
			NoHash:     "Firefox has no pref for the signature schemes it offers",
			NoEd25519:  "NSS in Firefox does not accept Ed25519 certificates",
			NoForeign:  "Firefox (NSS) sends no certificate whose issuer the server did not name",
			ExtraConns: true,
		})
	})
}

func firefoxClient(c *C, o pc) (string, error) {
	p := c.Env.PKI
	root := p.root
	if o.CA == p.ForeignPEM {
		root = p.foreignRoot
	}
	prefs := map[string]string{}
	switch o.Ver {
	case "1.3":
		prefs["security.tls.version.min"], prefs["security.tls.version.max"] = "4", "4"
	case "1.2":
		prefs["security.tls.version.min"], prefs["security.tls.version.max"] = "3", "3"
	}
	if o.Suite != "" {
		for s, pref := range firefoxSuites {
			prefs[pref] = strconv.FormatBool(s == o.Suite)
		}
	}
	prof := c.firefoxProfile(root, o.Cert, prefs)
	url := "https://" + o.Name + ":" + strconv.Itoa(o.Port) + "/" + o.Tok
	how := firefoxLoad(c, prof, url, o.Tok, o.Failed)
	if how != "" {
		return "Firefox read the page and fetched /ack/" + o.Tok + " over " + how + ": pong " + o.Tok, nil
	}
	return "Firefox did not fetch /ack/" + o.Tok + " (no page read)", fmt.Errorf("no page")
}

// firefoxProfile makes a fresh profile: an NSS database trusting root
// (holding cert when given) and prefs (on top of those that keep Firefox
// off the network).
func (c *C) firefoxProfile(root, cert *credential, extra map[string]string) string {
	prof := c.TempDir()
	run := func(args ...string) {
		if out, err := exec.Command(args[0], args[1:]...).CombinedOutput(); err != nil {
			c.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	run("certutil", "-N", "-d", "sql:"+prof, "--empty-password")
	run("certutil", "-A", "-d", "sql:"+prof, "-n", "root", "-t", "C,,", "-i", root.files.Cert)
	if cert != nil {
		run("pk12util", "-i", c.p12(cert), "-d", "sql:"+prof, "-W", p12Password)
	}
	prefs := map[string]string{
		"network.dns.disableIPv6":                         "true",
		"network.dns.localDomains":                        `"wrong.interop.test"`,
		"browser.shell.checkDefaultBrowser":               "false",
		"browser.startup.homepage_override.mstone":        `"ignore"`,
		"browser.aboutwelcome.enabled":                    "false",
		"datareporting.policy.dataSubmissionEnabled":      "false",
		"toolkit.telemetry.enabled":                       "false",
		"app.update.enabled":                              "false",
		"extensions.update.enabled":                       "false",
		"network.captive-portal-service.enabled":          "false",
		"network.connectivity-service.enabled":            "false",
		"browser.safebrowsing.malware.enabled":            "false",
		"browser.safebrowsing.phishing.enabled":           "false",
		"browser.safebrowsing.downloads.enabled":          "false",
		"network.http.speculative-parallel-limit":         "0",
		"security.OCSP.enabled":                           "0",
		"security.remote_settings.crlite_filters.enabled": "false",
		"security.enterprise_roots.enabled":               "false",
		"security.default_personal_cert":                  `"Select Automatically"`,
		"network.http.http3.enable":                       "false",
		"services.settings.server":                        `"http://127.0.0.1:9/"`,
		"network.proxy.type":                              "0",
	}
	for k, v := range extra {
		prefs[k] = v
	}
	var js strings.Builder
	for k, v := range prefs {
		fmt.Fprintf(&js, "user_pref(%q, %s);\n", k, v)
	}
	if err := os.WriteFile(filepath.Join(prof, "user.js"), []byte(js.String()), 0o644); err != nil {
		c.Fatal(err)
	}
	return prof
}

// firefoxLoad opens url in Firefox with the profile and waits until it has
// read the page (fetched /ack/tok: returns the transport, "tcp" or
// "quic"), or a handshake failed (failed() grew) and 2 s passed, or 40 s
// passed; then kills it.
func firefoxLoad(c *C, prof, url, tok string, failed func() int64) string {
	cmd, out := c.command("", "firefox-esr", "--headless", "--no-remote", "--profile", prof, url)
	cmd.Env = append(os.Environ(), "HOME="+prof, "MOZ_CRASHREPORTER_DISABLE=1")
	pr := c.Start(cmd, out)
	failedBefore := failed()
	var failedAt time.Time
	deadline := time.Now().Add(40 * time.Second)
	for time.Now().Before(deadline) {
		if _, ok := acks.Load(tok); ok {
			break
		}
		if failedAt.IsZero() && failed() > failedBefore {
			failedAt = time.Now()
		}
		if !failedAt.IsZero() && time.Since(failedAt) > 2*time.Second {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	syscall.Kill(-pr.cmd.Process.Pid, syscall.SIGKILL)
	<-pr.done
	if how, ok := acks.Load(tok); ok {
		return how.(string)
	}
	return ""
}

// Firefox's HTTP/3 (neqo): the page is served over TCP by a provider
// server and, by an alt-svc mapping pref, over QUIC by the case's
// provider QUIC server; Firefox races the two, so the load is retried
// (fresh profile) until the QUIC server served it.

var firefoxH3 = &peer{Name: "Firefox ESR headless (HTTP/3)", Stack: "neqo (Firefox)", Package: "firefox-esr", Progs: []string{"firefox-esr", "certutil", "pk12util", "openssl"},
	Version: versionMatch(`Firefox (\S+)`, "firefox-esr", "--version")}

func init() {
	register(func(e *Env) []Case {
		return quicClientCases(firefoxH3, firefoxH3Run, quicClientCaps{
			NoEd25519:  "NSS in Firefox does not accept Ed25519 certificates",
			NoNegative: "Firefox falls back to TCP when QUIC fails: a refused QUIC handshake does not show as a failed load",
			NoMTLS:     "not diagnosed: presenting a client certificate, Firefox loaded over TCP, then not at all (no HTTP/3 load in 2 tries)",
			ExtraConns: true,
		})
	})
}

func firefoxH3Run(c *C, port int, tok string, cert *credential, ciphers string) (string, error) {
	// The TCP side: a provider server with the same chain (its own
	// counters; the case checks the QUIC server's).
	tcp := c.startServer(serverOpts{cred: c.Env.PKI.serverP256, clientAuth: cert != nil, extraConns: true})
	prefs := map[string]string{
		"network.http.http3.enable":                               "true",
		"network.http.http3.disable_when_third_party_roots_found": "false",
		"network.http.http3.alt-svc-mapping-for-testing":          fmt.Sprintf(`"%s;h3=:%d"`, hostName, port),
	}
	url := "https://" + hostName + ":" + strconv.Itoa(tcp.Port) + "/" + tok
	var tried []string
	for attempt := 0; attempt < 4; attempt++ {
		prof := c.firefoxProfile(c.Env.PKI.root, cert, prefs)
		how := firefoxLoad(c, prof, url, tok, func() int64 { return 0 })
		if how == "quic" {
			return "Firefox read the page over HTTP/3 (attempts: " + strings.Join(append(tried, how), ", ") + "): pong " + tok, nil
		}
		if how == "" {
			how = "none"
		}
		tried = append(tried, how)
		acks.Delete(tok)
		if how == "none" {
			break // it failed outright: no point retrying
		}
	}
	return "Firefox did not read the page over HTTP/3 (attempts: " + strings.Join(tried, ", ") + ")", fmt.Errorf("no HTTP/3 load")
}
