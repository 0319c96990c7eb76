package nonce

import (
	"encoding"
	"hash"
)

// engine computes HMAC (RFC 2104) with a single SHA-2 hash object and no
// allocation. crypto/hmac cannot be re-keyed, and the DRBG changes K at every
// update, so the engine does the ipad/opad handling itself: setKey absorbs
// the two padded key blocks once and saves the resulting hash states in
// marshaled form; every HMAC under that key then restores them (a copy of
// about 100-200 bytes) instead of hashing the key blocks again. Each K of
// the DRBG is used for exactly two HMACs, which saves two compressions per
// key; the all-zero key of step c is precomputed once in init.
type engine struct {
	h     hash.Hash
	save  encoding.BinaryAppender
	load  encoding.BinaryUnmarshaler
	size  int // hlen/8
	block int // block size in bytes
	pad   *[128]byte

	inner, outer         []byte // states after K^ipad, K^opad for the current K
	zeroInner, zeroOuter []byte // the same for the all-zero key (public)
	blank                []byte // state of a fresh hash with an all-zero buffer
}

// stateCap is the room reserved for one marshaled state; SHA-512 needs 204
// bytes. Should a future Go need more, AppendBinary grows the slice once.
const stateCap = 256

func (e *engine) init(h hash.Hash, pad *[128]byte) {
	e.h = h
	e.save = h.(encoding.BinaryAppender)
	e.load = h.(encoding.BinaryUnmarshaler)
	e.size = h.Size()
	e.block = h.BlockSize()
	e.pad = pad

	buf := make([]byte, 5*stateCap)
	slot := func(i int) []byte { return buf[i*stateCap : i*stateCap : (i+1)*stateCap] }
	e.inner, e.outer = slot(0), slot(1)
	e.zeroInner, e.zeroOuter, e.blank = slot(2), slot(3), slot(4)

	h.Reset()
	e.blank = e.marshal(e.blank)
	var zero [64]byte
	e.setKey(zero[:e.size])
	e.zeroInner = append(e.zeroInner, e.inner...)
	e.zeroOuter = append(e.zeroOuter, e.outer...)
	clear(pad[:])
}

// marshal appends the hash state (key material while keyed) to dst[:0].
//
//p256tls:secret
func (e *engine) marshal(dst []byte) []byte {
	b, err := e.save.AppendBinary(dst[:0])
	if err != nil {
		panic("nonce: cannot save hash state: " + err.Error())
	}
	return b
}

// restore loads a state saved by marshal.
//
//p256tls:secret
func (e *engine) restore(state []byte) {
	if err := e.load.UnmarshalBinary(state); err != nil {
		panic("nonce: cannot restore hash state: " + err.Error())
	}
}

// setKey makes key (hlen <= block bytes) the current HMAC key.
//
//p256tls:secret
func (e *engine) setKey(key []byte) {
	p := e.pad[:e.block]
	n := copy(p, key)
	clear(p[n:])
	for i := range p {
		p[i] ^= 0x36
	}
	e.h.Reset()
	e.h.Write(p)
	e.inner = e.marshal(e.inner)
	for i := range p {
		p[i] ^= 0x36 ^ 0x5c
	}
	e.h.Reset()
	e.h.Write(p)
	e.outer = e.marshal(e.outer)
}

// mac writes HMAC(msg) under the key whose saved states are inner and outer
// to dst[:hlen]. dst may alias msg. t receives the inner digest.
//
//p256tls:secret
func (e *engine) mac(inner, outer, msg, dst []byte, t *[64]byte) {
	e.restore(inner)
	e.h.Write(msg)
	d := e.h.Sum(t[:0])
	e.restore(outer)
	e.h.Write(d)
	e.h.Sum(dst[:0])
}

// wipe erases the key-dependent saved states and returns the hash object to
// the state of a fresh one, including its internal block buffer (which
// Reset alone would leave holding the tail of the last message).
//
//p256tls:secret
func (e *engine) wipe() {
	clear(e.inner[:cap(e.inner)])
	clear(e.outer[:cap(e.outer)])
	e.inner, e.outer = e.inner[:0], e.outer[:0]
	e.restore(e.blank)
}
