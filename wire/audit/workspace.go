package audit

import (
	"fmt"
	"sort"
	"strings"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/classify"
)

// WorkspaceFile is a workspace file whose text the audit looks for
// verbatim: an AGENTS.md.
type WorkspaceFile struct {
	Path string
	Text string
}

// WorkspaceSkill is a skill found in a workspace.
type WorkspaceSkill struct {
	Name        string
	Description string
}

// WorkspaceMarks is the text of one workspace that must never sit in the
// system channel, nor unwrapped in a user message: the paragraphs of its
// AGENTS.md files, the names of its directory listing and its skills'
// descriptions. Matches are exact, so a finding from them is certain.
type WorkspaceMarks struct {
	needles  []needle
	names    map[string]bool
	minNames int
}

// needle is one text looked for verbatim.
type needle struct {
	text  string
	kind  wire.Kind
	group string // what the needle belongs to (a file, "skills")
}

// workspaceMatch is a group of workspace text found in a segment.
type workspaceMatch struct {
	Offset, Len int
	Kind        wire.Kind
	What        string // for the message, hostile-free but may quote paths
	Key         string
}

// Minimum sizes for a verbatim match to count as certain.
const (
	minParagraph   = 32
	minDescription = 16
	maxListingLine = 3
)

// NewWorkspaceMarks builds the marks of a workspace from its AGENTS.md files,
// the names of its directory listing and its skills.
func NewWorkspaceMarks(agents []WorkspaceFile, listing []string, skills []WorkspaceSkill) *WorkspaceMarks {
	m := &WorkspaceMarks{names: map[string]bool{}}
	seen := map[string]bool{}
	for _, f := range agents {
		for _, p := range paragraphs(f.Text) {
			if len(p) >= minParagraph && !seen[p] {
				seen[p] = true
				m.needles = append(m.needles, needle{p, wire.KindAgentsMD, f.Path})
			}
		}
	}
	for _, sk := range skills {
		d := strings.TrimSpace(sk.Description)
		if len(d) >= minDescription && !seen[d] {
			seen[d] = true
			m.needles = append(m.needles, needle{d, wire.KindSkillsListing, "skills"})
		}
	}
	for _, n := range listing {
		n = strings.TrimSuffix(strings.TrimSpace(n), "/")
		if len(n) >= 2 {
			m.names[n] = true
		}
	}
	m.minNames = min(maxListingLine, len(m.names))
	return m
}

// paragraphs splits text at blank lines and trims each paragraph.
func paragraphs(text string) []string {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	var out []string
	for _, p := range strings.Split(text, "\n\n") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// find returns the workspace text found in text, one match per group (an
// AGENTS.md file, the skills, the listing), in order of offset.
func (m *WorkspaceMarks) find(text string) []workspaceMatch {
	type group struct {
		first, n, size int
		kind           wire.Kind
	}
	groups := map[string]*group{}
	var order []string
	for _, nd := range m.needles {
		at := strings.Index(text, nd.text)
		if at < 0 {
			continue
		}
		g := groups[nd.group]
		if g == nil {
			g = &group{first: at, size: len(nd.text), kind: nd.kind}
			groups[nd.group] = g
			order = append(order, nd.group)
		} else if at < g.first {
			g.first, g.size = at, len(nd.text)
		}
		g.n++
	}
	var out []workspaceMatch
	for _, name := range order {
		g := groups[name]
		what := countNoun(g.n, "paragraph") + " of " + name
		if g.kind == wire.KindSkillsListing {
			what = countNoun(g.n, "skill description") + " of the workspace"
		}
		out = append(out, workspaceMatch{Offset: g.first, Len: g.size, Kind: g.kind, What: what,
			Key: string(g.kind) + ":" + name})
	}
	if m.minNames > 0 {
		if off, n := m.listingLines(text); n >= m.minNames {
			out = append(out, workspaceMatch{Offset: off, Len: 0, Kind: wire.KindCwdListing,
				What: fmt.Sprintf("a listing of the workspace (%d of its entry names, one per line)", n), Key: "cwd-listing"})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Offset < out[j].Offset })
	return out
}

// countNoun writes "a paragraph", "3 paragraphs".
func countNoun(n int, noun string) string {
	if n == 1 {
		return "a " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// listingLines counts the distinct workspace entry names that stand alone
// on a line of text (as a listing writes them: the name, a name ending a
// long-format line, or a name after tree-drawing characters) and returns
// the offset of the first such line.
func (m *WorkspaceMarks) listingLines(text string) (first, n int) {
	seen := map[string]bool{}
	first = -1
	for off := 0; off < len(text); {
		end := strings.IndexByte(text[off:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += off
		}
		line := strings.TrimSpace(text[off:end])
		if line != "" && len(line) < 512 {
			cand := strings.TrimSuffix(line, "/")
			if !m.names[cand] {
				f := strings.Fields(cand)
				cand = strings.TrimSuffix(f[len(f)-1], "/")
			}
			if m.names[cand] {
				if !seen[cand] {
					seen[cand] = true
					n++
				}
				if first < 0 {
					first = off
				}
			}
		}
		off = end + 1
	}
	return first, n
}

// legacyHints finds text that looks like the workspace sections of a
// legacy prompt, with the classifier's own section finder (LegacySections: a
// fenced AGENTS.md body, a fenced directory listing, a skills list under a
// Skills heading), plus a "<!-- From: .../AGENTS.md -->" source line. One
// span per kind, at its first occurrence.
func legacyHints(text string) []textSpan {
	if len(text) < 16 {
		return nil
	}
	var out []textSpan
	have := map[wire.Kind]bool{}
	addSpan := func(off int, k wire.Kind, what string) {
		if !have[k] {
			have[k] = true
			out = append(out, textSpan{off, k, what})
		}
	}
	for _, sec := range classify.LegacySections(text) {
		if sec.Kind.WorkspaceDerived() {
			addSpan(sec.Start, sec.Kind, "laid out as in a legacy system prompt")
		}
	}
	// The first line that starts with the marker and names an AGENTS.md.
	for from, ls := 0, 0; ; {
		k := strings.Index(text[from:], "<!-- From:")
		if k < 0 {
			break
		}
		k += from
		if j := strings.LastIndexByte(text[from:k], '\n'); j >= 0 {
			ls = from + j + 1 // the start of k's line
		}
		if strings.TrimSpace(text[ls:k]) == "" && classify.ContainsFold(classify.LineAt(text, ls), "agents.md") {
			addSpan(ls, wire.KindAgentsMD, "an AGENTS.md source marker")
			break
		}
		from = k + 1
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Offset < out[j].Offset })
	return out
}
