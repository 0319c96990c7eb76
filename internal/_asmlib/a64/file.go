// Package a64 emits Go assembly for arm64: the role avo plays for the
// amd64 generators, which avo cannot play here (it is amd64-only). A
// generator builds a File of Funcs, each from a Go signature, writes
// instructions as Go calls on named registers (reg.go, insn.go), and
// Write produces the Plan 9 assembly and the Go declarations of the
// functions, both with the "Code generated" header and the build
// constraint, in the form `go vet` (asmdecl) checks.
//
// Instruction helpers take the destination first (d = a op b), the
// reverse of the assembler's operand order, which they print; each
// documents its effect on the flags. An instruction Go's assembler lacks
// is emitted as a WORD of its encoding with a comment naming it
// (encode.go).
//
// Like asmlib (the amd64 helpers), a64 is part of the generators' module,
// not of the library.
package a64

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"strings"
)

// File is one assembly file and the Go declarations of its functions.
type File struct {
	pkg        string
	constraint string
	funcs      []*Func
	data       []string
}

// NewFile starts a file for package pkg. Its build constraint is
// "arm64 && !purego": the kernels' Go twins serve every other build.
func NewFile(pkg string) *File {
	return &File{pkg: pkg, constraint: "arm64 && !purego"}
}

// Const64 adds a read-only table of 64-bit words as the file-local symbol
// name<>(SB), and returns its name for Addr.
func (f *File) Const64(name string, words ...uint64) string {
	for i, w := range words {
		f.data = append(f.data, fmt.Sprintf("DATA %s<>+0x%02x(SB)/8, $0x%016x", name, 8*i, w))
	}
	f.data = append(f.data, fmt.Sprintf("GLOBL %s<>(SB), RODATA|NOPTR, $%d", name, 8*len(words)))
	return name + "<>(SB)"
}

// param is one argument or result of a function: its name, Go type, and
// byte offset and size in the argument frame.
type param struct {
	name, typ string
	off, size int
}

// Func is one function being emitted.
type Func struct {
	name, sig, doc string
	args, results  []param
	argSize        int
	locals         int
	noSplit        bool
	lines          []string
}

// Func starts a function. sig is its Go signature ("func(z, x, y
// *[4]uint64)", results allowed); arguments may be pointers, uint64, int,
// int64 or uintptr (8 bytes each). doc is its doc comment, without the
// comment markers; it should state the contract. The function is NOSPLIT
// (kernels call nothing) and has no locals until Locals says so.
func (f *File) Func(name, sig, doc string) *Func {
	fn := &Func{name: name, sig: sig, doc: doc, noSplit: true}
	expr, err := parser.ParseExpr(sig)
	if err != nil {
		panic(fmt.Sprintf("a64: %s: signature %q: %v", name, sig, err))
	}
	ft, ok := expr.(*ast.FuncType)
	if !ok {
		panic(fmt.Sprintf("a64: %s: %q is not a func type", name, sig))
	}
	off := 0
	add := func(list *ast.FieldList, into *[]param) {
		if list == nil {
			return
		}
		for _, fld := range list.List {
			typ := exprString(fld.Type)
			size := sizeOf(typ)
			if len(fld.Names) == 0 {
				panic(fmt.Sprintf("a64: %s: unnamed parameter of type %s", name, typ))
			}
			for _, n := range fld.Names {
				*into = append(*into, param{n.Name, typ, off, size})
				off += size
			}
		}
	}
	add(ft.Params, &fn.args)
	add(ft.Results, &fn.results)
	fn.argSize = off
	f.funcs = append(f.funcs, fn)
	return fn
}

func exprString(e ast.Expr) string {
	var b bytes.Buffer
	if err := format.Node(&b, token.NewFileSet(), e); err != nil {
		panic(err)
	}
	return b.String()
}

func sizeOf(typ string) int {
	switch {
	case strings.HasPrefix(typ, "*"), typ == "uint64", typ == "int", typ == "int64", typ == "uintptr":
		return 8
	}
	panic(fmt.Sprintf("a64: unsupported parameter type %s", typ))
}

// Arg returns the frame operand of the argument or result name
// ("x+8(FP)").
func (fn *Func) Arg(name string) Operand {
	for _, p := range append(fn.args, fn.results...) {
		if p.name == name {
			return Operand(fmt.Sprintf("%s+%d(FP)", p.name, p.off))
		}
	}
	panic(fmt.Sprintf("a64: %s has no parameter %q", fn.name, name))
}

// Load loads the argument name into r.
func (fn *Func) Load(name string, r GP) { fn.I("MOVD", fn.Arg(name), r) }

// Store stores r into the result name.
func (fn *Func) Store(r GP, name string) { fn.I("MOVD", r, fn.Arg(name)) }

// Locals gives the function n bytes of stack for its own use (n a
// multiple of 8), addressed by Local. A function with locals saves the
// link register in its frame; it still calls nothing.
func (fn *Func) Locals(n int) {
	if n%8 != 0 || n < 0 {
		panic(fmt.Sprintf("a64: %s: locals %d not a multiple of 8", fn.name, n))
	}
	fn.locals = n
}

// Local returns the memory operand of local byte off: locals start at
// 8(RSP), above the saved link register.
func (fn *Func) Local(off int) Operand {
	if off < 0 || off >= fn.locals {
		panic(fmt.Sprintf("a64: %s: local offset %d outside %d bytes", fn.name, off, fn.locals))
	}
	return Operand(fmt.Sprintf("%d(RSP)", 8+off))
}

// LocalElem returns the element of a formula at local byte off.
func (fn *Func) LocalElem(off int) Elem {
	fn.Local(off) // bounds
	return Elem{Base: RSP, Off: 8 + off}
}

// Comment emits a comment line.
func (fn *Func) Comment(format string, args ...any) {
	fn.lines = append(fn.lines, "\t// "+fmt.Sprintf(format, args...))
}

// Blank emits an empty line, to separate steps.
func (fn *Func) Blank() { fn.lines = append(fn.lines, "") }

// Label emits a label; branch helpers name it.
func (fn *Func) Label(name string) { fn.lines = append(fn.lines, name+":") }

// I emits the instruction op with its operands in the assembler's order
// (sources first, destination last). The helpers of insn.go are written
// on it; use it directly only for what they do not cover.
func (fn *Func) I(op string, ops ...any) {
	s := make([]string, len(ops))
	for i, o := range ops {
		s[i] = operand(o).String()
	}
	line := "\t" + op
	if len(s) > 0 {
		line += "\t" + strings.Join(s, ", ")
	}
	fn.lines = append(fn.lines, line)
}

// Word emits a 32-bit instruction encoding, with a comment saying what
// instruction it is.
func (fn *Func) Word(enc uint32, what string) {
	fn.lines = append(fn.lines, fmt.Sprintf("\tWORD\t$0x%08x // %s", enc, what))
}

// RET returns.
func (fn *Func) RET() { fn.I("RET") }

// Write writes the assembly to asmPath and the declarations to stubsPath.
// cmd is the command line that generated them, for the header.
func (f *File) Write(asmPath, stubsPath, cmd string) error {
	if err := os.WriteFile(asmPath, f.asm(cmd), 0o644); err != nil {
		return err
	}
	stubs, err := f.stubs(cmd)
	if err != nil {
		return err
	}
	return os.WriteFile(stubsPath, stubs, 0o644)
}

func (f *File) header(b *bytes.Buffer, cmd string) {
	fmt.Fprintf(b, "// Code generated by command: %s. DO NOT EDIT.\n\n", cmd)
	fmt.Fprintf(b, "//go:build %s\n\n", f.constraint)
}

func (f *File) asm(cmd string) []byte {
	var b bytes.Buffer
	f.header(&b, cmd)
	b.WriteString("#include \"textflag.h\"\n")
	if len(f.data) > 0 {
		b.WriteString("\n")
		for _, d := range f.data {
			b.WriteString(d + "\n")
		}
	}
	for _, fn := range f.funcs {
		b.WriteString("\n")
		fmt.Fprintf(&b, "// func %s%s\n", fn.name, strings.TrimPrefix(fn.sig, "func"))
		flags := "NOSPLIT"
		frame := 0
		if fn.locals == 0 {
			flags += "|NOFRAME"
		} else {
			// The frame holds the saved link register below the locals,
			// and the assembler keeps RSP 16-byte aligned when the frame
			// size is 8 mod 16.
			frame = 8 + fn.locals
			if frame%16 == 0 {
				frame += 8
			}
		}
		fmt.Fprintf(&b, "TEXT ·%s(SB), %s, $%d-%d\n", fn.name, flags, frame, fn.argSize)
		for _, l := range fn.lines {
			b.WriteString(l + "\n")
		}
	}
	return b.Bytes()
}

func (f *File) stubs(cmd string) ([]byte, error) {
	var b bytes.Buffer
	f.header(&b, cmd)
	fmt.Fprintf(&b, "package %s\n", f.pkg)
	for _, fn := range f.funcs {
		b.WriteString("\n")
		for _, l := range strings.Split(strings.TrimSpace(fn.doc), "\n") {
			if l == "" {
				b.WriteString("//\n")
			} else {
				b.WriteString("// " + l + "\n")
			}
		}
		b.WriteString("//\n//go:noescape\n")
		fmt.Fprintf(&b, "func %s%s\n", fn.name, strings.TrimPrefix(fn.sig, "func"))
	}
	return format.Source(b.Bytes())
}
