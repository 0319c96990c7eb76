package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// progress shows one status line on stderr while the benchmark runs, only
// when stderr is a terminal; otherwise it says nothing. It is updated
// between runs, never during one.
type progress struct {
	mu    sync.Mutex
	w     io.Writer
	on    bool
	start time.Time
	est   time.Duration
	shown bool
}

func newProgress(w io.Writer, o options, est time.Duration) *progress {
	on := false
	if f, ok := w.(*os.File); ok {
		on = isTerminal(f)
	}
	return &progress{w: w, on: on, start: time.Now(), est: est}
}

func (p *progress) step(label string, round int, variant string) {
	if p == nil || !p.on {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	el := time.Since(p.start)
	pct := min(99, int(100*el/max(p.est, time.Second)))
	r := "warm-up"
	switch {
	case round == profiledRound:
		r = "profiled run"
	case round > 0:
		r = fmt.Sprintf("round %d", round)
	}
	line := fmt.Sprintf("[%2d%% %3.0fs] %s: %s, %s", pct, el.Seconds(), label, r, variant)
	if len(line) > 100 {
		line = line[:97] + "..."
	}
	fmt.Fprintf(p.w, "\r\033[K%s", line)
	p.shown = true
}

func (p *progress) finish() {
	if p == nil || !p.on {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		fmt.Fprint(p.w, "\r\033[K")
		p.shown = false
	}
}
