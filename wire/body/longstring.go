package body

import (
	"bytes"
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/wirelens/wirelens/wire/scan"
)

// A JSON string is unquoted by json into a buffer of its size, then copied
// into a Go string: a line holding one huge text costs that text twice over
// on top of the line. A long string is unquoted here instead, into the one
// string it becomes (a strings.Builder grown to its quoted size), a piece at
// a time through a small buffer. Each piece is unquoted by
// jsontext.AppendUnquote, so the text is what json makes of it.

// longString is the quoted length from which a string is unquoted here.
const longString = 64 << 10

// unquotePiece is the most bytes of text unquoted at a time; a variable so
// that tests can cut pieces small.
var unquotePiece = 32 << 10

// jsonOptsLong are jsonOpts with long strings unquoted here, for values
// long enough to hold one.
var jsonOptsLong = append(jsonOpts[:len(jsonOpts):len(jsonOpts)], json.WithUnmarshalers(json.UnmarshalFromFunc(unmarshalLongString)))

// unmarshalLongString reads a string of longString bytes or more into s;
// anything else is left to json (errors.ErrUnsupported).
func unmarshalLongString(dec *jsontext.Decoder, s *string) error {
	if dec.PeekKind() != '"' {
		return errors.ErrUnsupported
	}
	// The unread input starts with the string, after a separator and white
	// space.
	un := dec.UnreadBuffer()
	i := bytes.IndexByte(un, '"')
	if i < 0 || len(un)-i <= longString || closingQuote(un[i+1:i+longString]) {
		return errors.ErrUnsupported
	}
	val, err := dec.ReadValue()
	if err != nil {
		return err
	}
	*s = unquoteLong(val)
	return nil
}

// unquoteLong is the text of the valid JSON string val, as
// jsontext.AppendUnquote gives it, built in place. The pieces are cut where
// unquoting them apart gives what unquoting them together would: between
// whole escapes but not after a high surrogate (a pair is one rune), and in
// other text not inside a rune (invalid bytes are replaced one by one, so a
// cut between them changes nothing).
func unquoteLong(val []byte) string {
	in := val[1 : len(val)-1]
	var sb strings.Builder
	sb.Grow(len(in))
	var piece, out []byte
	for len(in) > 0 {
		n := 0
		if in[0] == '\\' {
			for n < len(in) && in[n] == '\\' && (n < unquotePiece || highSurrogate(in[:n])) {
				if in[n+1] == 'u' {
					n += 6
				} else {
					n += 2
				}
			}
		} else {
			// Only this piece's bytes (and one more) are searched, not the
			// rest of the string: a search per piece over the whole rest
			// made one long string quadratic.
			n = indexBackslash(in[:min(len(in), unquotePiece+1)])
			if n < 0 {
				n = min(len(in), unquotePiece+1)
			}
			if n > unquotePiece {
				n = unquotePiece
				// Not inside a rune: before it, or after it when the piece
				// is shorter than the rune it starts with.
				for i := max(0, n-utf8.UTFMax+1); i < n; i++ {
					if _, size := utf8.DecodeRune(in[i:]); size > 1 && i+size > n {
						n = i
						if n == 0 {
							n = size
						}
						break
					}
				}
			}
		}
		piece = append(append(append(piece[:0], '"'), in[:n]...), '"')
		out, _ = jsontext.AppendUnquote(out[:0], piece)
		sb.Write(out)
		in = in[n:]
	}
	if sb.Cap()-sb.Len() > sb.Len()/8 {
		// Escapes took much room: the text is not held in twice its size.
		return strings.Clone(sb.String())
	}
	return sb.String()
}

// indexBackslash finds the next backslash of a string's text; a variable
// so that a test can count the bytes searched.
var indexBackslash = func(b []byte) int { return bytes.IndexByte(b, '\\') }

// closingQuote reports whether b, the start of a string's text, holds its
// closing quote: a quote after an even number of backslashes.
func closingQuote(b []byte) bool { return scan.QuoteEnd(b, 0) >= 0 }

// highSurrogate reports whether the escapes esc end with a \u escape of a
// high surrogate (U+D800 to U+DBFF), which pairs with the escape after it.
func highSurrogate(esc []byte) bool {
	if len(esc) < 6 || esc[len(esc)-6] != '\\' || esc[len(esc)-5] != 'u' {
		return false
	}
	h := esc[len(esc)-4 : len(esc)-2]
	return (h[0] == 'd' || h[0] == 'D') && bytes.IndexByte([]byte("89abAB"), h[1]) >= 0
}
