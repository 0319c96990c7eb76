module github.com/p256tls/p256tls

go 1.26.0

require (
	github.com/cloudflare/circl v1.6.5
	github.com/quic-go/quic-go v0.65.0
	golang.org/x/crypto v0.59.0
	golang.org/x/sys v0.50.0
)

require golang.org/x/net v0.62.0
