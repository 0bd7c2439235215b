package classify

import (
	"strings"

	"github.com/wirelens/wirelens/wire"
)

// Claude Code's workspace text outside CLAUDE.md, as captured from Claude
// Code 2.1.328 (testdata/agents/claude-code.jsonl): the git status in its
// context reminder. (Its skills listing is a row of SkillLists.)

// gitStatusData is the workspace's part of the "# gitStatus" section of
// Claude Code's context reminder body: from its "Current branch:" line to
// the end of its "Recent commits:" list, else to the next heading or the
// host's trailer line (branch names, the files of the status and commit
// subjects are written by whoever made the repository).
// It returns -1, -1 when there is none.
func gitStatusData(body string, from int) (start, end int) {
	h := lineWith(body, from, "# gitStatus")
	if h < 0 {
		return -1, -1
	}
	start = lineWith(body, h, "Current branch:")
	if start < 0 {
		return -1, -1
	}
	end = len(body)
	for _, k := range append([]string{claudeCodeTrailer}, claudeCodeKeys...) {
		if p := lineWith(body, start, k); p >= 0 && p < end {
			end = p
		}
	}
	if rc := lineWith(body, start, "Recent commits:"); rc >= 0 && rc < end {
		if e := strings.Index(body[rc:end], "\n\n"); e >= 0 {
			end = rc + e + 1
		}
	}
	return start, end
}

// hostWithGitStatus returns the pieces of the trusted reminder text [a, b)
// of a reminder body starting at bs, with the git status data in it cut
// out as untrusted environment text.
func hostWithGitStatus(body string, bs, a, b int) []piece {
	rem := func(x, y int) piece {
		return piece{start: bs + x, end: bs + y, kind: wire.KindReminder, trust: wire.Trusted, envelope: "system-reminder", name: "system-reminder"}
	}
	s, e := gitStatusData(body, a)
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
		if n := gitStatusLabel(line); n > 0 {
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
		add(piece{start: bs + value, end: bs + end, kind: wire.KindEnvironment, trust: wire.Untrusted, envelope: "system-reminder", label: "gitStatus", name: "git-status"})
		at = end
	}
	add(rem(e, b))
	return out
}

// gitStatusLabels are the labels Claude Code writes in its git status.
var gitStatusLabels = []string{"Current branch", "Main branch", "Status", "Recent commits", "Git user"}

// gitStatusLabel is the length of the host's label that opens a line of
// the git status ("Current branch: ", "Main branch (...): ", "Status:"),
// or 0: a known label, an optional parenthesis, a colon and a space. A
// line of the status's file list ("M  a:b") is never one.
func gitStatusLabel(line string) int {
	known := false
	for _, l := range gitStatusLabels {
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
