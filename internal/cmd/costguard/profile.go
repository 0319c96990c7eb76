package main

import (
	"debug/elf"
	"fmt"
	"io"
	"sort"
)

// block is one translated block of guest code as the armcount plugin
// reports it: start address, instructions and multiplies in it, how many
// times it ran.
type block struct {
	pc          uint64
	n, m, execs int64
}

// funcCost is one function's share of a benchmark iteration.
type funcCost struct {
	name        string
	insns, muls float64
}

// symbol is one function of the binary's symbol table.
type symbol struct {
	name       string
	start, end uint64
}

// functions returns the function symbols of an ELF binary, by address.
func functions(path string) ([]symbol, error) {
	f, err := elf.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	syms, err := f.Symbols()
	if err != nil {
		return nil, err
	}
	var out []symbol
	for _, s := range syms {
		if elf.ST_TYPE(s.Info) == elf.STT_FUNC && s.Size > 0 {
			out = append(out, symbol{s.Name, s.Value, s.Value + s.Size})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].start < out[j].start })
	return out, nil
}

// lookupSymbol returns the function named name.
func lookupSymbol(syms []symbol, name string) (symbol, bool) {
	for _, s := range syms {
		if s.name == name {
			return s, true
		}
	}
	return symbol{}, false
}

// attribute returns the cost per iteration of each function, from the
// blocks of two runs at n1 and n2 iterations: a block's instructions go to
// the function holding its start address (blocks end at branches, so a
// block does not run past its function), those of addresses no symbol
// holds to "?". Sorted by instructions, most first.
func attribute(syms []symbol, a, b []block, n1, n2 int64) []funcCost {
	type key struct {
		pc   uint64
		n, m int64
	}
	execs := map[key]int64{}
	for _, x := range b {
		execs[key{x.pc, x.n, x.m}] += x.execs
	}
	for _, x := range a {
		execs[key{x.pc, x.n, x.m}] -= x.execs
	}
	byName := map[string]*funcCost{}
	d := float64(n2 - n1)
	for k, e := range execs {
		if e == 0 {
			continue
		}
		name := "?"
		i := sort.Search(len(syms), func(i int) bool { return syms[i].end > k.pc })
		if i < len(syms) && syms[i].start <= k.pc {
			name = syms[i].name
		}
		c := byName[name]
		if c == nil {
			c = &funcCost{name: name}
			byName[name] = c
		}
		c.insns += float64(e*k.n) / d
		c.muls += float64(e*k.m) / d
	}
	out := make([]funcCost, 0, len(byName))
	for _, c := range byName {
		out = append(out, *c)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].insns != out[j].insns {
			return out[i].insns > out[j].insns
		}
		return out[i].name < out[j].name
	})
	return out
}

// printProfile prints the top functions of a profile, with their share of
// the iteration's instructions and multiplies.
func printProfile(w io.Writer, fs []funcCost, top int) {
	var ti, tm float64
	for _, f := range fs {
		ti += f.insns
		tm += f.muls
	}
	fmt.Fprintf(w, "%12s %6s %10s %6s  %s\n", "insns/op", "share", "muls/op", "share", "function")
	for i, f := range fs {
		if i == top {
			var ri, rm float64
			for _, g := range fs[i:] {
				ri += g.insns
				rm += g.muls
			}
			fmt.Fprintf(w, "%12.0f %5.1f%% %10.0f %5.1f%%  (%d more functions)\n", ri, pct(ri, ti), rm, pct(rm, tm), len(fs)-i)
			break
		}
		fmt.Fprintf(w, "%12.0f %5.1f%% %10.0f %5.1f%%  %s\n", f.insns, pct(f.insns, ti), f.muls, pct(f.muls, tm), f.name)
	}
	fmt.Fprintf(w, "%12.0f %6s %10.0f %6s  total\n", ti, "", tm, "")
}

func pct(x, total float64) float64 {
	if total == 0 {
		return 0
	}
	return 100 * x / total
}
