//go:build !amd64 || purego

package field

//p256tls:secret
func mul(z, x, y *Element) { mulGeneric(z, x, y) }

//p256tls:secret
func square(z, x *Element) { squareGeneric(z, x) }
