package classify

import (
	"strings"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/framing"
)

// skillListFor is the row of SkillLists read in envelope env's body ("":
// in host text) whose Intro text holds, or nil.
func skillListFor(text, env string) *framing.SkillList {
	for i := range framing.SkillLists {
		if l := &framing.SkillLists[i]; l.Envelope == env && lineWith(text, 0, l.Intro) >= 0 {
			return l
		}
	}
	return nil
}

// skillListIntro reports whether text may hold a list of a row read in
// host text (the quick exit of a message with no markup).
func skillListIntro(text string) bool {
	for i := range framing.SkillLists {
		if framing.SkillLists[i].Envelope == "" && strings.Contains(text, framing.SkillLists[i].Intro) {
			return true
		}
	}
	return false
}

// skillListPieces cuts the list of row l out of text[bs:be]: each entry
// that needs a segment (see SkillList) becomes a skills-listing piece; the
// rest is host text of kind hostKind in envelope env. nil when the text
// holds no entry to cut.
func skillListPieces(l *framing.SkillList, text string, bs, be int, hostKind wire.Kind, env, cwd string) []piece {
	pcs, _, _ := skillListCut(l, text, bs, be, hostKind, env, cwd)
	return pcs
}

// skillListSections are the lists of the rows of SkillLists read in host
// text that a system text holds: each from its intro line to the list's
// end, a skills-listing section that skillsOf cuts by its row.
func skillListSections(text string) []Section {
	var out []Section
	for i := range framing.SkillLists {
		l := &framing.SkillLists[i]
		if l.Envelope != "" || !strings.Contains(text, l.Intro) {
			continue
		}
		if pcs, s, e := skillListCut(l, text, 0, len(text), wire.KindHostRules, "", ""); pcs != nil {
			out = append(out, Section{Kind: wire.KindSkillsListing, Start: s, End: e})
		}
	}
	return out
}

// lastSkillListIntro is the start of the last intro line of a row read in
// host text, or -1: a framed block with no closer before it ends there (the
// last, so that a pasted file cannot end its block early by writing one).
func lastSkillListIntro(text string) int {
	best := -1
	for i := range framing.SkillLists {
		if l := &framing.SkillLists[i]; l.Envelope == "" {
			for k := lineWith(text, 0, l.Intro); k >= 0; k = lineWith(text, k+1, l.Intro) {
				best = max(best, k)
			}
		}
	}
	return best
}

// skillListAt is the row read in host text whose intro opens text[s:].
func skillListAt(text string, s int) *framing.SkillList {
	for i := range framing.SkillLists {
		if l := &framing.SkillLists[i]; l.Envelope == "" && strings.HasPrefix(text[s:], l.Intro) {
			return l
		}
	}
	return nil
}

// skillListCut is skillListPieces with the list's span in text: from its
// intro line to its end.
func skillListCut(l *framing.SkillList, text string, bs, be int, hostKind wire.Kind, env, cwd string) ([]piece, int, int) {
	body := text[bs:be]
	intro := lineWith(body, 0, l.Intro)
	if intro < 0 {
		return nil, 0, 0
	}
	roots := map[string]string{}
	if l.Roots != "" {
		if r := lineWith(body[:intro], 0, l.Roots); r >= 0 {
			for line := range strings.Lines(body[lineEnd(body, r):intro]) {
				if alias, root, ok := rootLine(line); ok {
					roots[alias] = root
				}
			}
		}
	}
	listEnd := len(body)
	if l.Until != "" {
		if k := lastLineWith(body, intro, l.Until); k >= 0 {
			listEnd = k
		}
	}
	var out []piece
	host := 0 // start of the pending host stretch
	listed := false
	cutting := false // the entry being read has a piece of its own
	for at := lineEnd(body, intro); at < listEnd; {
		next := min(lineEnd(body, at), listEnd)
		line := strings.TrimRight(body[at:next], "\r\n")
		item, isItem := strings.CutPrefix(line, "- ")
		switch {
		case strings.TrimSpace(line) == "":
			if listed && l.Until == "" {
				listEnd = at // the blank line after the list
				continue
			}
			cutting = false
		case isItem:
			listed = true
			name, o, ok := entryOrigin(l, item, roots, cwd)
			cutting = !ok || o.Trust() != wire.Trusted || l.File != ""
			if cutting {
				label := skillLabel(name, o)
				if !ok {
					label = "skill " + name + " (" + l.Unlisted + ")"
					o = originUnknown
				}
				if at > host {
					out = append(out, piece{start: bs + host, end: bs + at, kind: hostKind, trust: wire.Trusted, envelope: env, name: string(wire.KindHostRules)})
				}
				out = append(out, piece{start: bs + at, end: bs + next, kind: wire.KindSkillsListing, trust: o.Trust(), envelope: env, label: label, name: string(wire.KindSkillsListing)})
				host = next
			}
		case !listed:
			listEnd = at // no list after the intro
			continue
		case cutting && host == at:
			// The next line of the entry's description.
			out[len(out)-1].end = bs + next
			host = next
		}
		at = next
	}
	if out == nil {
		return nil, 0, 0
	}
	if host < len(body) {
		out = append(out, piece{start: bs + host, end: be, kind: hostKind, trust: wire.Trusted, envelope: env, name: string(wire.KindHostRules)})
	}
	return out, bs + intro, bs + listEnd
}

// entryOrigin reads an entry "NAME: DESCRIPTION" (the item's text): its
// name and origin; ok is false when the row says nothing of it (no
// location written, a name not among Host's).
func entryOrigin(l *framing.SkillList, item string, roots map[string]string, cwd string) (name string, o skillOrigin, ok bool) {
	item = strings.TrimRight(item, " \t")
	name = item
	if n, _, cut := strings.Cut(item, ":"); cut {
		name = strings.TrimSpace(n)
	}
	if l.File != "" {
		k := strings.LastIndex(item, l.File)
		c := strings.IndexByte(item, ':')
		if k < 0 || c <= 0 || c > k || !strings.HasSuffix(item, ")") {
			return name, originUnknown, true // an entry without its location: nobody's known skill
		}
		file := strings.TrimSpace(item[k+len(l.File) : len(item)-1])
		if alias, rest, cut := strings.Cut(file, "/"); cut && roots[alias] != "" {
			file = strings.TrimSuffix(roots[alias], "/") + "/" + rest
		}
		return name, originOf(file, cwd), true
	}
	for _, h := range l.Host {
		if h == name {
			return name, originBuiltin, true
		}
	}
	return name, "", false
}

// rootLine reads a line of a roots table "- `ALIAS` = `PATH`".
func rootLine(line string) (alias, root string, ok bool) {
	rest, ok := strings.CutPrefix(strings.TrimSpace(line), "- `")
	if !ok {
		return "", "", false
	}
	alias, rest, ok = strings.Cut(rest, "` = `")
	if !ok || !strings.HasSuffix(rest, "`") {
		return "", "", false
	}
	return alias, strings.TrimSuffix(rest, "`"), true
}
