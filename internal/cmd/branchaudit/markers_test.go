package main

import (
	"go/parser"
	"go/token"
	"os"
	"strings"
	"testing"

	"github.com/p256tls/p256tls/internal/testsupport/selfexec"
)

const sample = `package p

// plain does something.
//
//p256tls:secret
func plain() {}

//p256tls:secret
func (s *T) Ptr() {}

// Val has a value receiver.
//
//p256tls:secret
func (s T) Val() {}

// unmarked is not audited.
func unmarked() {}

//p256tls:secret
func kernel(x *[4]uint64)

//p256tls:secret-asm mulADX squareADX
`

func parseSample(t *testing.T, src string) ([]secretFunc, error) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "sample.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	return markersInFile(fset, f, "example.com/p", "/src/sample.go")
}

func TestMarkersInFile(t *testing.T) {
	fs, err := parseSample(t, sample)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{
		"example.com/p.plain":          false,
		"example.com/p.(*T).Ptr":       false,
		"example.com/p.T.Val":          false,
		"example.com/p.kernel":         true,
		"example.com/p.mulADX.abi0":    true,
		"example.com/p.squareADX.abi0": true,
	}
	if len(fs) != len(want) {
		t.Errorf("found %d marked functions, want %d: %+v", len(fs), len(want), fs)
	}
	for _, f := range fs {
		asm, ok := want[f.Symbol]
		if !ok {
			t.Errorf("unexpected marked function %s", f.Symbol)
			continue
		}
		if f.Asm != asm {
			t.Errorf("%s: Asm = %v, want %v", f.Symbol, f.Asm, asm)
		}
		if f.Symbol == "example.com/p.plain" && (f.Start != 6 || f.End != 6 || f.File != "/src/sample.go") {
			t.Errorf("plain: at %s:%d-%d, want /src/sample.go:6-6", f.File, f.Start, f.End)
		}
	}
}

// TestStrayMarker: a marker that marks nothing (not in a doc comment, or
// misspelt with trailing text) is an error, not silently ignored.
func TestStrayMarker(t *testing.T) {
	for _, src := range []string{
		"package p\n\nfunc f() {\n\t//p256tls:secret\n}\n",
		"package p\n\n//p256tls:secret\n\nfunc f() {}\n",
		"package p\n\n//p256tls:secretx\nfunc f() {}\n",
	} {
		if _, err := parseSample(t, src); err == nil || !strings.Contains(err.Error(), "not the marker line") {
			t.Errorf("source %q: err = %v, want a stray-marker error", src, err)
		}
	}
}

func TestMissing(t *testing.T) {
	fs := []secretFunc{
		{Symbol: "m.inBinary", File: "/a.go", Start: 1, End: 3},
		{Symbol: "m.inlined", File: "/a.go", Start: 10, End: 12},
		{Symbol: "m.gone", File: "/a.go", Start: 20, End: 22},
		{Symbol: "m.kernel.abi0", Asm: true},
		{Symbol: "m.lostKernel.abi0", Asm: true},
	}
	symbols := map[string]bool{"m.inBinary": true, "m.kernel.abi0": true, "m.other": true}
	seen := map[position]bool{{"/a.go", 11}: true, {"/b.go", 21}: true}
	got := missing(fs, symbols, seen)
	var names []string
	for _, f := range got {
		names = append(names, f.Symbol)
	}
	if strings.Join(names, ",") != "m.gone,m.lostKernel.abi0" {
		t.Errorf("missing = %v, want [m.gone m.lostKernel.abi0]", names)
	}
}

// TestRepositoryMarkers checks that the secret path of the repository is
// marked: the functions every signature runs through must be found.
func TestRepositoryMarkers(t *testing.T) {
	skipEmulated(t)
	for _, b := range allBuilds {
		pkgs, err := modulePackages(module+"/sign", module, b)
		if err != nil {
			t.Fatal(err)
		}
		fs, err := findMarkers(pkgs)
		if err != nil {
			t.Fatal(err)
		}
		have := map[string]bool{}
		for _, f := range fs {
			have[f.Symbol] = true
		}
		want := []string{
			module + "/sign.(*state).core",
			module + "/sign.(*Signer).sign",
			module + "/internal/p256/comb.ScalarBaseMult",
			module + "/internal/p256/scalar.(*Scalar).Invert",
			module + "/internal/p256/nonce.(*Generator).Start",
			module + "/internal/safegcd.(*Modulus).Div",
		}
		switch b {
		case build{"amd64", ""}:
			want = append(want, module+"/internal/p256/field.mulADX.abi0", module+"/internal/p256/comb.comb8AVX512.abi0")
		case build{"arm64", ""}:
			want = append(want, module+"/internal/p256/field.mulAsm.abi0", module+"/internal/p256/field.squareAsm.abi0")
		}
		for _, w := range want {
			if !have[w] {
				t.Errorf("%s: %s is not marked %s", b, w, Marker)
			}
		}
	}
}

// TestMarkedOutside: markers in packages the audited binary does not hold
// are found (auditing internal/p256/field alone leaves sign's functions out),
// and the repository has none outside ./sign's dependencies.
func TestMarkedOutside(t *testing.T) {
	skipEmulated(t)
	fs, err := markedOutside(module+"/internal/p256/field", module)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, f := range fs {
		if strings.HasPrefix(f.Symbol, module+"/internal/p256/field.") {
			t.Errorf("%s is in the audited package but reported outside it", f.Symbol)
		}
		found = found || f.Symbol == module+"/sign.(*state).core"
	}
	if !found {
		t.Errorf("sign.(*state).core not reported as marked outside internal/p256/field's dependencies")
	}
	if fs, err := markedOutside(auditedPackage, module); err != nil || len(fs) != 0 {
		t.Errorf("markers outside %s: %v (err %v)", auditedPackage, fs, err)
	}
}

// skipEmulated skips, when the test binary runs under an emulator (the
// arm64 run under QEMU: scripts/qemu-exec names it in
// selfexec.EnvWrapper), the tests that list the module's packages for
// every build with the go command: they read the source, not the machine
// code, so the native run covers them, and under QEMU they are slow. They
// run with -short, so that scripts/mutants (which runs -short) sees them.
func skipEmulated(t *testing.T) {
	if os.Getenv(selfexec.EnvWrapper) != "" {
		t.Skip("reads the source for every build; the native run covers it")
	}
}
