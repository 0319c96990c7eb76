// Package selfexec runs the running test binary again, as the tests that
// need a child process in another mode (GODEBUG=fips140=on, say) do, also
// when the binary runs under an emulator.
//
// Under QEMU user mode without binfmt_misc (GOARCH=arm64 go test -exec
// qemu-aarch64-static on an amd64 machine, as CI runs it), executing
// os.Args[0] directly fails with "exec format error": the child must go
// through the same emulator. scripts/qemu-exec, the -exec wrapper, names
// it in the environment variable EnvWrapper, and Command puts it in front.
package selfexec

import (
	"os"
	"os/exec"
)

// EnvWrapper is the environment variable naming the program that runs this
// test binary (an emulator such as qemu-aarch64-static), empty or unset
// when it runs natively. The child inherits it.
const EnvWrapper = "P256TLS_EXEC_WRAPPER"

// Command returns a command that runs this test binary (os.Args[0]) with
// args: through the program EnvWrapper names, if any, else directly. Its
// environment is the caller's to set (nil: this process's).
func Command(args ...string) *exec.Cmd {
	if w := os.Getenv(EnvWrapper); w != "" {
		return exec.Command(w, append([]string{os.Args[0]}, args...)...)
	}
	return exec.Command(os.Args[0], args...)
}
