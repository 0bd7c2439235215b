package classify

import (
	"strings"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/framing"
)

// This file reads the rows of framing.SessionContexts: a first user
// message in which a host states the session's facts and pastes the
// workspace (Gemini CLI's <session_context>).

// sessionFor is the row of framing.SessionContexts whose message text is,
// or nil.
func sessionFor(text string) *framing.SessionContext {
	for i := range framing.SessionContexts {
		sc := &framing.SessionContexts[i]
		t := text
		if sc.Open != "" {
			t = strings.TrimPrefix(t, sc.Open+"\n")
		}
		if strings.HasPrefix(t, sc.Head) {
			return sc
		}
	}
	return nil
}

// SessionCwd is the working directory a session message of
// framing.SessionContexts names (its first workspace directory, or the
// directory of an older release's sentence), or "" when text is no such
// message. Only the host's lines before the directory tree are read.
func SessionCwd(text string) string {
	sc := sessionFor(text)
	if sc == nil {
		return ""
	}
	headEnd := lineEnd(text, strings.Index(text, sc.Head))
	list := firstLineWith(text, headEnd, sc.Lists)
	facts := text[headEnd:]
	if list >= 0 {
		facts = text[headEnd:list]
	}
	return sessionWorkspaceDir(sc, text, list, facts)
}

// firstLineWith is the first line at or after from that starts with one of
// prefixes, or -1.
func firstLineWith(text string, from int, prefixes []string) int {
	at := -1
	for _, h := range prefixes {
		if h == "" {
			continue
		}
		if k := lineWith(text, from, h); k >= 0 && (at < 0 || k < at) {
			at = k
		}
	}
	return at
}

// sessionPieces cuts a session message of row sc: the heading is host
// framing (kind other, trusted), the date line the time, the lines after it
// up to the directory tree's first entry the environment (both trusted:
// the workspace directories and the tree's headings are written before any
// file name), the tree's entries a cwd-listing (untrusted, labelled with
// the first directory), and the memory after it is cut at its "--- Context
// from: PATH ---" blocks like any host-headed message.
//
// Only the lines before the tree are read as the host's: the tree's file
// names could forge any line after them. The tree ends at the last Memory
// line (else the last Close line, else the end of the text), so a forged
// one inside it, or inside a memory file, keeps more text untrusted, never
// less. (So does host text that earlier releases wrote after the tree: it
// stays in the listing.)
func sessionPieces(sc *framing.SessionContext, text string) []piece {
	headEnd := lineEnd(text, strings.Index(text, sc.Head))
	// The tree starts at the first of its headings after the heading.
	list := firstLineWith(text, headEnd, sc.Lists)
	factsEnd := list
	if factsEnd < 0 {
		factsEnd = len(text)
	}
	date := -1
	if sc.Date != "" {
		date = lineWith(text[:factsEnd], headEnd, sc.Date)
	}
	from := headEnd
	if list >= 0 {
		from = list
	}
	tail := -1
	if sc.Memory != "" {
		tail = lastLineWith(text, from, sc.Memory)
	}
	if tail < 0 && sc.Close != "" {
		tail = lastLineWith(text, from, sc.Close)
	}
	if tail < 0 {
		tail = len(text)
	}
	if list < 0 {
		factsEnd = tail
	}
	// The headings, the workspace directories, the "Showing up to" line and
	// the root folder before the first drawn line of the tree are the
	// host's, written before any file name: the environment's. The listing
	// starts at the tree's first entry (when the tree draws one).
	treeAt := -1
	if list >= 0 {
		for at := list; at < tail; at = lineEnd(text, at) {
			if isTreeLine(LineAt(text, at)) {
				treeAt = at
				break
			}
		}
	}
	listStart := list
	if treeAt > list {
		factsEnd, listStart = treeAt, treeAt
	}

	var out []piece
	add := func(pc piece) {
		if pc.end > pc.start {
			out = append(out, pc)
		}
	}
	envStart := headEnd
	if date >= 0 {
		add(piece{start: 0, end: date, kind: wire.KindOther, trust: wire.Trusted})
		envStart = lineEnd(text, date)
		add(piece{start: date, end: envStart, kind: wire.KindTime, trust: wire.Trusted, name: string(wire.KindTime)})
	} else {
		add(piece{start: 0, end: headEnd, kind: wire.KindOther, trust: wire.Trusted})
	}
	add(piece{start: envStart, end: factsEnd, kind: wire.KindEnvironment, trust: wire.Trusted, name: string(wire.KindEnvironment)})
	if list >= 0 {
		add(piece{start: listStart, end: tail, kind: wire.KindCwdListing, trust: wire.Untrusted, name: string(wire.KindCwdListing),
			label: sessionWorkspaceDir(sc, text[:tail], list, text[envStart:factsEnd])})
	}
	if tail < len(text) {
		rest := text[tail:]
		pcs := cut(rest, false, true, wire.KindUserInput, wire.TrustUser, "")
		if len(pcs) == 0 {
			pc := piece{start: 0, end: len(rest), kind: wire.KindOther, trust: wire.Trusted}
			if len(scanTags(rest, tagScope{})) > 0 {
				// A Context from block that never ends: workspace text.
				pc.trust = wire.Untrusted
			}
			pcs = []piece{pc}
		}
		for _, pc := range pcs {
			pc.start += tail
			pc.end += tail
			add(pc)
		}
	}
	return out
}

// sessionWorkspaceDir is the first workspace directory of a session
// message: the first DirItem line after the WorkDirs heading at list, or
// the older Cwd sentence among the facts.
func sessionWorkspaceDir(sc *framing.SessionContext, text string, list int, facts string) string {
	if list >= 0 && sc.WorkDirs != "" && strings.HasPrefix(text[list:], sc.WorkDirs) {
		next := lineEnd(text, list)
		if line := LineAt(text, min(next, len(text))); strings.HasPrefix(line, sc.DirItem) {
			return strings.TrimSpace(line[len(sc.DirItem):])
		}
	}
	if k := lineWith(facts, 0, sc.Cwd); sc.Cwd != "" && k >= 0 {
		return strings.TrimSpace(LineAt(facts, k)[len(sc.Cwd):])
	}
	return ""
}

// lineEnd is the offset just past the newline that ends the line at k (the
// end of text when the line has none).
func lineEnd(text string, k int) int {
	if e := strings.IndexByte(text[k:], '\n'); e >= 0 {
		return k + e + 1
	}
	return len(text)
}
