package audit

import (
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/redact"
	"github.com/wirelens/wirelens/wire/scan"
)

// Severity is how serious a finding is.
type Severity string

// Severities, most severe first.
const (
	SeverityHigh   Severity = "high"
	SeverityMedium Severity = "medium"
	SeverityLow    Severity = "low"
)

// Rank orders severities: high 3, medium 2, low 1, anything else 0.
func (s Severity) Rank() int {
	switch s {
	case SeverityHigh:
		return 3
	case SeverityMedium:
		return 2
	case SeverityLow:
		return 1
	}
	return 0
}

// ParseSeverity reads "high", "medium" or "low" (any case).
func ParseSeverity(s string) (Severity, bool) {
	switch v := Severity(strings.ToLower(s)); v {
	case SeverityHigh, SeverityMedium, SeverityLow:
		return v, true
	}
	return "", false
}

// Rule IDs of CONTRACT.md.
const (
	RuleUntrustedInSystem  = "untrusted-in-system"
	RuleEnvelopeBreakout   = "envelope-breakout"
	RuleAuthoritySpoof     = "authority-spoof"
	RuleBidiControl        = "bidi-control"
	RuleTagSmuggling       = "tag-smuggling"
	RuleConfusableTag      = "confusable-tag"
	RuleInvisibleChar      = "invisible-char"
	RuleControlChar        = "control-char"
	RuleVolatileInPrefix   = "volatile-in-prefix"
	RuleUnwrappedWorkspace = "unwrapped-workspace"
	RuleUntrustedElevated  = "untrusted-elevated"
	RuleSecretInContext    = "secret-in-context"
	// RuleUnstablePrefix is found by the cache analysis (check --cache),
	// not by the Auditor: it is listed here with the others for check
	// --rules and SARIF.
	RuleUnstablePrefix = "unstable-prefix"
	RuleToolPoisoning  = "tool-poisoning"
	RuleToolChanged    = "tool-changed"
)

// RuleInfo describes one audit rule.
type RuleInfo struct {
	ID       string
	Severity Severity // the default severity
	Short    string   // one line: what the rule finds
	Help     string   // why it matters and what the fix looks like
}

// Rules lists every audit rule, in the order of CONTRACT.md.
var Rules = []RuleInfo{
	{RuleUntrustedInSystem, SeverityHigh,
		"Workspace-derived content sits in the trusted system channel.",
		"An AGENTS.md body, a directory listing, a skills listing or additional directories were pasted into the system prompt, " +
			"where a poisoned repository speaks with the host's authority. Keep only host rules in the system channel and send workspace " +
			"text as request-time user messages in <untrusted_*> envelopes, escaped (wirelens build --layout isolated shows the shape)."},
	{RuleEnvelopeBreakout, SeverityHigh,
		"An unescaped envelope tag inside untrusted content.",
		"An opening or closing tag of a known envelope (</untrusted_agents_md>, </INSTRUCTIONS>, ... in any case, with whitespace or " +
			"invisible characters inside) in an envelope body, a tool result or a skill body can end the envelope early and let the rest " +
			"read as host text. Escape < and > in envelope bodies (&lt; &gt;); the escaped form is the fix, not a finding."},
	{RuleAuthoritySpoof, SeverityHigh,
		"An authority marker the host honours, unescaped inside untrusted content.",
		"<system-reminder>, <system>, <kimi-skill-loaded>, <INSTRUCTIONS>, <developer>, a ChatML special token such as <|im_start|> " +
			"or another model's role marker (<<SYS>>, [INST], <start_of_turn>, <function_results>) inside untrusted content or a tool result can pass for an instruction of the host. Escape the brackets (&lt;system-reminder&gt;). " +
			"Hosts such as Claude Code append their own <system-reminder> to tool results; that is reported too, because inside the " +
			"tool's output the model cannot tell the host's note from one a file or command wrote: send host reminders as their own " +
			"text block after the tool result."},
	{RuleBidiControl, SeverityHigh,
		"A bidirectional control character in untrusted content.",
		"Bidi overrides and isolates (U+202A..U+202E, U+2066..U+2069, LRM, RLM, ALM) make text display in a different order than a model " +
			"reads it (Trojan Source). Strip them from untrusted text or show them escaped."},
	{RuleTagSmuggling, SeverityHigh,
		"Unicode tag characters outside an emoji flag sequence.",
		"Tag characters (U+E0000..U+E007F) are invisible but many tokenizers read them as ASCII, so they smuggle instructions a reviewer " +
			"cannot see. Only an emoji flag's tag sequence is legitimate; strip every other tag character."},
	{RuleConfusableTag, SeverityMedium,
		"A look-alike bracket, slash or letter forms a known envelope or authority tag.",
		"Fullwidth and other look-alike brackets (U+FF1C, U+2039, U+27E8, U+3008, U+276E, U+00AB, U+300A, U+29FC, U+227A, U+1438, ...), " +
			"slashes (U+FF0F, U+29F8, U+2571, U+30CE, ...), Cyrillic or Greek homoglyphs, mathematical letters or combining marks spell a " +
			"reserved tag that a model may read as the real one. Fold look-alikes before escaping, or escape them too. Guillemets in " +
			"prose are not reported; only «name» with a reserved name is."},
	{RuleInvisibleChar, SeverityMedium,
		"Zero-width or other default-ignorable characters, or a run of variation selectors.",
		"Invisible characters hide text from reviewers and split words so filters miss them. A ZWJ inside an emoji sequence, a ZWNJ " +
			"or ZWJ between letters of a joining script and one variation selector after a base character are legitimate and not reported. " +
			"Strip the rest from untrusted text."},
	{RuleControlChar, SeverityMedium,
		"C0 or C1 control characters, DEL, or terminal escape sequences.",
		"Control characters and escape sequences can rewrite the terminal of whoever prints a log, set window titles, write the clipboard " +
			"(OSC 52) or hide text. Strip them or show them as control pictures."},
	{RuleVolatileInPrefix, SeverityMedium,
		"A changing value inside the trusted prefix.",
		"A timestamp, date, UUID or request id in the tools, the system channel or the trusted messages before the conversation changes " +
			"with every request and breaks the provider's prompt cache at that point. Move the clock into a time fringe message after the " +
			"stable prefix."},
	{RuleUnwrappedWorkspace, SeverityMedium,
		"Workspace-derived content in a user message without an envelope.",
		"An AGENTS.md body, a directory listing or a skills listing pasted into a user message without an <untrusted_*> envelope reads " +
			"as the user's own words. Wrap it in its envelope and escape it."},
	{RuleUntrustedElevated, SeverityHigh,
		"The host frames workspace text with its own authority outside the system channel.",
		"Claude Code sends each CLAUDE.md in a <system-reminder> of the first user message, under its own sentence that these " +
			"instructions OVERRIDE any default behavior and that the model MUST follow them exactly: a repository's file then " +
			"speaks with the host's voice even though it is not in the system prompt. Reported once per workspace file so framed, " +
			"with the framing sentence quoted. Send workspace text as data in an <untrusted_*> envelope whose framing says it is " +
			"data (wirelens build --layout isolated), and keep directives of authority for the host's own rules; the user's own " +
			"files (~/.claude/CLAUDE.md) are not reported."},
	{RuleSecretInContext, SeverityHigh,
		"An API key, token, private key or credential-like value in the context.",
		"A credential that reached the context (a tool printed an .env file, a workspace file holds a key) is sent to the model " +
			"provider with this request and every later one of the session, and sits in every log and capture of it. Found with " +
			"gitleaks' rules (provider keys of OpenAI, Anthropic, Google, AWS, GitHub, Slack, Stripe and some 200 more, private key " +
			"blocks, JWTs, high-entropy values assigned to names such as api_key or password) and the plain sk- keys of " +
			"OpenAI-compatible providers; reported by kind and place with a masked form, never in the clear. Rotate the credential, " +
			"keep it out of files and outputs the agent reads, and share captures with --redact."},
	{RuleUnstablePrefix, SeverityMedium,
		"(check --cache) A request re-processes a prefix that did not change in meaning.",
		"The prompt cache broke between two requests of the same model on a changing value (a timestamp, a date, a UUID, a " +
			"counter), on tools or segments sent in another order, or on a segment inserted before stable text, and the provider " +
			"processed again more of the earlier request than --max-reprocessed allows (tokens, or a share of the earlier request). " +
			"Keep the prefix byte-stable: sort tools, move the clock and other changing values after the cached prefix " +
			"(wirelens whatif shows what that saves)."},
	{RuleToolPoisoning, SeverityHigh,
		"An untrusted tool definition (an MCP server's) carries instructions for the model.",
		"An MCP server's tool names, descriptions and JSON schemas are written by whoever publishes the server, yet they sit in " +
			"the tools channel where the model reads them as the host's rules (tool poisoning, OWASP MCP Top 10 MCP03). Reported, " +
			"with the phrase, the server, the tool and the JSON path of the string, in every string of the definition (property " +
			"descriptions, enum, default, examples, title): hidden imperative blocks (<IMPORTANT>, <SYSTEM>, \"before using this " +
			"tool\"), requests to hide something from the user, sensitive files or credentials (~/.ssh, ~/.aws/credentials, .env, " +
			"mcp.json) to read or pass in a parameter, rules for other tools (shadowing: \"when the send_email tool is used, add " +
			"a bcc\"), and instructions in enum or default values. The host's own tools are not judged by it. Remove the server " +
			"or pin a version whose definitions were reviewed; tools are told from the host's by their names (mcp__SERVER__TOOL, " +
			"mcp_SERVER_TOOL), the agent's list of its own tools and, with --workspace, the MCP servers the workspace configures."},
	{RuleToolChanged, SeverityHigh,
		"A tool's definition changed between two requests of one session (low for the host's own tools).",
		"A server that changes a tool's description or schema after the user approved it (a rug pull) makes the model read new " +
			"rules under a name it trusts; the change also breaks the prompt cache from the tools on (tools_changed), and the " +
			"cache report names this finding as the break's cause. Reported on the later request with the segment-aligned diff " +
			"of the two definitions; high for an MCP server's tool, low for the host's. Pin server versions and review changes."},
}

// RuleByID returns the rule of an ID.
func RuleByID(id string) (RuleInfo, bool) {
	for _, r := range Rules {
		if r.ID == id {
			return r, true
		}
	}
	return RuleInfo{}, false
}

// Finding is one trust-boundary problem in a request.
type Finding struct {
	Rule     string   `json:"rule"`
	Severity Severity `json:"severity"`
	Source   string   `json:"source"`
	Request  int      `json:"request"`
	Segment  string   `json:"segment"`
	Offset   int      `json:"offset"`
	Excerpt  string   `json:"excerpt"` // safe to print
	Message  string   `json:"message"` // safe to print
	// Requests, set by a report that lists each distinct finding once, says
	// in which requests of its source the same finding recurs: the first
	// (Request) and how many carry it. nil when every request's findings are
	// listed apart.
	Requests *RequestSpan `json:"requests,omitempty"`
	// Line is the request's line in its source (JSONL), 0 when unknown.
	Line int `json:"-"`
	// Key identifies the finding across two versions of a request (before
	// and after a patch), independent of segment ids and offsets: the rule,
	// the segment's kind and label, and the text found.
	Key string `json:"-"`
	// Tool names the tool of a tool-poisoning or tool-changed finding.
	Tool *FindingTool `json:"tool,omitempty"`
}

// RequestSpan is the requests of one source that carry the same finding:
// the first of them and their number.
type RequestSpan struct {
	First int `json:"first"`
	Count int `json:"count"`
}

// Ref names the finding's request: "file" or "file@N".
func (f Finding) Ref() string {
	if f.Request <= 1 {
		return f.Source
	}
	return f.Source + "@" + strconv.Itoa(f.Request)
}

// maxPerRule caps the findings of one rule in one segment; the last one
// says how many more there are.
const maxPerRule = 20

// Auditor finds trust-boundary problems in requests. It remembers the scan of
// every distinct segment text, so a segment repeated by later requests of a
// session is not scanned again (its findings are still reported for each
// request). An Auditor is not safe for concurrent use.
type Auditor struct {
	// Workspace, when set, adds exact matches of the workspace's text to
	// untrusted-in-system and unwrapped-workspace.
	Workspace *WorkspaceMarks

	scans map[uint64]*textScan
	// last is what the request audited last left for the next (memo.go).
	last     memo
	replayed int // segments whose findings were replayed, for tests
	// tools holds, by source and tool name, the last definition seen
	// (tool-changed).
	tools map[string]map[string]*toolSeen
	// ScannedBytes counts the text actually scanned (distinct texts only).
	ScannedBytes int64
	// Secrets, when set, is where the secrets of a text are looked up
	// first, shared with the other auditors of a batch.
	Secrets *SharedSecrets
}

// New returns an Auditor with an empty scan cache.
func New() *Auditor { return &Auditor{scans: make(map[uint64]*textScan)} }

// textScan is what the scanners found in one distinct text. Parts are
// filled lazily: only the scans a segment's context needs are run.
type textScan struct {
	text string
	hash uint64 // wire.HashText(text)

	hazards     []scan.Hazard
	bareCR      []int // offsets of carriage returns not followed by a line feed
	haveHazards bool

	tags     []scan.TagHit
	haveTags bool

	volatile     []scan.Volatile
	haveVolatile bool

	ws     []workspaceMatch
	haveWS bool

	legacy     []textSpan
	haveLegacy bool

	secrets     []redact.Secret
	haveSecrets bool

	blank     string // the text with its secrets hidden (blanked)
	haveBlank bool

	schema     []schemaString // a tool definition's strings
	haveSchema bool
}

// textSpan is a stretch of a text that looks like workspace content.
type textSpan struct {
	Offset int
	Kind   wire.Kind
	What   string
}

// scan returns the cached scan record of a text.
func (a *Auditor) scan(text string, hash uint64) *textScan {
	if a.scans == nil {
		a.scans = make(map[uint64]*textScan)
	}
	if hash == 0 {
		hash = wire.HashText(text)
	}
	if sc, ok := a.scans[hash]; ok && sc.text == text {
		return sc
	} else if ok {
		// A hash collision: scan this text on its own, uncached.
		return &textScan{text: text, hash: hash}
	}
	sc := &textScan{text: text, hash: hash}
	a.scans[hash] = sc
	return sc
}

func (a *Auditor) hazardsOf(sc *textScan) []scan.Hazard {
	if !sc.haveHazards {
		sc.haveHazards = true
		a.ScannedBytes += int64(len(sc.text))
		sc.hazards = scan.Hazards(sc.text)
		sc.bareCR = bareCR(sc.text)
	}
	return sc.hazards
}

func (a *Auditor) tagsOf(sc *textScan) []scan.TagHit {
	if !sc.haveTags {
		sc.haveTags = true
		sc.tags = scan.FindReservedTags(sc.text)
	}
	return sc.tags
}

func (a *Auditor) volatileOf(sc *textScan) []scan.Volatile {
	if !sc.haveVolatile {
		sc.haveVolatile = true
		sc.volatile = scan.FindVolatile(sc.text)
	}
	return sc.volatile
}

func (a *Auditor) wsOf(sc *textScan) []workspaceMatch {
	if !sc.haveWS {
		sc.haveWS = true
		if a.Workspace != nil {
			sc.ws = a.Workspace.find(sc.text)
		}
	}
	return sc.ws
}

func (a *Auditor) legacyOf(sc *textScan) []textSpan {
	if !sc.haveLegacy {
		sc.haveLegacy = true
		sc.legacy = legacyHints(sc.text)
	}
	return sc.legacy
}

// blanked is a segment's text with its secrets hidden (redact.Blank, the
// same length), so that no finding's excerpt shows one: made once per text,
// not once per finding.
func (a *Auditor) blanked(s *wire.Segment) string {
	sc := a.scan(s.Text, s.Hash)
	if !sc.haveBlank {
		sc.haveBlank = true
		sc.blank = sc.text
		if secrets := a.secretsOf(sc); len(secrets) > 0 {
			sc.blank = redact.Blank(sc.text, secrets)
		}
	}
	return sc.blank
}

func (a *Auditor) secretsOf(sc *textScan) []redact.Secret {
	if !sc.haveSecrets {
		sc.haveSecrets = true
		if a.Secrets != nil {
			sc.secrets = a.Secrets.find(sc.text, sc.hash)
		} else {
			sc.secrets = redact.FindSecrets(sc.text)
		}
	}
	return sc.secrets
}

// Audit returns the findings of one request with a fresh Auditor.
func Audit(r *wire.Request) []Finding { return New().Audit(r) }

// Audit returns the findings of r, most severe first, then in wire order of
// the segments and by offset.
//
// The segments r shares with the request audited before (the same
// segments, from the first on) are not judged again: their findings are
// the earlier request's, replayed with r's number (see replayable), and
// only tool-changed, which compares a definition with the one the session
// sent last, runs on them again. The rest are judged one by one.
func (a *Auditor) Audit(r *wire.Request) []Finding {
	ctx := &requestAudit{a: a, r: r, closed: -1}
	from := a.replayable(r)
	ctx.replay(from)
	for i := from; i < len(r.Segments); i++ {
		ctx.mark(i)
		ctx.segment(i)
	}
	a.last = memo{segs: r.Segments, workspace: a.Workspace, out: ctx.out, order: ctx.order,
		tools: ctx.tools, closed: ctx.closed, enveloped: ctx.enveloped}
	idx := make([]int, len(ctx.out))
	for k := range idx {
		idx[k] = k
	}
	sort.SliceStable(idx, func(i, j int) bool {
		fi, fj := &ctx.out[idx[i]], &ctx.out[idx[j]]
		if ri, rj := fi.Severity.Rank(), fj.Severity.Rank(); ri != rj {
			return ri > rj
		}
		if oi, oj := ctx.order[idx[i]], ctx.order[idx[j]]; oi != oj {
			return oi < oj
		}
		return fi.Offset < fj.Offset
	})
	sorted := make([]Finding, len(idx))
	for k, at := range idx {
		sorted[k] = ctx.out[at]
		if t := sorted[k].Tool; t != nil {
			// The caller's own: the memo's is replayed to the next request.
			c := *t
			sorted[k].Tool = &c
		}
	}
	return sorted
}

// requestAudit is the state of auditing one request.
type requestAudit struct {
	a *Auditor
	r *wire.Request
	// inPrefix says whether the segment being judged is inside the trusted
	// prefix; closed is the index of the first segment of the messages
	// channel of another trust than trusted (where the prefix of the
	// messages ends), -1 before it.
	inPrefix bool
	closed   int
	// enveloped holds, for each part cut at envelopes, the index of its
	// first envelope segment: its trusted segments are host framing around
	// envelopes, and those before the first envelope have no body behind
	// them to break out of.
	enveloped map[string]int
	out       []Finding
	order     []int // per finding: the segment's index, for sorting
	// tools notes where tool-changed ran on each tool definition (memo).
	tools []toolMark
	// count per (segment, rule) for the cap
	counts map[string]int
	// capped per (segment, rule): findings left out
	capped map[string]int
	last   map[string]int // index in out of the last finding per (segment, rule)
	esc    *schemaString  // the string of a tool definition whose escaped hazards are read
}

// mark notes segment i, the next one judged, in the parts cut at envelopes
// and says whether it is in the trusted prefix: the tools, the system
// channel, and the trusted segments of the messages channel before the
// first segment of another trust. The time fringe (a trusted message of
// kind time) is where the clock belongs and is not part of it. Segments are
// marked in order, each after those before it.
func (c *requestAudit) mark(i int) {
	s := &c.r.Segments[i]
	if s.Envelope != "" && s.Part != s.ID {
		if c.enveloped == nil {
			c.enveloped = map[string]int{}
		}
		if _, ok := c.enveloped[s.Part]; !ok {
			c.enveloped[s.Part] = i
		}
	}
	switch s.Channel {
	case wire.ChannelTools, wire.ChannelSystem:
		c.inPrefix = s.Trust == wire.Trusted
	default:
		if s.Trust != wire.Trusted && c.closed < 0 {
			c.closed = i
		}
		c.inPrefix = c.closed < 0 && s.Trust == wire.Trusted && s.Kind != wire.KindTime
	}
}

// add records a finding on segment i.
func (c *requestAudit) add(i int, rule string, off, n int, key, msg string) {
	s := &c.r.Segments[i]
	ck := s.ID + "\x00" + rule
	if c.counts == nil {
		c.counts, c.capped, c.last = map[string]int{}, map[string]int{}, map[string]int{}
	}
	if c.counts[ck] >= maxPerRule {
		c.capped[ck]++
		f := &c.out[c.last[ck]]
		base := f.Message
		if k := strings.Index(base, " (and "); k >= 0 {
			base = base[:k]
		}
		f.Message = base + " (and " + strconv.Itoa(c.capped[ck]) + " more in this segment)"
		return
	}
	c.counts[ck]++
	info, _ := RuleByID(rule)
	f := Finding{
		Rule:     rule,
		Severity: info.Severity,
		Source:   c.r.Source,
		Request:  max(c.r.Index, 1),
		Segment:  s.ID,
		Offset:   off,
		Excerpt:  Excerpt(c.a.blanked(s), off, n),
		Message:  scan.VisibleLine(msg),
		Line:     c.r.Line,
		Key:      rule + "\x00" + string(s.Kind) + "\x00" + s.Label + "\x00" + key,
	}
	c.last[ck] = len(c.out)
	c.out = append(c.out, f)
	c.order = append(c.order, i)
}

// maxExcerpt caps an excerpt's printed bytes (hazards print as
// [U+XXXX], several bytes each).
const maxExcerpt = 160

// Excerpt is a short window of text around [off, off+n), made safe to
// print with VisibleLine; "…" marks text cut at either end.
func Excerpt(text string, off, n int) string {
	const before, after, maxHit = 24, 40, 80
	if off < 0 {
		off = 0
	}
	if off > len(text) {
		off = len(text)
	}
	n = min(max(n, 0), maxHit, len(text)-off)
	start := max(off-before, 0)
	for start > 0 && start < len(text) && !utf8.RuneStart(text[start]) {
		start--
	}
	end := min(off+n+after, len(text))
	for end < len(text) && !utf8.RuneStart(text[end]) {
		end++
	}
	var b strings.Builder
	if start > 0 {
		b.WriteString("…")
	}
	vis := scan.VisibleLine(text[start:end])
	cut := false
	if len(vis) > maxExcerpt {
		k := maxExcerpt
		for k > 0 && !utf8.RuneStart(vis[k]) {
			k--
		}
		vis, cut = vis[:k], true
	}
	b.WriteString(vis)
	if cut || end < len(text) {
		b.WriteString("…")
	}
	return b.String()
}

// bareCR finds carriage returns that do not end a line (CRLF): on a
// terminal they return to the start of the line and overwrite what came
// before.
func bareCR(s string) []int {
	var out []int
	for off := 0; ; {
		k := strings.IndexByte(s[off:], '\r')
		if k < 0 {
			return out
		}
		at := off + k
		if at+1 < len(s) && s[at+1] != '\n' {
			out = append(out, at)
		}
		off = at + 1
	}
}
