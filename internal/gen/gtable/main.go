// Command gtable writes a curve's generator tables as Go source, computed with
// math/big: the split-wNAF runs (-w, -runs; table.go) or, with -odd W, the
// odd multiples of G at width W (odd.go), for internal/p256/gtable (P-256, the
// default) and internal/p384/gtable (P-384). Run it through go generate in
// those packages. Its output depends only on its flags.
package main

import (
	"flag"
	"log"
	"os"

	"github.com/p256tls/p256tls/internal/gen/gtable/gentab"
)

func main() {
	curve := flag.String("curve", "P-256", "curve: P-256 or P-384")
	w := flag.Int("w", 8, "wNAF width of the generator's runs")
	runs := flag.Int("runs", 16, "number of runs")
	odd := flag.Int("odd", 0, "write the odd multiples of G at this wNAF width instead of the runs")
	out := flag.String("out", "table.go", "output file")
	flag.Parse()
	tg, err := gentab.Lookup(*curve)
	if err != nil {
		log.Fatal(err)
	}
	var src []byte
	if *odd != 0 {
		src, err = gentab.OddSource(tg, *odd)
	} else {
		src, err = gentab.Source(tg, *w, *runs)
	}
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		log.Fatal(err)
	}
}
