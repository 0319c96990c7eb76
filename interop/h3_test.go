//go:build interop

package interop

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/quic-go/quic-go"
	"github.com/quic-go/quic-go/quicvarint"
	"golang.org/x/net/http2/hpack"
)

// A minimal HTTP/3 (RFC 9114) for the matrix: one GET per connection, no
// QPACK dynamic table (we advertise none, so peers must not use one),
// over quic-go. quic-go's own http3 package needs a module (qpack) that
// go.mod does not list.

const (
	h3FrameData     = 0x0
	h3FrameHeaders  = 0x1
	h3FrameSettings = 0x4
	h3StreamControl = 0x0
)

// QPACK static table entries we use (RFC 9204 appendix A).
const (
	qpAuthority = 0  // :authority ""
	qpPath      = 1  // :path "/"
	qpMethodGET = 17 // :method GET
	qpSchemeTLS = 23 // :scheme https
	qpStatus200 = 25 // :status 200
)

// qpStaticNames names the static table's entries (only the names; for
// decoding the peer's field lines). Entries whose value matters to us are
// handled by index.
var qpStatic = [...][2]string{
	{":authority", ""}, {":path", "/"}, {"age", "0"}, {"content-disposition", ""}, {"content-length", "0"},
	{"cookie", ""}, {"date", ""}, {"etag", ""}, {"if-modified-since", ""}, {"if-none-match", ""},
	{"last-modified", ""}, {"link", ""}, {"location", ""}, {"referer", ""}, {"set-cookie", ""},
	{":method", "CONNECT"}, {":method", "DELETE"}, {":method", "GET"}, {":method", "HEAD"}, {":method", "OPTIONS"},
	{":method", "POST"}, {":method", "PUT"}, {":scheme", "http"}, {":scheme", "https"}, {":status", "103"},
	{":status", "200"}, {":status", "304"}, {":status", "404"}, {":status", "503"}, {"accept", "*/*"},
	{"accept", "application/dns-message"}, {"accept-encoding", "gzip, deflate, br"}, {"accept-ranges", "bytes"},
	{"access-control-allow-headers", "cache-control"}, {"access-control-allow-headers", "content-type"},
	{"access-control-allow-origin", "*"}, {"cache-control", "max-age=0"}, {"cache-control", "max-age=2592000"},
	{"cache-control", "max-age=604800"}, {"cache-control", "no-cache"}, {"cache-control", "no-store"},
	{"cache-control", "public, max-age=31536000"}, {"content-encoding", "br"}, {"content-encoding", "gzip"},
	{"content-type", "application/dns-message"}, {"content-type", "application/javascript"},
	{"content-type", "application/json"}, {"content-type", "application/x-www-form-urlencoded"},
	{"content-type", "image/gif"}, {"content-type", "image/jpeg"}, {"content-type", "image/png"},
	{"content-type", "text/css"}, {"content-type", "text/html; charset=utf-8"}, {"content-type", "text/plain"},
	{"content-type", "text/plain;charset=utf-8"}, {"range", "bytes=0-"}, {"strict-transport-security", "max-age=31536000"},
	{"strict-transport-security", "max-age=31536000; includesubdomains"},
	{"strict-transport-security", "max-age=31536000; includesubdomains; preload"}, {"vary", "accept-encoding"},
	{"vary", "origin"}, {"x-content-type-options", "nosniff"}, {"x-xss-protection", "1; mode=block"},
	{":status", "100"}, {":status", "204"}, {":status", "206"}, {":status", "302"}, {":status", "400"},
	{":status", "403"}, {":status", "421"}, {":status", "425"}, {":status", "500"}, {"accept-language", ""},
	{"access-control-allow-credentials", "FALSE"}, {"access-control-allow-credentials", "TRUE"},
	{"access-control-allow-headers", "*"}, {"access-control-allow-methods", "get"},
	{"access-control-allow-methods", "get, post, options"}, {"access-control-allow-methods", "options"},
	{"access-control-expose-headers", "content-length"}, {"access-control-request-headers", "content-type"},
	{"access-control-request-method", "get"}, {"access-control-request-method", "post"}, {"alt-svc", "clear"},
	{"authorization", ""}, {"content-security-policy", "script-src 'none'; object-src 'none'; base-uri 'none'"},
	{"early-data", "1"}, {"expect-ct", ""}, {"forwarded", ""}, {"if-range", ""}, {"origin", ""}, {"purpose", "prefetch"},
	{"server", ""}, {"timing-allow-origin", "*"}, {"upgrade-insecure-requests", "1"}, {"user-agent", ""},
	{"x-forwarded-for", ""}, {"x-frame-options", "deny"}, {"x-frame-options", "sameorigin"},
}

func appendQPInt(b []byte, flags byte, prefix uint, v uint64) []byte {
	max := uint64(1)<<prefix - 1
	if v < max {
		return append(b, flags|byte(v))
	}
	b = append(b, flags|byte(max))
	v -= max
	for v >= 128 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

func readQPInt(b []byte, prefix uint) (uint64, []byte, error) {
	if len(b) == 0 {
		return 0, nil, errors.New("qpack: truncated integer")
	}
	max := uint64(1)<<prefix - 1
	v := uint64(b[0]) & max
	b = b[1:]
	if v < max {
		return v, b, nil
	}
	for shift := uint(0); ; shift += 7 {
		if len(b) == 0 || shift > 56 {
			return 0, nil, errors.New("qpack: bad integer")
		}
		c := b[0]
		b = b[1:]
		v += uint64(c&0x7f) << shift
		if c&0x80 == 0 {
			return v, b, nil
		}
	}
}

func readQPString(b []byte, prefix uint) (string, []byte, error) {
	if len(b) == 0 {
		return "", nil, errors.New("qpack: truncated string")
	}
	huff := b[0]&(1<<prefix) != 0
	n, b, err := readQPInt(b, prefix)
	if err != nil {
		return "", nil, err
	}
	if uint64(len(b)) < n {
		return "", nil, errors.New("qpack: truncated string")
	}
	s, rest := b[:n], b[n:]
	if huff {
		d, err := hpack.HuffmanDecodeToString(s)
		return d, rest, err
	}
	return string(s), rest, nil
}

// decodeFields decodes a QPACK field section that uses no dynamic table.
func decodeFields(b []byte) ([][2]string, error) {
	ric, b, err := readQPInt(b, 8)
	if err != nil {
		return nil, err
	}
	if ric != 0 {
		return nil, errors.New("qpack: the peer used the dynamic table we did not allow")
	}
	if _, b, err = readQPInt(b, 7); err != nil {
		return nil, err
	}
	var fields [][2]string
	for len(b) > 0 {
		c := b[0]
		switch {
		case c&0x80 != 0: // indexed field line
			if c&0x40 == 0 {
				return nil, errors.New("qpack: dynamic reference")
			}
			var idx uint64
			if idx, b, err = readQPInt(b, 6); err != nil {
				return nil, err
			}
			if idx >= uint64(len(qpStatic)) {
				return nil, errors.New("qpack: bad static index")
			}
			fields = append(fields, qpStatic[idx])
		case c&0x40 != 0: // literal with name reference
			if c&0x10 == 0 {
				return nil, errors.New("qpack: dynamic name reference")
			}
			var idx uint64
			if idx, b, err = readQPInt(b, 4); err != nil {
				return nil, err
			}
			if idx >= uint64(len(qpStatic)) {
				return nil, errors.New("qpack: bad static index")
			}
			var v string
			if v, b, err = readQPString(b, 7); err != nil {
				return nil, err
			}
			fields = append(fields, [2]string{qpStatic[idx][0], v})
		case c&0x20 != 0: // literal with literal name
			var name, v string
			if name, b, err = readQPString(b, 3); err != nil {
				return nil, err
			}
			if v, b, err = readQPString(b, 7); err != nil {
				return nil, err
			}
			fields = append(fields, [2]string{name, v})
		default:
			return nil, errors.New("qpack: post-base reference")
		}
	}
	return fields, nil
}

func appendLiteral(b []byte, idx uint64, value string) []byte {
	b = appendQPInt(b, 0x50, 4, idx)
	b = appendQPInt(b, 0, 7, uint64(len(value)))
	return append(b, value...)
}

func appendFrame(b []byte, typ uint64, payload []byte) []byte {
	b = quicvarint.Append(b, typ)
	b = quicvarint.Append(b, uint64(len(payload)))
	return append(b, payload...)
}

// readFrame reads one HTTP/3 frame.
func readFrame(r *bufio.Reader) (uint64, []byte, error) {
	typ, err := quicvarint.Read(r)
	if err != nil {
		return 0, nil, err
	}
	n, err := quicvarint.Read(r)
	if err != nil {
		return 0, nil, err
	}
	if n > 1<<20 {
		return 0, nil, fmt.Errorf("h3: frame of %d bytes", n)
	}
	p := make([]byte, n)
	_, err = io.ReadFull(r, p)
	return typ, p, err
}

// h3Setup opens our control stream (empty SETTINGS) and drains the peer's
// unidirectional streams (control, QPACK encoder/decoder).
func h3Setup(ctx context.Context, conn *quic.Conn) error {
	ctl, err := conn.OpenUniStream()
	if err != nil {
		return err
	}
	b := quicvarint.Append(nil, h3StreamControl)
	b = appendFrame(b, h3FrameSettings, nil)
	if _, err := ctl.Write(b); err != nil {
		return err
	}
	go func() {
		for {
			s, err := conn.AcceptUniStream(ctx)
			if err != nil {
				return
			}
			go io.Copy(io.Discard, s)
		}
	}()
	return nil
}

// h3Serve answers one request on conn: it calls handle with the path and
// sends 200 with the returned body.
func h3Serve(ctx context.Context, conn *quic.Conn, handle func(path string) string) error {
	if err := h3Setup(ctx, conn); err != nil {
		return err
	}
	for {
		str, err := conn.AcceptStream(ctx)
		if err != nil {
			return err
		}
		go func() {
			defer str.Close()
			r := bufio.NewReader(str)
			var path string
			for path == "" {
				typ, p, err := readFrame(r)
				if err != nil {
					return
				}
				if typ != h3FrameHeaders {
					continue
				}
				fields, err := decodeFields(p)
				if err != nil {
					str.CancelRead(0x0200) // QPACK_DECOMPRESSION_FAILED
					return
				}
				for _, f := range fields {
					if f[0] == ":path" {
						path = f[1]
					}
				}
			}
			body := handle(path)
			hdr := []byte{0, 0}
			hdr = appendQPInt(hdr, 0xC0, 6, qpStatus200)
			hdr = appendLiteral(hdr, 4, strconv.Itoa(len(body))) // content-length
			out := appendFrame(nil, h3FrameHeaders, hdr)
			out = appendFrame(out, h3FrameData, []byte(body))
			str.Write(out)
		}()
	}
}

// h3Get sends GET https://authority/path and returns status and body.
func h3Get(ctx context.Context, conn *quic.Conn, authority, path string) (string, string, error) {
	if err := h3Setup(ctx, conn); err != nil {
		return "", "", err
	}
	str, err := conn.OpenStreamSync(ctx)
	if err != nil {
		return "", "", err
	}
	hdr := []byte{0, 0}
	hdr = appendQPInt(hdr, 0xC0, 6, qpMethodGET)
	hdr = appendQPInt(hdr, 0xC0, 6, qpSchemeTLS)
	hdr = appendLiteral(hdr, qpAuthority, authority)
	hdr = appendLiteral(hdr, qpPath, path)
	if _, err := str.Write(appendFrame(nil, h3FrameHeaders, hdr)); err != nil {
		return "", "", err
	}
	str.Close()
	r := bufio.NewReader(str)
	var status string
	var body bytes.Buffer
	for {
		typ, p, err := readFrame(r)
		if err == io.EOF {
			break
		}
		if err != nil {
			return status, body.String(), err
		}
		switch typ {
		case h3FrameHeaders:
			fields, err := decodeFields(p)
			if err != nil {
				return "", "", err
			}
			for _, f := range fields {
				if f[0] == ":status" {
					status = f[1]
				}
			}
		case h3FrameData:
			body.Write(p)
		}
	}
	return status, body.String(), nil
}
