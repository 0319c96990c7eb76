//go:build interop

package interop

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
)

// rustls 0.20: a small client/echo server of our own
// (testdata/rustls), built offline by Debian's /usr/bin/cargo against
// Debian's packaged crates (librust-rustls-dev, librust-rustls-pemfile-dev)
// through a source replacement pointing at /usr/share/cargo/registry. The
// sources are copied into the build directory, so no Cargo.lock lands in
// the tree (and a rustup cargo's lock file never meets Debian's cargo).

var (
	rustlsVersion = debVersion("librust-rustls-dev")
	rustlsProgs   = []string{"/usr/bin/cargo", "/usr/bin/rustc", "/usr/share/cargo/registry/rustls-0.20.8/Cargo.toml"}
	rustlsClient  = &peer{Name: "rustls client (ours)", Stack: "rustls", Package: "librust-rustls-dev,librust-rustls-pemfile-dev,cargo", Progs: rustlsProgs, Version: rustlsVersion}
	rustlsServer  = &peer{Name: "rustls server (ours)", Stack: "rustls", Package: "librust-rustls-dev,librust-rustls-pemfile-dev,cargo", Progs: rustlsProgs, Version: rustlsVersion}
)

func init() {
	register(func(e *Env) []Case {
		cs := clientCases(rustlsClient, rustlsClientRun, clientCaps{
			Versions:  []string{"1.3", "1.2"}, // rustls has no TLS 1.0/1.1
			NoHash:    "rustls offers a fixed list of signature schemes (no setting)",
			UnknownCA: `UnknownIssuer`,
			WrongHost: `CertNotValidForName`,
			Rejected:  `error: `,
		})
		cs = append(cs, serverCases(rustlsServer, rustlsServerRun, serverCaps{
			Versions: []string{"1.3", "1.2"},
			Ready:    "READY",
			Rejected: "certificate required|bad certificate|handshake failure|connection reset|EOF",
		})...)
		return cs
	})
}

func init() {
	registerHelper("rustls", func(out string) (string, error) {
		src := filepath.Join(out, "src-copy")
		os.RemoveAll(src)
		if b, err := exec.Command("cp", "-r", "testdata/rustls", src).CombinedOutput(); err != nil {
			return "", &buildError{"cp", err, b}
		}
		home := filepath.Join(out, "cargo-home")
		os.MkdirAll(home, 0o755)
		conf := "[source.crates-io]\nreplace-with = \"debian\"\n[source.debian]\ndirectory = \"/usr/share/cargo/registry\"\n[net]\noffline = true\n"
		if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(conf), 0o644); err != nil {
			return "", err
		}
		cmd := exec.Command("/usr/bin/cargo", "build", "--release", "--offline", "--quiet", "--target-dir", filepath.Join(out, "target"))
		cmd.Dir = src
		// Debian's rustc too: a rustup toolchain earlier on PATH would
		// otherwise build with crates Debian did not test it against.
		cmd.Env = append(os.Environ(), "CARGO_HOME="+home, "RUSTC=/usr/bin/rustc")
		if b, err := cmd.CombinedOutput(); err != nil {
			return "", &buildError{"cargo", err, b}
		}
		return filepath.Join(out, "target", "release", "rustls-peer"), nil
	}, rustlsClient, rustlsServer)
}

func rustlsClientRun(c *C, o pc) (string, error) {
	bin := c.BuildHelper("rustls")
	chain, key := certArgs(o)
	return c.Run("", bin, "client", strconv.Itoa(o.Port), o.Name, o.CA, o.Ver, o.Suite, chain, key, o.Line)
}

func rustlsServerRun(c *C, o ps) *proc {
	bin := c.BuildHelper("rustls")
	req := "-"
	if o.RequireClient {
		req = "require"
	}
	cmd, out := c.command("", bin, "server", strconv.Itoa(o.Port), "-", o.ClientCA, o.Ver, "-", o.Cred.files.Chain, o.Cred.files.Key, req)
	return c.Start(cmd, out)
}
