// Command chains writes a curve's ECDSA verification chains (chains.go) and
// their shared tests (chains_test.go) from the templates in
// internal/gen/chains/chaingen/templates into -dir. Run it through go
// generate in internal/p256/ecdsaverify (P-256) and internal/p384/ecdsaverify
// (P-384), both as
//
//	go run ../../gen/chains -curve P-256 -dir .
//
// Its output depends only on -curve.
package main

import (
	"flag"
	"log"

	"github.com/p256tls/p256tls/internal/gen/chains/chaingen"
	"github.com/p256tls/p256tls/internal/gensrc"
)

func main() {
	curve := flag.String("curve", "P-256", "curve: P-256 or P-384")
	dir := flag.String("dir", ".", "output directory")
	flag.Parse()
	files, err := chaingen.Files(*curve)
	if err != nil {
		log.Fatal(err)
	}
	if err := gensrc.Write(*dir, files); err != nil {
		log.Fatal(err)
	}
}
