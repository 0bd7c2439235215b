package classify

import (
	"strings"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/framing"
)

// Listings a host writes inside one of its own envelopes (qwen-code's
// <system-reminder> user messages): an <available_skills> block, cut per
// skill with its location deciding whose it is, and a directory tree in the
// usual drawings (├── └── │, |-- `--), which lists the workspace's names.

// isTreeLine reports whether a line is a line of a drawn directory tree.
func isTreeLine(line string) bool {
	t := strings.TrimLeft(line, " \t")
	for _, c := range framing.TreeDrawings {
		if strings.HasPrefix(t, c) {
			return true
		}
	}
	return false
}

// treeSpan finds the first drawn directory tree in body: its lines from the
// first tree line to the last of the run (the root line before them, the
// listed folder, stays the host's: it is the working directory it names),
// three lines at least. ok is false when there is none.
func treeSpan(body string) (start, end int, root string, ok bool) {
	start = -1
	prev := "" // the last non-blank line
	n := 0
	next := 0
	for ln := range strings.Lines(body) {
		at := next
		next += len(ln)
		line := strings.TrimRight(strings.TrimSuffix(ln, "\n"), "\r")
		switch {
		case isTreeLine(line):
			if start < 0 {
				start = at
				root = strings.TrimSpace(prev)
			}
			end = next
			n++
		case start >= 0:
			if n >= 3 {
				return start, end, root, true
			}
			start, n = -1, 0
		}
		if strings.TrimSpace(line) != "" {
			prev = line
		}
	}
	if start >= 0 && n >= 3 {
		return start, end, root, true
	}
	return 0, 0, "", false
}

// hostListingPieces cuts the body [bs, be) of a host envelope (env) at the
// listings it holds; the rest is the envelope's kind and trust. nil when it
// holds none.
func hostListingPieces(text string, bs, be int, kind wire.Kind, env, cwd string) []piece {
	body := text[bs:be]
	var inner []piece
	if lineTrimmedWith(body, 0, skillsOpen) >= 0 {
		inner = availableSkillsPieces(text, bs, be, cwd)
	}
	if ts, te, root, ok := treeSpan(body); ok {
		tree := piece{start: bs + ts, end: bs + te, kind: wire.KindCwdListing, trust: wire.Untrusted, label: root, name: string(wire.KindCwdListing)}
		inner = insertPiece(inner, tree, bs, be)
	}
	if len(inner) == 0 {
		return nil
	}
	out := make([]piece, 0, len(inner))
	for _, p := range inner {
		p.envelope = env
		if p.kind == wire.KindHostRules && p.trust == wire.Trusted {
			p.kind, p.name = kind, env
		}
		out = append(out, p)
	}
	return out
}

// insertPiece puts p into pieces covering [bs, be) (none: one host piece),
// cutting the host piece it falls in; a piece it overlaps that is not the
// host's keeps its place and p is dropped.
func insertPiece(pieces []piece, p piece, bs, be int) []piece {
	if len(pieces) == 0 {
		pieces = []piece{{start: bs, end: be, kind: wire.KindHostRules, trust: wire.Trusted, name: string(wire.KindHostRules)}}
	}
	var out []piece
	for i, h := range pieces {
		if p.start >= h.start && p.end <= h.end && h.kind == wire.KindHostRules && h.trust == wire.Trusted {
			if p.start > h.start {
				a := h
				a.end = p.start
				out = append(out, a)
			}
			out = append(out, p)
			if p.end < h.end {
				b := h
				b.start = p.end
				out = append(out, b)
			}
			return append(out, pieces[i+1:]...)
		}
		out = append(out, h)
	}
	return pieces
}
