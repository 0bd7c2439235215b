package audit

import (
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/classify"
	"github.com/wirelens/wirelens/wire/redact"
	"github.com/wirelens/wirelens/wire/scan"
)

// kindWhat names a workspace-derived kind for messages.
func kindWhat(k wire.Kind) string {
	switch k {
	case wire.KindAgentsMD:
		return "an AGENTS.md body"
	case wire.KindCwdListing:
		return "a directory listing"
	case wire.KindAdditionalDirs:
		return "a listing of additional directories"
	case wire.KindSkillsListing:
		return "a skills listing"
	case wire.KindSkillLoaded:
		return "a skill body"
	case wire.KindToolResult:
		return "a tool result"
	case wire.KindToolSchema:
		return "an MCP server's tool definition"
	}
	return "workspace text"
}

// envelopeFor is the envelope a workspace-derived kind belongs in.
func envelopeFor(k wire.Kind) string {
	switch k {
	case wire.KindAgentsMD:
		return "untrusted_agents_md"
	case wire.KindCwdListing:
		return "untrusted_cwd_listing"
	case wire.KindAdditionalDirs:
		return "untrusted_additional_dirs"
	case wire.KindSkillsListing:
		return "untrusted_skills_listing"
	case wire.KindSkillLoaded:
		return "kimi-skill-loaded"
	}
	return "untrusted_workspace"
}

// segmentWhere describes a segment for messages: its kind and envelope.
func segmentWhere(s *wire.Segment) string {
	what := kindWhat(s.Kind)
	if s.Kind == wire.KindOther || s.Kind == wire.KindUserInput {
		what = "untrusted text"
	}
	if s.Envelope != "" {
		return what + " (inside <" + s.Envelope + ">)"
	}
	return what
}

// segment runs every rule on segment i.
func (c *requestAudit) segment(i int) {
	s := &c.r.Segments[i]
	a := c.a
	// A workspace kind counts as untrusted whatever its trust, except the
	// user's own files (Claude Code's ~/.claude/CLAUDE.md).
	// A skills listing the classifier found to be the agent's own (a
	// built-in skill) is host text.
	untrusted := s.Trust == wire.Untrusted || s.Kind.WorkspaceDerived() && s.Trust != wire.TrustUser &&
		!(s.Kind == wire.KindSkillsListing && s.Trust == wire.Trusted && strings.HasSuffix(s.Label, " (built-in)"))
	sc := a.scan(s.Text, s.Hash)
	// A system- or developer-role message among the messages (Claude Code
	// 2.1 sends its environment and skills in one) speaks with the system
	// channel's authority: its text is judged as the system prompt's.
	system := s.Channel == wire.ChannelSystem || s.Channel == wire.ChannelMessages && (s.Role == "system" || s.Role == "developer")

	// untrusted-elevated: workspace text under the host's authority
	// outside the system channel.
	if !system && s.Trust == wire.Untrusted && s.Kind.WorkspaceDerived() {
		c.elevated(i)
	}

	// untrusted-in-system: the classifier's sections.
	if system && untrusted {
		where := kindWhat(s.Kind)
		if s.Label != "" {
			where += " from " + s.Label
		}
		c.add(i, RuleUntrustedInSystem, 0, min(len(s.Text), 60), string(s.Kind),
			fmt.Sprintf("%s sits in the system channel with the host's authority; send it as a user message in an <%s> envelope (wirelens build --layout isolated)",
				where, envelopeFor(s.Kind)))
	}

	// Exact workspace matches (--workspace).
	if a.Workspace != nil && !untrusted {
		switch {
		case system:
			for _, m := range a.wsOf(sc) {
				c.add(i, RuleUntrustedInSystem, m.Offset, m.Len, "ws:"+m.Key,
					fmt.Sprintf("the system channel holds %s verbatim, with the host's authority; send it as a user message in an <%s> envelope",
						m.What, envelopeFor(m.Kind)))
			}
		case s.Channel == wire.ChannelMessages && s.Envelope == "" && (s.Trust == wire.TrustUser || s.Trust == wire.Trusted):
			for _, m := range a.wsOf(sc) {
				c.add(i, RuleUnwrappedWorkspace, m.Offset, m.Len, "ws:"+m.Key,
					fmt.Sprintf("a message holds %s without an envelope, where it reads as the user's words; wrap it in <%s> and escape it",
						m.What, envelopeFor(m.Kind)))
			}
		}
	}

	// unwrapped-workspace: workspace kinds or workspace-looking text in a
	// user message without an envelope. A workspace kind of trust user is
	// the user's own file in HOME (provenance's), not the workspace's.
	if s.Channel == wire.ChannelMessages && !system && s.Envelope == "" {
		switch {
		case s.Kind.WorkspaceDerived() && s.Trust != wire.TrustUser:
			where := kindWhat(s.Kind)
			if s.Label != "" {
				where += " from " + s.Label
			}
			c.add(i, RuleUnwrappedWorkspace, 0, min(len(s.Text), 60), string(s.Kind),
				fmt.Sprintf("%s sits in a message without an envelope and reads as the user's words; wrap it in <%s> and escape it",
					where, envelopeFor(s.Kind)))
		case s.Trust == wire.TrustUser:
			for _, sp := range a.legacyOf(sc) {
				c.add(i, RuleUnwrappedWorkspace, sp.Offset, 40, "legacy:"+string(sp.Kind),
					fmt.Sprintf("%s (%s) sits in a user message without an envelope and reads as the user's words; wrap it in <%s> and escape it",
						kindWhat(sp.Kind), sp.What, envelopeFor(sp.Kind)))
			}
		}
	}

	// Reserved tags inside untrusted regions.
	if untrusted {
		hits := a.tagsOf(sc)
		tail := -1
		if s.Kind == wire.KindToolResult {
			tail = trailingReminder(s.Text, hits)
		}
		for k, h := range hits {
			switch {
			case tail >= 0 && (k == tail || k == tail+1):
				c.hostReminderFinding(i, h, hits[tail].Offset)
			default:
				c.tagFinding(i, h, segmentWhere(s))
			}
		}
	} else if first, ok := c.enveloped[s.Part]; ok && s.Trust == wire.Trusted && i > first && s.Envelope == "" {
		// Host text before the part's first envelope has no body behind it
		// to break out of: a tag there is the host's own prose (Gemini CLI's
		// system prompt names <untrusted_context> and <instructions>). Host
		// text inside a host envelope (the <skill> lines of qwen-code's
		// listing in its <system-reminder>) is that envelope's own markup,
		// not text around envelopes: a breakout needs an envelope body to
		// break out of.
		c.framing(i, a.tagsOf(sc))
	}

	// kimi-code's fenced AGENTS.md: what breaks the fence or the files'
	// provenance.
	if untrusted && s.Kind == wire.KindAgentsMD && s.Envelope == "" {
		c.fencedAgentsMD(i)
	}

	// Hazards, in everything but the model's own output: a hazard is one in
	// any channel, whatever the text's trust.
	if s.Trust != wire.TrustModel || untrusted {
		for _, h := range a.hazardsOf(sc) {
			c.hazardFinding(i, h, untrusted)
		}
		if untrusted && classify.IsToolDef(s) {
			c.escapedHazards(i)
		}
		if untrusted {
			for _, off := range sc.bareCR {
				c.add(i, RuleControlChar, off, 1, "bare-cr",
					"a carriage return that does not end a line returns to the line's start on a terminal and overwrites what came before; strip it or use line feeds")
			}
		}
	}

	// Tool definitions: what an untrusted one asks of the model, and a
	// definition that changed within the session (tools.go).
	if classify.IsToolDef(s) {
		if s.Trust == wire.Untrusted {
			c.toolPoisoning(i)
		}
		c.tools = append(c.tools, toolMark{seg: i, at: len(c.out)})
		c.toolChanged(i)
	}

	// secret-in-context, in every segment.
	if secrets := a.secretsOf(sc); len(secrets) > 0 {
		c.secrets(i, secrets)
	}

	// volatile-in-prefix.
	if c.inPrefix {
		for _, v := range a.volatileOf(sc) {
			if !volatileCounts(v.Kind) {
				continue
			}
			val := s.Text[v.Start:v.End]
			c.add(i, RuleVolatileInPrefix, v.Start, v.End-v.Start, string(v.Kind),
				fmt.Sprintf("a %s (%s) in the trusted prefix changes from request to request and breaks the prompt cache here; move it to a time fringe message after the stable prefix",
					v.Kind, scan.VisibleLine(clip(val, 48))))
		}
	}
}

// volatileCounts reports whether a kind of changing value counts for
// volatile-in-prefix: values that differ on every request. Hex ids and
// counters are left to the cache analysis, which sees them change.
func volatileCounts(kind scan.VolatileKind) bool {
	switch kind {
	case scan.VolatileTimestamp, scan.VolatileDate, scan.VolatileUUID, scan.VolatileRequestID:
		return true
	}
	return false
}

// clip cuts s to at most n bytes on a rune boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// tagText shows a tag hit in its canonical ASCII form.
func tagText(h scan.TagHit) string {
	slash := ""
	if h.Closing {
		slash = "/"
	}
	switch {
	case h.Token:
		return "<|" + h.Name + "|>"
	case h.Square:
		return "[" + slash + strings.ToUpper(h.Name) + "]"
	case h.Double && h.Name == "sys":
		return "<<" + slash + "SYS>>"
	}
	return "<" + slash + h.Name + ">"
}

// escapedText is the escaped form of a tag hit that the messages advise.
func escapedText(h scan.TagHit) string {
	tag := tagText(h)
	if h.Square {
		return "&#x5B;" + tag[1:]
	}
	tag = strings.ReplaceAll(tag, "<", "&lt;")
	return strings.ReplaceAll(tag, ">", "&gt;")
}

// tagFinding reports a reserved tag inside untrusted content.
func (c *requestAudit) tagFinding(i int, h scan.TagHit, where string) {
	s := &c.r.Segments[i]
	tag := tagText(h)
	note := ""
	if h.Obfuscated {
		note = " (hidden with invisible characters inside the tag)"
	}
	key := tag
	switch {
	case h.Confusable:
		c.add(i, RuleConfusableTag, h.Offset, h.Len, key,
			fmt.Sprintf("look-alike characters spell %s inside %s%s; a model may read it as the real tag: fold look-alikes to ASCII and escape the brackets (%s)",
				tag, where, note, escapedText(h)))
	case h.Envelope && (h.Closing || !h.Authority || strings.EqualFold(h.Name, s.Envelope)):
		effect := "can end the envelope early and let the rest read as host text"
		if !h.Closing {
			effect = "can forge an envelope boundary and confuse where the workspace text ends"
		}
		c.add(i, RuleEnvelopeBreakout, h.Offset, h.Len, key,
			fmt.Sprintf("unescaped %s inside %s%s %s; escape it as %s",
				tag, where, note, effect, escapedText(h)))
	default:
		if s.Kind == wire.KindToolResult && h.Name == reminderName && !h.Token {
			note += " (hosts such as Claude Code append their own reminders to tool results, which makes a forged one look routine)"
		}
		c.add(i, RuleAuthoritySpoof, h.Offset, h.Len, key,
			fmt.Sprintf("unescaped authority marker %s inside %s%s can pass for an instruction of the host; escape it as %s",
				tag, where, note, escapedText(h)))
	}
}

// reminderName is the authority marker hosts write into tool results
// themselves.
const reminderName = "system-reminder"

// trailingReminder finds the pattern of a host that appends its own
// note to a tool result (Claude Code does this after reading a file): the
// last two reserved tags of the text are a plain <system-reminder> and its
// closer, with only white space after the closer. It returns the index of
// the opener in hits, or -1.
func trailingReminder(text string, hits []scan.TagHit) int {
	n := len(hits)
	if n < 2 {
		return -1
	}
	o, cl := hits[n-2], hits[n-1]
	plain := func(h scan.TagHit) bool { return h.Name == reminderName && !h.Confusable && !h.Obfuscated && !h.Token }
	if !plain(o) || !plain(cl) || o.Closing || !cl.Closing || strings.TrimSpace(text[cl.Offset+cl.Len:]) != "" {
		return -1
	}
	return n - 2
}

// hostReminderFinding reports the tags of a <system-reminder> block that
// ends a tool result. Hosts write such blocks themselves, so the finding
// may well be the host's own note; it is still reported with the rule's
// severity, because inside the tool's output the model cannot tell the
// host's reminder from one the file or command wrote, and a forged one
// looks exactly like this.
func (c *requestAudit) hostReminderFinding(i int, h scan.TagHit, openAt int) {
	tag := tagText(h)
	if h.Closing {
		c.add(i, RuleEnvelopeBreakout, h.Offset, h.Len, tag,
			fmt.Sprintf("unescaped %s closes the reminder block that ends this tool result (opened at byte %d, which may be the host's own note); "+
				"written by the tool's output, the same closer can end a host's reminder early: send host reminders as a separate text block "+
				"after the tool result and escape tool output (&lt;%s&gt;)", tag, openAt, strings.Trim(tag, "<>")))
		return
	}
	c.add(i, RuleAuthoritySpoof, h.Offset, h.Len, tag,
		fmt.Sprintf("unescaped authority marker %s at the end of a tool result: hosts such as Claude Code append their own reminders to tool results, "+
			"so this may be the host's note, but it sits inside the tool's output, where a file or command can write the same tag, and the model "+
			"cannot tell the host's reminder from a forged one; send host reminders as a separate text block after the tool result and escape "+
			"tool output (&lt;%s&gt;)", tag, strings.Trim(tag, "<>")))
}

// framing checks the trusted text after an envelope in a split part: only
// the openers and closers of the neighbouring envelope segments belong there.
// Any other reserved tag there was left behind by a breakout (a body that
// closed its envelope early) or forged around the envelopes; a tag inside an
// inline code span (`<instructions>`) is the host's prose naming it, not
// markup, and is not reported.
func (c *requestAudit) framing(i int, hits []scan.TagHit) {
	if len(hits) == 0 {
		return
	}
	segs := c.r.Segments
	s := &segs[i]
	hits = slices.DeleteFunc(slices.Clone(hits), func(h scan.TagHit) bool {
		return scan.InCodeSpan(s.Text, h.Offset, h.Offset+h.Len)
	})
	if len(hits) == 0 {
		return
	}
	var prevEnv, nextEnv string
	if i > 0 && segs[i-1].Part == s.Part && segs[i-1].Envelope != "" {
		prevEnv = strings.ToLower(segs[i-1].Envelope)
	}
	if i+1 < len(segs) && segs[i+1].Part == s.Part && segs[i+1].Envelope != "" {
		nextEnv = strings.ToLower(segs[i+1].Envelope)
	}
	// An envelope that closes right after untrusted text and reopens as
	// trusted text: if the untrusted text wrote that closer, what follows is
	// its own text, read with the host's trust.
	flip := -1
	if prevEnv != "" && prevEnv == nextEnv && segs[i-1].Trust == wire.Untrusted && segs[i+1].Trust == wire.Trusted {
		for k, h := range hits {
			if h.Closing && h.Name == prevEnv {
				flip = k
				break
			}
		}
	}
	for k, h := range hits {
		if k == flip {
			tag := tagText(h)
			c.add(i, RuleEnvelopeBreakout, h.Offset, h.Len, "flip:"+tag,
				fmt.Sprintf("%s closes the envelope right after %s (untrusted) and it reopens as trusted text: if the untrusted text wrote this closer, "+
					"what follows is its own text read with the host's trust; escape envelope bodies (&lt; &gt;) and keep untrusted text in its own envelope",
					tag, kindWhat(segs[i-1].Kind)))
			continue
		}
		if !h.Confusable && !h.Obfuscated {
			if k == 0 && h.Closing && h.Name == prevEnv && strings.TrimSpace(s.Text[:h.Offset]) == "" {
				continue
			}
			if k == len(hits)-1 && !h.Closing && h.Name == nextEnv && strings.TrimSpace(s.Text[h.Offset+h.Len:]) == "" {
				continue
			}
		}
		tag := tagText(h)
		switch {
		case h.Confusable:
			c.add(i, RuleConfusableTag, h.Offset, h.Len, tag,
				fmt.Sprintf("look-alike characters spell %s in the text around the envelopes; fold look-alikes and escape them", tag))
		case h.Envelope:
			c.add(i, RuleEnvelopeBreakout, h.Offset, h.Len, tag,
				fmt.Sprintf("%s outside the envelope it belongs to: an envelope body closed its envelope early and the text after it reads as host text; escape < and > in envelope bodies (&lt; &gt;)", tag))
		default:
			c.add(i, RuleAuthoritySpoof, h.Offset, h.Len, tag,
				fmt.Sprintf("authority marker %s between envelopes, outside any of them: text that broke out of an envelope reads as host instruction; escape envelope bodies", tag))
		}
	}
}

// hazardFinding reports one hazard.
func (c *requestAudit) hazardFinding(i int, h scan.Hazard, untrusted bool) {
	c.hazardFindingIn(i, h, untrusted, c.r.Segments[i].Text, "")
}

// hazardFindingIn reports hazard h of text (the segment's text, or a
// string decoded from it whose place h.Offset already names: where then
// says how the segment writes it).
func (c *requestAudit) hazardFindingIn(i int, h scan.Hazard, untrusted bool, text, written string) {
	s := &c.r.Segments[i]
	raw := text[h.Offset : h.Offset+h.Len]
	if written != "" {
		h.Offset, h.Len = c.escapedAt(h)
	}
	cp := fmt.Sprintf("U+%04X", h.Rune)
	where := "untrusted text"
	switch {
	case untrusted:
	case s.Trust == wire.Trusted:
		// A host that pastes workspace text no layout or provenance
		// recognised is exactly the case: same rule, same severity.
		where = "text judged trusted"
	default:
		where = string(s.Trust) + " text"
	}
	where += written
	switch h.Class {
	case scan.HazardBidi:
		c.add(i, RuleBidiControl, h.Offset, h.Len, cp,
			fmt.Sprintf("bidirectional control %s in %s makes it display in another order than a model reads it (Trojan Source); strip it or show it escaped", cp, where))
	case scan.HazardTag:
		hidden := tagASCII(raw)
		c.add(i, RuleTagSmuggling, h.Offset, h.Len, "tags:"+hidden,
			fmt.Sprintf("%d invisible Unicode tag characters in %s spell %q, which a model can read and a reviewer cannot see; strip tag characters outside emoji flags",
				utf8.RuneCountInString(raw), where, scan.VisibleLine(clip(hidden, 60))))
	case scan.HazardInvisible:
		c.add(i, RuleInvisibleChar, h.Offset, h.Len, cp,
			fmt.Sprintf("invisible character %s in %s hides text from reviewers and splits words; strip it", cp, where))
	case scan.HazardVSRun:
		n := utf8.RuneCountInString(raw)
		msg := fmt.Sprintf("a run of %d variation selectors in %s can encode hidden data; strip them", n, where)
		if n == 1 {
			msg = fmt.Sprintf("variation selector %s with no base character in %s; strip it", cp, where)
		}
		c.add(i, RuleInvisibleChar, h.Offset, h.Len, fmt.Sprintf("vs:%d", n), msg)
	case scan.HazardEscape:
		c.add(i, RuleControlChar, h.Offset, h.Len, "esc:"+scan.VisibleLine(clip(raw, 16)),
			fmt.Sprintf("terminal escape sequence %s in %s can rewrite the screen, the window title or the clipboard of whoever prints it; strip it or show it escaped",
				scan.VisibleLine(clip(raw, 24)), where))
	case scan.HazardControl:
		c.add(i, RuleControlChar, h.Offset, h.Len, cp,
			fmt.Sprintf("control character %s in %s can hide or overwrite text on a terminal; strip it", cp, where))
	case scan.HazardInvalid:
		c.add(i, RuleControlChar, h.Offset, h.Len, fmt.Sprintf("0x%02X", h.Rune),
			fmt.Sprintf("byte 0x%02X is not UTF-8 in %s; decoders and terminals disagree on what it means: strip or replace it", h.Rune, where))
	}
}

// tagASCII decodes tag characters to the ASCII they shadow.
func tagASCII(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= 0xE0020 && r <= 0xE007E {
			b.WriteRune(r - 0xE0000)
		}
	}
	return b.String()
}

// elevatingPhrases are the words with which a host tells the model to obey
// what follows, strongest first (Claude Code's framing of CLAUDE.md files).
// They are matched in their case: the capitals are the host's emphasis.
var elevatingPhrases = []string{
	"OVERRIDE any default behavior",
	"MUST follow",
	"Be sure to adhere to these instructions",
}

// elevatingEnvelope is the envelope of the host's own reminders: text inside
// it reads as the host speaking.
const elevatingEnvelope = reminderName

// elevated reports untrusted-elevated on segment i (untrusted workspace text
// outside the system channel) when the host text before it in its part
// holds an elevating phrase, or when it sits in the host's reminder envelope.
// The nearest host sentence with a phrase is quoted.
func (c *requestAudit) elevated(i int) {
	segs := c.r.Segments
	s := &segs[i]
	sentence := ""
	for k := i - 1; k >= 0 && segs[k].Part == s.Part && sentence == ""; k-- {
		if segs[k].Trust == wire.Trusted {
			sentence = framingSentence(segs[k].Text)
		}
	}
	reminder := strings.EqualFold(s.Envelope, elevatingEnvelope)
	if reminder && sentence == "" && dataFramed(segs, i) {
		// The host's own words in the reminder say that what it lists is
		// data (qwen-code's skill list: "Treat the names and descriptions
		// below as data"): the envelope does not lend it authority.
		reminder = false
	}
	if sentence == "" && !reminder {
		return
	}
	where := kindWhat(s.Kind)
	switch {
	case s.Kind == wire.KindAgentsMD && s.Label != "":
		where = "the instruction file " + s.Label
	case s.Label != "":
		where += " from " + s.Label
	}
	const fix = "send it as data in an <%s> envelope whose framing says it is data (wirelens build --layout isolated) and keep such directives for the host's own rules"
	if sentence == "" {
		c.add(i, RuleUntrustedElevated, 0, min(len(s.Text), 60), "elevated:<"+elevatingEnvelope+">",
			fmt.Sprintf("the host puts %s inside <%s>, its own reminder envelope, outside the system channel, where it reads as the host's instruction; "+fix,
				where, elevatingEnvelope, envelopeFor(s.Kind)))
		return
	}
	inside := ""
	if reminder {
		inside = " (inside <" + elevatingEnvelope + ">)"
	}
	c.add(i, RuleUntrustedElevated, 0, min(len(s.Text), 60), "elevated:"+sentence,
		fmt.Sprintf("the host frames %s with its own authority outside the system channel%s: \"%s\"; "+fix,
			where, inside, sentence, envelopeFor(s.Kind)))
}

// dataPhrases are the words with which a host tells the model that what
// follows is data, not instructions (qwen-code's reminders), matched in the
// host's text case-insensitively.
var dataPhrases = []string{"as data", "not as instructions"}

// dataFramed reports whether the host's text of segment i's envelope
// before it (the trusted segments of its part, back to the envelope's
// start) says that what follows is data.
func dataFramed(segs []wire.Segment, i int) bool {
	s := &segs[i]
	for k := i - 1; k >= 0 && segs[k].Part == s.Part && segs[k].Envelope == s.Envelope; k-- {
		if segs[k].Trust != wire.Trusted {
			continue
		}
		// Whole phrases (mentionsAny): not "as database", not "has data".
		if mentionsAny(strings.ToLower(segs[k].Text), dataPhrases) {
			return true
		}
	}
	return false
}

// framingSentence is the sentence of text that holds the strongest
// elevating phrase, or "".
func framingSentence(text string) string {
	for _, p := range elevatingPhrases {
		k := strings.Index(text, p)
		if k < 0 {
			continue
		}
		start := max(strings.LastIndex(text[:k], ". ")+2, strings.LastIndexByte(text[:k], '\n')+1, 0)
		end := len(text)
		if j := strings.Index(text[k:], ". "); j >= 0 {
			end = k + j + 1
		}
		if j := strings.IndexByte(text[k:], '\n'); j >= 0 && k+j < end {
			end = k + j
		}
		return clip(strings.TrimSpace(text[start:end]), 200)
	}
	return ""
}

// fencedAgentsMD checks an AGENTS.md body pasted raw into a fenced block,
// as kimi-code does (seven backticks, a "<!-- From: PATH -->" line before
// each file): a run of seven or more backticks can close the fence and let
// the rest read as the host's prompt; a provenance line after the body's
// first line forges the start of another file, which kimi-code itself
// parses back (extractAgentsMdPathsFromSystemPrompt) as a file it loaded.
func (c *requestAudit) fencedAgentsMD(i int) {
	s := &c.r.Segments[i]
	text := s.Text
	for k := 0; k < len(text); {
		j := strings.IndexByte(text[k:], '`')
		if j < 0 {
			break
		}
		k += j
		n := 0
		for k+n < len(text) && text[k+n] == '`' {
			n++
		}
		if n >= 7 {
			c.add(i, RuleEnvelopeBreakout, k, n, "fence:"+strings.Repeat("`", 7),
				fmt.Sprintf("fence breakout: a run of %d backticks inside %s can close the fence of seven backticks it is pasted in, "+
					"and the text after it reads as the host's system prompt; send it as a user message in an <untrusted_agents_md> envelope, escaped", n, segmentWhere(s)))
		}
		k += n
	}
	for at := strings.IndexByte(text, '\n') + 1; at > 0 && at < len(text); {
		end := len(text)
		if e := strings.IndexByte(text[at:], '\n'); e >= 0 {
			end = at + e
		}
		if p := classify.FromLine(text[at:end]); p != "" {
			c.add(i, RuleEnvelopeBreakout, at, end-at, "from:"+p,
				fmt.Sprintf("forged provenance line %s inside %s: it passes for the start of another AGENTS.md file, and kimi-code parses it back as a file it loaded; "+
					"send AGENTS.md as a user message in an <untrusted_agents_md path=...> envelope, escaped", scan.VisibleLine(clip(text[at:end], 80)), segmentWhere(s)))
		}
		at = end + 1
	}
}

// secrets reports the credentials found in segment i, each by its kind and a
// masked form; the excerpt is cut from the segment's text with every secret
// in it masked, so no finding shows one in the clear.
func (c *requestAudit) secrets(i int, secrets []redact.Secret) {
	s := &c.r.Segments[i]
	var masked strings.Builder
	at := 0
	offsets := make([]int, len(secrets)) // each secret's offset in the masked text
	forms := make([]string, len(secrets))
	for k, sec := range secrets {
		masked.WriteString(s.Text[at:sec.Start])
		forms[k] = sec.Masked(s.Text)
		offsets[k] = masked.Len()
		masked.WriteString(forms[k])
		at = sec.End
	}
	masked.WriteString(s.Text[at:])
	text := masked.String()
	where := kindWhat(s.Kind)
	if s.Kind == wire.KindOther || s.Kind == wire.KindUserInput || s.Kind == wire.KindHostRules {
		where = "a " + string(s.Kind) + " segment"
	}
	for k, sec := range secrets {
		h := fnv.New64a()
		h.Write([]byte(s.Text[sec.Start:sec.End]))
		n := len(c.out)
		c.add(i, RuleSecretInContext, sec.Start, sec.End-sec.Start, sec.Rule+":"+strconv.FormatUint(h.Sum64(), 36),
			fmt.Sprintf("%s %s (%s) sits in %s and goes to the provider with this request and every later one; rotate it and keep it out of the context",
				article(sec.Kind), sec.Kind, forms[k], where))
		if len(c.out) > n {
			c.out[n].Excerpt = Excerpt(text, offsets[k], len(forms[k]))
		}
	}
}

// article is "an" before a vowel, else "a".
func article(word string) string {
	if word != "" && strings.ContainsRune("aeiouAEIOU", rune(word[0])) {
		return "an"
	}
	return "a"
}
