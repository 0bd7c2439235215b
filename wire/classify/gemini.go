package classify

import (
	"strings"

	"github.com/wirelens/wirelens/wire"
)

// Gemini CLI's first user message (getEnvironmentContext in its
// packages/core/src/utils/environmentContext.ts) states the session's facts
// and pastes the workspace:
//
//	<session_context>
//	This is the Gemini CLI. We are setting up the context for our chat.
//	Today's date is DATE (formatted according to the user's locale).
//	My operating system is: OS
//	The project's temporary directory is: DIR
//	- **Workspace Directories:**
//	  - DIR
//	- **Directory Structure:**
//
//	FOLDER STRUCTURE
//
//
//	<loaded_context>
//	<extension_context>
//	--- Context from: PATH ---
//	...
//	--- End of Context from: PATH ---
//	</extension_context>
//	<project_context>
//	...
//	</project_context>
//	</loaded_context>
//	</session_context>
//
// Earlier releases wrote no <session_context> tags, "I'm currently working
// in the directory: DIR" and "Here is the folder structure of the current
// working directories:" instead of the two Markdown headings, and no
// <loaded_context>. The directory tree lists the workspace's file names and
// the GEMINI.md files are the workspace's text; the rest is the host's.
const (
	geminiOpen     = "<session_context>"
	geminiHead     = "This is the Gemini CLI. We are setting up the context for our chat."
	geminiDate     = "Today's date is "
	geminiWorkDirs = "- **Workspace Directories:**"
	geminiOldCwd   = "I'm currently working in the directory: "
	geminiOldTree  = "Here is the folder structure of the current working directories:"
	geminiMemory   = "<loaded_context>"
	geminiClose    = "</session_context>"
)

// GeminiSessionCwd is the working directory Gemini CLI's session context
// message names (its first workspace directory, or the directory of the
// earlier "I'm currently working in the directory" sentence), or "" when
// text is no such message. Only the host's lines before the directory tree
// are read.
func GeminiSessionCwd(text string) string {
	if !isGeminiSession(text) {
		return ""
	}
	headEnd := lineEnd(text, strings.Index(text, geminiHead))
	if k := lineWith(text, headEnd, geminiWorkDirs); k >= 0 {
		if next := lineEnd(text, k); next < len(text) {
			if line := LineAt(text, next); strings.HasPrefix(line, "  - ") {
				return strings.TrimSpace(line[len("  - "):])
			}
		}
	}
	if k := lineWith(text, headEnd, geminiOldCwd); k >= 0 {
		if t := lineWith(text, headEnd, geminiOldTree); t < 0 || k < t {
			return strings.TrimSpace(LineAt(text, k)[len(geminiOldCwd):])
		}
	}
	return ""
}

// isGeminiSession reports whether text is Gemini CLI's session context
// message.
func isGeminiSession(text string) bool {
	t := strings.TrimPrefix(text, geminiOpen+"\n")
	return strings.HasPrefix(t, geminiHead)
}

// geminiSessionPieces cuts Gemini CLI's session context message: the heading
// is host framing (kind other, trusted), the date line the time, the lines
// after it up to the directory tree's first entry the environment (both
// trusted: the workspace directories and the tree's headings are written
// before any file name), the tree's entries a cwd-listing (untrusted,
// labelled with the first directory), and the memory after it is cut at its
// "--- Context from: PATH ---" blocks like any host-headed message.
//
// Only the lines before the tree are read as the host's: the tree's file
// names could forge any line after them. The tree ends at the last
// <loaded_context> line (else the last </session_context> line, else the
// end of the text), so a forged one inside it, or inside a GEMINI.md body,
// keeps more text untrusted, never less. (So does host text that earlier
// releases wrote after the tree: it stays in the listing.)
func geminiSessionPieces(text string) []piece {
	headEnd := lineEnd(text, strings.Index(text, geminiHead))
	// The tree starts at the first of its headings after the heading.
	list := -1
	for _, h := range []string{geminiWorkDirs, geminiOldTree} {
		if k := lineWith(text, headEnd, h); k >= 0 && (list < 0 || k < list) {
			list = k
		}
	}
	factsEnd := list
	if factsEnd < 0 {
		factsEnd = len(text)
	}
	date := lineWith(text[:factsEnd], headEnd, geminiDate)
	from := headEnd
	if list >= 0 {
		from = list
	}
	tail := lastLineWith(text, from, geminiMemory)
	if tail < 0 {
		tail = lastLineWith(text, from, geminiClose)
	}
	if tail < 0 {
		tail = len(text)
	}
	if list < 0 {
		factsEnd = tail
	}
	// The headings, the workspace directories, the "Showing up to" line and
	// the root folder before the first drawn line of the tree are Gemini
	// CLI's, written before any file name: the environment's. The listing
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
			label: geminiWorkspaceDir(text[:tail], list, text[envStart:factsEnd])})
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

// geminiWorkspaceDir is the first workspace directory of a Gemini CLI
// session context: the first "  - DIR" line after the Workspace Directories
// heading at list, or the old "I'm currently working in the directory:"
// line among the facts.
func geminiWorkspaceDir(text string, list int, facts string) string {
	if strings.HasPrefix(text[list:], geminiWorkDirs) {
		next := lineEnd(text, list)
		if line := LineAt(text, min(next, len(text))); strings.HasPrefix(line, "  - ") {
			return strings.TrimSpace(line[len("  - "):])
		}
	}
	if k := lineWith(facts, 0, geminiOldCwd); k >= 0 {
		return strings.TrimSpace(LineAt(facts, k)[len(geminiOldCwd):])
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
