package classify

import (
	"slices"
	"strings"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/framing"
)

// This file tells a skill's origin from its location and cuts the
// <available_skills> lists (written in the styles of framing.SkillListings)
// into one segment per skill, whose trust is the skill's origin (the rules
// are rows of framing.SkillLocations, framing.LocationWords and
// framing.SkillDirs):
//
//   - built-in: shipped with the agent (Codex's system skills under
//     $CODEX_HOME/skills/.system, Gemini CLI's skills/builtin folder in its
//     install, the words opencode and qwen-code write), host text, trusted;
//   - admin: Codex's /etc/codex/skills, the machine's configuration, trusted;
//   - user: the user's own skills in the home folder (~/.codex/skills,
//     ~/.agents/skills, ~/.gemini/skills, Gemini's extensions), trust user;
//   - workspace: any other skills folder (a checkout's .codex/skills,
//     .agents/skills, .gemini/skills), untrusted;
//   - unknown: a location that matches none of these, untrusted.
//
// Each segment is kind skills-listing, labelled "skill NAME (ORIGIN)"; the
// listing's frame (headings, the roots table, the how-to) is host rules.
//
// Where the session's working directory is known (ClassifyIn), a location
// inside it is the workspace's whatever its folder (a skills folder the
// agent reads from the checkout, a relative path), unless the working
// directory is itself a home folder; the rules above decide the rest. The
// home folder is told by its shape (/home/NAME, /Users/NAME, /root, ~).

// skillOrigin is where a skill comes from (framing.Origin).
type skillOrigin = framing.Origin

const (
	originBuiltin   = framing.Builtin
	originAdmin     = framing.Admin
	originUser      = framing.User
	originWorkspace = framing.Workspace
	originUnknown   = framing.Unknown
)

// locationWord is the origin a host's word in place of a location says
// (framing.LocationWords), or "".
func locationWord(p string) skillOrigin {
	for _, r := range framing.LocationWords {
		if slices.Contains(r.Words, p) {
			return r.Origin
		}
	}
	return ""
}

// originOf tells a skill's origin from its location and the session's
// working directory ("" when unknown).
func originOf(loc, cwd string) skillOrigin {
	p := strings.ReplaceAll(strings.TrimSpace(loc), "\\", "/")
	if strings.Contains(p, "/../") || strings.HasPrefix(p, "../") {
		return originUnknown
	}
	if insideWorkspace(p, cwd) {
		// First: a checkout can hold a folder named like the agent's own
		// (.codex/skills/.system, skills/builtin).
		return originWorkspace
	}
	if o := locationRule(p, true); o != "" {
		return o
	}
	if o := locationWord(p); o != "" {
		return o
	}
	for _, d := range framing.SkillDirs {
		k := strings.Index(p, "/"+d)
		if k < 0 {
			continue
		}
		if isHome(p[:k]) {
			return originUser
		}
		if slices.Contains(framing.ForeignSkillDirs, d) {
			return originUnknown
		}
		return originWorkspace
	}
	if o := locationRule(p, false); o != "" {
		return o
	}
	return originUnknown
}

// locationRule is the origin the first rule of framing.SkillLocations read
// early (or late) that matches p says, or "".
func locationRule(p string, early bool) skillOrigin {
	for _, r := range framing.SkillLocations {
		if r.Early != early || !strings.HasPrefix(p, r.Prefix) ||
			slices.ContainsFunc(r.Contains, func(c string) bool { return !strings.Contains(p, c) }) {
			continue
		}
		if len(r.Under) == 0 || slices.ContainsFunc(r.Under, func(u string) bool {
			k := strings.LastIndex(p, u)
			return k >= 0 && strings.HasSuffix(p, "/SKILL.md") && strings.Count(p[k+len(u):], "/") == 1
		}) {
			return r.Origin
		}
	}
	return ""
}

// insideWorkspace reports whether location p lies inside the working
// directory cwd: under it, or a relative path (read from it). A cwd that is
// a home folder (or the root) is no workspace boundary: what lies under it
// is told by the other rules.
func insideWorkspace(p, cwd string) bool {
	c := strings.TrimRight(strings.ReplaceAll(strings.TrimSpace(cwd), "\\", "/"), "/")
	if c == "" || isHome(c) || strings.Contains(c, "/../") || !strings.HasPrefix(c, "/") && !(len(c) > 2 && c[1] == ':') {
		return false
	}
	if p != "" && !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "~") && !(len(p) > 2 && p[1] == ':') {
		return true // relative: from the working directory
	}
	return strings.HasPrefix(p, c+"/")
}

// isHome reports whether dir is a home folder by its shape.
func isHome(dir string) bool {
	if dir == "~" || dir == "/root" {
		return true
	}
	if len(dir) > 2 && dir[1] == ':' {
		dir = dir[2:] // a Windows drive
	}
	for _, h := range []string{"/home/", "/Users/"} {
		if rest, ok := strings.CutPrefix(dir, h); ok {
			return rest != "" && !strings.Contains(rest, "/")
		}
	}
	return false
}

// skillLabel is a skill segment's label.
func skillLabel(name string, o skillOrigin) string {
	return "skill " + name + " (" + string(o) + ")"
}

// The <available_skills> list, as Gemini CLI writes it (renderAgentSkills
// in its packages/core/src/prompts/snippets.ts; opencode, pi and qwen-code
// write the same elements, framing.SkillListings says how):
//
//	# Available Agent Skills
//
//	You have access to the following specialized skills. ...
//
//	<available_skills>
//	  <skill>
//	    <name>NAME</name>
//	    <description>DESCRIPTION</description>
//	    <location>PATH</location>
//	  </skill>
//	</available_skills>
//
// Gemini does not escape the description, which may span lines, so a
// workspace skill's description can forge the lines after it: from the
// first skill that is not the host's, every later one is untrusted. (Text
// that a description forges before its own <location> reads as the entry
// it forges: that cannot be told in-band.) A host that escapes its entries
// (SkillListings) leaves no entry a way to forge another: there each skill
// is judged by its own location.
const (
	skillsOpen  = "<available_skills>"
	skillsClose = "</available_skills>"
	skillOpen   = "<skill>"
	skillClose  = "</skill>"
)

// listingStyle is the row of SkillListings whose style the list opened at
// open (the <available_skills> line) of sec is written in.
func listingStyle(sec string, open int) *framing.SkillListing {
	at := lineTrimmedWith(sec, open, skillOpen)
	lines := false
	if at >= 0 {
		next := lineEnd(sec, at)
		lines = next < len(sec) && strings.TrimSpace(LineAt(sec, next)) == "<name>"
	}
	for i := range framing.SkillListings {
		if framing.SkillListings[i].ElementLines == lines {
			return &framing.SkillListings[i]
		}
	}
	return &framing.SkillListings[0]
}

// entryTags are the lines of markup an entry of an escaped list holds.
var entryTags = map[string]bool{"<skill>": true, "</skill>": true, "<name>": true, "</name>": true,
	"<description>": true, "</description>": true, "<location>": true, "</location>": true}

// escapedEntry reports whether a block of an element-lines list holds only
// its own tags, each once on a line of its own, and text with no raw < or >.
func escapedEntry(block string) bool {
	seen := map[string]bool{}
	for line := range strings.Lines(block) {
		t := strings.TrimSpace(line)
		if entryTags[t] {
			if seen[t] {
				return false
			}
			seen[t] = true
			continue
		}
		if strings.ContainsAny(t, "<>") {
			return false
		}
	}
	return true
}

// availableSkillsPieces cuts a skills-listing section [s, e) of a text that
// holds an <available_skills> list: each <skill> block becomes a
// piece labelled with its name and origin; the heading, the sentence and the
// tags around the blocks are host rules. It returns nil when the section is
// not such a listing.
func availableSkillsPieces(text string, s, e int, cwd string) []piece {
	sec := text[s:e]
	open := lineTrimmedWith(sec, 0, skillsOpen)
	if open < 0 {
		return nil
	}
	end := lastLineTrimmedWith(sec, open, skillsClose)
	if end < 0 {
		end = len(sec)
	}
	var out []piece
	host := 0
	worst := wire.Trusted
	style := listingStyle(sec, open)
	escaped := style.Escaped
	for at := lineTrimmedWith(sec, open, skillOpen); at >= 0 && at < end; {
		// The block runs to the line after its last </skill> before the
		// next <skill> line (or the end of the list).
		next := lineTrimmedWith(sec, lineEnd(sec, at), skillOpen)
		stop := end
		if next >= 0 && next < end {
			stop = next
		}
		blockEnd := stop
		if c := lastLineTrimmedWith(sec[:stop], at, skillClose); c >= 0 {
			blockEnd = lineEnd(sec, c)
		}
		block := sec[at:blockEnd]
		o := originOf(lastElement(block, "location"), cwd)
		tr := o.Trust()
		if escaped && !escapedEntry(block) {
			escaped = false // markup the host would have escaped: forged from here
			worst = wire.Untrusted
		}
		if !escaped {
			if worst != wire.Trusted && (tr == wire.Trusted || worst == wire.Untrusted) {
				tr = worst
			}
			worst = tr
		}
		// The <skill> and </skill> lines are the host's own: the entry's
		// text is what lies between them.
		in, out2 := lineEnd(sec, at), blockEnd
		if c := lastLineTrimmedWith(sec[:blockEnd], in, skillClose); c >= 0 && lineEnd(sec, c) == blockEnd {
			out2 = c
		}
		if in >= out2 {
			in, out2 = at, blockEnd
		}
		if in > host {
			out = append(out, piece{start: s + host, end: s + in, kind: wire.KindHostRules, trust: wire.Trusted, name: string(wire.KindHostRules)})
		}
		out = append(out, piece{start: s + in, end: s + out2, kind: wire.KindSkillsListing, trust: tr,
			label: skillLabel(firstElement(block, "name"), o), name: string(wire.KindSkillsListing)})
		host = out2
		if next < 0 || next >= end {
			break
		}
		at = next
	}
	if out == nil {
		return nil
	}
	if host < len(sec) {
		// After the last block: the closer and the text to the section's end,
		// untrusted when a forged block could have run on into it.
		tr := wire.Trusted
		kind := wire.KindHostRules
		if blank := onlyClosers(sec[host:]); !blank && !escaped && worst == wire.Untrusted && host < end {
			tr, kind = wire.Untrusted, wire.KindSkillsListing
		}
		out = append(out, piece{start: s + host, end: e, kind: kind, trust: tr, name: string(kind)})
	}
	return out
}

// onlyClosers reports whether a listing's tail holds nothing but blank
// lines and the lines that close the last entry and the list.
func onlyClosers(tail string) bool {
	for line := range strings.Lines(tail) {
		switch strings.TrimSpace(line) {
		case "", skillClose, skillsClose:
		default:
			return false
		}
	}
	return true
}

// lineTrimmedWith is the offset of the start of the first line at or after
// from whose text, after leading blanks, starts with prefix, or -1.
func lineTrimmedWith(s string, from int, prefix string) int {
	for from < len(s) {
		k := strings.Index(s[from:], prefix)
		if k < 0 {
			return -1
		}
		k += from
		ls := k
		for ls > 0 && (s[ls-1] == ' ' || s[ls-1] == '\t') {
			ls--
		}
		if ls == 0 || s[ls-1] == '\n' {
			if ls >= from {
				return ls
			}
		}
		from = k + 1
	}
	return -1
}

// firstElement is the trimmed text of the first <key>...</key> in s.
func firstElement(s, key string) string {
	k := strings.Index(s, "<"+key+">")
	if k < 0 {
		return ""
	}
	rest := s[k+len(key)+2:]
	e := strings.Index(rest, "</"+key+">")
	if e < 0 || e > 512 {
		return ""
	}
	return strings.TrimSpace(rest[:e])
}

// lastElement is the trimmed text of the last <key>...</key> in s: the
// host writes a skill's location after its description.
func lastElement(s, key string) string {
	k := strings.LastIndex(s, "<"+key+">")
	if k < 0 {
		return ""
	}
	rest := s[k+len(key)+2:]
	e := strings.Index(rest, "</"+key+">")
	if e < 0 || e > 4096 {
		return ""
	}
	return strings.TrimSpace(rest[:e])
}
