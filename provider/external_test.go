package provider

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// httpsServer serves "hello from p256tls\n" over HTTPS on loopback with
// one identity per algorithm, named after it: p-256.test, p-384.test,
// rsa-2048.test, ed25519.test.
type httpsServer struct {
	port string
	ids  map[string]*Identity // by server name
}

func startHTTPS(t *testing.T) *httpsServer {
	t.Helper()
	s := &httpsServer{ids: make(map[string]*Identity)}
	var list []*Identity
	for _, alg := range testAlgorithms {
		name := strings.ToLower(alg) + ".test"
		id := newIdentity(t, alg, name)
		s.ids[name] = id
		list = append(list, id)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	_, s.port, _ = net.SplitHostPort(ln.Addr().String())
	srv := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, "hello from p256tls\n")
		}),
		TLSConfig:         ServerConfig(NewIdentities(list...)),
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          log.New(io.Discard, "", 0),
	}
	done := make(chan error, 1)
	go func() { done <- srv.ServeTLS(ln, "", "") }()
	t.Cleanup(func() {
		srv.Close()
		if err := <-done; !errors.Is(err, http.ErrServerClosed) {
			t.Errorf("server: %v", err)
		}
	})
	return s
}

func lookPath(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s is not installed (apt-get install %s); .ci/run installs it", name, name)
	}
	return p
}

func run(t *testing.T, stdin string, name string, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Stdin = strings.NewReader(stdin)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// TestOpenSSL connects openssl s_client to the server, TLS 1.3 for each
// algorithm and TLS 1.2 with each ECDSA digest the P-256 key may be asked
// to sign (SHA-256, SHA-384, SHA-512).
func TestOpenSSL(t *testing.T) {
	openssl := lookPath(t, "openssl")
	srv := startHTTPS(t)
	caFile := writeFile(t, t.TempDir(), "ca.pem", ca(t).pem)

	type tc struct {
		name, server string
		args         []string
		want         []string
	}
	var cases []tc
	for _, alg := range testAlgorithms {
		name := strings.ToLower(alg) + ".test"
		cases = append(cases, tc{"TLS1.3/" + alg, name, []string{"-tls1_3"}, []string{"TLSv1.3"}})
	}
	for _, h := range []string{"SHA256", "SHA384", "SHA512"} {
		cases = append(cases, tc{"TLS1.2/P-256/" + h, "p-256.test",
			[]string{"-tls1_2", "-cipher", "ECDHE-ECDSA-AES128-GCM-SHA256", "-sigalgs", "ECDSA+" + h},
			[]string{"TLSv1.2", "ECDHE-ECDSA-AES128-GCM-SHA256", "Peer signing digest: " + h}})
	}
	cases = append(cases,
		tc{"TLS1.2/P-384", "p-384.test", []string{"-tls1_2", "-cipher", "ECDHE-ECDSA-AES256-GCM-SHA384"}, []string{"TLSv1.2"}},
		tc{"TLS1.2/RSA-2048", "rsa-2048.test", []string{"-tls1_2", "-cipher", "ECDHE-RSA-AES128-GCM-SHA256"}, []string{"TLSv1.2"}},
		tc{"TLS1.2/Ed25519", "ed25519.test", []string{"-tls1_2", "-cipher", "ECDHE-ECDSA-AES128-GCM-SHA256"}, []string{"TLSv1.2"}},
	)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			id := srv.ids[c.server]
			before := id.Stats()
			args := append([]string{"s_client", "-connect", "127.0.0.1:" + srv.port, "-servername", c.server,
				"-CAfile", caFile, "-verify_return_error", "-verify_hostname", c.server, "-ign_eof"}, c.args...)
			out, err := run(t, "GET / HTTP/1.0\r\nHost: "+c.server+"\r\n\r\n", openssl, args...)
			if err != nil {
				t.Fatalf("openssl %s: %v\n%s", strings.Join(args, " "), err, out)
			}
			for _, w := range append(c.want, "Verify return code: 0 (ok)", "hello from p256tls") {
				if !strings.Contains(out, w) {
					t.Fatalf("openssl output lacks %q:\n%s", w, out)
				}
			}
			wantSigned(t, id, statsDelta(id.Stats(), before), 1)
		})
	}
}

func TestCurl(t *testing.T) {
	curl := lookPath(t, "curl")
	srv := startHTTPS(t)
	caFile := writeFile(t, t.TempDir(), "ca.pem", ca(t).pem)
	for _, alg := range testAlgorithms {
		name := strings.ToLower(alg) + ".test"
		for _, v := range [][]string{{"--tlsv1.3"}, {"--tlsv1.2", "--tls-max", "1.2"}} {
			t.Run(alg+"/"+v[0], func(t *testing.T) {
				id := srv.ids[name]
				before := id.Stats()
				url := fmt.Sprintf("https://%s:%s/", name, srv.port)
				args := append([]string{"-sS", "--max-time", "20", "--cacert", caFile,
					"--resolve", name + ":" + srv.port + ":127.0.0.1", "-w", "\n%{http_code}"}, v...)
				out, err := run(t, "", curl, append(args, url)...)
				if err != nil {
					t.Fatalf("curl %s: %v\n%s", strings.Join(args, " "), err, out)
				}
				if out != "hello from p256tls\n\n200" {
					t.Fatalf("curl printed %q", out)
				}
				wantSigned(t, id, statsDelta(id.Stats(), before), 1)
			})
		}
	}
}
