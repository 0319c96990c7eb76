package selfexec

import (
	"os"
	"strings"
	"testing"
)

func TestCommand(t *testing.T) {
	t.Setenv(EnvWrapper, "")
	c := Command("-test.run=^X$")
	if c.Args[0] != os.Args[0] || strings.Join(c.Args[1:], " ") != "-test.run=^X$" {
		t.Errorf("native: %q", c.Args)
	}
	t.Setenv(EnvWrapper, "qemu-aarch64-static")
	c = Command("-test.run=^X$", "-test.v")
	if c.Args[0] != "qemu-aarch64-static" || c.Args[1] != os.Args[0] || strings.Join(c.Args[2:], " ") != "-test.run=^X$ -test.v" {
		t.Errorf("wrapped: %q", c.Args)
	}
}

// TestChild runs this binary again through Command (natively, or under the
// emulator the -exec wrapper named) and checks the child ran.
func TestChild(t *testing.T) {
	if os.Getenv("SELFEXEC_CHILD") == "1" {
		return
	}
	c := Command("-test.run=^TestChild$", "-test.v")
	c.Env = append(os.Environ(), "SELFEXEC_CHILD=1")
	out, err := c.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestChild") {
		t.Fatalf("child: %v\n%s", err, out)
	}
}
