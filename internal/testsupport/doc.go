// Package testsupport is the home of what this module's tests, benchmarks
// and tools share and would otherwise write once per package. It holds no
// code itself; each job is a small package below it:
//
//   - cputime: the CPU-time clocks (this thread, this process, another
//     process) that benchmarks on a shared machine report beside wall time.
//   - testpki: keys, certificate templates and issuance for test
//     certificate hierarchies.
//   - selfexec: running the test binary again (a child in another
//     mode), also under an emulator (QEMU without binfmt_misc).
//
// None of it is part of the library, and the library never imports it.
package testsupport
