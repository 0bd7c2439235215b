package classify

import (
	"strings"

	"github.com/wirelens/wirelens/wire"
)

// Section is a stretch of a legacy system prompt that carries one payload the
// host did not write itself (or a volatile fact): a timestamp line, a
// directory listing, additional directories, an AGENTS.md body, a skills
// listing. Start and End are byte offsets in the text given to
// LegacySections.
type Section struct {
	Kind  wire.Kind
	Start int
	End   int
	// Label names the payload's source when the prompt says it: the path of
	// an AGENTS.md or of the listed directory. Hostile text.
	Label string
}

// LegacySections finds, in a system-channel text, the sections that carry
// workspace payloads or the time in the legacy layout (everything pasted into
// one system prompt), in order and without overlaps. Everything between them
// is host rules.
//
// It recognises the general shapes real agents use rather than exact bytes:
//   - time: a line with a phrase such as "current date and time", "today's
//     date" or "current time" and a year (19xx or 20xx); the section is the
//     line without its newline;
//   - cwd-listing, additional-dirs, agents-md: the body of a fenced block
//     (``` or ~~~, any length; the closing fence is at least as long) whose
//     preceding paragraph or heading speaks of a directory listing or
//     structure, of additional directories or directories "also in scope",
//     or of AGENTS.md (CLAUDE.md, GEMINI.md); a fence of six or more
//     backticks under a heading about the project counts as agents-md. A
//     fence left open runs to the end of the text, as Markdown renders it;
//   - skills-listing: everything under a heading naming the available skills
//     up to the next heading, or the list that follows a line such as "The
//     following skills are available:" or a "Skills" heading.
//
// Legacy prompts have no trustworthy boundaries: a hostile payload that
// forges a closing fence or a heading can move a section's end. That is the
// weakness the isolated layout fixes; the audit reports the pairing of these
// sections with the system channel whatever their exact extent.
func LegacySections(text string) []Section {
	var (
		out []Section

		heading        string // text of the last heading
		headingEnd     int    // offset after the last heading line
		paraStart      = -1   // the paragraph being read
		lastPara       string // the last complete paragraph
		fence          byte   // fence character while inside a fence, else 0
		fenceLen       int
		fenceKind      wire.Kind
		fenceLabel     string
		fenceBody      int
		skillMode      int // 0 none, 1 to the next heading, 2 a list
		skillStart     = -1
		skillEnd       int
		skillArmedList bool // a "Skills" heading waits for a list
	)
	closeSkills := func() {
		if skillStart >= 0 && skillEnd > skillStart {
			out = append(out, Section{Kind: wire.KindSkillsListing, Start: skillStart, End: skillEnd})
		}
		skillMode, skillStart, skillEnd = 0, -1, 0
	}
	for ls := 0; ls < len(text); {
		le := strings.IndexByte(text[ls:], '\n')
		next := len(text)
		if le < 0 {
			le = len(text)
		} else {
			le += ls
			next = le + 1
		}
		line := strings.TrimRight(text[ls:le], "\r")

		if fence != 0 {
			if c, n, rest := fenceOf(line); c == fence && n >= fenceLen && isBlank(rest) {
				if fenceKind != "" && ls > fenceBody {
					out = append(out, Section{Kind: fenceKind, Start: fenceBody, End: ls, Label: legacyLabel(fenceKind, fenceLabel, text[fenceBody:ls])})
				}
				fence, lastPara = 0, ""
			}
			if skillMode != 0 {
				skillEnd = le
			}
			ls = next
			continue
		}

		blank := isBlank(line)
		lvl, htext := headingOf(line)

		// Skills listings in progress.
		switch skillMode {
		case 1:
			if lvl > 0 {
				closeSkills()
			} else if !blank {
				if skillStart < 0 {
					skillStart = ls
				}
				skillEnd = le
			}
		case 2:
			switch {
			case blank:
			case listItem(line) || (skillStart >= 0 && (line[0] == ' ' || line[0] == '\t')):
				if skillStart < 0 {
					skillStart = ls
				}
				skillEnd = le
			default:
				closeSkills()
			}
		}
		if skillArmedList && !blank {
			skillArmedList = false
			if lvl == 0 && listItem(line) && skillMode == 0 {
				skillMode, skillStart, skillEnd = 2, ls, le
			}
		}

		if lvl > 0 {
			heading, headingEnd = htext, next
			lastPara, paraStart = "", -1
			low := strings.ToLower(htext)
			if skillMode == 0 {
				switch {
				case strings.Contains(low, "available skills") || strings.Contains(low, "skills available"):
					skillMode, skillStart = 1, -1
				case strings.TrimSpace(low) == "skills":
					skillArmedList = true
				}
			}
			ls = next
			continue
		}

		if c, n, info := fenceOf(line); c != 0 && skillMode == 0 && (c == '`' && strings.IndexByte(info, '`') < 0 || c == '~') {
			ctx := lastPara
			if paraStart >= 0 {
				ctx = text[paraStart:ls]
				lastPara = ctx
				paraStart = -1
			}
			fence, fenceLen, fenceBody = c, n, next
			fenceKind = fenceKindOf(ctx, heading, c, n)
			// The label is looked for in the paragraph before the fence, then
			// in the whole stretch under the current heading.
			under := text[headingEnd:ls]
			if len(under) > 2048 {
				under = under[len(under)-2048:]
			}
			fenceLabel = ctx + "\n" + under
			ls = next
			continue
		}

		if blank {
			if paraStart >= 0 {
				lastPara = text[paraStart:ls]
				paraStart = -1
			}
			ls = next
			continue
		}
		if paraStart < 0 {
			paraStart = ls
		}

		if skillMode == 0 && timeLine(line) {
			out = append(out, Section{Kind: wire.KindTime, Start: ls, End: ls + len(line)})
		} else if skillMode == 0 && strings.HasSuffix(strings.TrimRight(line, " \t"), ":") && skillsTrigger(line) {
			skillMode, skillStart = 2, -1
		}
		ls = next
	}
	if fence != 0 && fenceKind != "" && len(text) > fenceBody {
		out = append(out, Section{Kind: fenceKind, Start: fenceBody, End: len(text), Label: legacyLabel(fenceKind, fenceLabel, text[fenceBody:])})
	}
	closeSkills()
	// Sections were appended in order of their end; restore start order.
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].Start < out[j-1].Start; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// fenceOf reads a Markdown fence line (up to three spaces of indent, then
// three or more backticks or tildes): its character, length and the rest.
func fenceOf(line string) (byte, int, string) {
	i := 0
	for i < len(line) && i < 3 && line[i] == ' ' {
		i++
	}
	if i >= len(line) || (line[i] != '`' && line[i] != '~') {
		return 0, 0, ""
	}
	c := line[i]
	n := 0
	for i+n < len(line) && line[i+n] == c {
		n++
	}
	if n < 3 {
		return 0, 0, ""
	}
	return c, n, line[i+n:]
}

// headingOf reads an ATX heading: its level (0 when the line is none) and text.
func headingOf(line string) (int, string) {
	n := 0
	for n < len(line) && n < 7 && line[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || n >= len(line) || line[n] != ' ' {
		return 0, ""
	}
	return n, strings.TrimSpace(line[n:])
}

// listItem reports whether line starts a Markdown list item.
func listItem(line string) bool {
	if len(line) >= 2 && (line[0] == '-' || line[0] == '*' || line[0] == '+') && line[1] == ' ' {
		return true
	}
	i := 0
	for i < len(line) && i < 4 && line[i] >= '0' && line[i] <= '9' {
		i++
	}
	return i > 0 && i+1 < len(line) && (line[i] == '.' || line[i] == ')') && line[i+1] == ' '
}

// skillsTrigger reports whether a line ending in ':' introduces a list of
// available skills ("The following skills are available:").
func skillsTrigger(line string) bool {
	if len(line) > 300 || !ContainsFold(line, "skill") {
		return false
	}
	for _, w := range []string{"available", "following", "installed", "can use", "you have"} {
		if ContainsFold(line, w) {
			return true
		}
	}
	return false
}

// fenceKindOf decides what a fenced block carries from the paragraph before
// it and the heading it sits under; "" when it is host text (an example).
func fenceKindOf(ctx, heading string, c byte, n int) wire.Kind {
	if len(ctx) > 1024 {
		ctx = ctx[len(ctx)-1024:]
	}
	has := func(s string, words ...string) bool {
		for _, w := range words {
			if ContainsFold(s, w) {
				return true
			}
		}
		return false
	}
	switch {
	case has(ctx, "additional director", "also in scope", "additional working director", "extra director") ||
		has(heading, "additional director"):
		return wire.KindAdditionalDirs
	case has(ctx, "agents.md", "claude.md", "gemini.md", "agent.md", "project instructions"),
		c == '`' && n >= 6 && has(heading, "project", "agents"):
		return wire.KindAgentsMD
	case has(ctx, "directory listing", "listing of the current", "listing of current", "listing of the working",
		"listing of the project", "listing of the workspace", "directory contents", "directory structure", "directory tree", "file tree",
		"project structure", "files in the current", "files in the working", "contents of the current directory",
		"contents of the working directory"),
		has(heading, "directory structure", "project structure", "file tree", "directory listing"):
		return wire.KindCwdListing
	}
	return ""
}

// legacyLabel finds a section's source: for an AGENTS.md body the first
// "<!-- From: PATH -->" line of the body or a path ending in .md in the
// paragraph before it; for a listing the first absolute path quoted in
// backticks in that paragraph.
func legacyLabel(kind wire.Kind, ctx, body string) string {
	switch kind {
	case wire.KindAgentsMD:
		head := body
		if len(head) > 2048 {
			head = head[:2048]
		}
		if k := strings.Index(head, "<!-- From: "); k >= 0 {
			rest := head[k+len("<!-- From: "):]
			if e := strings.Index(rest, " -->"); e >= 0 && strings.IndexByte(rest[:e], '\n') < 0 {
				return strings.TrimSpace(rest[:e])
			}
		}
		for _, q := range backticked(ctx) {
			if strings.HasSuffix(strings.ToLower(q), ".md") && strings.ContainsAny(q, "/\\") {
				return q
			}
		}
	case wire.KindCwdListing:
		for _, q := range backticked(ctx) {
			if strings.HasPrefix(q, "/") || strings.HasPrefix(q, "~") || len(q) > 2 && q[1] == ':' {
				return q
			}
		}
	}
	return ""
}

// backticked lists the `quoted` spans of s.
func backticked(s string) []string {
	var out []string
	for {
		a := strings.IndexByte(s, '`')
		if a < 0 {
			return out
		}
		b := strings.IndexByte(s[a+1:], '`')
		if b < 0 {
			return out
		}
		if q := s[a+1 : a+1+b]; q != "" && strings.IndexByte(q, '\n') < 0 {
			out = append(out, q)
		}
		s = s[a+2+b:]
	}
}

// timePhrases are the phrases of a line that states the current time.
var timePhrases = []string{"current date", "today's date", "todays date", "today is", "date and time", "current time", "the time is", "the date is"}

// timeLine reports whether line states the current date or time.
func timeLine(line string) bool {
	if len(line) > 1024 || !hasYear(line) {
		return false
	}
	for _, p := range timePhrases {
		if ContainsFold(line, p) {
			return true
		}
	}
	return false
}

// hasYear reports whether s holds a four-digit year 19xx or 20xx standing
// alone (not inside a longer number).
func hasYear(s string) bool {
	for i := 0; i+4 <= len(s); {
		// Every window holding position i+3 needs a digit there.
		if !isDigit(s[i+3]) {
			i += 4
			continue
		}
		if (s[i] == '1' && s[i+1] == '9' || s[i] == '2' && s[i+1] == '0') &&
			isDigit(s[i+2]) &&
			(i == 0 || !isDigit(s[i-1])) && (i+4 == len(s) || !isDigit(s[i+4])) {
			return true
		}
		i++
	}
	return false
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// ContainsFold reports whether s contains the lower-case ASCII word w,
// ignoring ASCII case, without allocating.
func ContainsFold(s, w string) bool {
	if len(w) == 0 {
		return true
	}
	first := w[0]
	upper := first
	if first >= 'a' && first <= 'z' {
		upper = first - 'a' + 'A'
	}
	for i := 0; i+len(w) <= len(s); i++ {
		if s[i] != first && s[i] != upper {
			continue
		}
		j := 1
		for ; j < len(w); j++ {
			c := s[i+j]
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != w[j] {
				break
			}
		}
		if j == len(w) {
			return true
		}
	}
	return false
}
