package assemble

import (
	"slices"
	"strconv"
	"strings"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/classify"
	"github.com/wirelens/wirelens/wire/scan"
)

// Rewrite turns recorded requests into what they would have been with
// another layout, for a what-if replay (wirelens whatif). Each change is
// one option; a Rewrite is used for one sequence of requests, in order
// (FreezeTime remembers the first request's clock).
type Rewrite struct {
	// Isolate moves the workspace text (listings, AGENTS.md, skills) and the
	// time out of the system channel, as the isolated layout sends them:
	// the workspace as escaped <untrusted_*> envelopes in a user message
	// right after the system prompt (with a cache breakpoint when the
	// request uses them), then the time in a fringe message; the
	// conversation follows unchanged.
	Isolate bool
	// SortTools sends the tool schemas in the order of their names.
	SortTools bool
	// FreezeTime sends the clock's values (timestamps, dates, times) of the
	// first request wherever a later request only changed them.
	FreezeTime bool
	// Escape is the escape mode of the envelopes (entities when empty).
	Escape EscapeMode

	first map[string]string // FreezeTime: the first text of each segment id
}

// Apply rewrites r. The result shares r's text; notes say what could not
// be done (nothing to move, no time found).
func (w *Rewrite) Apply(r *wire.Request) (wire.Request, []string) {
	out := *r
	out.Segments = slices.Clone(r.Segments)
	// bp[i] is whether out.Segments[i] carries a cache breakpoint: it goes
	// with the segment wherever the segment moves.
	bp := make([]bool, len(out.Segments))
	for _, i := range r.Breakpoints {
		bp[i] = true
	}
	var notes []string
	if w.FreezeTime {
		if !w.freeze(out.Segments) {
			notes = append(notes, "no clock value changed: nothing to freeze")
		}
	}
	if w.SortTools {
		sortTools(out.Segments, bp)
	}
	if w.Isolate {
		var moved bool
		out.Segments, bp, moved = w.isolate(out.Segments, bp)
		if !moved {
			notes = append(notes, "no workspace text or time in the system channel: nothing to move")
		}
	}
	out.Breakpoints = nil
	for i, b := range bp {
		if b {
			out.Breakpoints = append(out.Breakpoints, i)
		}
	}
	return out, notes
}

// clockKind reports whether a changing value is the clock's.
func clockKind(k scan.VolatileKind) bool {
	return k == scan.VolatileTimestamp || k == scan.VolatileDate
}

// freeze gives every segment whose text differs from the first request's
// same segment only in clock values the first request's text. It reports
// whether any was frozen.
func (w *Rewrite) freeze(segs []wire.Segment) bool {
	if w.first == nil {
		w.first = map[string]string{}
	}
	frozen := false
	for i := range segs {
		s := &segs[i]
		first, ok := w.first[s.ID]
		if !ok {
			w.first[s.ID] = s.Text
			continue
		}
		if first == s.Text || !sameButClock(first, s.Text) {
			continue
		}
		s.Text, s.Hash = first, wire.HashText(first)
		s.Escapes = nil
		frozen = true
	}
	return frozen
}

// sameButClock reports whether a and b hold the same text but for the
// values of their clock (the same number of them, in the same places).
func sameButClock(a, b string) bool {
	va, vb := clocks(a), clocks(b)
	if len(va) == 0 || len(va) != len(vb) {
		return false
	}
	pa, pb := 0, 0
	for i := range va {
		if a[pa:va[i].Start] != b[pb:vb[i].Start] {
			return false
		}
		pa, pb = va[i].End, vb[i].End
	}
	return a[pa:] == b[pb:]
}

// clocks are the clock values of a text.
func clocks(s string) []scan.Volatile {
	var out []scan.Volatile
	for _, v := range scan.FindVolatile(s) {
		if clockKind(v.Kind) {
			out = append(out, v)
		}
	}
	return out
}

// sortTools puts the tool schemas in the order of their names (then their
// text), in the places the tools held; bp (a flag for each segment) goes
// with them.
func sortTools(segs []wire.Segment, bp []bool) {
	type tool struct {
		s  wire.Segment
		bp bool
	}
	var at []int
	var tools []tool
	for i := range segs {
		if segs[i].Channel == wire.ChannelTools {
			at = append(at, i)
			tools = append(tools, tool{segs[i], bp[i]})
		}
	}
	slices.SortStableFunc(tools, func(a, b tool) int {
		if c := strings.Compare(a.s.Label, b.s.Label); c != 0 {
			return c
		}
		return strings.Compare(a.s.Text, b.s.Text)
	})
	for k, i := range at {
		segs[i], bp[i] = tools[k].s, tools[k].bp
	}
}

// envelopeOf is the isolated layout's envelope for a workspace kind.
func envelopeOf(k wire.Kind) string {
	switch k {
	case wire.KindCwdListing:
		return "untrusted_cwd_listing"
	case wire.KindAdditionalDirs:
		return "untrusted_additional_dirs"
	case wire.KindAgentsMD:
		return "untrusted_agents_md"
	}
	return "untrusted_skills_listing"
}

// isolate moves workspace and time segments out of the system channel. bp
// flags the segments that carry a cache breakpoint; the flags of the
// segments returned are returned with them.
func (w *Rewrite) isolate(segs []wire.Segment, bp []bool) ([]wire.Segment, []bool, bool) {
	var kept, work, clock []wire.Segment
	var keptBP []bool
	breakpoints := 0 // on the kept segments
	for i, s := range segs {
		if s.Channel == wire.ChannelSystem && (s.Kind.WorkspaceDerived() || s.Kind == wire.KindTime) {
			if s.Kind == wire.KindTime {
				clock = append(clock, s)
			} else {
				work = append(work, s)
			}
			continue
		}
		kept, keptBP = append(kept, s), append(keptBP, bp[i])
		if bp[i] {
			breakpoints++
		}
	}
	if len(work) == 0 && len(clock) == 0 {
		return segs, bp, false
	}
	// What stays of a part starts where the kept text before it ends.
	offsets := map[string]int{}
	for i := range kept {
		s := &kept[i]
		part := s.Part
		if part == "" {
			part = s.ID
		}
		s.Start = offsets[part]
		offsets[part] += len(s.Text)
	}
	mode := w.Escape
	if mode == "" {
		mode = EscapeEntities
	}
	var added []wire.Segment
	addedBP := -1 // the added segment that carries a breakpoint
	if len(work) > 0 {
		var sb strings.Builder
		sb.WriteString(WorkspaceHeading + "\n\n" + workspaceIntro)
		for _, s := range work {
			var attrs [][2]string
			if s.Label != "" && (s.Kind == wire.KindAgentsMD || s.Kind == wire.KindCwdListing) {
				attrs = [][2]string{{"path", s.Label}}
			}
			sb.WriteString("\n\n")
			NewEnvelope(envelopeOf(s.Kind), "", attrs, "", s.Text, mode).Write(&sb, 0)
		}
		part := wire.Part{ID: "whatif.workspace", Channel: wire.ChannelMessages, Role: "user", Type: "text",
			Text: sb.String(), CacheBreakpoint: breakpoints > 0 && breakpoints < 4}
		added = append(added, classify.Classify(part)...)
		if part.CacheBreakpoint {
			addedBP = len(added) - 1
		}
	}
	for k, s := range clock {
		text := headFringe + "\n" + strings.TrimSpace(s.Text)
		part := wire.Part{ID: "whatif.time", Channel: wire.ChannelMessages, Role: "user", Type: "text", Text: text}
		if k > 0 {
			part.ID += "#" + strconv.Itoa(k+1)
		}
		for _, c := range classify.Classify(part) {
			c.Kind, c.Trust = wire.KindTime, wire.Trusted
			added = append(added, c)
		}
	}
	for i := range added {
		added[i].Hash = wire.HashText(added[i].Text)
	}
	// Tools and system first, then the moved fragments, then the messages.
	at := len(kept)
	for i := range kept {
		if kept[i].Channel == wire.ChannelMessages {
			at = i
			break
		}
	}
	flags := make([]bool, len(added))
	if addedBP >= 0 {
		flags[addedBP] = true
	}
	return slices.Concat(kept[:at], added, kept[at:]), slices.Concat(keptBP[:at], flags, keptBP[at:]), true
}

// headFringe is the first line of the time fringe (see TimeFringe).
const headFringe = "# Current time (fringe)"
