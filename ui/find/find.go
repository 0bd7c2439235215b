// Package find is the viewer's text search, knowing nothing of its model:
// every occurrence of a query in a text (a query in lower case matches
// ASCII letters in either case, offsets kept), a filter of every word, the
// words a table's row is searched by, and a cursor over the matches of a
// search that steps forward and back.
package find

import (
	"strconv"
	"strings"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/audit"
	"github.com/wirelens/wirelens/wire/scan"
)

// All finds every non-overlapping occurrence of q in text. With fold,
// ASCII letters match in either case (offsets are kept: only ASCII bytes
// are folded).
func All(text, q string, fold bool) []int {
	if q == "" {
		return nil
	}
	hay := text
	if fold {
		hay = asciiLower(text)
	}
	var out []int
	for off := 0; off <= len(hay)-len(q); {
		i := strings.Index(hay[off:], q)
		if i < 0 {
			break
		}
		out = append(out, off+i)
		off += i + len(q)
	}
	return out
}

// Fold reports whether a query matches in either case: it is in lower case
// (smart case).
func Fold(q string) bool { return strings.ToLower(q) == q }

// asciiLower lowers ASCII letters only, so byte offsets stay the same.
func asciiLower(s string) string {
	has := false
	for i := 0; i < len(s); i++ {
		if s[i] >= 'A' && s[i] <= 'Z' {
			has = true
			break
		}
	}
	if !has {
		return s
	}
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 32
		}
	}
	return string(b)
}

// Request reports whether a request passes the filter of the request
// list: every word must match; is:NAME is is[NAME] (is:break, is:finding,
// is:hazard, is:escape, is:marked, the request's markers), any other word
// a case-insensitive substring of hay (its index, model, source, format).
func Request(filter, hay string, is map[string]bool) bool {
	hay = strings.ToLower(hay)
	for _, w := range strings.Fields(strings.ToLower(filter)) {
		name, marker := strings.CutPrefix(w, "is:")
		if ok, known := is[name]; marker && known {
			if !ok {
				return false
			}
		} else if !strings.Contains(hay, w) {
			return false
		}
	}
	return true
}

// Words reports whether text holds every word of filter, in either case.
func Words(text, filter string) bool {
	hay := strings.ToLower(text)
	for _, w := range strings.Fields(strings.ToLower(filter)) {
		if !strings.Contains(hay, w) {
			return false
		}
	}
	return true
}

// FindingText is the words of a Findings row: severity, rule, request
// (#n, counted from 1), segment, offset, message and excerpt.
func FindingText(f audit.Finding, req int) string {
	return strings.Join([]string{string(f.Severity), f.Rule, "#" + strconv.Itoa(req+1), f.Segment,
		"@" + strconv.Itoa(f.Offset), f.Message, f.Excerpt}, " ")
}

// EscapeText is the words of an Escapes row for an escape applied: its
// rule, where (envelope or kind, source, id), offset, what it replaced (as
// the sanitiser shows it) and with what, and note.
func EscapeText(e *wire.Escape, where, note string) string {
	return strings.Join([]string{e.Rule, where, "@" + strconv.Itoa(e.Offset), scan.VisibleLine(e.Original), e.Text, note}, " ")
}

// HazardText is the words of an Escapes row for a hazard left: its class,
// where, offset and the hazard as the sanitiser shows it.
func HazardText(h *scan.Hazard, where, text string) string {
	lo, hi := max(0, min(h.Offset, len(text))), max(0, min(h.Offset+h.Len, len(text)))
	return strings.Join([]string{string(h.Class), where, "@" + strconv.Itoa(h.Offset), scan.VisibleLine(text[lo:hi])}, " ")
}

// Pick is the items of rows at the indices keep, in their order.
func Pick[T any](rows []T, keep []int) []T {
	out := make([]T, len(keep))
	for k, i := range keep {
		out[k] = rows[i]
	}
	return out
}

// Cursor is a search's matches (rows, lines or byte offsets, ascending)
// and the one shown (-1 none yet).
type Cursor struct {
	Query string
	At    []int
	Cur   int
}

// Start puts the cursor before the first match at or after from (the last
// when none is), so that Step(1) shows it.
func (c *Cursor) Start(from int) {
	c.Cur = len(c.At) - 1
	for k, at := range c.At {
		if at >= from {
			c.Cur = k - 1
			return
		}
	}
}

// Step goes to the next (dir 1) or previous (dir -1) match, round, and
// returns it; false when there is none.
func (c *Cursor) Step(dir int) (int, bool) {
	n := len(c.At)
	if n == 0 {
		return 0, false
	}
	c.Cur = (c.Cur + dir + 2*n) % n
	return c.At[c.Cur], true
}

// DropBelow drops the rows whose request index (at) is below n and moves
// the others' down by n, in place: what a live view keeps of its matches,
// findings and marks when it drops its n oldest requests.
func DropBelow[T any](xs []T, n int, at func(*T) *int) []T {
	out := xs[:0]
	for _, x := range xs {
		if i := at(&x); *i >= n {
			*i -= n
			out = append(out, x)
		}
	}
	return out
}
