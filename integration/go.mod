module github.com/p256tls/p256tls/integration

go 1.26.0

replace github.com/p256tls/p256tls => ../

require (
	github.com/p256tls/p256tls v0.0.0-00010101000000-000000000000
	github.com/spiffe/go-spiffe/v2 v2.9.0
)

require (
	github.com/cloudflare/circl v1.6.5 // indirect
	golang.org/x/crypto v0.59.0 // indirect
	golang.org/x/sys v0.50.0 // indirect
)
