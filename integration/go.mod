module github.com/p256tls/p256tls/integration

go 1.26.0

replace github.com/p256tls/p256tls => ../

require (
	github.com/caddyserver/certmagic v0.25.6
	github.com/letsencrypt/pebble/v2 v2.10.3
	github.com/p256tls/p256tls v0.0.0-00010101000000-000000000000
	github.com/spiffe/go-spiffe/v2 v2.9.0
	golang.org/x/crypto v0.59.0
)

require (
	github.com/caddyserver/zerossl v0.1.6 // indirect
	github.com/cloudflare/circl v1.6.5 // indirect
	github.com/go-jose/go-jose/v4 v4.1.8 // indirect
	github.com/klauspost/cpuid/v2 v2.4.0 // indirect
	github.com/letsencrypt/challtestsrv v1.4.2 // indirect
	github.com/libdns/libdns v1.1.1 // indirect
	github.com/mholt/acmez/v3 v3.1.7 // indirect
	github.com/miekg/dns v1.1.73 // indirect
	github.com/zeebo/blake3 v0.2.4 // indirect
	go.uber.org/multierr v1.11.0 // indirect
	go.uber.org/zap v1.28.0 // indirect
	go.uber.org/zap/exp v0.3.0 // indirect
	golang.org/x/net v0.62.0 // indirect
	golang.org/x/sys v0.50.0 // indirect
	golang.org/x/text v0.44.0 // indirect
)
