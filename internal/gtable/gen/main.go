// Command gen writes a curve's generator split-wNAF runs as Go source,
// computed with math/big: internal/gtable/table.go for P-256 (the default)
// and internal/p384/gtable/table.go for P-384. Run it through go generate
// in those packages. Its output depends only on -curve, -w and -runs.
package main

import (
	"flag"
	"log"
	"os"

	"github.com/p256tls/p256tls/internal/gtable/gentab"
)

func main() {
	curve := flag.String("curve", "P-256", "curve: P-256 or P-384")
	w := flag.Int("w", 8, "wNAF width of the generator's runs")
	runs := flag.Int("runs", 16, "number of runs")
	out := flag.String("out", "table.go", "output file")
	flag.Parse()
	tg, err := gentab.Lookup(*curve)
	if err != nil {
		log.Fatal(err)
	}
	src, err := gentab.Source(tg, *w, *runs)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		log.Fatal(err)
	}
}
