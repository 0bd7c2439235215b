package report

import (
	"fmt"
	"html"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/wirelens/wirelens/wire/scan"
)

// MarkdownLimit is GitHub's size limit of a comment, in characters.
const MarkdownLimit = 65536

// cutNote ends a Markdown report cut at MarkdownLimit; its room is kept.
const cutNote = "\n\n> **Cut here** to stay within GitHub's comment size limit (65,536 characters): %d more changed segments are not shown. `wirelens report --format html` or `wirelens diff` shows everything.\n"

// Markdown writes the report as GitHub-flavoured Markdown of at most
// MarkdownLimit characters; when the segment diffs do not all fit, it stops
// before the first that does not and says so.
func (r *Report) Markdown(w io.Writer) error {
	var out strings.Builder
	size := 0
	blocks := r.blocks()
	room := MarkdownLimit - utf8.RuneCountInString(cutNote) - 16
	for i, b := range blocks {
		text := mdBlock(b)
		n := utf8.RuneCountInString(text)
		if size+n > room {
			left := 0
			for _, rest := range blocks[i:] {
				if rest.kind == blockDiff {
					left++
				}
			}
			out.WriteString(fmt.Sprintf(cutNote, left))
			break
		}
		out.WriteString(text)
		size += n
	}
	_, err := io.WriteString(w, out.String())
	return err
}

// mdBlock renders one block, ending in a blank line.
func mdBlock(b block) string {
	var s strings.Builder
	switch b.kind {
	case blockHeading:
		s.WriteString(strings.Repeat("#", b.level) + " " + mdCells(b.parts, false) + "\n\n")
	case blockPara:
		s.WriteString(mdCells(b.parts, false) + "\n\n")
	case blockTable:
		s.WriteString("|")
		for _, h := range b.head {
			s.WriteString(" " + mdPlain(h, true) + " |")
		}
		s.WriteString("\n|")
		for range b.head {
			s.WriteString(" --- |")
		}
		s.WriteString("\n")
		for _, row := range b.rows {
			s.WriteString("|")
			for _, c := range row {
				s.WriteString(" " + mdCells([]cell{c}, true) + " |")
			}
			s.WriteString("\n")
		}
		s.WriteString("\n")
	case blockDiff:
		var body strings.Builder
		for _, l := range b.lines {
			body.WriteByte(l.op)
			body.WriteByte(' ')
			body.WriteString(scan.VisibleLine(l.text))
			body.WriteByte('\n')
		}
		fence := strings.Repeat("`", max(3, longestRun(body.String(), '`')+1))
		s.WriteString(fence + "diff\n" + body.String() + fence + "\n")
		if b.note != "" {
			s.WriteString("\n_" + mdPlain(b.note, false) + "_\n")
		}
		s.WriteString("\n")
	}
	return s.String()
}

// mdCells renders a run of cells; in a table, pipes are escaped.
func mdCells(cells []cell, inTable bool) string {
	var s strings.Builder
	for _, c := range cells {
		if c.code {
			s.WriteString(mdCode(c.text, inTable))
		} else {
			s.WriteString(mdPlain(c.text, inTable))
		}
	}
	return s.String()
}

// mdPlain escapes text for Markdown: it is made visible, every ASCII
// punctuation character that Markdown reads is backslash-escaped, and <, >
// and & are written as entities, so no markup, HTML or link forms. GitHub
// reads more than Markdown, in the text left after it (where a backslash
// escape is gone): an @ is followed by a word joiner so that no mention
// forms, and so are a # before a digit (owner/repo#1, #2: no cross-reference)
// and a : before a letter or digit (no :emoji:); a $ is an entity, so that no
// math ($…$) forms.
func mdPlain(text string, inTable bool) string {
	v := scan.VisibleLine(text)
	var s strings.Builder
	for i, r := range v {
		next := byte(0)
		if i+1 < len(v) {
			next = v[i+1]
		}
		switch {
		case r == '$':
			s.WriteString("&#36;")
		case r == '#' && next >= '0' && next <= '9':
			s.WriteString("\\#\u2060")
		case r == ':' && (next >= '0' && next <= '9' || next >= 'a' && next <= 'z' || next >= 'A' && next <= 'Z' || next == '_' || next == '+' || next == '-'):
			s.WriteString("\\:\u2060")
		case r == '<':
			s.WriteString("&lt;")
		case r == '>':
			s.WriteString("&gt;")
		case r == '&':
			s.WriteString("&amp;")
		case r == '@':
			s.WriteString("@\u2060")
		case r < 0x80 && strings.ContainsRune("\\`*_[]{}()#+-.!|~:", r):
			s.WriteByte('\\')
			s.WriteRune(r)
		default:
			s.WriteRune(r)
		}
	}
	return s.String()
}

// mdCode writes payload text as a code span: nothing in it is markup, a
// link or a mention. The span's backtick run is longer than any inside.
func mdCode(text string, inTable bool) string {
	v := scan.VisibleLine(text)
	if v == "" {
		return ""
	}
	if inTable {
		v = strings.ReplaceAll(v, "|", "\\|")
	}
	fence := strings.Repeat("`", longestRun(v, '`')+1)
	if strings.HasPrefix(v, "`") || strings.HasSuffix(v, "`") {
		v = " " + v + " "
	}
	return fence + v + fence
}

// longestRun is the length of the longest run of c in s.
func longestRun(s string, c byte) int {
	best, cur := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			cur++
			best = max(best, cur)
		} else {
			cur = 0
		}
	}
	return best
}

// htmlStyle is the report's only styling; the page loads nothing.
const htmlStyle = `body{font:14px/1.5 system-ui,sans-serif;margin:2em auto;max-width:72em;padding:0 1em;color:#1f2328;background:#fff}
table{border-collapse:collapse;margin:.5em 0 1em;max-width:100%;display:block;overflow-x:auto}th,td{border:1px solid #d0d7de;padding:.25em .6em;text-align:left;vertical-align:top;overflow-wrap:break-word}
th{background:#f6f8fa}code,pre{font:12px/1.45 ui-monospace,monospace;background:#f6f8fa;overflow-wrap:anywhere}pre{padding:.6em;overflow-x:auto;white-space:pre-wrap}
.ins{background:#dafbe1;display:block}.del{background:#ffebe9;display:block}.note{color:#59636e;font-style:italic}`

// HTML writes the report as one HTML page with no external asset: no
// script, no image, no link, and a content security policy that forbids
// loading anything; every payload byte is made visible and escaped.
func (r *Report) HTML(w io.Writer) error {
	var s strings.Builder
	s.WriteString("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
	s.WriteString("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n")
	s.WriteString("<meta name=\"referrer\" content=\"no-referrer\">\n<meta name=\"viewport\" content=\"width=device-width\">\n<title>wirelens report</title>\n<style>" + htmlStyle + "</style>\n</head>\n<body>\n")
	for _, b := range r.blocks() {
		switch b.kind {
		case blockHeading:
			id := ""
			if b.level == 2 {
				id = fmt.Sprintf(" id=%q", sectionID(b.parts[0].text))
			}
			fmt.Fprintf(&s, "<h%d%s>%s</h%d>\n", b.level, id, htmlCells(b.parts), b.level)
		case blockPara:
			s.WriteString("<p>" + htmlCells(b.parts) + "</p>\n")
		case blockTable:
			s.WriteString("<table>\n<tr>")
			for _, h := range b.head {
				s.WriteString("<th>" + html.EscapeString(h) + "</th>")
			}
			s.WriteString("</tr>\n")
			for _, row := range b.rows {
				s.WriteString("<tr>")
				for _, c := range row {
					s.WriteString("<td>" + htmlCells([]cell{c}) + "</td>")
				}
				s.WriteString("</tr>\n")
			}
			s.WriteString("</table>\n")
		case blockDiff:
			s.WriteString("<pre class=\"diff\">")
			for _, l := range b.lines {
				text := html.EscapeString(string(l.op) + " " + scan.VisibleLine(l.text))
				switch l.op {
				case '+':
					s.WriteString("<span class=\"ins\">" + text + "</span>")
				case '-':
					s.WriteString("<span class=\"del\">" + text + "</span>")
				default:
					s.WriteString(text + "\n")
				}
			}
			s.WriteString("</pre>\n")
			if b.note != "" {
				s.WriteString("<p class=\"note\">" + html.EscapeString(b.note) + "</p>\n")
			}
		}
	}
	s.WriteString("</body>\n</html>\n")
	_, err := io.WriteString(w, s.String())
	return err
}

// htmlCells renders cells: plain text escaped, payload text as code.
func htmlCells(cells []cell) string {
	var s strings.Builder
	for _, c := range cells {
		v := html.EscapeString(scan.VisibleLine(c.text))
		if c.code && v != "" {
			s.WriteString("<code>" + v + "</code>")
		} else {
			s.WriteString(v)
		}
	}
	return s.String()
}

// sectionID is a heading's anchor: its words, lower case, joined by "-".
func sectionID(title string) string {
	var s strings.Builder
	for _, r := range strings.ToLower(title) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			s.WriteRune(r)
		case s.Len() > 0 && !strings.HasSuffix(s.String(), "-"):
			s.WriteByte('-')
		}
	}
	return strings.TrimSuffix(s.String(), "-")
}
