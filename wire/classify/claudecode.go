package classify

import (
	"strings"

	"github.com/wirelens/wirelens/wire"
)

// Claude Code's workspace text outside CLAUDE.md, as captured from Claude
// Code 2.1.328 (testdata/agents/claude-code.jsonl): the git status in its
// context reminder, and the skills listing of its system-role message.

// claudeCodeSkillsIntro opens Claude Code's listing of the skills the Skill
// tool can load, one "- NAME: DESCRIPTION" line each.
const claudeCodeSkillsIntro = "The following skills are available for use with the Skill tool:"

// claudeCodeBundledSkills are the skills Claude Code ships (2.1.328, in a
// HOME with no skills of its own): host text. Any other skill in the listing
// came from the workspace (.claude/skills) or the user's home folder, which
// the listing does not tell apart: it is untrusted.
var claudeCodeBundledSkills = map[string]bool{
	"dataviz": true, "update-config": true, "keybindings-help": true, "code-review": true,
	"simplify": true, "fewer-permission-prompts": true, "loop": true, "claude-api": true,
	"workflow-authoring": true, "run": true, "plugin-authoring": true, "init": true, "security-review": true,
}

// claudeCodeSkillsPieces cuts Claude Code's skills listing out of a host
// text: each entry of the list that is not a bundled skill's (a skill of the
// workspace or the user, with the lines of its description) becomes an
// untrusted skills-listing piece labelled with the skill's name; the rest
// stays host text. A description that forges a bundled skill's entry on a
// line of its own is not caught: the listing marks no boundary to tell it by. It returns nil when the text holds no such listing or
// nothing in it to cut.
func claudeCodeSkillsPieces(text string, kind wire.Kind) []piece {
	intro := lineWith(text, 0, claudeCodeSkillsIntro)
	if intro < 0 {
		return nil
	}
	at := strings.IndexByte(text[intro:], '\n')
	if at < 0 {
		return nil
	}
	at += intro + 1
	var out []piece
	host := 0 // start of the pending host stretch
	listed := false
	label := ""
	bundled := false
	for at < len(text) {
		end := strings.IndexByte(text[at:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += at + 1
		}
		line := strings.TrimRight(text[at:end], "\r\n")
		if line == "" {
			if listed {
				break // the blank line after the list
			}
			at = end
			continue
		}
		if name, ok := strings.CutPrefix(line, "- "); ok {
			bundled = false
			if n, _, ok := strings.Cut(name, ":"); ok {
				label = "skill " + n
				bundled = claudeCodeBundledSkills[n]
				if !bundled {
					label += " (not bundled with Claude Code: the workspace's or the user's)"
				}
			}
			listed = true
		} else if !listed {
			break // no list after the intro
		}
		// A line that is not an entry goes on the description before it.
		if !bundled {
			if n := len(out); n > 0 && out[n-1].end == at && out[n-1].label == label && at == host {
				// The next line of the same entry's description.
				out[n-1].end = end
				host = end
				at = end
				continue
			}
			if at > host {
				out = append(out, piece{start: host, end: at, kind: kind, trust: wire.Trusted, name: string(wire.KindHostRules)})
			}
			out = append(out, piece{start: at, end: end, kind: wire.KindSkillsListing, trust: wire.Untrusted, label: label, name: string(wire.KindSkillsListing)})
			host = end
		}
		at = end
	}
	if out == nil {
		return nil
	}
	if host < len(text) {
		out = append(out, piece{start: host, end: len(text), kind: kind, trust: wire.Trusted, name: string(wire.KindHostRules)})
	}
	return out
}

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
	if s > a {
		out = append(out, rem(a, s))
	}
	out = append(out, piece{start: bs + s, end: bs + e, kind: wire.KindEnvironment, trust: wire.Untrusted, envelope: "system-reminder", label: "gitStatus", name: "git-status"})
	if b > e {
		out = append(out, rem(e, b))
	}
	return out
}
