module github.com/p256tls/p256tls

go 1.26.0

require (
	github.com/cloudflare/circl v1.6.5
	github.com/quic-go/quic-go v0.65.0
	golang.org/x/crypto v0.59.0
	golang.org/x/sys v0.50.0
)

require (
	github.com/google/pprof v0.0.0-20261105003125-4bf881d7fb0b
	golang.org/x/net v0.62.0
)
