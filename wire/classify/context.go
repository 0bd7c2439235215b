package classify

import (
	"strings"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/framing"
)

// This file reads the rows of framing.ContextBlocks: the host's context in
// one of its envelopes (Claude Code's <system-reminder>), with the files it
// pastes and the repository's status among its facts.

// contextBlockFor is the row of framing.ContextBlocks written in envelope
// env, or nil.
func contextBlockFor(env string) *framing.ContextBlock {
	for i := range framing.ContextBlocks {
		if cb := &framing.ContextBlocks[i]; cb.Envelope == env {
			return cb
		}
	}
	return nil
}

// hasAny reports whether s holds one of the phrases.
func hasAny(s string, phrases []string) bool {
	for _, p := range phrases {
		if strings.Contains(s, p) {
			return true
		}
	}
	return false
}

// contextPieces classifies the body [bs, be) of an envelope d in which the
// host writes the context block cb: host text is of the envelope's kind and
// trust; the block (after one of its Opens) is cut so that each file's body
// (after a Header line) becomes an agents-md piece labelled with its path
// (the header lines after the first stay in the pieces, since the body
// before each could forge it); a body without the block that quotes a
// workspace file is untrusted whole; one that holds a skill list or a drawn
// tree (qwen-code's reminders) is cut at them (hostListingPieces).
//
// A file's piece is untrusted, except the user's own files (UserFiles)
// before the first workspace file: Claude Code lists the user's files
// first, and a header after a workspace body could be forged by it, so from
// the first workspace file on every piece is untrusted.
//
// The untrusted region ends at the last key heading after the first
// header, else at the last Trailer line. A file that forges a key heading
// can end its own region early only when the host wrote no key after the
// files.
func contextPieces(cb *framing.ContextBlock, d *numbered, text string, bs, be int) []piece {
	body := text[bs:be]
	whole := func(t wire.Trust) []piece {
		return []piece{{start: bs, end: be, kind: d.kind, trust: t, envelope: d.name, name: d.name}}
	}
	ci := -1
	for _, o := range cb.Opens {
		if k := strings.Index(body, o); k >= 0 && (ci < 0 || k < ci) {
			ci = k
		}
	}
	if ci < 0 {
		if hasAny(body, cb.Quotes) {
			return whole(wire.Untrusted)
		}
		if l := hostListingPieces(text, bs, be, d.kind, d.name, ""); l != nil {
			return l // qwen-code's skills and directory tree
		}
		return hostWithStatus(cb, d, body, bs, 0, len(body))
	}
	// Header lines after the opening phrase.
	first := lineWith(body, ci, cb.Header)
	if first < 0 {
		return hostWithStatus(cb, d, body, bs, 0, len(body))
	}
	// The untrusted region ends at the last known context key after the
	// first header, else at the last trailer, else at the body's end.
	regionEnd := len(body)
	keyAt := -1
	for _, k := range cb.Keys {
		if p := lastLineWith(body, first, k); p > keyAt {
			keyAt = p
		}
	}
	if keyAt >= 0 {
		regionEnd = keyAt
	} else if p := lastLineTrimmedWith(body, first, cb.Trailer); p >= 0 {
		regionEnd = p
	}
	var out []piece
	rem := func(a, b int) {
		if b > a {
			out = append(out, piece{start: bs + a, end: bs + b, kind: d.kind, trust: d.trust, envelope: d.name, name: d.name})
		}
	}
	cur := 0           // start of the pending host stretch
	workspace := false // a workspace file's body came before
	for h := first; h >= 0 && h < regionEnd; {
		le := strings.IndexByte(body[h:], '\n')
		if le < 0 {
			break
		}
		hdrEnd := h + le + 1
		for hdrEnd < regionEnd && (body[hdrEnd] == '\n' || strings.HasPrefix(body[hdrEnd:], "\r\n")) {
			if body[hdrEnd] == '\r' {
				hdrEnd++
			}
			hdrEnd++
		}
		label := contentsPath(body[h+len(cb.Header) : h+le])
		next := lineWith(body, hdrEnd, cb.Header)
		end := regionEnd
		if next >= 0 && next < regionEnd {
			end = next
		}
		// A header is host framing until a workspace file's body came
		// before it: after one, the body could have forged it, so it stays
		// in the untrusted region (it still names the next file). After the
		// user's own file (~/.claude/CLAUDE.md, not hostile) it is the
		// host's.
		start := hdrEnd
		if workspace {
			start = cur
		}
		if end <= start {
			h = next
			continue
		}
		if !workspace {
			rem(cur, hdrEnd)
		}
		trust := wire.TrustUser
		if workspace || !hasAny(body[h:h+le], cb.UserFiles) {
			trust, workspace = wire.Untrusted, true
		}
		out = append(out, piece{start: bs + start, end: bs + end, kind: wire.KindAgentsMD, trust: trust, envelope: d.name, label: label, name: string(wire.KindAgentsMD)})
		cur = end
		if end == regionEnd {
			break
		}
		h = next
	}
	if out == nil {
		return whole(d.trust)
	}
	return append(out, hostWithStatus(cb, d, body, bs, cur, len(body))...)
}

// contentsPath is the path of a header line's rest "PATH (description):".
func contentsPath(line string) string {
	line = strings.TrimRight(line, " \t\r")
	line = strings.TrimSuffix(line, ":")
	if strings.HasSuffix(line, ")") {
		if k := strings.LastIndex(line, " ("); k > 0 {
			line = line[:k]
		}
	}
	return strings.TrimSpace(line)
}

// statusData is the workspace's part of the status block of a context
// block's body (framing.StatusBlock: branch names, the files of the status
// and commit subjects are written by whoever made the repository), or -1,
// -1 when there is none.
func statusData(cb *framing.ContextBlock, body string, from int) (start, end int) {
	st := &cb.Status
	if st.Heading == "" {
		return -1, -1
	}
	h := lineWith(body, from, st.Heading)
	if h < 0 {
		return -1, -1
	}
	start = lineWith(body, h, st.From)
	if start < 0 {
		return -1, -1
	}
	end = len(body)
	if p := firstLineWith(body, start, append([]string{cb.Trailer}, cb.Keys...)); p >= 0 {
		end = p
	}
	if rc := lineWith(body, start, st.Last); st.Last != "" && rc >= 0 && rc < end {
		if e := strings.Index(body[rc:end], "\n\n"); e >= 0 {
			end = rc + e + 1
		}
	}
	return start, end
}

// hostWithStatus returns the pieces of the host's text [a, b) of an
// envelope body starting at bs, with the status data in it cut out as
// untrusted environment text.
func hostWithStatus(cb *framing.ContextBlock, d *numbered, body string, bs, a, b int) []piece {
	rem := func(x, y int) piece {
		return piece{start: bs + x, end: bs + y, kind: d.kind, trust: d.trust, envelope: d.name, name: d.name}
	}
	s, e := statusData(cb, body, a)
	if s < 0 || e > b || e <= s {
		if b > a {
			return []piece{rem(a, b)}
		}
		return nil
	}
	var out []piece
	add := func(pc piece) {
		if pc.end <= pc.start {
			return
		}
		if n := len(out); n > 0 && out[n-1].trust == pc.trust && out[n-1].end == pc.start {
			out[n-1].end = pc.end // one piece for a run of the same trust
			return
		}
		out = append(out, pc)
	}
	add(rem(a, s))
	// The host's labels ("Current branch:", "Status:") stay the host's;
	// the values after them, and the lines of the lists, are the
	// repository's. Blank lines go with the text before them.
	for at := s; at < e; {
		end := lineEnd(body[:e], at)
		line := body[at:end]
		value := at
		if n := statusLabel(cb.Status.Labels, line); n > 0 {
			value = at + n
			if strings.TrimSpace(line[n:]) == "" {
				value = end // a label alone on its line ("Status:")
			}
		} else if strings.TrimSpace(line) == "" {
			if k := len(out); k > 0 && out[k-1].end == bs+at {
				out[k-1].end = bs + end
				at = end
				continue
			}
		}
		add(rem(at, value))
		add(piece{start: bs + value, end: bs + end, kind: wire.KindEnvironment, trust: wire.Untrusted, envelope: d.name, label: cb.Status.Label, name: "git-status"})
		at = end
	}
	add(rem(e, b))
	return out
}

// statusLabel is the length of the host's label that opens a line of the
// status ("Current branch: ", "Main branch (...): ", "Status:"), or 0: one
// of labels, an optional parenthesis, a colon and a space. A line of the
// status's file list ("M  a:b") is never one.
func statusLabel(labels []string, line string) int {
	known := false
	for _, l := range labels {
		if rest, ok := strings.CutPrefix(line, l); ok && (strings.HasPrefix(rest, ":") || strings.HasPrefix(rest, " (")) {
			known = true
		}
	}
	if !known {
		return 0
	}
	colon := strings.IndexByte(line, ':')
	if colon < 0 || colon > 80 {
		return 0
	}
	head := line[:colon]
	if p := strings.IndexByte(head, '('); p >= 0 {
		if !strings.HasSuffix(head, ")") {
			return 0
		}
		head = head[:p]
	}
	for _, c := range head {
		if !(c == ' ' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return 0
		}
	}
	n := colon + 1
	if n < len(line) && line[n] == ' ' {
		n++
	}
	return n
}
