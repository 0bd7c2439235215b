package classify

import (
	"path"
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
	// Close, when set, is the prefix of the line that ends the block; else
	// it ends at the next line that opens any framing, a line that is a
	// lone tag of markup (<available_skills>, </system>), or the end of the
	// text.
	Close  string
	Kind   wire.Kind
	Agents string
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
		if f.Heading {
			if lvl, h := headingOf(t); lvl > 0 && InstructionFile(h) {
				return f, strings.Trim(h, "`*"), true
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
			if e > s && !isBlank(text[s:e]) {
				out = append(out, Section{Kind: cur.f.Kind, Start: s, End: e, Label: cur.label})
			}
			cur = nil
		}
	}
	inFence := false
	for at := 0; at < len(text); {
		end := strings.IndexByte(text[at:], '\n')
		next := len(text)
		if end < 0 {
			end = len(text)
		} else {
			end += at
			next = end + 1
		}
		line := strings.TrimRight(text[at:end], "\r")
		if c, _, _ := fenceOf(line); c != 0 {
			inFence = !inFence
		}
		if !inFence {
			if cur != nil {
				switch {
				case cur.f.Close != "" && strings.HasPrefix(strings.TrimSpace(line), cur.f.Close):
					closeAt(at)
				case cur.f.Close == "" && loneTag(line):
					closeAt(at)
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
				cur = &open{f: f, label: p, bodyStart: next, headingLvl: lvl}
			}
		}
		at = next
	}
	closeAt(len(text))
	return out
}
