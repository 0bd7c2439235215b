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

// MaxDecompressedInput is the most all the compressed bodies of one input
// are decompressed to together: twenty small bombs, each under
// MaxDecompressed, are still gigabytes (and every distinct text of them is
// kept for the run). A variable so that tests can lower it.
var MaxDecompressedInput = 128 << 20

// DecompressError says why a compressed body could not be read.
type DecompressError struct {
	Encoding string // "gzip", "deflate", "br"
	TooLarge bool   // it decompresses past MaxDecompressed
	// Input is set with TooLarge when it was the input's budget
	// (MaxDecompressedInput) that ran out.
	Input bool
	Err   error // what the decoder said, when it failed
}

func (e *DecompressError) Error() string {
	switch {
	case e.TooLarge && e.Input:
		return fmt.Sprintf("%s, not read: past %d MiB decompressed in this input (all its compressed bodies together)", e.Encoding, MaxDecompressedInput>>20)
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
	return decompress(b, contentEncoding, MaxDecompressed, false)
}

// Inflated counts the bytes the compressed bodies of one input were
// decompressed to, against MaxDecompressedInput.
type Inflated struct{ n int }

// Decompress is body.Decompress within what is left of the input's budget:
// a body is read no further than MaxDecompressed or the budget's room,
// whichever is less, and what it took is counted.
func (in *Inflated) Decompress(b []byte, contentEncoding string) ([]byte, string, error) {
	room := max(0, MaxDecompressedInput-in.n)
	limit, input := MaxDecompressed, false
	if room < limit {
		limit, input = room, true
	}
	out, enc, err := decompress(b, contentEncoding, limit, input)
	if enc != "" && err == nil {
		in.n += len(out)
	}
	return out, enc, err
}

func decompress(b []byte, contentEncoding string, limit int, input bool) ([]byte, string, error) {
	ce := strings.ToLower(strings.TrimSpace(contentEncoding))
	switch {
	case len(b) >= 2 && b[0] == 0x1f && b[1] == 0x8b:
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			return nil, "gzip", &DecompressError{Encoding: "gzip", Err: err}
		}
		return inflate(zr, "gzip", limit, input)
	case ce == "deflate" && len(b) >= 2 && b[0]&0x0f == 8 && (int(b[0])<<8|int(b[1]))%31 == 0:
		// zlib's header: deflate, and a check of the first two bytes.
		zr, err := zlib.NewReader(bytes.NewReader(b))
		if err != nil {
			return nil, "deflate", &DecompressError{Encoding: "deflate", Err: err}
		}
		return inflate(zr, "deflate", limit, input)
	case ce == "deflate" && !plainText(b):
		// Some servers send raw deflate under "deflate".
		return inflate(flate.NewReader(bytes.NewReader(b)), "deflate", limit, input)
	case ce == "br" && !plainText(b):
		return nil, "br", &DecompressError{Encoding: "br"}
	}
	return b, "", nil
}

// inflate reads r to its end, or to limit bytes and one more (input: the
// limit is what is left of the input's budget).
func inflate(r io.ReadCloser, enc string, limit int, input bool) ([]byte, string, error) {
	defer r.Close()
	out, err := io.ReadAll(io.LimitReader(r, int64(limit)+1))
	switch {
	case len(out) > limit:
		return nil, enc, &DecompressError{Encoding: enc, TooLarge: true, Input: input}
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
