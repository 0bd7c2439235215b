package main

import (
	"bytes"
	"fmt"
	"io"
	"slices"
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
// hex digit. Where the request's bytes in the file are known (a body, alone
// or in a HAR, trace or batch file) only they are searched, each request's
// once; an agent recording is searched whole, for a bounded number of texts
// in a bounded file, the first occurrence at or after the request's line
// winning, else the first. Where none is found the request's line stands.

// needle is the text at a finding's place and where its request lies.
type needle struct {
	text string
	// off and length are the request's bytes in its file; off < 0 when
	// they are not known (agent recordings).
	off, length int64
}

// needleBefore and needleAfter are how much of the segment's text around a
// finding's offset is looked for: enough to tell one place from another.
const (
	needleBefore = 24
	needleAfter  = 40
	// needleMin is the shortest needle looked for; a shorter one would be
	// found in too many places to mean anything.
	needleMin = 4
)

// Bounds of the search: a request body read whole, the file searched whole
// (agent recordings), and the distinct texts looked for in it.
const (
	maxBodySearch    = 64 << 20
	maxFileSearch    = 256 << 20
	maxWholeFileText = 64
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

// findIn is the offset of the first form of text in b, or -1.
func findIn(b []byte, forms [][]byte) int {
	best := -1
	for _, f := range forms {
		if k := bytes.Index(b, f); k >= 0 && (best < 0 || k < best) {
			best = k
		}
	}
	return best
}

// findingLines returns, for each finding, the line of its source file that
// holds its flagged text, or 0 where it cannot be told (standard input, a
// file that is gone, text the file does not hold as written, a search past
// its bounds).
func findingLines(findings []audit.Finding, needles []needle) []int {
	lines := make([]int, len(findings))
	bySource := map[string][]int{}
	var order []string
	for i, f := range findings {
		if i >= len(needles) || needles[i].text == "" || f.Source == "-" || f.Source == "" {
			continue
		}
		if bySource[f.Source] == nil {
			order = append(order, f.Source)
		}
		bySource[f.Source] = append(bySource[f.Source], i)
	}
	for _, src := range order {
		in, err := wire.OpenInput(src, wire.MaxInputBytes)
		if err != nil {
			continue
		}
		var inBody, whole []int
		for _, i := range bySource[src] {
			if n := needles[i]; n.off >= 0 && n.length > 0 && n.length <= maxBodySearch {
				inBody = append(inBody, i)
			} else {
				whole = append(whole, i)
			}
		}
		searchBodies(in, findings, needles, inBody, lines)
		if len(whole) > 0 && in.Stat().Size() <= maxFileSearch {
			searchWhole(in, findings, needles, whole, lines)
		}
		in.Close()
	}
	return lines
}

// searchBodies finds the findings' texts in their requests' bytes, reading
// each request once, and the lines by counting line feeds from the start of
// the file up to each request, once for the whole file.
func searchBodies(in *wire.InputFile, findings []audit.Finding, needles []needle, idx []int, lines []int) {
	if len(idx) == 0 {
		return
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case needles[a].off < needles[b].off:
			return -1
		case needles[a].off > needles[b].off:
			return 1
		}
		return 0
	})
	line, at := 1, int64(0) // the line of byte at
	var buf []byte
	chunk := make([]byte, 1<<20)
	for k := 0; k < len(idx); {
		off, length := needles[idx[k]].off, needles[idx[k]].length
		// Count the line feeds up to off.
		for at < off {
			n := int(min(int64(len(chunk)), off-at))
			got, err := in.ReadAt(chunk[:n], at)
			line += bytes.Count(chunk[:got], []byte{'\n'})
			at += int64(got)
			if err != nil || got == 0 {
				return
			}
		}
		if int64(cap(buf)) < length {
			buf = make([]byte, length)
		}
		b := buf[:length]
		got, _ := in.ReadAt(b, off)
		b = b[:got]
		for ; k < len(idx) && needles[idx[k]].off == off; k++ {
			i := idx[k]
			if p := findIn(b, jsonForms(needles[i].text)); p >= 0 {
				lines[i] = line + bytes.Count(b[:p], []byte{'\n'})
			}
		}
	}
}

// searchWhole reads r once, in chunks that overlap by the longest text
// looked for, for the findings' texts (at most maxWholeFileText distinct
// ones): each finding gets the first line at or after its request's, else
// the first line, that holds its text.
func searchWhole(r io.Reader, findings []audit.Finding, needles []needle, idx []int, lines []int) {
	type want struct {
		forms [][]byte
	}
	byText := map[string]*want{}
	var texts []string
	for _, i := range idx {
		t := needles[i].text
		if byText[t] == nil {
			if len(texts) == maxWholeFileText {
				continue
			}
			byText[t] = &want{forms: jsonForms(t)}
			texts = append(texts, t)
		}
	}
	longest := 0
	for _, w := range byText {
		for _, f := range w.forms {
			longest = max(longest, len(f))
		}
	}
	// Every occurrence's line, per text, up to a bound: what each finding
	// takes is picked from them after the pass.
	const maxHits = 1024
	hits := map[string][]int{}
	buf := make([]byte, 0, 4<<20+longest)
	base := 1
	for {
		n, err := io.ReadFull(r, buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		// Occurrences that start in the kept overlap were seen before.
		for _, t := range texts {
			for _, f := range byText[t].forms {
				at, line := 0, base
				for len(hits[t]) < maxHits {
					j := bytes.Index(buf[at:], f)
					if j < 0 {
						break
					}
					line += bytes.Count(buf[at:at+j], []byte{'\n'})
					at += j
					if !slices.Contains(hits[t], line) {
						hits[t] = append(hits[t], line)
					}
					at++
				}
			}
		}
		if err != nil {
			break
		}
		keep := min(len(buf), longest-1)
		base += bytes.Count(buf[:len(buf)-keep], []byte{'\n'})
		copy(buf, buf[len(buf)-keep:])
		buf = buf[:keep]
	}
	for _, i := range idx {
		hs := hits[needles[i].text]
		if len(hs) == 0 {
			continue
		}
		slices.Sort(hs)
		from := max(findings[i].Line, 1)
		lines[i] = hs[0]
		if k, _ := slices.BinarySearch(hs, from); k < len(hs) {
			lines[i] = hs[k]
		}
	}
}
