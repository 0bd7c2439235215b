package wire

import (
	"bufio"
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// Agent recordings: what kimi-cli, kimi-code, Codex and Claude Code write on
// their own. Each reader turns its recording into the requests the agent sent,
// and says in Request.Notes what the recording cannot tell. This file holds
// what the four readers share: detection by shape, the line reader, the
// segment sequence that requests of one recording share, and the walk of a
// session directory or a sessions root.

func init() {
	sessionDetectors = append(sessionDetectors, func(head []byte) sessionDecoder {
		f := recDetect(head)
		if f == recKimiCLIWire {
			return &recKimiCLIWireFile{}
		}
		if mk := recDecoders[f]; mk != nil {
			return mk()
		}
		return nil
	})
	decodeDir = recDecodeDir
}

// recDecoders makes a fresh decoder of each recording format; each reader's
// file registers itself with recRegister.
var recDecoders = map[Format]func() sessionDecoder{}

func recRegister(f Format, mk func() sessionDecoder) {
	recDecoders[f] = mk
	sessionFormats[f] = mk
}

// recKimiCLIWire is what recDetect calls the event log kimi-cli writes beside
// context.jsonl: it holds usage, not requests.
const recKimiCLIWire Format = "kimi-cli-wire"

// recKimiCLIWireFile reads kimi-cli's wire.jsonl given on its own: it holds
// events and usage, not the requests, which is one error.
type recKimiCLIWireFile struct{}

func (*recKimiCLIWireFile) line(d *decoder, raw []byte, line int, off int64) {}

func (*recKimiCLIWireFile) end(d *decoder) {
	d.fail(0, "a kimi-cli wire.jsonl holds events and usage, not requests: give the context.jsonl beside it, or the session directory")
}

// recHeadRecord holds the top-level members of a record that tell the
// recordings apart: the string ones by value, the others by presence.
type recHeadRecord struct {
	Role, Type, ProtocolVersion, UUID, SessionID, LeafUUID, ID, RecordType string

	CreatedAt, Payload, Message, Timestamp, Instructions bool
}

// recHead reads the top-level members of one line, as far as the line goes:
// the first line of a recording may be longer than the head read for
// detection (a system prompt), and the members before the cut still tell.
func recHead(line []byte) (r recHeadRecord, ok bool) {
	dec := jsontext.NewDecoder(bytes.NewBuffer(line), decWalkOpts...)
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return r, false
	}
	for {
		tok, err := dec.ReadToken()
		if err != nil || tok.Kind() != '"' {
			return r, true
		}
		key := tok.String()
		var str *string
		switch key {
		case "role":
			str = &r.Role
		case "type":
			str = &r.Type
		case "protocol_version":
			str = &r.ProtocolVersion
		case "uuid":
			str = &r.UUID
		case "sessionId":
			str = &r.SessionID
		case "leafUuid":
			str = &r.LeafUUID
		case "id":
			str = &r.ID
		case "record_type":
			str = &r.RecordType
		case "instructions":
			r.Instructions = true
		case "created_at":
			r.CreatedAt = true
		case "payload":
			r.Payload = true
		case "message":
			r.Message = true
		case "timestamp":
			r.Timestamp = true
		}
		if str != nil && dec.PeekKind() == '"' {
			v, err := dec.ReadToken()
			if err != nil {
				return r, true
			}
			*str = v.String()
			continue
		}
		if dec.SkipValue() != nil {
			return r, true
		}
	}
}

// recDetect names the recording format of a file from its first bytes, or
// returns "" when they are not a known agent's recording.
func recDetect(head []byte) Format {
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	metadata := false
	for lines := 0; len(head) > 0 && lines < 12; {
		ln, rest, _ := bytes.Cut(head, []byte("\n"))
		head = rest
		ln = bytes.TrimSpace(ln)
		if len(ln) == 0 {
			continue
		}
		lines++
		r, ok := recHead(ln)
		if !ok {
			continue
		}
		switch {
		case r.Role == "_system_prompt" || r.Role == "_checkpoint" || r.Role == "_usage":
			return FormatKimiCLI
		case r.Type == "metadata" && r.ProtocolVersion != "":
			metadata = true
			if r.CreatedAt {
				return FormatKimiCode
			}
		case metadata && r.Message && r.Timestamp && r.Type == "":
			return recKimiCLIWire
		case metadata && (strings.Contains(r.Type, ".") || r.Type == "forked"):
			return FormatKimiCode
		case r.Type == "session_meta" && r.Payload:
			return FormatCodex
		case r.Payload && r.Timestamp &&
			(r.Type == "response_item" || r.Type == "event_msg" || r.Type == "turn_context" || r.Type == "compacted"):
			return FormatCodex
		case lines == 1 && r.Type == "" && r.ID != "" && r.Timestamp && r.Instructions && !r.Payload:
			return FormatCodex // a rollout of early 2025, without the envelope
		case r.Type == "summary" && r.LeafUUID != "":
			return FormatClaudeCode
		case r.SessionID != "" && r.Type != "" && (r.UUID != "" || r.Message || r.Type == "queue-operation"):
			return FormatClaudeCode
		}
	}
	return ""
}

// recNULOnLine reports whether a NUL byte in the head of an input is left to
// a recording reader, which reports it on its line and reads the other
// lines: the first line is free of NUL and is a recording's record (or a
// recording format was asked for).
func (d *decoder) recNULOnLine(head []byte) bool {
	first, _, ok := bytes.Cut(head, []byte("\n"))
	if !ok || bytes.IndexByte(first, 0) >= 0 {
		return false
	}
	first = decTrimSpace(first)
	if len(first) == 0 || first[0] != '{' {
		return false
	}
	if recDecoders[d.opts.Format] != nil {
		return true
	}
	f := recDetect(head)
	return d.opts.Format == FormatAuto && f != "" && f != recKimiCLIWire
}

// recLine decodes one line of a recording into v. A line that is binary,
// nested too deep or not JSON is one error naming the line; invalid UTF-8 is
// reported and decoded with U+FFFD.
func recLine(d *decoder, raw []byte, line int, v any) bool {
	if line == 1 {
		raw = bytes.TrimPrefix(raw, []byte("\xef\xbb\xbf"))
	}
	if at := bytes.IndexByte(raw, 0); at >= 0 {
		d.fail(line, "binary data, not JSON (a NUL byte at byte %d)", at)
		return false
	}
	if at := depthExceeded(raw, MaxDepth); at >= 0 {
		d.fail(line, "JSON nested deeper than %d levels at byte %d", MaxDepth, at)
		return false
	}
	if raw[0] != '{' {
		if raw[0] == '[' || raw[0] == '"' {
			d.fail(line, "not a record: a JSON %s, want an object", kindName(jsontext.Kind(raw[0])))
		} else {
			d.fail(line, "not JSON (starts with %q)", firstRunes(raw, 12))
		}
		return false
	}
	if err := unmarshal(raw, v); err != nil {
		d.fail(line, "%s", describeJSONError(err))
		return false
	}
	// Reported once the line is known to be JSON, so a broken line is one error.
	if !utf8.Valid(raw) {
		d.fail(line, "invalid UTF-8 at byte %d (decoded with U+FFFD)", invalidUTF8At(raw))
	}
	return true
}

// recSeq is the growing sequence of segments of one recording. Requests of a
// recording share its backing array: request k holds a prefix of it, clipped
// so that nothing appended later is visible to it. Treat Segments of these
// requests as read-only, as every request's.
type recSeq struct {
	segs    []Segment
	scratch Builder
}

func (s *recSeq) init(in *Interner) { s.scratch = Builder{Req: &Request{}, In: in} }

// build classifies and interns parts, returning their segments.
func (s *recSeq) build(parts ...Part) []Segment {
	s.scratch.Req.Segments = nil
	for _, p := range parts {
		s.scratch.Add(p)
	}
	out := s.scratch.Req.Segments
	s.scratch.Req.Segments = nil
	return out
}

// add appends the segments of parts.
func (s *recSeq) add(parts ...Part) {
	s.scratch.Req.Segments = s.segs
	for _, p := range parts {
		s.scratch.Add(p)
	}
	s.segs = s.scratch.Req.Segments
	s.scratch.Req.Segments = nil
}

// addSegs appends segments already built.
func (s *recSeq) addSegs(segs []Segment) { s.segs = append(s.segs, segs...) }

// snapshot is the sequence as it stands, safe to hand to a request.
func (s *recSeq) snapshot() []Segment { return s.segs[:len(s.segs):len(s.segs)] }

// reset starts a new backing array (requests already made keep theirs).
func (s *recSeq) reset() { s.segs = nil }

// recUsage builds a Usage from a total that includes cached tokens.
func recUsage(input, cached, written, output int) *Usage {
	return &Usage{InputTokens: input, CachedTokens: cached, CacheWriteTokens: written, OutputTokens: output}
}

// recCounts counts record types a reader skipped, for the notes.
type recCounts struct {
	n     int
	kinds map[string]int
}

func (c *recCounts) add(kind string) {
	if len(kind) > 40 {
		// A type name is payload text: keep the notes short.
		cut := 40
		for cut > 0 && !utf8.RuneStart(kind[cut]) {
			cut--
		}
		kind = kind[:cut] + "..."
	}
	if c.kinds == nil {
		c.kinds = map[string]int{}
	}
	c.n++
	if len(c.kinds) < 20 {
		c.kinds[kind]++
	} else if _, ok := c.kinds[kind]; ok {
		c.kinds[kind]++
	}
}

// note is "N unknown records skipped (a, b, c)" or "".
func (c *recCounts) note(what string) string {
	if c.n == 0 {
		return ""
	}
	names := make([]string, 0, len(c.kinds))
	for k := range c.kinds {
		if k == "" {
			k = "untyped"
		}
		names = append(names, k)
	}
	sort.Strings(names)
	if len(names) > 6 {
		names = append(names[:6], "...")
	}
	return itoa(c.n) + " " + what + " skipped (" + strings.Join(names, ", ") + ")"
}

// recHeader is the first note of every request of a recording:
// "recording: codex 0.46.0; 3 unknown records skipped (...)".
func recHeader(format Format, version string, extra ...string) string {
	s := "recording: " + string(format)
	if version != "" {
		s += " " + version
	} else {
		s += " (version not recorded)"
	}
	for _, e := range extra {
		if e != "" {
			s += "; " + e
		}
	}
	return s
}

// recFile is one recording found in a directory.
type recFile struct {
	path, rel string
	format    Format
	mod       time.Time
}

// recMaxDepth bounds the walk of a sessions root (Codex nests YYYY/MM/DD,
// kimi-code <key>/<session>/agents/<agent>).
const recMaxDepth = 7

// recDecodeDir reads every agent recording inside a session directory or a
// sessions root, newest first. Files that are not recordings are passed over;
// a directory that holds none is one error.
func recDecodeDir(dir string, opts Options, yield func(Request, error) bool) {
	files, err := recFindFiles(dir, opts.Format)
	if err != nil {
		yield(Request{}, &DecodeError{Source: opts.Source, Msg: describeOSError(err)})
		return
	}
	if len(files) == 0 {
		msg := "is a directory with no agent recordings (looked for kimi-cli context.jsonl, kimi-code agents/*/wire.jsonl, Codex rollout-*.jsonl, Claude Code <session>.jsonl)"
		if opts.Format != FormatAuto {
			msg = "is a directory with no " + string(opts.Format) + " recordings"
		}
		yield(Request{}, &DecodeError{Source: opts.Source, Msg: msg})
		return
	}
	for _, f := range files {
		o := opts
		o.Source = filepath.Join(opts.Source, f.rel)
		o.Format = f.format
		fh, err := os.Open(f.path)
		if err != nil {
			if !yield(Request{}, &DecodeError{Source: o.Source, Msg: describeOSError(err)}) {
				return
			}
			continue
		}
		stop := false
		for r, err := range Decode(fh, o) {
			if !yield(r, err) {
				stop = true
				break
			}
		}
		fh.Close()
		if stop {
			return
		}
	}
}

// recFindFiles lists the recordings under dir, newest first (ties by path).
// With a format, only recordings of that format are listed.
func recFindFiles(dir string, format Format) ([]recFile, error) {
	var out []recFile
	root := filepath.Clean(dir)
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real // a link to a sessions root is walked; links inside it are not followed
	}
	err := filepath.WalkDir(root, func(path string, de fs.DirEntry, err error) error {
		if err != nil {
			if path == root {
				return err
			}
			return nil // an unreadable corner of a sessions root is passed over
		}
		rel, _ := filepath.Rel(root, path)
		if de.IsDir() {
			if path != root && strings.Count(rel, string(filepath.Separator)) >= recMaxDepth {
				return filepath.SkipDir
			}
			return nil
		}
		if !de.Type().IsRegular() || !strings.HasSuffix(de.Name(), ".jsonl") {
			return nil
		}
		f := recDetectFile(path)
		if f == "" || f == recKimiCLIWire || (format != FormatAuto && f != format) {
			return nil
		}
		info, err := de.Info()
		if err != nil {
			return nil
		}
		out = append(out, recFile{path: path, rel: rel, format: f, mod: info.ModTime()})
		return nil
	})
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].mod.Equal(out[j].mod) {
			return out[i].mod.After(out[j].mod)
		}
		return out[i].rel < out[j].rel
	})
	return out, err
}

// recDetectFile reads the head of a file and names its recording format.
func recDetectFile(path string) Format {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	head, _ := bufio.NewReaderSize(f, 8192).Peek(8192)
	return recDetect(head)
}
