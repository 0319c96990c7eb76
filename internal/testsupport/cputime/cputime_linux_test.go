package cputime

import (
	"bufio"
	"os"
	"os/exec"
	"testing"
	"time"
)

func TestParseStat(t *testing.T) {
	// utime = 150 ticks, stime = 50 ticks: 2 s. The command name holds a
	// space and a ')' to show that fields are counted after the last ')'.
	const good = "4242 (we ) ird) S 1 4242 4242 0 -1 4194560 100 0 0 0 150 50 0 0 20 0 1 0 12345 1000 10 18446744073709551615"
	if d, err := parseStat(4242, good); err != nil || d != 2*time.Second {
		t.Errorf("parseStat(good) = %v, %v; want 2s, nil", d, err)
	}
	for _, bad := range []string{
		"",
		"4242 no parenthesis S 1 2 3 4 5 6 7 8 9 10 150 50",
		"4242 (short) S 1 2 3",
		"4242 (nan) S 1 4242 4242 0 -1 4194560 100 0 0 0 x 50 0 0",
		"4242 (neg) S 1 4242 4242 0 -1 4194560 100 0 0 0 -1 50 0 0",
	} {
		if d, err := parseStat(4242, bad); err == nil {
			t.Errorf("parseStat(%q) = %v, nil; want an error", bad, d)
		}
	}
}

// TestOf reads the CPU time of a single-threaded child while it runs and
// checks it against what the kernel reports when it has exited.
func TestOf(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("needs sh")
	}
	cmd := exec.Command(sh, "-c", `i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done; echo spun; read x; exit 0`)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	if line, err := bufio.NewReader(stdout).ReadString('\n'); err != nil || line != "spun\n" {
		t.Fatalf("child said %q, %v", line, err)
	}
	during, err := Of(cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	total := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	if during <= 0 || during > total+20*time.Millisecond {
		t.Errorf("Of(child) = %v while blocked; its total at exit was %v", during, total)
	}
	if total > 50*time.Millisecond && during < total/2 {
		t.Errorf("Of(child) = %v after spinning; its total at exit was %v", during, total)
	}
	if _, err := Of(os.Getpid()); err != nil {
		t.Errorf("Of(self): %v", err)
	}
}
