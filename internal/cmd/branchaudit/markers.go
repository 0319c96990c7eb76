package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// Marker is the directive that puts a function on the secret path. It is a
// line of its own in the function's doc comment, directly above `func`:
//
//	// reduceN returns x mod n ...
//	//
//	//p256tls:secret
//	func reduceN(x *[4]uint64) [4]uint64 {
//
// Assembly functions are declared in generated stub files, which are never
// edited by hand; they are marked by a line in any hand-written file of
// their package that names them:
//
//	//p256tls:secret-asm mulADX squareADX
const (
	Marker    = "//p256tls:secret"
	MarkerAsm = "//p256tls:secret-asm"
)

// secretFunc is one marked function.
type secretFunc struct {
	Symbol string // linker symbol, e.g. github.com/p256tls/p256tls/sign.(*state).core
	File   string // absolute path of its source file ("" for assembly)
	Start  int    // first and last source line of the declaration
	End    int
	Asm    bool
}

// listedPackage is the part of `go list -json` the audit reads.
type listedPackage struct {
	ImportPath string
	Dir        string
	GoFiles    []string
	Module     *struct{ Path string }
}

// build is one configuration the audit compiles: an architecture and
// build tags.
type build struct {
	goarch, tags string
}

func (b build) String() string {
	if b.tags == "" {
		return b.goarch
	}
	return b.goarch + " " + b.tags
}

// allBuilds are the configurations audited by default: the assembly
// kernels of each architecture and the portable twins (purego).
var allBuilds = []build{{"amd64", ""}, {"amd64", "purego"}, {"arm64", ""}, {"arm64", "purego"}}

// modulePackages lists the packages of module mod that the audited package
// depends on (itself included), with the files of the given build.
func modulePackages(pkg, mod string, b build) ([]listedPackage, error) {
	return listPackages(pkg, mod, b, true)
}

// markedOutside returns the marked functions of module mod's packages (the
// files of every build of allBuilds) that pkg does not depend on.
func markedOutside(pkg, mod string) ([]secretFunc, error) {
	var out []secretFunc
	for _, b := range allBuilds {
		deps, err := listPackages(pkg, mod, b, true)
		if err != nil {
			return nil, err
		}
		in := map[string]bool{}
		for _, p := range deps {
			in[p.ImportPath] = true
		}
		all, err := listPackages(mod+"/...", mod, b, false)
		if err != nil {
			return nil, err
		}
		var others []listedPackage
		for _, p := range all {
			if !in[p.ImportPath] {
				others = append(others, p)
			}
		}
		fs, err := findMarkers(others)
		if err != nil {
			return nil, err
		}
		out = append(out, fs...)
	}
	return out, nil
}

func listPackages(pkg, mod string, b build, deps bool) ([]listedPackage, error) {
	args := []string{"list", "-json"}
	if deps {
		args = append(args, "-deps")
	}
	if b.tags != "" {
		args = append(args, "-tags", b.tags)
	}
	args = append(args, pkg)
	cmd := exec.Command("go", args...)
	cmd.Env = append(os.Environ(), "GOARCH="+b.goarch)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("GOARCH=%s go %s: %v\n%s", b.goarch, strings.Join(args, " "), err, stderr.String())
	}
	var pkgs []listedPackage
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p listedPackage
		if err := dec.Decode(&p); err != nil {
			return nil, err
		}
		if p.Module != nil && p.Module.Path == mod {
			pkgs = append(pkgs, p)
		}
	}
	return pkgs, nil
}

// findMarkers returns the functions marked in the given packages' files.
func findMarkers(pkgs []listedPackage) ([]secretFunc, error) {
	var out []secretFunc
	fset := token.NewFileSet()
	for _, p := range pkgs {
		for _, name := range p.GoFiles {
			path := filepath.Join(p.Dir, name)
			f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
			if err != nil {
				return nil, err
			}
			fs, err := markersInFile(fset, f, p.ImportPath, path)
			if err != nil {
				return nil, err
			}
			out = append(out, fs...)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Symbol < out[j].Symbol })
	return out, nil
}

// markersInFile returns the marked functions of one parsed file of the
// package importPath. A marker that is not in a function's doc comment, or
// that carries text after it, is an error: it would mark nothing.
func markersInFile(fset *token.FileSet, f *ast.File, importPath, path string) ([]secretFunc, error) {
	var out []secretFunc
	inDoc := map[*ast.Comment]bool{}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Doc == nil {
			continue
		}
		for _, c := range fd.Doc.List {
			if c.Text != Marker {
				continue
			}
			inDoc[c] = true
			out = append(out, secretFunc{
				Symbol: importPath + "." + funcSymbol(fd),
				File:   path,
				Start:  fset.Position(fd.Pos()).Line,
				End:    fset.Position(fd.End()).Line,
				Asm:    fd.Body == nil,
			})
		}
	}
	for _, cg := range f.Comments {
		for _, c := range cg.List {
			switch {
			case strings.HasPrefix(c.Text, MarkerAsm+" "):
				for _, name := range strings.Fields(strings.TrimPrefix(c.Text, MarkerAsm)) {
					out = append(out, secretFunc{Symbol: importPath + "." + name + ".abi0", Asm: true})
				}
			case strings.HasPrefix(c.Text, Marker) && !inDoc[c]:
				return nil, fmt.Errorf("%s: %q is not the marker line of a function's doc comment",
					fset.Position(c.Pos()), c.Text)
			}
		}
	}
	return out, nil
}

// funcSymbol spells a declaration as the linker names it: F, T.M or (*T).M.
func funcSymbol(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	ptr := false
	if s, ok := t.(*ast.StarExpr); ok {
		ptr, t = true, s.X
	}
	switch g := t.(type) { // a generic receiver: T[...]
	case *ast.IndexExpr:
		t = g.X
	case *ast.IndexListExpr:
		t = g.X
	}
	name := t.(*ast.Ident).Name
	if ptr {
		return "(*" + name + ")." + fd.Name.Name
	}
	return name + "." + fd.Name.Name
}

// symbolRegexp matches exactly the symbols of fs (with or without the
// assembly's .abi0 suffix), for `go tool objdump -s`.
func symbolRegexp(fs []secretFunc) string {
	alts := make([]string, len(fs))
	for i, f := range fs {
		alts[i] = regexp.QuoteMeta(f.Symbol)
	}
	return `^(` + strings.Join(alts, "|") + `)$`
}

// position is the innermost source position of one instruction.
type position struct {
	file string
	line int
}

// missing returns the marked functions whose code the audit did not see: a
// Go function that is neither a symbol of the binary nor inlined into an
// audited one (no audited instruction comes from its lines), or an
// assembly function that is not in the binary. Each of them would drop out
// of the audit silently, so the caller fails on any.
func missing(fs []secretFunc, symbols map[string]bool, seen map[position]bool) []secretFunc {
	var out []secretFunc
	for _, f := range fs {
		if symbols[f.Symbol] {
			continue
		}
		if !f.Asm && inlined(f, seen) {
			continue
		}
		out = append(out, f)
	}
	return out
}

func inlined(f secretFunc, seen map[position]bool) bool {
	for l := f.Start; l <= f.End; l++ {
		if seen[position{f.File, l}] {
			return true
		}
	}
	return false
}
