package recording

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/body"
	"github.com/wirelens/wirelens/wire/classify"
)

// Sink is what a Reader hands its findings to: the decoder that drives it
// line by line.
type Sink interface {
	// Fail reports a problem on a 1-based line (0 for the whole input).
	Fail(line int, format string, args ...any)
	// Emit hands over one request.
	Emit(r wire.Request)
	// Builder starts a request of format at line (byte offset off, length
	// bytes long in the source).
	Builder(format wire.Format, line int, off, length int64) *classify.Builder
	// Interner is the interner of the run, shared by every input.
	Interner() *wire.Interner
	// Source names the input, as given on the command line.
	Source() string
	// Stopped reports whether the consumer wants no more requests.
	Stopped() bool
}

// Reader reads one agent recording: each line of the file in order, then the
// end. It emits the requests the agent sent as it learns them.
type Reader interface {
	Line(d Sink, raw []byte, line int, off int64)
	End(d Sink)
}

// Borrower is a Reader that keeps nothing of the raw lines it is given
// (it copies what it keeps): its lines may be handed to it in place in the
// decoder's buffer, valid only during the call, not copied.
type Borrower interface {
	Reader
	BorrowsLines()
}

// readers is the one list of recording formats and how to read each.
var readers = map[wire.Format]func() Reader{
	wire.FormatKimiCLI:    func() Reader { return newKimiCLI() },
	wire.FormatKimiCode:   func() Reader { return newKimiCode() },
	wire.FormatCodex:      func() Reader { return newCodex() },
	wire.FormatClaudeCode: func() Reader { return newClaudeCode() },
	wire.FormatGeminiCLI:  func() Reader { return newGeminiCLI() },
}

// Formats are the recording formats, in the order --format lists them.
func Formats() []wire.Format {
	return []wire.Format{wire.FormatKimiCLI, wire.FormatKimiCode, wire.FormatCodex, wire.FormatClaudeCode, wire.FormatGeminiCLI}
}

// New is a fresh Reader of a recording format (including FormatKimiCLIWire,
// whose reader reports that the file holds no requests), or nil for a
// format that is not a recording.
func New(format wire.Format) Reader {
	if format == FormatKimiCLIWire {
		return &kimiCLIWireFile{}
	}
	if mk := readers[format]; mk != nil {
		return mk()
	}
	return nil
}

// FormatKimiCLIWire is what Detect calls the event log kimi-cli writes beside
// context.jsonl: it holds usage, not requests.
const FormatKimiCLIWire wire.Format = "kimi-cli-wire"

// kimiCLIWireFile reads kimi-cli's wire.jsonl given on its own: it holds
// events and usage, not the requests, which is one error.
type kimiCLIWireFile struct{}

func (*kimiCLIWireFile) Line(d Sink, raw []byte, line int, off int64) {}

func (*kimiCLIWireFile) End(d Sink) {
	d.Fail(0, "a kimi-cli wire.jsonl holds events and usage, not requests: give the context.jsonl beside it, or the session directory")
}

// headRecord holds the top-level members of a record that tell the
// recordings apart: the string ones by value, the others by presence.
type headRecord struct {
	Role, Type, ProtocolVersion, UUID, SessionID, LeafUUID, ID, RecordType, ProjectHash string

	CreatedAt, Payload, Message, Timestamp, Instructions bool
}

// readHead reads the top-level members of one line, as far as the line goes:
// the first line of a recording may be longer than the head read for
// detection (a system prompt), and the members before the cut still tell.
func readHead(line []byte) (r headRecord, ok bool) {
	dec := jsontext.NewDecoder(bytes.NewBuffer(line), body.WalkOpts...)
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
		case "projectHash":
			str = &r.ProjectHash
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

// Detect names the recording format of a file from its first bytes, or
// returns "" when they are not a known agent's recording.
func Detect(head []byte) wire.Format {
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	// A Gemini CLI session starts with its metadata, on the first line
	// (.jsonl) or at the head of one document spread over lines (.json).
	if r, ok := readHead(bytes.TrimSpace(head)); ok && r.SessionID != "" && r.ProjectHash != "" {
		return wire.FormatGeminiCLI
	}
	metadata := false
	for lines := 0; len(head) > 0 && lines < 12; {
		ln, rest, _ := bytes.Cut(head, []byte("\n"))
		head = rest
		ln = bytes.TrimSpace(ln)
		if len(ln) == 0 {
			continue
		}
		lines++
		r, ok := readHead(ln)
		if !ok {
			continue
		}
		switch {
		case r.Role == "_system_prompt" || r.Role == "_checkpoint" || r.Role == "_usage":
			return wire.FormatKimiCLI
		case r.Type == "metadata" && r.ProtocolVersion != "":
			metadata = true
			if r.CreatedAt {
				return wire.FormatKimiCode
			}
		case metadata && r.Message && r.Timestamp && r.Type == "":
			return FormatKimiCLIWire
		case metadata && (strings.Contains(r.Type, ".") || r.Type == "forked"):
			return wire.FormatKimiCode
		case r.Type == "session_meta" && r.Payload:
			return wire.FormatCodex
		case r.Payload && r.Timestamp &&
			(r.Type == "response_item" || r.Type == "event_msg" || r.Type == "turn_context" || r.Type == "compacted"):
			return wire.FormatCodex
		case lines == 1 && r.Type == "" && r.ID != "" && r.Timestamp && r.Instructions && !r.Payload:
			return wire.FormatCodex // a rollout of early 2025, without the envelope
		case r.Type == "summary" && r.LeafUUID != "":
			return wire.FormatClaudeCode
		case r.SessionID != "" && r.Type != "" && (r.UUID != "" || r.Message || r.Type == "queue-operation"):
			return wire.FormatClaudeCode
		}
	}
	return ""
}

// unmarshalLine decodes one line of a recording into v. A line that is binary,
// nested too deep or not JSON is one error naming the line; invalid UTF-8 is
// reported and decoded with U+FFFD.
func unmarshalLine(d Sink, raw []byte, line int, v any) bool { return readLine(d, raw, line, v, nil) }

// readLine is unmarshalLine with a reader of the line's record by the token
// reader, fast, tried first: when it gives up (having set v back to its zero
// value), v is unmarshalled. When it read the line and found it ASCII
// (body.Reader.ASCII), the line is not looked through for invalid UTF-8.
func readLine(d Sink, raw []byte, line int, v any, fast func([]byte) (ok, ascii bool)) bool {
	if line == 1 {
		raw = bytes.TrimPrefix(raw, []byte("\xef\xbb\xbf"))
	}
	if at := bytes.IndexByte(raw, 0); at >= 0 {
		d.Fail(line, "binary data, not JSON (a NUL byte at byte %d)", at)
		return false
	}
	if at := body.DepthExceeded(raw, body.MaxDepth); at >= 0 {
		d.Fail(line, "JSON nested deeper than %d levels at byte %d", body.MaxDepth, at)
		return false
	}
	if raw[0] != '{' {
		if raw[0] == '[' || raw[0] == '"' {
			d.Fail(line, "not a record: a JSON %s, want an object", body.KindName(jsontext.Kind(raw[0])))
		} else {
			d.Fail(line, "not JSON (starts with %q)", body.FirstRunes(raw, 12))
		}
		return false
	}
	ok, ascii := false, false
	if fast != nil {
		ok, ascii = fast(raw)
	}
	if !ok {
		if err := body.Unmarshal(raw, v); err != nil {
			d.Fail(line, "%s", body.DescribeError(err))
			return false
		}
	}
	// Reported once the line is known to be JSON, so a broken line is one error.
	if !ascii && !utf8.Valid(raw) {
		d.Fail(line, "invalid UTF-8 at byte %d (decoded with U+FFFD)", body.InvalidUTF8At(raw))
	}
	return true
}

// transcript is the growing sequence of segments of one recording. Requests of a
// recording share its backing array: request k holds a prefix of it, clipped
// so that nothing appended later is visible to it. Treat Segments of these
// requests as read-only, as every request's.
type transcript struct {
	segs    []wire.Segment
	bps     []int            // the indices in segs of the segments that carry a cache breakpoint
	builder classify.Builder // builds segments; its Req is only scratch space
}

func (s *transcript) init(in *wire.Interner) {
	s.builder = classify.Builder{Req: &wire.Request{}, In: in}
}

// ready reports whether init has been called.
func (s *transcript) ready() bool { return s.builder.In != nil }

// interner is the interner given to init.
func (s *transcript) interner() *wire.Interner { return s.builder.In }

// build classifies and interns parts, returning their segments. It is for
// parts that carry no cache breakpoint (the recordings that use it record
// none): addSegs has no breakpoints to add.
func (s *transcript) build(parts ...wire.Part) []wire.Segment {
	s.builder.Req.Segments, s.builder.Req.Breakpoints = nil, nil
	for _, p := range parts {
		s.builder.Add(p)
	}
	out := s.builder.Req.Segments
	s.builder.Req.Segments, s.builder.Req.Breakpoints = nil, nil
	return out
}

// add appends the segments of parts, and their cache breakpoints.
func (s *transcript) add(parts ...wire.Part) {
	s.builder.Req.Segments, s.builder.Req.Breakpoints = s.segs, s.bps
	for _, p := range parts {
		s.builder.Add(p)
	}
	s.segs, s.bps = s.builder.Req.Segments, s.builder.Req.Breakpoints
	s.builder.Req.Segments, s.builder.Req.Breakpoints = nil, nil
}

// addSegs appends segments already built.
func (s *transcript) addSegs(segs []wire.Segment) { s.segs = append(s.segs, segs...) }

// snapshot gives r the sequence as it stands (its segments and their
// breakpoints), safe to hand out.
func (s *transcript) snapshot(r *wire.Request) {
	r.Segments, r.Breakpoints = s.segs[:len(s.segs):len(s.segs)], s.bps[:len(s.bps):len(s.bps)]
}

// reset starts a new backing array (requests already made keep theirs).
func (s *transcript) reset() { s.segs, s.bps = nil, nil }

// usageOf builds a Usage from a total that includes cached tokens.
func usageOf(input, cached, written, output int) *wire.Usage {
	return &wire.Usage{InputTokens: input, CachedTokens: cached, CacheWriteTokens: written, OutputTokens: output}
}

// kindCounts counts record types a reader skipped, for the notes.
type kindCounts struct {
	n     int
	kinds map[string]int
}

func (c *kindCounts) add(kind string) {
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
func (c *kindCounts) note(what string) string {
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
	return strconv.Itoa(c.n) + " " + what + " skipped (" + strings.Join(names, ", ") + ")"
}

// headerNote is the first note of every request of a recording:
// "recording: codex 0.46.0; 3 unknown records skipped (...)".
func headerNote(format wire.Format, version string, extra ...string) string {
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

// File is one recording found in a directory.
type File struct {
	Path   string      // the path to open
	Rel    string      // the path relative to the directory walked
	Format wire.Format // the recording's format
	Mod    time.Time   // its modification time
	Size   int64       // its size when listed
}

// The walk of a sessions root is bounded, so that a directory given by
// mistake (/, a home directory) is searched for a while and then reported,
// not walked to its end. Variables so that tests can make them small.
var (
	// maxDirDepth bounds the depth of the walk (Codex nests YYYY/MM/DD,
	// kimi-code <key>/<session>/agents/<agent>); deeper directories hold no
	// recordings of a sessions root and are passed over.
	maxDirDepth = 7
	// maxWalkEntries bounds the files and directories one walk visits.
	maxWalkEntries = 100_000
	// maxWalkFiles bounds the recordings one walk lists.
	maxWalkFiles = 10_000
)

// WalkLimitError is why FindFiles stopped before the end of a directory: it
// visited as many entries, or found as many recordings, as one walk may.
// The recordings found before are still listed.
type WalkLimitError struct {
	Limit int    // the cap reached
	What  string // what it counts: "entries visited" or "recordings found"
	Found int    // recordings found before it
}

func (e *WalkLimitError) Error() string {
	return "search for recordings stopped at its cap of " + strconv.Itoa(e.Limit) + " " + e.What +
		", with " + strconv.Itoa(e.Found) + " found: give a session directory or a sessions root such as ~/.codex/sessions"
}

// FindFiles lists the recordings under dir, newest first (ties by path).
// With a format, only recordings of that format are listed. A walk that
// reaches its bounds returns what it found and a *fs.PathError whose Err is
// a *WalkLimitError.
func FindFiles(dir string, format wire.Format) ([]File, error) {
	root := filepath.Clean(dir)
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real // a link to a sessions root is walked; links inside it are not followed
	}
	// The walk lists the files that may be recordings; their heads are
	// read after, a few at a time (detectAll), since that is most of a
	// listing's time (a folder of a thousand transcripts is a thousand
	// opens and reads).
	var cands []candidate
	var limit *WalkLimitError
	visited := 0
	err := filepath.WalkDir(root, func(path string, de fs.DirEntry, err error) error {
		if err != nil {
			if path == root {
				return err
			}
			return nil // an unreadable corner of a sessions root is passed over
		}
		if visited++; visited > maxWalkEntries {
			limit = &WalkLimitError{Limit: maxWalkEntries, What: "entries visited"}
			return fs.SkipAll
		}
		rel, _ := filepath.Rel(root, path)
		if de.IsDir() {
			if path != root && strings.Count(rel, string(filepath.Separator)) >= maxDirDepth {
				return filepath.SkipDir
			}
			return nil
		}
		if !de.Type().IsRegular() || !strings.HasSuffix(de.Name(), ".jsonl") && !isGeminiSessionDoc(path) {
			return nil
		}
		cands = append(cands, candidate{path: path, rel: rel, de: de})
		return nil
	})
	var out []File
chunks:
	for start := 0; start < len(cands); start += detectChunk {
		chunk := cands[start:min(start+detectChunk, len(cands))]
		detectAll(chunk)
		for _, c := range chunk {
			if c.format == "" || c.format == FormatKimiCLIWire || (format != wire.FormatAuto && c.format != format) {
				continue
			}
			info, err := c.de.Info()
			if err != nil {
				continue
			}
			if len(out) == maxWalkFiles {
				limit = &WalkLimitError{Limit: maxWalkFiles, What: "recordings found"}
				break chunks
			}
			out = append(out, File{Path: c.path, Rel: c.rel, Format: c.format, Mod: info.ModTime(), Size: info.Size()})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].Mod.Equal(out[j].Mod) {
			return out[i].Mod.After(out[j].Mod)
		}
		return out[i].Rel < out[j].Rel
	})
	if err == nil && limit != nil {
		limit.Found = len(out)
		err = &fs.PathError{Op: "walk", Path: dir, Err: limit}
	}
	return out, err
}

// candidate is a file of a walk that may be a recording, and the format
// its head was found to have.
type candidate struct {
	path, rel string
	de        fs.DirEntry
	format    wire.Format
}

// detectChunk is how many candidates are read at once: the walk's cap on
// recordings is checked between chunks, so a directory given by mistake
// is not read far past it.
const detectChunk = 512

// detectAll reads the head of each candidate (DetectFile), on as many
// goroutines as there are cores.
func detectAll(cands []candidate) {
	n := min(runtime.GOMAXPROCS(0), (len(cands)+15)/16)
	if n <= 1 {
		for i := range cands {
			cands[i].format = detectListed(cands[i].path)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < len(cands); i = int(next.Add(1)) - 1 {
				cands[i].format = detectListed(cands[i].path)
			}
		})
	}
	wg.Wait()
}

// isGeminiSessionDoc reports whether path is named as Gemini CLI's older
// sessions are, chats/session-*.json.
func isGeminiSessionDoc(path string) bool {
	name := filepath.Base(path)
	return strings.HasPrefix(name, "session-") && strings.HasSuffix(name, ".json") &&
		filepath.Base(filepath.Dir(path)) == "chats"
}

// DetectFile reads the head of a file and names its recording format. A path
// that is not a regular file (a pipe, a device) is no recording and is not
// read (wire.OpenInput).
func DetectFile(path string) wire.Format {
	f, err := wire.OpenInput(path, wire.MaxInputBytes)
	if err != nil {
		return ""
	}
	return detectHead(f)
}

// detectListed is DetectFile for a file a walk listed as regular
// (wire.OpenListed).
func detectListed(path string) wire.Format {
	f, err := wire.OpenListed(path, wire.MaxInputBytes)
	if err != nil {
		return ""
	}
	return detectHead(f)
}

// detectHead tells the format of f by its first 8 KB, and closes it.
func detectHead(f *wire.InputFile) wire.Format {
	defer f.Close()
	buf := heads.Get().(*[8192]byte)
	defer heads.Put(buf)
	n, _ := io.ReadFull(f, buf[:])
	return Detect(buf[:n])
}

// heads are the buffers DetectFile reads a file's first 8 KB into: a folder
// of a thousand transcripts is a thousand heads.
var heads = sync.Pool{New: func() any { return new([8192]byte) }}

// osReason is a file-system error without the path, which the note names
// already.
func osReason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// unixNano is an RFC 3339 time in Unix nanoseconds, 0 when s is not one.
func unixNano(s string) int64 {
	if s == "" {
		return 0
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return 0
	}
	return t.UnixNano()
}
