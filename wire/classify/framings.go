package classify

import (
	"path"
	"slices"
	"strings"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/framing"
)

// InstructionFile reports whether p (a path or a base name) names an
// instruction file.
func InstructionFile(p string) bool {
	p = strings.TrimSpace(strings.Trim(strings.TrimSpace(p), "`*"))
	if p == "" || strings.ContainsAny(p, " \t") {
		return false
	}
	if framing.InstructionFiles[strings.ToLower(path.Base(p))] {
		return true
	}
	for _, d := range framing.InstructionDirs {
		if strings.Contains(p, d+"/") {
			return true
		}
	}
	return false
}

// framingOpen reports which framing a line opens, with the path it names.
func framingOpen(line string) (*framing.Framing, string, bool) {
	t := strings.TrimSpace(line)
	for i := range framing.Framings {
		f := &framing.Framings[i]
		if f.ReadBy != "" || f.Paired {
			continue // read elsewhere (a Paired row with the envelopes)
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
		ls := strings.LastIndexByte(text[from:ps-1], '\n') + 1 + from // never before from
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
	for _, d := range framing.HomeDirs {
		if strings.HasPrefix(p, "~/"+d+"/") || strings.Contains(p, "/"+d+"/") && (strings.HasPrefix(p, "/home/") || strings.HasPrefix(p, "/root/") || strings.HasPrefix(p, "/Users/") || strings.Contains(p, "/home-") || strings.HasPrefix(p, "../")) {
			return true
		}
	}
	return false
}

// framedSections finds the blocks of Framings in text: each body (the
// lines after its opener up to its end) a section of the row's kind,
// labelled with the path the opener names. The opener is the host's.
func framedSections(text string) []Section {
	var out []Section
	type open struct {
		f          *framing.Framing
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
