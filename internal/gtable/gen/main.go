// Command gen writes internal/gtable/table.go, the generator's split-wNAF
// runs, computed with math/big. Run it through go generate in
// internal/gtable. Its output depends only on -w and -runs.
package main

import (
	"flag"
	"log"
	"os"

	"github.com/p256tls/p256tls/internal/gtable/internal/gentab"
)

func main() {
	w := flag.Int("w", 8, "wNAF width of the generator's runs")
	runs := flag.Int("runs", 16, "number of runs")
	out := flag.String("out", "table.go", "output file")
	flag.Parse()
	src, err := gentab.Source(*w, *runs)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		log.Fatal(err)
	}
}
