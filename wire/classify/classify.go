package classify

import (
	"slices"
	"strconv"
	"strings"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/framing"
)

// Classify cuts a part into segments of one trust each and gives each its
// kind, trust, envelope and label. Joining the segments' texts in order gives
// the part's text back; each segment's Start is its byte offset in the part's
// text.
//
// A part is first given the kind and trust of its role and wire type
// (baseKind). Text parts of the user, system and developer roles are then cut
// at the top-level envelopes of framing.Envelopes (dialects.go): each envelope
// body becomes a segment "<part>/<envelope>" ("#2", "#3" for later ones of
// the same name) and the text around them segments "<part>/0", "<part>/1",
// .... In the system channel, the legacy sections (legacy.go) of the text
// outside envelopes become "<part>/time", "<part>/agents-md", ... and the rest
// "<part>/host-rules" ("#2", ...). Tool results, tool calls, assistant text
// and tool schemas are never cut: an envelope inside them was not written by
// the host and stays in the untrusted (or model) text for the audit.
//
// Around envelopes, text in a user message is the user's, except when the
// message starts with a host heading (# External Workspace Context, Codex's
// # AGENTS.md instructions for) or the text is nothing but the envelopes'
// tag lines: then it is host framing, kind other, trust trusted. Text around
// envelopes that holds a stray envelope tag (an untrusted opener that never
// closes, a closer that closes nothing) may be workspace text that escaped
// its envelope: it is kind other, trust untrusted.
//
// A session message of framing.SessionContexts (Gemini CLI's
// <session_context>, session.go) is cut into its heading, "<part>/time", "<part>/environment", the workspace tree
// "<part>/cwd-listing" (untrusted) and its memory's context blocks.
//
// A part that has nothing to cut stays one segment whose ID is the part's.
// There is always one segment at least; the part's cache breakpoint belongs
// to its last (Builder.Add puts it in the request's Breakpoints). Segments of trust
// untrusted list the escapes already applied in their text (Escapes).
func Classify(p wire.Part) []wire.Segment { return ClassifyIn(p, "") }

// ClassifyIn is Classify for a part of a session whose working directory is
// cwd ("" when unknown): a skill whose listed location lies inside cwd is
// the workspace's (untrusted), one in the agent's install the host's, one
// in the user's home folder outside cwd the user's (skills.go).
func ClassifyIn(p wire.Part, cwd string) []wire.Segment {
	kind, trust := baseKind(p)
	if p.Name == "" && isReasoning(p.Type) {
		p.Name = ReasoningLabel
	}
	text := p.Text
	var pieces []piece
	if splittable(kind, trust) {
		if trust == wire.TrustUser && isTimeFringe(text) {
			kind, trust = wire.KindTime, wire.Trusted
		} else if sc := sessionFor(text); trust == wire.TrustUser && sc != nil {
			pieces = sessionPieces(sc, text)
		} else if mayHaveMarkup(text, p.Channel) {
			pieces = cut(text, p.Channel == wire.ChannelSystem, false, kind, trust, cwd)
		}
	}
	var server string
	if kind == wire.KindToolSchema && p.Channel == wire.ChannelTools {
		// An MCP server's tool, by its name (tools.go).
		if srv, _, ok := mcpServerOf(p.Name); ok {
			trust, server = wire.Untrusted, srv
		}
	}
	if len(pieces) <= 1 {
		s := wire.Segment{ID: p.ID, Part: p.ID, Channel: p.Channel, Role: p.Role, Kind: kind, Trust: trust,
			Label: p.Name, Server: server, Text: text}
		if trust == wire.Untrusted {
			s.Escapes = Escapes(text)
		}
		return []wire.Segment{s}
	}
	out := make([]wire.Segment, 0, len(pieces))
	seen := make(map[string]int, len(pieces))
	around := 0
	for _, pc := range pieces {
		var id string
		if pc.name == "" {
			id = p.ID + "/" + strconv.Itoa(around)
			around++
		} else {
			seen[pc.name]++
			id = p.ID + "/" + pc.name
			if n := seen[pc.name]; n > 1 {
				id += "#" + strconv.Itoa(n)
			}
		}
		label := pc.label
		if label == "" {
			label = p.Name
		}
		s := wire.Segment{ID: id, Part: p.ID, Channel: p.Channel, Role: p.Role, Kind: pc.kind, Trust: pc.trust,
			Envelope: pc.envelope, Label: label, Text: text[pc.start:pc.end], Start: pc.start}
		if s.Trust == wire.Untrusted {
			s.Escapes = Escapes(s.Text)
		}
		out = append(out, s)
	}
	return out
}

// ReasoningLabel is the label of a segment of the model's reasoning (a
// thinking block, a reasoning item, reasoning_content): kind assistant,
// trust model, told from the model's answer by this label.
const ReasoningLabel = "reasoning"

// isReasoning reports whether a part of this wire type is the model's
// reasoning.
func isReasoning(typ string) bool {
	switch typ {
	case "thinking", "reasoning", "redacted_thinking":
		return true
	}
	return false
}

// baseKind is the kind and trust of a part that carries no envelope.
func baseKind(p wire.Part) (wire.Kind, wire.Trust) {
	switch p.Type {
	case "tool":
		return wire.KindToolSchema, wire.Trusted
	case "tool_use", "function_call", "functionCall", "tool_call":
		return wire.KindToolCall, wire.TrustModel
	case "tool_result", "function_call_output", "functionResponse":
		return wire.KindToolResult, wire.Untrusted
	case wire.PartHostNote:
		return wire.KindHostNote, wire.Trusted
	}
	if isReasoning(p.Type) {
		return wire.KindAssistant, wire.TrustModel
	}
	if p.Channel == wire.ChannelTools {
		return wire.KindToolSchema, wire.Trusted
	}
	if p.Channel == wire.ChannelSystem {
		return wire.KindHostRules, wire.Trusted
	}
	switch p.Role {
	case "assistant", "model":
		return wire.KindAssistant, wire.TrustModel
	case "tool", "function":
		return wire.KindToolResult, wire.Untrusted
	case "system", "developer":
		return wire.KindHostRules, wire.Trusted
	}
	return wire.KindUserInput, wire.TrustUser
}

// piece is a stretch [start, end) of a part's text with one meaning.
type piece struct {
	start, end int
	kind       wire.Kind
	trust      wire.Trust
	envelope   string
	label      string
	// name makes the segment ID "<part>/<name>"; "" for text around
	// envelopes ("<part>/0", "<part>/1", ...).
	name string
}

// splittable reports whether a part of this base kind is host or user
// text that may carry envelopes or legacy sections.
func splittable(kind wire.Kind, trust wire.Trust) bool {
	return kind == wire.KindUserInput && trust == wire.TrustUser || kind == wire.KindHostRules && trust == wire.Trusted
}

// mayHaveMarkup is the quick exit: outside the system channel, only a '<'
// or a Gemini context line can start an envelope, and only the intro of a
// row of SkillLists a Markdown list of skills.
func mayHaveMarkup(text string, ch wire.Channel) bool {
	if ch == wire.ChannelSystem {
		return true
	}
	return strings.IndexByte(text, '<') >= 0 || hasLineTags(text) || skillListIntro(text)
}

// cut cuts text into pieces; nil (or one piece) when there is nothing to
// cut. system is set for system-channel text, which gets legacy sections;
// head for a user message the host wrote (as a host heading makes it).
func cut(text string, system, head bool, kind wire.Kind, trust wire.Trust, cwd string) []piece {
	var envs []envelope
	var stray []int
	if strings.IndexByte(text, '<') >= 0 || hasLineTags(text) {
		buf := getTags()
		tags := scanTagsInto(buf, text, tagScope{host: trust == wire.Trusted})
		if system {
			tags = dropListedSkills(text, tags)
			tags = dropFramed(text, tags)
		}
		envs, stray = findEnvelopes(text, tags)
		putTags(tags)
	}
	hostHead := trust == wire.TrustUser && (head || slices.ContainsFunc(framing.HostHeadings, func(h framing.HostHeading) bool { return startsWithHeading(text, h.Heading) }))

	// The stretches around envelopes, with the part of each that is neither
	// the previous closer nor the next opener (its "middle").
	type stretch struct{ start, end, midStart, midEnd int }
	var arounds []stretch
	prev, prevMid := 0, 0
	for _, e := range envs {
		arounds = append(arounds, stretch{prev, e.bodyStart, prevMid, e.open.start})
		prev, prevMid = e.bodyEnd, e.close.end
	}
	arounds = append(arounds, stretch{prev, len(text), prevMid, len(text)})

	// Legacy sections of the system text outside envelopes.
	var legacy [][]Section
	anyLegacy := false
	if system {
		legacy = make([][]Section, len(arounds))
		for i, a := range arounds {
			legacy[i] = LegacySections(text[a.start:a.end])
			anyLegacy = anyLegacy || len(legacy[i]) > 0
		}
	}
	if len(envs) == 0 && !anyLegacy {
		if trust != wire.Trusted {
			return nil
		}
		if l := skillListFor(text, ""); l != nil {
			return skillListPieces(l, text, 0, len(text), kind, "", cwd)
		}
		return nil
	}

	aroundPiece := func(a, b int, mid stretch) piece {
		pc := piece{start: a, end: b, kind: kind, trust: trust}
		if anyLegacy {
			pc.name = string(wire.KindHostRules)
		}
		if trust == wire.TrustUser && (hostHead || isBlank(text[mid.midStart:max(mid.midStart, mid.midEnd)])) {
			pc.kind, pc.trust = wire.KindOther, wire.Trusted
		}
		if pc.trust == wire.Trusted || pc.trust == wire.TrustUser {
			// stray is in text order: is there one in [a, b)?
			if k, _ := slices.BinarySearch(stray, a); k < len(stray) && stray[k] < b {
				pc.kind, pc.trust = wire.KindOther, wire.Untrusted
			}
		}
		return pc
	}
	var out []piece
	for i, a := range arounds {
		if anyLegacy && len(legacy[i]) > 0 {
			at := a.start
			for _, sec := range legacy[i] {
				s, e := a.start+sec.Start, a.start+sec.End
				if s > at {
					out = append(out, aroundPiece(at, s, a))
				}
				tr := wire.Untrusted
				if sec.Kind == wire.KindTime {
					tr = wire.Trusted
				} else if sec.Trust != "" {
					tr = sec.Trust
				}
				if sk := skillsOf(text, sec.Kind, s, e, cwd); sk != nil {
					out = append(out, sk...)
				} else {
					out = append(out, piece{start: s, end: e, kind: sec.Kind, trust: tr, label: sec.Label, name: string(sec.Kind)})
				}
				at = e
			}
			if at < a.end {
				out = append(out, aroundPiece(at, a.end, a))
			}
		} else if a.end > a.start {
			out = append(out, aroundPiece(a.start, a.end, a))
		}
		if i < len(envs) {
			out = append(out, envPieces(text, envs[i], cwd)...)
		}
	}
	return out
}

// envPieces classifies the body of one envelope.
func envPieces(text string, e envelope, cwd string) []piece {
	d := e.open.def
	if cb := contextBlockFor(d.name); cb != nil {
		return contextPieces(cb, d, text, e.bodyStart, e.bodyEnd)
	}
	pc := piece{start: e.bodyStart, end: e.bodyEnd, kind: d.kind, trust: d.trust, envelope: d.name, label: e.open.labelIn(text), name: d.name}
	if pc.kind == wire.KindAgentsMD && pc.trust == wire.Untrusted && HomePath(pc.label) {
		// A file the host names in the user's own agent folder
		// (qwen-code's ~/.qwen/output-language.md): the user's text.
		pc.trust = wire.TrustUser
	}
	if l := skillListFor(text[e.bodyStart:e.bodyEnd], d.name); l != nil {
		// A skill list the host writes in this envelope (SkillLists): a
		// body with no entry is the envelope's whole.
		if pcs := skillListPieces(l, text, e.bodyStart, e.bodyEnd, wire.KindHostRules, d.name, cwd); pcs != nil {
			return pcs
		}
	}
	if r := d.row; r != nil {
		if aloneHeading(text[:e.open.start], r) {
			// The user's own file alone under the host's heading.
			pc.trust, pc.label = wire.TrustUser, r.UserLabel
			return []piece{pc}
		}
		if r.After != "" {
			pc.label = headingRest(text[:e.open.start], r.After)
		}
		if r.NameChild != "" {
			if n := childText(text[e.bodyStart:e.bodyEnd], r.NameChild); n != "" {
				pc.label = n
			}
		}
		if r.UserUntil != "" {
			return userUntilPieces(text, pc, r.UserUntil, r.UserLabel)
		}
		if r.Files != "" {
			if pcs := filePieces(text, pc, r.Files); pcs != nil {
				return pcs
			}
		}
	}
	return []piece{pc}
}

// skillsOf cuts a legacy skills-listing section [s, e) that holds a list of
// SkillLists (skilllists.go) or an <available_skills> (skills.go) into its
// skills, or returns nil.
func skillsOf(text string, kind wire.Kind, s, e int, cwd string) []piece {
	if kind != wire.KindSkillsListing {
		return nil
	}
	if l := skillListAt(text, s); l != nil {
		return skillListPieces(l, text, s, e, wire.KindHostRules, "", cwd)
	}
	return availableSkillsPieces(text, s, e, cwd)
}

// dropListedSkills drops the <skill> tags inside Gemini CLI's
// <available_skills> list of a system text: there they are the list's
// entries (skills.go), not Codex's loaded skills.
func dropListedSkills(text string, tags []dialectTag) []dialectTag {
	open := lineTrimmedWith(text, 0, skillsOpen)
	if open < 0 {
		return tags
	}
	end := lastLineTrimmedWith(text, open, skillsClose)
	if end < 0 {
		end = len(text)
	}
	return slices.DeleteFunc(tags, func(t dialectTag) bool {
		return t.def.name == "skill" && t.start > open && t.start < end
	})
}

// dropFramed drops the tags inside the blocks of the framings table
// (framings.go) in a system text: a file pasted under "Instructions from:"
// is the file's text whole, and a <system-reminder> line in it is the
// file's, not an envelope of the host's.
func dropFramed(text string, tags []dialectTag) []dialectTag {
	secs := framedSections(text)
	if len(secs) == 0 {
		return tags
	}
	return slices.DeleteFunc(tags, func(t dialectTag) bool {
		for _, s := range secs {
			if t.start >= s.Start && t.start < s.End {
				return true
			}
		}
		return false
	})
}
