module github.com/p256tls/p256tls/internal/p256/comb/_asm

go 1.26.0

require github.com/mmcloughlin/avo v0.6.0

require (
	golang.org/x/mod v0.31.0 // indirect
	golang.org/x/sync v0.19.0 // indirect
	golang.org/x/tools v0.40.0 // indirect
)

require github.com/p256tls/p256tls/internal/_asmlib v0.0.0

replace github.com/p256tls/p256tls/internal/_asmlib => ../../../_asmlib

require github.com/p256tls/p256tls v0.0.0

replace github.com/p256tls/p256tls => ../../../..
