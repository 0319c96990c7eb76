// Command gen writes a curve's ECDSA verification chains (chains.go) from
// the template internal/ecdsaverify/chaingen/chains.go.tmpl. Run it through
// go generate in internal/ecdsaverify (P-256) and internal/p384/ecdsaverify
// (P-384). Its output depends only on -curve.
package main

import (
	"flag"
	"log"
	"os"

	"github.com/p256tls/p256tls/internal/ecdsaverify/chaingen"
)

func main() {
	curve := flag.String("curve", "P-256", "curve: P-256 or P-384")
	out := flag.String("out", "chains.go", "output file")
	flag.Parse()
	src, err := chaingen.Source(*curve)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		log.Fatal(err)
	}
}
