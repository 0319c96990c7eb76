//go:build !amd64 || purego

package lanes

// Available reports whether Sum can run here: never, without the amd64
// kernel (the callers' scalar chains are the portable way).
var Available = false

// chain8 is never called: Sum checks Available first.
func chain8(c *Chain, out *[outWords]uint64) {}
