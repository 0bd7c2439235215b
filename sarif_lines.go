package main

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/audit"
)

// SARIF results point at the line of the input file that holds the flagged
// text. A finding knows its segment and byte offset, not where in the file
// the segment's text was written (a request body may span many lines, an
// agent recording spreads a request over the lines of its messages), so the
// text at the finding's place is looked for in the file as JSON writes it:
// escaped the minimal way, the way Go escapes HTML characters, or with every
// non-ASCII character as a \u escape (Python's default), in either case of
// hex digit. The first occurrence at or after the request's line wins, else
// the first in the file; where none is found the request's line stands.

// needleBefore and needleAfter are how much of the segment's text around a
// finding's offset is looked for: enough to tell one place from another.
const (
	needleBefore = 24
	needleAfter  = 40
	// needleMin is the shortest needle looked for; a shorter one would be
	// found in too many places to mean anything.
	needleMin = 4
)

// needleAt is the text of a segment around offset off, cut at UTF-8
// boundaries, or "" when there is too little of it.
func needleAt(text string, off int) string {
	if off < 0 || off > len(text) {
		return ""
	}
	from := max(0, off-needleBefore)
	for from > 0 && !utf8.RuneStart(text[from]) {
		from--
	}
	to := min(len(text), off+needleAfter)
	for to < len(text) && !utf8.RuneStart(text[to]) {
		to++
	}
	if to-from < needleMin {
		return ""
	}
	return strings.Clone(text[from:to])
}

// jsonForms are the ways a JSON writer may have put s inside a string.
func jsonForms(s string) [][]byte {
	var forms [][]byte
	add := func(b []byte) {
		for _, f := range forms {
			if bytes.Equal(f, b) {
				return
			}
		}
		forms = append(forms, b)
	}
	add(jsonEscape(s, false, false, "%04x"))
	add(jsonEscape(s, true, false, "%04x"))
	add(jsonEscape(s, false, true, "%04x"))
	add(jsonEscape(s, false, true, "%04X"))
	return forms
}

// jsonEscape writes s as the inside of a JSON string: quotes, backslashes
// and control characters escaped, and with html the characters <, >, &,
// U+2028 and U+2029 as \u escapes, with ascii every non-ASCII character
// (surrogate pairs above U+FFFF), hex digits in the case hexFmt gives.
func jsonEscape(s string, html, ascii bool, hexFmt string) []byte {
	var b bytes.Buffer
	u := func(r rune) { fmt.Fprintf(&b, `\u`+hexFmt, r) }
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20:
			u(r)
		case html && (r == '<' || r == '>' || r == '&' || r == 0x2028 || r == 0x2029):
			u(r)
		case ascii && r >= 0x80:
			if r > 0xFFFF {
				r -= 0x10000
				u(0xD800 + (r>>10)&0x3FF)
				u(0xDC00 + r&0x3FF)
			} else {
				u(r)
			}
		default:
			b.WriteRune(r)
		}
	}
	return b.Bytes()
}

// lineSearch is the search of one source file for the needles of its
// findings.
type lineSearch struct {
	findings []int      // indices into the findings
	from     []int      // per finding: the line a find should be at or after (1 when unknown)
	forms    [][][]byte // per finding: its needle's forms
	first    []int      // per finding: the first line found anywhere, 0 until found
	after    []int      // per finding: the first line found at or after from, 0 until found
}

// findingLines returns, for each finding, the line of its source file that
// holds its flagged text, or 0 where it cannot be told (standard input, a
// file that is gone, text the file does not hold as written).
func findingLines(findings []audit.Finding, needles []string) []int {
	lines := make([]int, len(findings))
	bySource := map[string]*lineSearch{}
	var order []string
	for i, f := range findings {
		if i >= len(needles) || needles[i] == "" || f.Source == "-" || f.Source == "" {
			continue
		}
		ls := bySource[f.Source]
		if ls == nil {
			ls = &lineSearch{}
			bySource[f.Source] = ls
			order = append(order, f.Source)
		}
		ls.findings = append(ls.findings, i)
		ls.from = append(ls.from, max(f.Line, 1))
		ls.forms = append(ls.forms, jsonForms(needles[i]))
	}
	for _, src := range order {
		ls := bySource[src]
		ls.first = make([]int, len(ls.findings))
		ls.after = make([]int, len(ls.findings))
		in, err := wire.OpenInput(src, wire.MaxInputBytes)
		if err != nil {
			continue
		}
		ls.run(in)
		in.Close()
		for k, i := range ls.findings {
			switch {
			case ls.after[k] > 0:
				lines[i] = ls.after[k]
			case ls.first[k] > 0:
				lines[i] = ls.first[k]
			}
		}
	}
	return lines
}

// searchChunk is how much of a file is searched at a time.
const searchChunk = 4 << 20

// run reads r once, in chunks that overlap by the longest needle, and
// notes where each needle is found.
func (ls *lineSearch) run(r io.Reader) {
	longest := 0
	for _, fs := range ls.forms {
		for _, f := range fs {
			longest = max(longest, len(f))
		}
	}
	if longest == 0 {
		return
	}
	open := len(ls.findings) // needles still looked for
	buf := make([]byte, 0, searchChunk+longest)
	base := 1 // the line of buf[0]
	for open > 0 {
		n, err := io.ReadFull(r, buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		for k, fs := range ls.forms {
			if ls.after[k] > 0 {
				continue
			}
			for _, f := range fs {
				if ls.find(k, f, buf, base) {
					open--
					break
				}
			}
		}
		if err != nil {
			return
		}
		// Keep the last longest-1 bytes: a needle may straddle the cut.
		keep := min(len(buf), longest-1)
		base += bytes.Count(buf[:len(buf)-keep], []byte{'\n'})
		copy(buf, buf[len(buf)-keep:])
		buf = buf[:keep]
	}
}

// find looks for form f of needle k in buf, whose first byte is on line
// base, and reports whether it was found at or after the line wanted.
func (ls *lineSearch) find(k int, f, buf []byte, base int) bool {
	if len(f) == 0 {
		return false
	}
	at, line := 0, base
	for tries := 0; tries < 10000; tries++ {
		j := bytes.Index(buf[at:], f)
		if j < 0 {
			return false
		}
		line += bytes.Count(buf[at:at+j], []byte{'\n'})
		at += j
		if ls.first[k] == 0 || line < ls.first[k] {
			ls.first[k] = line
		}
		if line >= ls.from[k] {
			ls.after[k] = line
			return true
		}
		at++
	}
	return false
}
