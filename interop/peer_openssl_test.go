//go:build interop

package interop

import (
	"os/exec"
	"regexp"
	"strconv"
	"strings"
)

// OpenSSL 3.0 (Debian's libssl3) through five front ends: openssl s_client
// and s_server, curl, Python's ssl module and Node.js's tls module. They
// share one TLS implementation and count as one stack; each exercises a
// different API surface.

func firstLine(name string, args ...string) func() string {
	return func() string {
		out, err := exec.Command(name, args...).CombinedOutput()
		if err != nil {
			return "?"
		}
		return strings.TrimSpace(strings.SplitN(string(out), "\n", 2)[0])
	}
}

func versionMatch(re string, name string, args ...string) func() string {
	return func() string {
		out, _ := exec.Command(name, args...).CombinedOutput()
		if m := regexp.MustCompile(re).FindStringSubmatch(string(out)); m != nil {
			return m[1]
		}
		return "?"
	}
}

var (
	opensslVersion = versionMatch(`OpenSSL (\S+)`, "openssl", "version")
	sClient        = &peer{Name: "openssl s_client", Stack: "OpenSSL", Package: "openssl", Progs: []string{"openssl"}, Version: opensslVersion}
	sServer        = &peer{Name: "openssl s_server", Stack: "OpenSSL", Package: "openssl", Progs: []string{"openssl"}, Version: opensslVersion}
	curlPeer       = &peer{Name: "curl (OpenSSL)", Stack: "OpenSSL", Package: "curl", Progs: []string{"curl"}, Version: versionMatch(`^curl (\S+)`, "curl", "--version")}
	pythonPeer     = &peer{Name: "Python ssl (OpenSSL)", Stack: "OpenSSL", Package: "python3", Progs: []string{"/usr/bin/python3"}, Version: versionMatch(`Python (\S+)`, "/usr/bin/python3", "--version")}
	nodePeer       = &peer{Name: "Node.js tls (OpenSSL)", Stack: "OpenSSL", Package: "nodejs", Progs: []string{"node"}, Version: firstLine("node", "--version")}
)

// OpenSSL's names of the suites.
var opensslSuites = map[string]string{
	suiteAES128: "ECDHE-ECDSA-AES128-GCM-SHA256",
	suiteAES256: "ECDHE-ECDSA-AES256-GCM-SHA384",
	suiteChaCha: "ECDHE-ECDSA-CHACHA20-POLY1305",
}

// opensslCipherArg is the cipher string for a case: TLS 1.0/1.1 need
// security level 0 in OpenSSL 3 (SHA-1 signatures).
func opensslCipherArg(o pc) string {
	if o.Suite != "" {
		return opensslSuites[o.Suite]
	}
	if o.Ver == "1.0" || o.Ver == "1.1" {
		return "DEFAULT:@SECLEVEL=0"
	}
	return ""
}

var opensslRejected = `alert|error|errno`

func init() {
	register(func(e *Env) []Case {
		var cs []Case
		cs = append(cs, clientCases(sClient, opensslClient, clientCaps{
			Versions:  []string{"1.3", "1.2", "1.1", "1.0"},
			UnknownCA: `unable to get local issuer certificate|certificate verify failed`,
			WrongHost: `hostname mismatch`,
			Rejected:  opensslRejected,
		})...)
		cs = append(cs, serverCases(sServer, opensslServer, serverCaps{
			Versions: []string{"1.3", "1.2"},
			Echo:     func(tok string) string { return reverse("ping " + tok) },
			Ready:    "ACCEPT",
			Rejected: "certificate required|handshake failure",
		})...)
		cs = append(cs, clientCases(curlPeer, curlClient, clientCaps{
			Versions:  []string{"1.3", "1.2", "1.1", "1.0"},
			NoHash:    "curl has no option for the signature algorithms it offers",
			UnknownCA: `unable to get local issuer certificate|certificate verify|self-signed`,
			WrongHost: `no alternative certificate subject name matches|does not match target host`,
			Rejected:  `curl: \(\d+\)`,
		})...)
		cs = append(cs, clientCases(pythonPeer, pythonClient, clientCaps{
			Versions:  []string{"1.3", "1.2", "1.1", "1.0"},
			NoHash:    "Python's ssl module has no setting for the signature algorithms",
			UnknownCA: `CERTIFICATE_VERIFY_FAILED.*unable to get local issuer`,
			WrongHost: `CERTIFICATE_VERIFY_FAILED.*Hostname mismatch`,
			Rejected:  `SSLError|SSLZeroReturn|SSLEOFError|ConnectionReset|alert`,
		})...)
		cs = append(cs, clientCases(nodePeer, nodeClient, clientCaps{
			Versions:  []string{"1.3", "1.2", "1.1", "1.0"},
			UnknownCA: `UNABLE_TO_GET_ISSUER_CERT_LOCALLY|unable to get local issuer`,
			WrongHost: `ERR_TLS_CERT_ALTNAME_INVALID`,
			Rejected:  `alert|ECONNRESET|socket hang up|Error`,
		})...)
		return cs
	})
}

func reverse(s string) string {
	b := []byte(s)
	for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
		b[i], b[j] = b[j], b[i]
	}
	return string(b)
}

func opensslClient(c *C, o pc) (string, error) {
	args := []string{"s_client", "-connect", o.Addr, "-servername", o.Name, "-CAfile", o.CA,
		"-verify_return_error", "-verify_hostname", o.Name, "-ign_eof"}
	if o.Ver != "" {
		args = append(args, map[string]string{"1.3": "-tls1_3", "1.2": "-tls1_2", "1.1": "-tls1_1", "1.0": "-tls1"}[o.Ver])
	}
	if ciph := opensslCipherArg(o); ciph != "" {
		args = append(args, "-cipher", ciph)
	}
	if o.Hash != "" {
		args = append(args, "-sigalgs", "ECDSA+"+strings.ToUpper(o.Hash))
	}
	if o.Cert != nil {
		args = append(args, "-cert", o.Cert.files.Cert, "-key", o.Cert.files.Key, "-cert_chain", c.Env.PKI.inter.files.Cert)
	}
	return c.Run(o.Line, "openssl", args...)
}

func opensslServer(c *C, o ps) *proc {
	args := []string{"s_server", "-accept", strconv.Itoa(o.Port), "-cert", o.Cred.files.Cert, "-key", o.Cred.files.Key,
		"-rev"}
	if o.Cred != c.Env.PKI.foreignServer {
		args = append(args, "-cert_chain", c.Env.PKI.inter.files.Cert)
	}
	if o.Ver != "" {
		args = append(args, map[string]string{"1.3": "-tls1_3", "1.2": "-tls1_2"}[o.Ver])
	}
	if o.RequireClient {
		args = append(args, "-Verify", "2", "-CAfile", o.ClientCA, "-verify_return_error")
	}
	cmd, out := c.command("", "openssl", args...)
	return c.Start(cmd, out)
}

func curlClient(c *C, o pc) (string, error) {
	args := []string{"-sS", "--max-time", "20", "--cacert", o.CA,
		"--resolve", o.Name + ":" + strconv.Itoa(o.Port) + ":127.0.0.1"}
	switch o.Ver {
	case "1.3":
		args = append(args, "--tlsv1.3")
	case "1.2", "1.1", "1.0":
		args = append(args, "--tlsv"+o.Ver, "--tls-max", o.Ver)
	}
	if ciph := opensslCipherArg(o); ciph != "" {
		args = append(args, "--ciphers", ciph)
	}
	if o.Cert != nil {
		args = append(args, "--cert", o.Cert.files.Chain, "--key", o.Cert.files.Key)
	}
	args = append(args, "https://"+o.Name+":"+strconv.Itoa(o.Port)+"/"+o.Tok)
	return c.Run("", "curl", args...)
}

const pythonClientSrc = `
import socket, ssl, sys
addr, port, name, ca, ver, ciphers, cert, key, line = sys.argv[1:]
ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
ctx.load_verify_locations(ca)
vers = {"1.3": ssl.TLSVersion.TLSv1_3, "1.2": ssl.TLSVersion.TLSv1_2, "1.1": ssl.TLSVersion.TLSv1_1, "1.0": ssl.TLSVersion.TLSv1}
if ver:
    ctx.minimum_version = ctx.maximum_version = vers[ver]
if ciphers:
    ctx.set_ciphers(ciphers)
if cert:
    ctx.load_cert_chain(cert, key)
try:
    with socket.create_connection((addr, int(port)), timeout=15) as s:
        with ctx.wrap_socket(s, server_hostname=name) as t:
            print("negotiated", t.version(), t.cipher()[0], flush=True)
            t.sendall(line.encode())
            data = b""
            while True:
                b = t.recv(4096)
                if not b:
                    break
                data += b
            print(data.decode(), flush=True)
except Exception as e:
    print("error:", type(e).__name__, e, flush=True)
    sys.exit(1)
`

func pythonClient(c *C, o pc) (string, error) {
	cert, key := "", ""
	if o.Cert != nil {
		cert, key = o.Cert.files.Chain, o.Cert.files.Key
	}
	return c.Run("", "/usr/bin/python3", "-c", pythonClientSrc, "127.0.0.1", strconv.Itoa(o.Port), o.Name, o.CA, o.Ver,
		opensslCipherArg(o), cert, key, o.Line)
}

const nodeClientSrc = `
const tls = require('tls'), fs = require('fs');
const [port, name, ca, ver, ciphers, sigalgs, cert, key, line] = process.argv.slice(1);
const vers = {"1.3": "TLSv1.3", "1.2": "TLSv1.2", "1.1": "TLSv1.1", "1.0": "TLSv1"};
const opts = {host: '127.0.0.1', port: +port, servername: name, ca: fs.readFileSync(ca)};
if (ver) { opts.minVersion = opts.maxVersion = vers[ver]; }
if (ciphers) { opts.ciphers = ciphers; }
if (sigalgs) { opts.sigalgs = sigalgs; }
if (cert) { opts.cert = fs.readFileSync(cert); opts.key = fs.readFileSync(key); }
const s = tls.connect(opts, () => {
  console.log('negotiated', s.getProtocol(), s.getCipher().standardName);
  s.write(line);
});
let data = '';
s.setEncoding('utf8');
s.on('data', d => { data += d; });
s.on('end', () => { console.log(data); process.exit(0); });
s.on('error', e => { console.log('error:', e.code, e.message); process.exit(1); });
setTimeout(() => { console.log('error: timeout'); process.exit(1); }, 15000);
`

func nodeClient(c *C, o pc) (string, error) {
	cert, key := "", ""
	if o.Cert != nil {
		cert, key = o.Cert.files.Chain, o.Cert.files.Key
	}
	sigalgs := ""
	if o.Hash != "" {
		sigalgs = "ECDSA+" + strings.ToUpper(o.Hash)
	}
	return c.RunEnv(nil, "", "node", "-e", nodeClientSrc, strconv.Itoa(o.Port), o.Name, o.CA, o.Ver,
		opensslCipherArg(o), sigalgs, cert, key, o.Line)
}
