//go:build !amd64

package cpufeat

// have returns no extension: they are x86-64's.
func have() Set { return 0 }
