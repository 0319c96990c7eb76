package a64

import (
	"flag"
	"fmt"
	"os"
	"strings"
)

// Main is the main function of a generator in an _asm module's arm64
// directory: it reads the flags -out (the assembly file), -stubs (the Go
// declarations) and -pkg (their package), lets gen fill a File, writes it
// with "go run ./arm64" and the flags as the generating command, and exits
// with status 1 if that fails.
func Main(gen func(f *File)) {
	out := flag.String("out", "", "assembly output file")
	stubs := flag.String("stubs", "", "Go declarations output file")
	pkg := flag.String("pkg", "", "package name")
	flag.Parse()
	f := NewFile(*pkg)
	gen(f)
	cmd := "go run ./arm64 " + strings.Join(os.Args[1:], " ")
	if err := f.Write(*out, *stubs, cmd); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
