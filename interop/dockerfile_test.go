package interop

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// No Docker engine runs where the tests run: these checks keep
// Dockerfile.interop consistent with the install script, the CI script and
// go.mod instead.

func readRepoFile(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// installPackages returns the package list of scripts/install-interop-peers.
func installPackages(t *testing.T) map[string]bool {
	t.Helper()
	s := readRepoFile(t, "scripts/install-interop-peers")
	i, j := strings.Index(s, "# PACKAGES-BEGIN\n"), strings.Index(s, "# PACKAGES-END")
	if i < 0 || j < i {
		t.Fatal("scripts/install-interop-peers lacks the PACKAGES-BEGIN/END markers")
	}
	pkgs := map[string]bool{}
	for _, line := range strings.Split(s[i+len("# PACKAGES-BEGIN\n"):j], "\n") {
		if line = strings.TrimSpace(line); line != "" {
			if !regexp.MustCompile(`^[a-z0-9][a-z0-9.+-]+$`).MatchString(line) {
				t.Fatalf("install-interop-peers: %q is not a package name", line)
			}
			pkgs[line] = true
		}
	}
	if !strings.Contains(s, `apt-get install`) || !strings.Contains(s, `"${packages[@]}"`) {
		t.Fatal("install-interop-peers does not apt-get install its package list")
	}
	return pkgs
}

func TestDockerfileMatchesScripts(t *testing.T) {
	df := readRepoFile(t, "Dockerfile.interop")
	gomod := readRepoFile(t, "go.mod")
	ci := readRepoFile(t, "scripts/ci-interop")

	// Debian bookworm with the Go of go.mod.
	m := regexp.MustCompile(`(?m)^go (\d+\.\d+)`).FindStringSubmatch(gomod)
	if m == nil {
		t.Fatal("go.mod has no go line")
	}
	from := regexp.MustCompile(`(?m)^FROM (\S+)`).FindStringSubmatch(df)
	if from == nil || from[1] != "golang:"+m[1]+"-bookworm" {
		t.Fatalf("Dockerfile.interop FROM %v, want golang:%s-bookworm (Debian 12 with go.mod's Go)", from, m[1])
	}
	// The peers come from the install script, before the sources (so the
	// layer is cached), and the default command is the CI script.
	for _, want := range []string{
		"COPY scripts/install-interop-peers scripts/install-interop-peers\n",
		"RUN scripts/install-interop-peers\n",
		"ENV P256TLS_INTEROP_REQUIRE=1\n",
		`CMD ["scripts/ci-interop", "--skip-install"]`,
	} {
		if !strings.Contains(df, want) {
			t.Errorf("Dockerfile.interop lacks %q", want)
		}
	}
	if strings.Index(df, "RUN scripts/install-interop-peers") > strings.Index(df, "COPY . .") {
		t.Error("Dockerfile.interop installs the peers after copying the sources")
	}
	// The CI script installs the same way and runs the matrix with every
	// skip turned into a failure.
	for _, want := range []string{
		"scripts/install-interop-peers\n",
		"--skip-install) install=0",
		"P256TLS_INTEROP_REQUIRE=1 go test -tags interop -count=1",
		" ./interop/ ",
	} {
		if !strings.Contains(ci, want) {
			t.Errorf("scripts/ci-interop lacks %q", want)
		}
	}
	for _, f := range []string{"scripts/ci-interop", "scripts/install-interop-peers"} {
		st, err := os.Stat(filepath.Join("..", f))
		if err != nil || st.Mode()&0o111 == 0 {
			t.Errorf("%s is not executable", f)
		}
	}
}

// TestPeersInstalled checks that every Debian package a peer of the matrix
// names is in the install script.
func TestPeersInstalled(t *testing.T) {
	pkgs := installPackages(t)
	files, err := filepath.Glob("peer_*_test.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no peer files (%v)", err)
	}
	re := regexp.MustCompile(`Package: "([^"]+)"`)
	n := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(data), -1) {
			n++
			if m[1] == "golang" {
				continue // the toolchain itself
			}
			for _, p := range strings.Split(m[1], ",") {
				if !pkgs[strings.TrimSpace(p)] {
					t.Errorf("%s: package %s is not in scripts/install-interop-peers", f, p)
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no Package fields found in the peer files")
	}
}
