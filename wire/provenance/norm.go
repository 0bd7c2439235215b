package provenance

import (
	"crypto/sha256"
	"encoding/binary"
	"html"
	"strings"
	"unicode/utf8"

	"github.com/wirelens/wirelens/wire/scan"
)

// canonical is the form of one line that both sides are hashed in: every
// hazard scan.Hazards finds removed (controls, whole terminal escape
// sequences, bidi controls, tag and invisible characters, invalid bytes:
// agents strip them, or not), HTML entities decoded (agents escape
// workspace text with them), runs of white space made one space, and the
// white space around the line dropped.
func canonical(line string) string {
	if scan.HasHazards(line) {
		var b strings.Builder
		at := 0
		for _, h := range scan.Hazards(line) {
			b.WriteString(line[at:h.Offset])
			at = h.Offset + h.Len
		}
		b.WriteString(line[at:])
		line = b.String()
	}
	if strings.IndexByte(line, '&') >= 0 {
		line = html.UnescapeString(line)
	}
	return collapseSpace(line)
}

// collapseSpace trims s and makes each run of white space inside it one
// space.
func collapseSpace(s string) string {
	s = strings.TrimSpace(s)
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f' || c == ' ' && i+1 < len(s) && s[i+1] == ' ' {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// csiRemnant removes what is left of terminal escape sequences whose ESC an
// agent stripped ("[2J" of "ESC[2J"), so that the line matches the file's
// canonical form, where the whole sequence is gone. Only tried on a line
// that did not match as it was.
func csiRemnant(s string) string {
	var b strings.Builder
	changed := false
	for i := 0; i < len(s); i++ {
		if s[i] == '[' {
			j := i + 1
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == ';' || s[j] == '?') {
				j++
			}
			if j < len(s) && (s[j] >= 'A' && s[j] <= 'Z' || s[j] >= 'a' && s[j] <= 'z') && (j > i+1 || s[j] == 'H' || s[j] == 'J' || s[j] == 'K' || s[j] == 'm') {
				i = j
				changed = true
				continue
			}
		}
		b.WriteByte(s[i])
	}
	if !changed {
		return s
	}
	return collapseSpace(b.String())
}

// jsonUnescape undoes JSON string escaping within one line (\" \\ \/ \t
// \uXXXX); \n is a line break and is split at before.
func jsonUnescape(s string) string {
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch s[i] {
		case '"', '\\', '/':
			b.WriteByte(s[i])
		case 't':
			b.WriteByte('\t')
		case 'r', 'n':
		case 'u':
			if i+4 < len(s) {
				var r rune
				ok := true
				for _, h := range s[i+1 : i+5] {
					switch {
					case h >= '0' && h <= '9':
						r = r<<4 | (h - '0')
					case h >= 'a' && h <= 'f':
						r = r<<4 | (h - 'a' + 10)
					case h >= 'A' && h <= 'F':
						r = r<<4 | (h - 'A' + 10)
					default:
						ok = false
					}
				}
				if ok {
					b.WriteRune(r)
					i += 4
					continue
				}
			}
			b.WriteString(`\u`)
		default:
			b.WriteByte('\\')
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// Hash is the hash of a canonical line kept in an Index and in a capture's
// provenance record: the first 8 bytes of its SHA-256, stable across runs and
// machines.
type Hash uint64

// hashOf hashes a canonical line.
func hashOf(canon string) Hash {
	sum := sha256.Sum256([]byte(canon))
	return Hash(binary.BigEndian.Uint64(sum[:8]))
}

// weight is how much a canonical line counts toward a match: its letters
// and digits, so that a run of braces or rules is not evidence.
func weight(canon string) int {
	n := 0
	for _, r := range canon {
		if r < utf8.RuneSelf {
			if r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
				n++
			}
			continue
		}
		n++
	}
	return n
}

// unquote is a YAML scalar value without its quotes.
func unquote(v string) string {
	v = strings.TrimSpace(v)
	if len(v) >= 2 && (v[0] == '"' && v[len(v)-1] == '"' || v[0] == '\'' && v[len(v)-1] == '\'') {
		inner := v[1 : len(v)-1]
		if v[0] == '"' {
			inner = jsonUnescape(inner)
		} else {
			inner = strings.ReplaceAll(inner, "''", "'")
		}
		return inner
	}
	return v
}

// treeName is the entry name a line of a directory listing shows, with the
// drawing around it removed (├── └── │ |-- `-- + - * and indentation, a
// trailing "/", a link's " -> target"), or "" when the line is not one.
func treeName(line string) string {
	s := strings.TrimSpace(line)
	for s != "" {
		r, n := utf8.DecodeRuneInString(s)
		if r == ' ' || r == '\t' || r == '│' || r == '├' || r == '└' || r == '─' || r == '|' || r == '`' || r == '+' || r == '\\' ||
			r == '┃' || r == '┣' || r == '┗' || r == '━' || r == '╰' || r == '╭' || r == '┊' || r == '┆' || r == '·' || r == '•' {
			s = s[n:]
			continue
		}
		if (r == '-' || r == '*') && len(s) > 1 && (s[1] == ' ' || s[1] == '-') {
			s = s[1:]
			continue
		}
		break
	}
	if k := strings.Index(s, " -> "); k > 0 {
		s = s[:k]
	}
	s = strings.TrimSuffix(strings.TrimSpace(s), "/")
	if s == "" || len(s) > 255 || strings.ContainsAny(s, "\t") {
		return ""
	}
	return s
}
