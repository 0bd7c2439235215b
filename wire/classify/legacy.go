package classify

import (
	"cmp"
	"slices"
	"strings"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/framing"
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
	// Trust is the section's trust when a framing says ("" is untrusted;
	// wire.TrustUser for the user's own files).
	Trust wire.Trust
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
//     fence left open runs to the end of the text, as Markdown renders it.
//     An AGENTS.md fence of seven or more backticks (kimi-code's) ends at
//     the last closing fence that a heading or the end of the text follows
//     (see framedClose), and its body is cut into one section per file at
//     kimi-code's "<!-- From: PATH -->" lines (see agentsFiles);
//   - skills-listing: everything under a heading naming the available skills
//     up to the next heading, or the list that follows a line such as "The
//     following skills are available:" or a "Skills" heading.
//
// Legacy prompts have no trustworthy boundaries: a hostile payload that
// forges a closing fence or a heading can move a section's end. That is the
// weakness the isolated layout fixes; the audit reports the pairing of these
// sections with the system channel whatever their exact extent.
func LegacySections(text string) []Section {
	s := legacyScanner{text: text, paraStart: -1, skillStart: -1}
	for s.nextLine() {
		// Inside a fenced block only its closing fence counts.
		if s.fence != 0 {
			s.fenceLine()
			continue
		}
		lvl, htext := headingOf(s.line)
		blank := isBlank(s.line)
		// The skills listing being read grows or ends first, so that the
		// heading that ends one can start the next.
		s.followSkills(lvl, blank)
		c, n := s.fenceOpener()
		switch {
		case lvl > 0:
			s.headingLine(htext)
		case c != 0:
			s.openFence(c, n)
		case blank:
			s.endParagraph()
		default:
			s.textLine()
		}
	}
	// A fence left open runs to the end of the text, as Markdown renders it.
	s.closeFence(len(text))
	s.closeSkills()
	// The lists of SkillLists' rows, in place of the sections they overlap
	// (the scanner's listing after a skills sentence starts after it).
	for _, l := range skillListSections(text) {
		s.out = slices.DeleteFunc(s.out, func(o Section) bool { return o.Start < l.End && l.Start < o.End })
		s.out = append(s.out, l)
	}
	// The blocks of the framings table, where no section is.
	for _, f := range framedSections(text) {
		if !slices.ContainsFunc(s.out, func(o Section) bool { return o.Start < f.End && f.Start < o.End }) {
			s.out = append(s.out, f)
		}
	}
	// Sections were appended in order of their end; restore start order.
	slices.SortStableFunc(s.out, func(a, b Section) int { return cmp.Compare(a.Start, b.Start) })
	return s.out
}

// legacyScanner is the state of LegacySections as it reads the text line by
// line: the Markdown context a fenced block is judged by (the last heading and
// paragraph), the fenced block being read and the skills listing being read.
type legacyScanner struct {
	text string
	out  []Section

	// The line being read: text[start:end] without its newline, line the same
	// without a trailing '\r'; next is the offset of the line after it.
	line             string
	start, end, next int

	heading    string // text of the last heading
	headingEnd int    // offset after the last heading line
	paraStart  int    // start of the paragraph being read, -1 between paragraphs
	lastPara   string // the last complete paragraph

	// The fenced block being read: its character (0 outside a block) and
	// length, which a closing fence must match; what it carries ("" for
	// host text such as an example); the text its label is looked for in;
	// the offset where its body starts.
	fence      byte
	fenceLen   int
	fenceKind  wire.Kind
	fenceLabel string
	fenceBody  int
	// fenceClose, when not -1, is the start of the line that closes the
	// block, chosen ahead (kimi-code's AGENTS.md fence: see framedClose).
	fenceClose int

	// The skills listing being read, from skillStart (-1 until its first
	// line) to skillEnd. skillArmedList is set by a "Skills" heading: a list
	// right under it is a listing.
	skillMode      skillsMode
	skillStart     int
	skillEnd       int
	skillArmedList bool
}

// skillsMode says whether a skills listing is being read and what ends it.
type skillsMode int

const (
	noSkills        skillsMode = iota
	skillsToHeading            // under a heading naming the available skills: up to the next heading
	skillsList                 // a list: up to the first line that is neither an item nor indented under one
)

// nextLine moves to the next line; false at the end of the text.
func (s *legacyScanner) nextLine() bool {
	s.start = s.next
	if s.start >= len(s.text) {
		return false
	}
	s.end, s.next = len(s.text), len(s.text)
	if i := strings.IndexByte(s.text[s.start:], '\n'); i >= 0 {
		s.end = s.start + i
		s.next = s.end + 1
	}
	s.line = strings.TrimRight(s.text[s.start:s.end], "\r")
	return true
}

// fenceLine reads a line inside a fenced block: the body runs until a fence
// of the same character, at least as long, with nothing after it. Nothing
// else is looked for in a body: its headings and time lines are the
// payload's. (A block never opens inside a skills listing, so no listing
// is being read here.)
func (s *legacyScanner) fenceLine() {
	if s.fenceClose >= 0 {
		if s.start == s.fenceClose {
			s.closeFence(s.start)
		}
		return
	}
	if c, n, rest := fenceOf(s.line); c == s.fence && n >= s.fenceLen && isBlank(rest) {
		s.closeFence(s.start)
	}
}

// closeFence ends the fenced block being read, if any, with its body ending
// at end, and keeps the body as a section when it carries a payload. What
// came before the block no longer speaks of what follows it.
func (s *legacyScanner) closeFence(end int) {
	if s.fence == 0 {
		return
	}
	if s.fenceKind != "" && end > s.fenceBody {
		body := s.text[s.fenceBody:end]
		if files := agentsFiles(body); s.fenceKind == wire.KindAgentsMD && files != nil {
			for _, f := range files {
				f.Start += s.fenceBody
				f.End += s.fenceBody
				s.out = append(s.out, f)
			}
		} else {
			s.out = append(s.out, Section{Kind: s.fenceKind, Start: s.fenceBody, End: end, Label: legacyLabel(s.fenceKind, s.fenceLabel, body)})
		}
	}
	s.fence, s.lastPara = 0, ""
}

// fenceOpener reads a line that opens a fenced block: its character and
// length, or 0 when it opens none. A backtick fence whose info string holds
// a backtick is inline code, not a fence; inside a skills listing a fence is
// part of the listing.
func (s *legacyScanner) fenceOpener() (byte, int) {
	c, n, info := fenceOf(s.line)
	if c == 0 || s.skillMode != noSkills || c == '`' && strings.IndexByte(info, '`') >= 0 {
		return 0, 0
	}
	return c, n
}

// openFence starts a fenced block of n characters c on the current line and
// decides what it carries from the paragraph before it (which the fence
// ends) and the heading it sits under.
func (s *legacyScanner) openFence(c byte, n int) {
	s.endParagraph()
	ctx := s.lastPara
	s.fence, s.fenceLen, s.fenceBody = c, n, s.next
	s.fenceKind = fenceKindOf(ctx, s.heading, c, n)
	s.fenceClose = -1
	if s.fenceKind == wire.KindAgentsMD && c == '`' && fencedRow(n) != nil {
		s.fenceClose = framedClose(s.text, s.next, n)
	}
	// The label is looked for in the paragraph before the fence, then
	// in the whole stretch under the current heading.
	under := s.text[s.headingEnd:s.start]
	if len(under) > 2048 {
		under = under[len(under)-2048:]
	}
	s.fenceLabel = ctx + "\n" + under
}

// headingLine reads a heading with text htext: it replaces the context of
// fenced blocks. Outside a skills listing, a heading naming the available
// skills starts one up to the next heading; a "Skills" heading waits for a
// list.
func (s *legacyScanner) headingLine(htext string) {
	s.heading, s.headingEnd = htext, s.next
	s.lastPara, s.paraStart = "", -1
	if s.skillMode != noSkills {
		return
	}
	low := strings.ToLower(htext)
	switch {
	case strings.Contains(low, "available skills") || strings.Contains(low, "skills available") || strings.Contains(low, "available agent skills"):
		s.skillMode, s.skillStart = skillsToHeading, -1
	case strings.TrimSpace(low) == "skills":
		s.skillArmedList = true
	}
}

// endParagraph ends the paragraph being read, if any, at the current line.
func (s *legacyScanner) endParagraph() {
	if s.paraStart >= 0 {
		s.lastPara = s.text[s.paraStart:s.start]
		s.paraStart = -1
	}
}

// textLine reads a non-blank line of a paragraph: outside a skills listing,
// it may state the time (a section of its own) or introduce a list of skills.
func (s *legacyScanner) textLine() {
	if s.paraStart < 0 {
		s.paraStart = s.start
	}
	if s.skillMode != noSkills {
		return
	}
	if timeLine(s.line) {
		s.out = append(s.out, Section{Kind: wire.KindTime, Start: s.start, End: s.start + len(s.line)})
	} else if strings.HasSuffix(strings.TrimRight(s.line, " \t"), ":") && skillsTrigger(s.line) {
		s.skillMode, s.skillStart = skillsList, -1
	}
}

// followSkills reads a line (outside a fenced block) for the skills listing:
// it extends or ends the listing being read, and a list item right under a
// "Skills" heading starts one. lvl is the line's heading level (0 for
// none). Blank lines neither extend nor end a listing.
func (s *legacyScanner) followSkills(lvl int, blank bool) {
	switch s.skillMode {
	case skillsToHeading:
		if lvl > 0 {
			s.closeSkills()
		} else if !blank {
			s.extendSkills()
		}
	case skillsList:
		switch {
		case blank:
		case listItem(s.line) || (s.skillStart >= 0 && (s.line[0] == ' ' || s.line[0] == '\t')):
			s.extendSkills()
		default:
			s.closeSkills()
		}
	}
	if s.skillArmedList && !blank {
		s.skillArmedList = false
		if lvl == 0 && listItem(s.line) && s.skillMode == noSkills {
			s.skillMode, s.skillStart, s.skillEnd = skillsList, s.start, s.end
		}
	}
}

// extendSkills adds the current line to the skills listing being read.
func (s *legacyScanner) extendSkills() {
	if s.skillStart < 0 {
		s.skillStart = s.start
	}
	s.skillEnd = s.end
}

// closeSkills ends the skills listing being read, keeping it as a section
// when it has a line.
func (s *legacyScanner) closeSkills() {
	if s.skillStart >= 0 && s.skillEnd > s.skillStart {
		s.out = append(s.out, Section{Kind: wire.KindSkillsListing, Start: s.skillStart, End: s.skillEnd})
	}
	s.skillMode, s.skillStart, s.skillEnd = noSkills, -1, 0
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
// provenance line of the body (framing.FencedFilesRows) or a path ending
// in .md in the
// paragraph before it; for a listing the first absolute path quoted in
// backticks in that paragraph.
func legacyLabel(kind wire.Kind, ctx, body string) string {
	switch kind {
	case wire.KindAgentsMD:
		head := body
		if len(head) > 2048 {
			head = head[:2048]
		}
		for _, r := range framing.FencedFilesRows {
			if k := strings.Index(head, r.FromPrefix); k >= 0 {
				rest := head[k+len(r.FromPrefix):]
				if e := strings.Index(rest, r.FromSuffix); e >= 0 && strings.IndexByte(rest[:e], '\n') < 0 {
					return strings.TrimSpace(rest[:e])
				}
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

// fencedRow is the row of framing.FencedFilesRows whose fence a backtick
// fence of n characters can be, or nil.
func fencedRow(n int) *framing.FencedFiles {
	for i := range framing.FencedFilesRows {
		if r := &framing.FencedFilesRows[i]; n >= r.Fence {
			return r
		}
	}
	return nil
}

// framedClose chooses the line that closes a backtick fence of n opened
// before offset from: the last closing fence (n or more backticks, nothing
// after) that, across blank lines, a heading or the end of the text
// follows, as kimi-code's template puts "# Skills", "# Plugin Instructions"
// or "# Ultimate Reminders" after it; failing that the first closing fence,
// as Markdown reads it; len(text) when there is none. An AGENTS.md that
// writes its own closing fence cannot end the block early then: the text
// after it stays in the body, where the audit reports the fence.
func framedClose(text string, from, n int) int {
	first, framed := -1, -1
	for at := from; at < len(text); {
		end, next := len(text), len(text)
		if i := strings.IndexByte(text[at:], '\n'); i >= 0 {
			end, next = at+i, at+i+1
		}
		line := strings.TrimRight(text[at:end], "\r")
		if c, k, rest := fenceOf(line); c == '`' && k >= n && isBlank(rest) {
			if first < 0 {
				first = at
			}
			if followedByHeading(text[next:]) {
				framed = at
			}
		}
		at = next
	}
	switch {
	case framed >= 0:
		return framed
	case first >= 0:
		return first
	}
	return len(text)
}

// followedByHeading reports whether rest, after blank lines, is empty or
// starts with an ATX heading.
func followedByHeading(rest string) bool {
	for rest != "" {
		line, after, _ := strings.Cut(rest, "\n")
		line = strings.TrimRight(line, "\r")
		if !isBlank(line) {
			lvl, _ := headingOf(line)
			return lvl > 0
		}
		rest = after
	}
	return true
}

// FromLine reads a line as a provenance line of a row of
// framing.FencedFilesRows (kimi-code's "<!-- From: PATH -->"): the path, or
// "" when the line is none.
func FromLine(line string) string {
	p, _ := fromLine(line)
	return p
}

// fromLine is FromLine with the row whose line it is.
func fromLine(line string) (string, *framing.FencedFiles) {
	line = strings.TrimRight(line, "\r")
	for i := range framing.FencedFilesRows {
		r := &framing.FencedFilesRows[i]
		if strings.HasPrefix(line, r.FromPrefix) && strings.HasSuffix(line, r.FromSuffix) && len(line) > len(r.FromPrefix)+len(r.FromSuffix) {
			return line[len(r.FromPrefix) : len(line)-len(r.FromSuffix)], r
		}
	}
	return "", nil
}

// agentsFiles cuts an AGENTS.md body that starts with a provenance line into
// one section per file, each labelled with its path; nil when the body
// does not start with one. kimi-code joins the files, each trimmed, with a
// blank line, so a later provenance line starts a file only when a blank
// line precedes it, its path's base name is one of the row's Names (the
// names kimi-code loads) and no earlier file had that path. Any other
// provenance line stays in the body it sits in, where the audit reports it
// as forged; one that copies all of this is read as a file of its own (a
// legacy prompt has no trustworthy boundaries).
func agentsFiles(body string) []Section {
	first, _, _ := strings.Cut(body, "\n")
	p, row := fromLine(first)
	if p == "" {
		return nil
	}
	out := []Section{{Kind: wire.KindAgentsMD, Start: 0, Label: p}}
	seen := map[string]bool{p: true}
	for at := strings.IndexByte(body, '\n') + 1; at > 0 && at < len(body); {
		end, next := len(body), len(body)
		if i := strings.IndexByte(body[at:], '\n'); i >= 0 {
			end, next = at+i, at+i+1
		}
		if p, r := fromLine(body[at:end]); r == row && !seen[p] && slices.Contains(row.Names, p[strings.LastIndexAny(p, "/\\")+1:]) && strings.HasSuffix(body[:at], "\n\n") {
			seen[p] = true
			out[len(out)-1].End = at
			out = append(out, Section{Kind: wire.KindAgentsMD, Start: at, Label: p})
		}
		at = next
	}
	out[len(out)-1].End = len(body)
	return out
}
