package audit

import (
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/classify"
	"github.com/wirelens/wirelens/wire/redact"
	"github.com/wirelens/wirelens/wire/scan"
)

// Tools on the wire: tool-poisoning (what an untrusted tool definition asks
// of the model) and tool-changed (a definition that changed within a
// session).

// FindingTool names the tool a tool-poisoning or tool-changed finding is
// about: its name on the wire, its MCP server ("" for the host's own), the
// JSON path (RFC 6901 pointer into the definition) of the string that
// holds the phrase, and, for tool-changed, the request it changed since
// and the segment-aligned diff of the two definitions (Diff, filled by the
// report: the audit keeps the two texts, secrets blanked).
type FindingTool struct {
	Name     string       `json:"name"`
	Server   string       `json:"server,omitempty"`
	Path     string       `json:"path,omitempty"`
	Previous int          `json:"previous_request,omitempty"`
	Diff     []ChangeHunk `json:"diff,omitempty"`
	// Before and After are the definitions before and after a change,
	// secrets blanked (hostile text).
	Before, After string `json:"-"`
}

// ChangeHunk is one run of a definition's diff: op equal, delete or insert.
type ChangeHunk struct {
	Op   string `json:"op"`
	Text string `json:"text"`
}

// schemaString is one string of a tool definition: a member's value, an
// array element or a member's name, where it stands.
type schemaString struct {
	path  string // JSON pointer of the value (of the member, for a name)
	name  bool   // a member's name, not a value
	text  string // decoded
	raw   string // as written, quotes included (a slice of the definition)
	start int    // byte offset of raw in the definition
}

// schemaStrings walks a tool definition's JSON and lists its strings; the
// definition's text is not JSON (a namespace's description alone), it is
// one string at path "".
func schemaStrings(text string) []schemaString {
	dec := jsontext.NewDecoder(strings.NewReader(text))
	var out []schemaString
	for {
		kind := dec.PeekKind()
		if kind == 0 {
			break
		}
		switch kind {
		case '{', '[', '}', ']':
			if _, err := dec.ReadToken(); err != nil {
				return fallbackString(text, out)
			}
			continue
		}
		val, err := dec.ReadValue()
		if err != nil {
			return fallbackString(text, out)
		}
		if kind != '"' {
			continue
		}
		start := int(dec.InputOffset()) - len(val)
		// val is the decoder's buffer, valid until its next read: the
		// definition's own bytes are kept instead.
		raw := text[start : start+len(val)]
		v, _ := jsontext.AppendUnquote(nil, val)
		// The decoder's stack says where the string stands: an object
		// that has read an odd number of tokens has just read a name.
		k, n := dec.StackIndex(dec.StackDepth())
		out = append(out, schemaString{path: string(dec.StackPointer()), name: k == '{' && n%2 == 1, text: string(v), raw: raw, start: start})
	}
	if _, err := dec.ReadToken(); err != nil && !errors.Is(err, io.EOF) {
		return fallbackString(text, out)
	}
	return out
}

// fallbackString is the whole text as one string when it is not JSON.
func fallbackString(text string, got []schemaString) []schemaString {
	if len(got) > 0 && json0(text) {
		return got
	}
	return []schemaString{{text: text, start: -1}}
}

// json0 reports whether text starts like a JSON object or array.
func json0(text string) bool {
	t := strings.TrimSpace(text)
	return strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[")
}

// offsetIn is the byte offset in the definition of byte k of a string's
// decoded text.
func (ss *schemaString) offsetIn(k int) int {
	if ss.start < 0 {
		return k
	}
	raw := ss.raw[1 : len(ss.raw)-1]
	if len(raw) == len(ss.text) {
		return ss.start + 1 + k
	}
	// Walk the escapes: decoded bytes against raw bytes.
	d := 0
	for i := 0; i < len(raw); {
		if d >= k {
			return ss.start + 1 + i
		}
		if raw[i] != '\\' || i+1 >= len(raw) {
			i++
			d++
			continue
		}
		if raw[i+1] != 'u' || i+6 > len(raw) {
			i += 2
			d++
			continue
		}
		r, _ := strconv.ParseUint(raw[i+2:i+6], 16, 32)
		i += 6
		if r >= 0xD800 && r < 0xDC00 && i+6 <= len(raw) && raw[i] == '\\' && raw[i+1] == 'u' {
			i += 6
			d += 4
			continue
		}
		d += max(utf8.RuneLen(rune(r)), 1)
	}
	return ss.start + len(ss.raw) - 1
}

// A poisoning pattern: what it finds, and the regular expression that does.
type poisonPattern struct {
	id   string
	what string
	re   *regexp.Regexp
}

// Phrases of poisoned tool descriptions, after the public write-ups of the
// attack (Invariant Labs' tool-poisoning notes, OWASP's MCP Top 10, MCP03):
// written here as patterns, none copied. The host's own "IMPORTANT:" and
// "You MUST" are not among them: a rule in a tool's text is the host's
// business; a block dressed as a hidden directive, a wish that the user not
// know, or a credential to put in a parameter is not.
var (
	hiddenBlock = poisonPattern{"hidden-block", "a hidden imperative block",
		regexp.MustCompile(`(?i)<\s*/?\s*(important|system|critical|instructions?|hidden|secret|admin|override|note[ _-]?to[ _-]?(ai|assistant|model)|ai[ _-]?instructions?|assistant[ _-]?instructions?)(\s[^<>]{0,40})?>`)}
	precondition = poisonPattern{"precondition", "an instruction to act before the tool is used",
		regexp.MustCompile(`(?i)\b(before|prior to)\s+(using|calling|invoking|running|you\s+(use|call|invoke|run))\s+(this|the)\s+tool\b|\bignore\s+(all\s+|any\s+)?(the\s+)?(previous|prior|above|earlier|other)\s+(instructions|rules|directions)\b|\bdisregard\s+(all\s+|any\s+)?(the\s+)?(previous|prior|above|system)\b`)}
	// Secrecy about the directive itself ("do not mention this step to
	// the user", "without telling the user"), not a host's note on what
	// to say ("never tell the user the goal is complete").
	hideUser = poisonPattern{"hide-from-user", "a request to hide something from the user",
		regexp.MustCompile(`(?i)\b(do\s+not|don'?t|never)\s+(tell|mention|reveal|show|disclose|explain)\s+(this|these|that|it|any\s+of\s+this|the\s+(above|following|step|steps|instruction|instructions|requirement|note|notes))\b([^.\n]{0,20}?\s+to\s+(the\s+)?(user|human)\b)?|\b(do\s+not|don'?t|never)\s+(tell|inform|notify|alert)\s+(the\s+)?(user|human)\s+(about|that\s+you|you)\b|\bwithout\s+(telling|informing|notifying|alerting|asking)\s+(the\s+)?(user|human)\b|\b(hide|conceal|keep)\b[^.\n]{0,30}?\bfrom\s+(the\s+)?(user|human)\b|\b(the\s+)?user\s+(must|should|need|will)\s*(not|n'?t)\s+(know|see|notice|be\s+told)\b|\bkeep\s+(this|it|that)\s+(a\s+)?secret\b`)}
	sensitivePath  = regexp.MustCompile(`(?i)~/\.ssh\b|\.ssh/|\bid_(rsa|dsa|ecdsa|ed25519)\b|~/\.aws\b|\.aws/(credentials|config)\b|(^|[\s'"` + "`" + `(/])\.env(\.[a-z]+)?\b|\bmcp\.json\b|\bclaude_desktop_config\.json\b|~/\.cursor\b|\.cursor/mcp|\.netrc\b|\.npmrc\b|\.pypirc\b|\.git-credentials\b|\.kube/config\b|\.docker/config\.json\b|/etc/(passwd|shadow)\b|\.config/gh\b|\.gnupg\b|\bkeychain\b|\bwallet\.dat\b`)
	credentialWord = regexp.MustCompile(`(?i)\b(private\s+keys?|api[\s_-]?keys?|secret\s+keys?|access\s+tokens?|passwords?|credentials|session\s+cookies?|seed\s+phrase)\b`)
	passVerb       = regexp.MustCompile(`(?i)\b(read|cat|open|include|including|pass|passing|provide|send|attach|upload|copy|paste|put|insert|append|add|contents?\s+of|content)\b`)
	directive      = regexp.MustCompile(`(?i)\b(must|should|always|never|instead|ignore|do\s+not|don'?t|you|before|after|make\s+sure|ensure|remember)\b`)
	// "when you call the X tool", "whenever the X tool is used": the
	// tool's name is the last submatch.
	toolUsed = []*regexp.Regexp{
		regexp.MustCompile("(?i)\\b(when|whenever|before|after|if)\\s+(you\\s+)?(use|call|invoke|run|using|calling|invoking)\\s+(the\\s+)?[`'\"]?([\\w.-]+)[`'\"]?(\\s+tool)?\\b"),
		regexp.MustCompile("(?i)\\b(when|whenever|if)\\s+(the\\s+)?[`'\"]?([\\w.-]+)[`'\"]?\\s+tool\\s+is\\s+(used|called|invoked|run)\\b"),
	}
	bcc = regexp.MustCompile(`(?i)\b(add|include|put)\b[^.\n]{0,30}\bbcc\b|\bbcc\b[^.\n]{0,30}@|\b(redirect|forward|send)\b[^.\n]{0,30}\b(all|every|each|copies?|a\s+copy)\b[^.\n]{0,30}\bto\b[^.\n]{0,40}@`)
)

// toolPoisoning runs tool-poisoning on the untrusted tool definition i.
func (c *requestAudit) toolPoisoning(i int) {
	s := &c.r.Segments[i]
	tool, server := classify.ToolName(s), s.Server
	strs := c.a.schemaOf(s)
	// The parameters the schema declares: a property's name.
	var params []string
	for _, ss := range strs {
		if ss.name && strings.Contains(ss.path, "/properties/") && strings.Count(ss.path[strings.LastIndex(ss.path, "/properties/"):], "/") == 2 {
			if len(ss.text) >= 3 {
				params = append(params, ss.text)
			}
		}
	}
	for k := range strs {
		ss := &strs[k]
		if ss.name || ss.path == "/name" || ss.path == "/function/name" || strings.HasSuffix(ss.path, "/type") {
			continue
		}
		report := func(pat, what string, at, n int) {
			phrase := ss.text[at : at+n]
			where := "the description"
			if ss.path != "" && ss.path != "/description" && ss.path != "/function/description" {
				where = ss.path
			}
			msg := fmt.Sprintf("%s in %s of MCP tool %s%s: \"%s\"; the model reads a server's tool text as rules",
				what, scan.VisibleLine(where), scan.VisibleLine(clip(tool, 60)), serverPart(server), scan.VisibleLine(clip(redact.Text(phrase), 80)))
			c.addTool(i, RuleToolPoisoning, ss.offsetIn(at), len(phrase), pat+":"+ss.path, msg,
				&FindingTool{Name: s.Label, Server: server, Path: ss.path})
		}
		text := ss.text
		for _, p := range []poisonPattern{hiddenBlock, precondition, hideUser} {
			if loc := p.re.FindStringIndex(text); loc != nil {
				report(p.id, p.what, loc[0], loc[1]-loc[0])
			}
		}
		// A sensitive path (or a credential) next to a parameter to put it
		// in, or a verb that asks for it.
		if loc := sensitivePath.FindStringIndex(text); loc != nil && (passVerb.MatchString(text) || mentionsAny(text, params)) {
			if c := text[loc[0]]; c != '.' && c != '~' && c != '/' && loc[1]-loc[0] > 1 {
				loc[0]++ // the character before ".env"
			}
			report("sensitive-path", "an instruction naming a sensitive file", loc[0], loc[1]-loc[0])
		} else if loc := credentialWord.FindStringIndex(text); loc != nil && passVerb.MatchString(text) && mentionsAny(text, params) && directive.MatchString(text) {
			report("credential", "an instruction to pass a credential in a parameter", loc[0], loc[1]-loc[0])
		}
		// Shadowing: rules for other tools.
		if at, n, other := toolRule(text, tool, s.Label); other != "" {
			report("shadowing", "a rule for another tool ("+scan.VisibleLine(clip(other, 40))+")", at, n)
		} else if loc := bcc.FindStringIndex(text); loc != nil {
			report("shadowing", "an instruction to copy what is sent elsewhere", loc[0], loc[1]-loc[0])
		}
		// Instructions in values the model copies: enum, default, const,
		// examples.
		if valueSlot(ss.path) && len(strings.Fields(text)) >= 6 && directive.MatchString(text) {
			report("value", "an instruction in "+article(valueSlotName(ss.path))+" "+valueSlotName(ss.path)+" value", 0, len(text))
		}
	}
}

// toolRule finds a rule for another tool than this one (tool, or label on
// the wire): where it is, its length and the other tool's name.
func toolRule(text, tool, label string) (at, n int, other string) {
	for _, re := range toolUsed {
		for _, m := range re.FindAllStringSubmatchIndex(text, -1) {
			// The tool's name: submatch 5 of the first form, 3 of the
			// second.
			name := text[m[6]:m[7]]
			if re == toolUsed[0] {
				name = text[m[10]:m[11]]
			}
			switch strings.ToLower(name) {
			case "this", "that", "it", "a", "an", "any", "each", "every", "other", "another", "same":
				continue
			}
			if strings.EqualFold(name, tool) || strings.EqualFold(name, label) {
				continue
			}
			// "when you use the pattern" is prose unless it names a tool:
			// the name has a '_', '.' or '-', or " tool" follows it.
			if re == toolUsed[0] && m[12] < 0 && !strings.ContainsAny(name, "_.-") {
				continue
			}
			return m[0], m[1] - m[0], name
		}
	}
	return 0, 0, ""
}

// escapedHazards reports the hazards a tool definition writes as JSON
// escapes ("\u202e", "\u001b"): the raw text holds none, the model reads
// the decoded character all the same.
func (c *requestAudit) escapedHazards(i int) {
	s := &c.r.Segments[i]
	for k := range c.a.schemaOf(s) {
		ss := &c.a.schemaOf(s)[k]
		if ss.start < 0 || len(ss.raw)-2 == len(ss.text) || !strings.Contains(ss.raw, `\u`) {
			continue
		}
		for _, h := range scan.Hazards(ss.text) {
			if at := ss.offsetIn(h.Offset); at >= len(s.Text) || s.Text[at] != '\\' {
				continue // written as itself: the scan of the raw text reports it
			}
			c.esc = ss
			c.hazardFindingIn(i, h, true, ss.text, " (written as a JSON escape at "+scan.VisibleLine(ss.path)+")")
		}
	}
	c.esc = nil
}

// escapedAt is where hazard h of the string being read (c.esc) is written
// in the definition, and how many bytes.
func (c *requestAudit) escapedAt(h scan.Hazard) (int, int) {
	start := c.esc.offsetIn(h.Offset)
	return start, max(c.esc.offsetIn(h.Offset+h.Len)-start, 1)
}

// serverPart is " of server S" or "".
func serverPart(server string) string {
	if server == "" {
		return ""
	}
	return " (server " + scan.VisibleLine(clip(server, 60)) + ")"
}

// valueSlot reports whether a path is an enum, default, const or examples
// value (or an element of one).
func valueSlot(path string) bool { return valueSlotName(path) != "" }

func valueSlotName(path string) string {
	parts := strings.Split(path, "/")
	for k := len(parts) - 1; k >= 0 && k >= len(parts)-2; k-- {
		switch parts[k] {
		case "enum", "default", "const", "examples", "example":
			return parts[k]
		}
	}
	return ""
}

// mentionsAny reports whether text names one of words as a word.
func mentionsAny(text string, words []string) bool {
	for _, w := range words {
		if wordAt(text, w) >= 0 {
			return true
		}
	}
	return false
}

// wordAt is where text holds w with no letter, digit or '_' on either side,
// or -1.
func wordAt(text, w string) int {
	if w == "" {
		return -1
	}
	for off := 0; ; {
		k := strings.Index(text[off:], w)
		if k < 0 {
			return -1
		}
		at := off + k
		end := at + len(w)
		if (at == 0 || !wordByte(text[at-1])) && (end == len(text) || !wordByte(text[end])) {
			return at
		}
		off = at + 1
	}
}

func wordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// schemaOf is the cached walk of a definition's strings.
func (a *Auditor) schemaOf(s *wire.Segment) []schemaString {
	sc := a.scan(s.Text, s.Hash)
	if !sc.haveSchema {
		sc.haveSchema = true
		sc.schema = schemaStrings(sc.text)
	}
	return sc.schema
}

// toolSeen is the last definition of a tool in a source's requests.
type toolSeen struct {
	hash    uint64
	text    string
	request int
}

// toolChanged runs tool-changed on tool definition i: against the last
// definition of the same name earlier in the request's source.
func (c *requestAudit) toolChanged(i int) {
	s := &c.r.Segments[i]
	a := c.a
	if a.tools == nil {
		a.tools = map[string]map[string]*toolSeen{}
	}
	bySource := a.tools[c.r.Source]
	if bySource == nil {
		bySource = map[string]*toolSeen{}
		a.tools[c.r.Source] = bySource
	}
	hash := s.Hash
	if hash == 0 {
		hash = wire.HashText(s.Text)
	}
	at := max(c.r.Index, 1)
	seen := bySource[s.Label]
	if seen == nil {
		bySource[s.Label] = &toolSeen{hash: hash, text: s.Text, request: at}
		return
	}
	prev := *seen
	*seen = toolSeen{hash: hash, text: s.Text, request: at}
	if prev.request >= at || prev.hash == hash && prev.text == s.Text {
		return
	}
	off := commonPrefix(prev.text, s.Text)
	sev := SeverityHigh
	who := "MCP tool " + scan.VisibleLine(clip(classify.ToolName(s), 60)) + serverPart(s.Server)
	if s.Trust == wire.Trusted {
		sev = SeverityLow
		who = "the host's tool " + scan.VisibleLine(clip(s.Label, 60))
	}
	before := redact.Blank(prev.text, redact.FindSecrets(prev.text))
	after := a.blanked(s)
	msg := fmt.Sprintf("the definition of %s changed since request %d of this session at byte %d: a rug pull when the tool was approved before; the change also breaks the prompt cache from the tools on (tools_changed)",
		who, prev.request, off)
	c.addTool(i, RuleToolChanged, off, 1, "changed:"+strconv.FormatUint(hash, 16), msg,
		&FindingTool{Name: s.Label, Server: s.Server, Previous: prev.request, Before: before, After: after})
	c.out[len(c.out)-1].Severity = sev
}

// excerptFrom is the text from off, a little before it.
func excerptFrom(s string, off int) string {
	start := max(off-8, 0)
	for start > 0 && !utf8.RuneStart(s[start]) {
		start--
	}
	return s[start:]
}

// commonPrefix is the length of the bytes a and b begin with alike (on a
// rune boundary).
func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	for n > 0 && n < len(b) && !utf8.RuneStart(b[n]) {
		n--
	}
	return n
}

// addTool records a finding that names a tool.
func (c *requestAudit) addTool(i int, rule string, off, n int, key, msg string, t *FindingTool) {
	before := len(c.out)
	c.add(i, rule, off, n, key, msg)
	if len(c.out) > before {
		c.out[len(c.out)-1].Tool = t
	}
}

// ToolChangeDiff fills a tool-changed finding's Diff from its two texts
// with diff (the report's segment diff, given by the caller: audit does not
// import the diff package).
func (f *Finding) ToolChangeDiff(diff func(a, b string) []ChangeHunk) {
	if f.Tool == nil || f.Rule != RuleToolChanged || f.Tool.Diff != nil {
		return
	}
	f.Tool.Diff = diff(f.Tool.Before, f.Tool.After)
}
