package classify

import (
	"path"
	"slices"
	"strings"

	"github.com/wirelens/wirelens/wire"
)

// Framing is one way a host introduces workspace text in its own channel:
// a line that opens a block (Opener, with the file's path in it where the
// host names one), what ends the block, what it carries, which agents write
// it, and a fixture (the smallest text that shows it; TestFramings runs
// each). Adding an agent that frames workspace text this way means adding
// a row, not code.
type Framing struct {
	Name string
	// Opener matches the line that opens a block: a prefix, then the path
	// (to the end of the line, or up to Suffix).
	Prefix, Suffix string
	// Heading: the opener is a Markdown heading (any level) whose text is
	// the path of an instruction file (InstructionFile). Headings inside
	// the file do not end the block (a hostile file would end it early):
	// it ends where a block without Close does, or at a "====" rule line.
	Heading bool
	// Names are more heading texts (folded to lower case) that open a block
	// of this row, besides instruction files' names.
	Names []string
	// Trust of the block: untrusted unless the row says the host pastes
	// the user's own files under it (wire.TrustUser).
	Trust wire.Trust
	// Close, when set, is the prefix of the line that ends the block; else
	// it ends at the next line that opens any framing, a line that is a
	// lone tag of markup (<available_skills>, </system>), or the end of the
	// text.
	Close string
	// Whole: the block's opener and closer lines are part of its section
	// (a skills listing, cut per skill by the section's reader).
	Whole bool
	// LeadIn, when set, is a word of the paragraph with which the host
	// introduces a block of this row (opencode's and pi's sentences
	// before <available_skills>): the paragraph right before the opener
	// (blank lines between allowed), a few lines of prose naming the word.
	// A framed block with no closer that runs up to this block ends before
	// that paragraph: the host's text resumes there. (Under a host that
	// wrote no lead-in, a file's own last paragraph naming the word would
	// pass for one; the hazard rules still read it, whatever its trust.)
	LeadIn string
	// UserUntil, when set, is a line inside a block of this row that the
	// host writes between the user's own file (before it: trust user) and
	// the workspace's (after it): Codex's "--- project-doc ---". Only its
	// first occurrence counts: nothing of the workspace's comes before it.
	UserUntil string
	Kind      wire.Kind
	Agents    string
	// ReadBy, when set, names the reader of this row's blocks where they
	// are cut with the envelopes (dialects.go, gemini.go, claudecode.go):
	// the row is listed, and its fixture tested, but framedSections leaves
	// it to that reader.
	ReadBy string
	// Channel and Role of the fixture's part ("": the system prompt).
	Channel wire.Channel
	Role    string
	// Fixture is a text with one block of this framing around the body
	// "WL-FRAMED-BODY\n" (TestFramings).
	Fixture string
}

// Framings are the framings read from system-channel text (LegacySections
// adds their blocks to its sections). The envelopes (dialects.go), Gemini
// CLI's and qwen-code's "--- Context from: PATH ---" blocks, Codex's
// "# AGENTS.md instructions for DIR" and Claude Code's "Contents of PATH"
// are read where those texts are cut (dialects.go, gemini.go,
// claudecode.go) and listed in the README's table beside these.
var Framings = []Framing{
	{Name: "instructions-from", Prefix: "Instructions from: ", Kind: wire.KindAgentsMD, Agents: "opencode",
		Fixture: "You are a helpful host.\nInstructions from: /w/AGENTS.md\nWL-FRAMED-BODY\n"},
	{Name: "instruction-heading", Heading: true, Kind: wire.KindAgentsMD, Agents: "cline (## .clinerules, ## AGENTS.md under # Rules), any host that heads a pasted file with its name",
		Fixture: "# Rules\n\n## .clinerules\n\nWL-FRAMED-BODY\n\n====\n\nOTHER HOST TEXT\n"},
	{Name: "cline-rules", Heading: true, Names: []string{"rules", "workspace-rules", "workspace rules"}, Kind: wire.KindAgentsMD, Agents: "cline 3 (# Rules / ## rules: the workspace's .clinerules)",
		Fixture: "# Rules\n## rules\nWL-FRAMED-BODY\n"},
	{Name: "cline-user-rules", Heading: true, Names: []string{"user-rules", "global rules"}, Kind: wire.KindAgentsMD, Trust: wire.TrustUser, Agents: "cline 3 (## user-rules: the user's own rules in HOME)",
		Fixture: "# Rules\n## user-rules\nWL-FRAMED-BODY\n"},
	{Name: "available-skills", Prefix: "<available_skills>", Close: "</available_skills>", Whole: true, LeadIn: "skill", Kind: wire.KindSkillsListing,
		Agents:  "opencode and pi (in the system prompt after the instruction files, a paragraph before it), Gemini CLI",
		Fixture: "Host rules.\n<available_skills>\n  <skill>\n    <name>wl</name>\n    <description>WL-FRAMED-BODY</description>\n    <location>/w/.agents/skills/wl/SKILL.md</location>\n  </skill>\n</available_skills>\n"},
	{Name: "context-from", ReadBy: "dialects.go (context-from)", Kind: wire.KindAgentsMD, Agents: "Gemini CLI, qwen-code",
		Fixture: "Host rules.\n--- Context from: /w/QWEN.md ---\nWL-FRAMED-BODY\n--- End of Context from: /w/QWEN.md ---\n"},
	{Name: "agents-md-instructions", ReadBy: "dialects.go (INSTRUCTIONS)", Kind: wire.KindAgentsMD, Agents: "Codex", UserUntil: "--- project-doc ---",
		Channel: wire.ChannelMessages, Role: "user",
		Fixture: "# AGENTS.md instructions for /w\n\n<INSTRUCTIONS>\nWL-FRAMED-BODY\n</INSTRUCTIONS>"},
	{Name: "contents-of", ReadBy: "dialects.go (reminderPieces)", Kind: wire.KindAgentsMD, Agents: "Claude Code",
		Channel: wire.ChannelMessages, Role: "user",
		Fixture: "<system-reminder>\nCodebase and user instructions are shown below.\n\nContents of /w/CLAUDE.md (project instructions, checked into the codebase):\n\nWL-FRAMED-BODY\n</system-reminder>\n"},
	{Name: "custom-instructions", Prefix: "CUSTOM INSTRUCTIONS:", Kind: wire.KindAgentsMD, Agents: "cline-style hosts, Roo Code",
		Fixture: "Host rules.\n\nCUSTOM INSTRUCTIONS:\nWL-FRAMED-BODY\n"},
	{Name: "rules-from", Prefix: "Rules from: ", Kind: wire.KindAgentsMD, Agents: "hosts that name a rules file before pasting it",
		Fixture: "Host rules.\nRules from: .cursorrules\nWL-FRAMED-BODY\n"},
}

// InstructionFiles are the base names (folded to lower case) of files that
// agents read as instructions: a heading naming one frames its text, and
// the provenance index gives their text the kind agents-md.
var InstructionFiles = map[string]bool{
	"agents.md": true, "agent.md": true, "agents.override.md": true, "claude.md": true, "claude.local.md": true,
	"gemini.md": true, "qwen.md": true, ".clinerules": true, ".cursorrules": true, ".windsurfrules": true,
	"copilot-instructions.md": true, "conventions.md": true, "crush.md": true, ".goosehints": true,
	"opencode.md": true, "kimi.md": true,
}

// InstructionDirs are folders whose text files are instructions.
var InstructionDirs = []string{".clinerules", ".cursor/rules", ".windsurf/rules", ".github/instructions", ".kiro/steering", ".claude/rules"}

// InstructionFile reports whether p (a path or a base name) names an
// instruction file.
func InstructionFile(p string) bool {
	p = strings.TrimSpace(strings.Trim(strings.TrimSpace(p), "`*"))
	if p == "" || strings.ContainsAny(p, " \t") {
		return false
	}
	if InstructionFiles[strings.ToLower(path.Base(p))] {
		return true
	}
	for _, d := range InstructionDirs {
		if strings.Contains(p, d+"/") {
			return true
		}
	}
	return false
}

// framingOpen reports which framing a line opens, with the path it names.
func framingOpen(line string) (*Framing, string, bool) {
	t := strings.TrimSpace(line)
	for i := range Framings {
		f := &Framings[i]
		if f.ReadBy != "" {
			continue
		}
		if f.Heading {
			lvl, h := headingOf(t)
			if lvl == 0 || lvl == 1 && len(f.Names) > 0 {
				continue
			}
			if len(f.Names) > 0 {
				if slices.Contains(f.Names, strings.ToLower(h)) {
					return f, h, true
				}
				continue
			}
			// The heading names the file, maybe after a word or two
			// ("## Workspace AGENTS.md").
			if w := strings.Fields(h); len(w) > 0 && len(w) <= 3 && InstructionFile(w[len(w)-1]) {
				return f, strings.Trim(w[len(w)-1], "`*"), true
			}
			continue
		}
		if rest, ok := strings.CutPrefix(t, f.Prefix); ok {
			if f.Suffix != "" {
				var cut bool
				if rest, _, cut = strings.Cut(rest, f.Suffix); !cut {
					continue
				}
			}
			return f, strings.TrimSpace(rest), true
		}
	}
	return nil, "", false
}

// loneTag reports whether a line is nothing but one tag of markup
// (<available_skills>, </system>): the host's own structure, which ends a
// framed block that has no closer.
func loneTag(line string) bool {
	t := strings.TrimSpace(line)
	if len(t) < 3 || t[0] != '<' || t[len(t)-1] != '>' {
		return false
	}
	for _, c := range t[1 : len(t)-1] {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '/') {
			return false
		}
	}
	return true
}

// lastHostBlock is the start of the line that opens the last block of the
// host's own markup: a lone opening tag (<available_skills>) closed by a
// later lone line (</available_skills>) with no other opener of its name
// between them, not nested in another such block (its <skill> entries). A
// framed block before it ends there. The last, and the well formed, so that
// a pasted file cannot end its block early with a lone tag of its own (the
// file comes before the host's block; an opener of its own without a closer
// has the host's opener between it and the closer). -1 when there is none.
func lastHostBlock(text string) int {
	type tagLine struct {
		start   int
		name    string
		closing bool
	}
	var tl []tagLine
	at := 0
	for ln := range strings.Lines(text) {
		if t := strings.TrimSpace(ln); loneTag(t) {
			closing := t[1] == '/'
			name := strings.Trim(t, "</>")
			tl = append(tl, tagLine{at, name, closing})
		}
		at += len(ln)
	}
	type block struct{ open, close int }
	var blocks []block
	for i, o := range tl {
		if o.closing {
			continue
		}
		for j := i + 1; j < len(tl); j++ {
			if tl[j].name != o.name {
				continue
			}
			if tl[j].closing {
				blocks = append(blocks, block{o.start, tl[j].start})
			}
			break // an opener of the same name first: o is not well formed
		}
	}
	best := -1
	for i, b := range blocks {
		nested := false
		for k, c := range blocks {
			if k != i && c.open < b.open && b.close < c.close {
				nested = true
				break
			}
		}
		if !nested && b.open > best {
			best = b.open
		}
	}
	return best
}

// leadInStart is where a framed block with no closer, whose body starts at
// from, ends before the host's block at: after its last non-blank line
// before the host's lead-in paragraph when the host block's row has one
// (Framing.LeadIn) and the paragraph is there, else after its last
// non-blank line before at. The blank lines and the paragraph are the
// host's.
func leadInStart(text string, from, at int) int {
	end := trimBlankTail(text, from, at)
	f, _, ok := framingOpen(LineAt(text, at))
	if !ok || f.LeadIn == "" {
		return end
	}
	// The paragraph: the lines from end back to the blank line before them.
	ps := end
	lines := 0
	for ps > from {
		ls := strings.LastIndexByte(text[from:ps-1], '\n') + 1 + from
		if ls < from {
			ls = from
		}
		if isBlank(text[ls:ps]) {
			break
		}
		ps = ls
		lines++
	}
	para := text[ps:end]
	if lines == 0 || lines > 6 || ps == from || strings.ContainsAny(para, "<>#`") ||
		!strings.Contains(strings.ToLower(para), strings.ToLower(f.LeadIn)) {
		return end
	}
	return trimBlankTail(text, from, ps)
}

// trimBlankTail is the end of the last non-blank line of text[from:at]
// (after its newline), or from.
func trimBlankTail(text string, from, at int) int {
	e := at
	for e > from && (text[e-1] == '\n' || text[e-1] == '\r' || text[e-1] == ' ' || text[e-1] == '\t') {
		e--
	}
	if e == from {
		return from
	}
	if k := strings.IndexByte(text[e:at], '\n'); k >= 0 {
		return e + k + 1
	}
	return at
}

// HomePath reports whether a path a host names lies in the user's own agent
// folders (~/.config/opencode/AGENTS.md, /home/u/.qwen/QWEN.md): the user's
// text, not the workspace's. The rows are provenance.HomeFiles' folders.
func HomePath(p string) bool {
	p = strings.ReplaceAll(p, "\\", "/")
	if strings.Contains(p, "/extensions/") || strings.Contains(p, "/plugins/") || strings.Contains(p, "/node_modules/") {
		return false // installed from elsewhere: third-party text, not the user's own
	}
	for _, d := range HomeDirs {
		if strings.HasPrefix(p, "~/"+d+"/") || strings.Contains(p, "/"+d+"/") && (strings.HasPrefix(p, "/home/") || strings.HasPrefix(p, "/root/") || strings.HasPrefix(p, "/Users/") || strings.Contains(p, "/home-") || strings.HasPrefix(p, "../")) {
			return true
		}
	}
	return false
}

// HomeDirs are the folders under HOME where agents keep the user's own
// instructions (the folders of provenance.HomeFiles).
var HomeDirs = []string{".claude", ".codex", ".gemini", ".qwen", ".config/opencode", ".cline", "Documents/Cline/Rules", ".kimi", ".config/crush", ".pi/agent"}

// framedSections finds the blocks of Framings in text: each body (the
// lines after its opener up to its end) a section of the row's kind,
// labelled with the path the opener names. The opener is the host's.
func framedSections(text string) []Section {
	var out []Section
	type open struct {
		f          *Framing
		label      string
		bodyStart  int
		headingLvl int
	}
	var cur *open
	closeAt := func(end int) {
		if cur != nil {
			s, e := cur.bodyStart, end
			// The blank lines between the opener and the file's first
			// line are the host's (pi's "## PATH" then a blank line).
			for !cur.f.Whole && s < e && (text[s] == '\n' || text[s] == '\r') {
				s++
			}
			if e > s && !isBlank(text[s:e]) {
				tr := cur.f.Trust
				if tr == "" && HomePath(cur.label) {
					tr = wire.TrustUser
				}
				out = append(out, Section{Kind: cur.f.Kind, Start: s, End: e, Label: cur.label, Trust: tr})
			}
			cur = nil
		}
	}
	hostBlock := lastHostBlock(text)
	if k := lastSkillListIntro(text); k > hostBlock {
		hostBlock = k
	}
	inFence := false
	next := 0
	for ln := range strings.Lines(text) {
		at := next
		next += len(ln)
		line := strings.TrimRight(strings.TrimSuffix(ln, "\n"), "\r")
		if c, _, _ := fenceOf(line); c != 0 {
			inFence = !inFence
		}
		if !inFence {
			if cur != nil {
				switch {
				case cur.f.Close != "" && strings.HasPrefix(strings.TrimSpace(line), cur.f.Close):
					if cur.f.Whole {
						closeAt(next)
						continue
					}
					closeAt(at)
				case cur.f.Close == "" && at == hostBlock:
					closeAt(leadInStart(text, cur.bodyStart, at))
				case cur.headingLvl > 0 && strings.HasPrefix(strings.TrimSpace(line), "===="):
					closeAt(at)
				}
			}
			if f, p, ok := framingOpen(line); ok && (cur == nil || cur.f.Close == "") {
				closeAt(at)
				lvl := 0
				if f.Heading {
					lvl, _ = headingOf(strings.TrimSpace(line))
				}
				body := next
				if f.Whole {
					body = at
				}
				cur = &open{f: f, label: p, bodyStart: body, headingLvl: lvl}
			}
		}
	}
	closeAt(len(text))
	return out
}
