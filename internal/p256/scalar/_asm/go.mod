module github.com/p256tls/p256tls/internal/p256/scalar/_asm

go 1.26.0

require github.com/p256tls/p256tls/internal/_asmlib v0.0.0

replace github.com/p256tls/p256tls/internal/_asmlib => ../../../_asmlib

require github.com/p256tls/p256tls v0.0.0

replace github.com/p256tls/p256tls => ../../../..
