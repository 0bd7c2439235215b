package body

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// Recorders keep some response bodies as the bytes that came over the wire:
// a HAR whose content is base64 of a gzip stream (Polly.js, some proxies).
// Decompress undoes that, by the bytes' own magic where they have one (a
// recorder often keeps the Content-Encoding header of a body it already
// decoded) and by the header otherwise.

// MaxDecompressed is the most a compressed body is decompressed to: a gzip
// bomb of a few kilobytes can hold gigabytes, and a response whose usage
// is wanted is far smaller. A variable so that tests can lower it.
var MaxDecompressed = 64 << 20

// DecompressError says why a compressed body could not be read.
type DecompressError struct {
	Encoding string // "gzip", "deflate", "br"
	TooLarge bool   // it decompresses past MaxDecompressed
	Err      error  // what the decoder said, when it failed
}

func (e *DecompressError) Error() string {
	switch {
	case e.TooLarge:
		return fmt.Sprintf("%s that decompresses past %d MiB (not read further)", e.Encoding, MaxDecompressed>>20)
	case e.Encoding == "br":
		return "Brotli-compressed (Content-Encoding: br), and wirelens has no Brotli decoder (none in Go's standard library)"
	}
	return fmt.Sprintf("%s that could not be read: %v", e.Encoding, e.Err)
}

// Decompress returns b with its compression undone and the encoding it
// undid ("" when b was not compressed: b itself is returned).
// contentEncoding is the Content-Encoding header recorded with b, or "".
func Decompress(b []byte, contentEncoding string) ([]byte, string, error) {
	ce := strings.ToLower(strings.TrimSpace(contentEncoding))
	switch {
	case len(b) >= 2 && b[0] == 0x1f && b[1] == 0x8b:
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			return nil, "gzip", &DecompressError{Encoding: "gzip", Err: err}
		}
		return inflate(zr, "gzip")
	case ce == "deflate" && len(b) >= 2 && b[0]&0x0f == 8 && (int(b[0])<<8|int(b[1]))%31 == 0:
		// zlib's header: deflate, and a check of the first two bytes.
		zr, err := zlib.NewReader(bytes.NewReader(b))
		if err != nil {
			return nil, "deflate", &DecompressError{Encoding: "deflate", Err: err}
		}
		return inflate(zr, "deflate")
	case ce == "deflate" && !plainText(b):
		// Some servers send raw deflate under "deflate".
		return inflate(flate.NewReader(bytes.NewReader(b)), "deflate")
	case ce == "br" && !plainText(b):
		return nil, "br", &DecompressError{Encoding: "br"}
	}
	return b, "", nil
}

// inflate reads r to its end, or to MaxDecompressed bytes and one more.
func inflate(r io.ReadCloser, enc string) ([]byte, string, error) {
	defer r.Close()
	out, err := io.ReadAll(io.LimitReader(r, int64(MaxDecompressed)+1))
	switch {
	case len(out) > MaxDecompressed:
		return nil, enc, &DecompressError{Encoding: enc, TooLarge: true}
	case err != nil:
		return nil, enc, &DecompressError{Encoding: enc, Err: err}
	}
	return out, enc, nil
}

// plainText reports whether b opens as text (UTF-8 without control
// characters but white space): a body its recorder already decoded.
func plainText(b []byte) bool {
	head := b[:min(len(b), 64)]
	for len(head) > 0 {
		r, n := utf8.DecodeRune(head)
		if r == utf8.RuneError && n <= 1 && len(head) >= utf8.UTFMax {
			return false
		}
		if r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0x7f {
			return false
		}
		head = head[n:]
	}
	return true
}
