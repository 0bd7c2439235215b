package decode

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/body"
	"github.com/wirelens/wirelens/wire/classify"
	"github.com/wirelens/wirelens/wire/provenance"
	"github.com/wirelens/wirelens/wire/recording"
	"github.com/wirelens/wirelens/wire/redact"
	"github.com/wirelens/wirelens/wire/scan"
)

// Options control decoding.
type Options struct {
	// Source names the input in errors and in Request.Source.
	Source string
	// Format forces a format; FormatAuto detects it by shape.
	Format wire.Format
	// Interner is shared by all inputs of one run so that their common text is
	// held once; nil means a new one per call.
	Interner *wire.Interner
	// Provenance, when set, judges segments by where their text came from
	// (provenance.Index.Apply on every request). An input that starts with
	// a provenance record (what `wirelens record` writes) is judged by its
	// record when Provenance is nil.
	Provenance *provenance.Index
}

// Error is one problem with an input. Decoding goes on after it where it
// can: the other lines of a JSONL are still decoded.
type Error struct {
	Source string
	Line   int // 1-based line in the source, 0 when not known or not line based
	Msg    string
}

func (e *Error) Error() string {
	loc := e.Source
	if loc == "" {
		loc = "<input>"
	}
	if e.Line > 0 {
		loc += ":" + strconv.Itoa(e.Line)
	}
	return loc + ": " + scan.VisibleLine(e.Msg)
}

// Decoder is the state of one Decode call.
type decoder struct {
	opts Options
	// pooled are the readers to give back when the run ends (reader).
	pooled []*bufio.Reader
	// assumedSaid: a request of this source already says that the trust
	// of its system text is assumed (provenance.AssumedNote).
	assumedSaid bool
	index       int // requests emitted so far
	yield       func(wire.Request, error) bool
	stop        bool
	nerr        int // errors met so far
	// shown counts the errors on a line reported in full; past maxErrors
	// they are counted in more, by kind, and reported in one last error,
	// with the first and last line they were on.
	shown            int
	more             [nKinds]int
	moreFrom, moreTo int
	// lineMode is set while a JSONL is read line by line; whole while the
	// object being read is the whole input.
	lineMode int
	whole    bool
	// walk walks every object read, with one decoder.
	walk body.Walker
	// long is reused for the lines longer than the reader's buffer (up to
	// keepLong bytes: a huge line is not held after it is decoded).
	long []byte
	// src reads the input itself; when the input can seek (a file), seek
	// is it and base where it started.
	src  *bufio.Reader
	seek io.ReadSeeker
	base int64
	// in is the input src reads; wide is the reader wider made last, and
	// wideSrc what it reads.
	in      io.Reader
	wide    *bufio.Reader
	wideSrc io.Reader
	// inflated counts what the input's compressed bodies decompressed to,
	// against body.MaxDecompressedInput.
	inflated body.Inflated
	// cache holds the segments of the body elements seen so far.
	cache *body.ElementCache
	// det holds the messages detection found to tell nothing.
	det body.DetectMemo
	// lineShape is the walk of the line being decoded when it is one
	// object, and lineErrs the errors met before it.
	lineShape *body.Shape
	lineErrs  int
	// segRun holds the segments of the last request emitted, and room after
	// them: a request that starts with all of them shares it (see share).
	segRun []wire.Segment
	// scratch collects the segments of the body being decoded.
	scratch []wire.Segment
	// batchSaid holds what an OpenAI Batch file was told once: that it is
	// an output file, or which endpoints' lines are skipped.
	batchSaid map[string]bool
	// mapping is the input file mapped into memory, which a JSONL's lines
	// are read from once src has read what comes before them, nil when the
	// input is read; mpos is where the next line starts in it, mprev where
	// the line before does, and msize the buffer src's reader would have
	// now (see mappedLine).
	mapping            *wire.Mapped
	mpos, mprev, msize int
	// ahead finds the mapped lines ahead of the decoder, nil when none.
	ahead *lineAhead
}

// maxLine is the longest line, or document, read (body.MaxLine); a variable
// so that tests can lower it.
var maxLine = body.MaxLine

// walkAfter turns on walking a line after the body of the line before,
// and inPlace taking the known segments of a body where the body before
// left them (body.ElementCache.Placed); tests turn them off to compare.
var walkAfter, inPlace = true, true

// tailWalks counts the lines walked after the line before, for tests.
var tailWalks atomic.Int64

// sharedLines counts the lines read by sharedLine, for tests.
var sharedLines atomic.Int64

// knownSegments counts the segments share did not compare with the run
// (body.ElementCache.Known), for tests.
var knownSegments atomic.Int64

// longOnce counts the long lines longLine read once, for tests.
var longOnce atomic.Int64

// widened counts the readers widened for long lines, for tests.
var widened atomic.Int64

// keepLong is the largest line buffer kept for the next long line.
const keepLong = 8 << 20

// maxErrors is how many errors on lines of one input are reported, each in
// full: a file of ten million broken lines gives maxErrors errors and one
// that counts the others by kind, not ten million. Errors of the whole input
// (line 0) are few, and always reported.
const maxErrors = 100

// errKind is what an error past maxErrors is counted as.
type errKind uint8

const (
	kindInvalidJSON errKind = iota
	kindBinary
	kindInvalidUTF8
	kindNotBody
	kindBadBody
	kindTooLong
	kindOther
	nKinds
)

var kindNames = [nKinds]string{"invalid JSON", "binary data", "invalid UTF-8", "not a request body",
	"invalid request body", "line too long", "other"}

// kindPrefixes tell the kind of an error by the start of its message.
var kindPrefixes = []struct {
	prefix string
	kind   errKind
}{
	{"invalid JSON", kindInvalidJSON}, {"JSON nested deeper", kindInvalidJSON}, {"not JSON", kindInvalidJSON},
	{"unexpected data after", kindInvalidJSON}, {"binary data", kindBinary}, {"invalid UTF-8", kindInvalidUTF8},
	{"not a ", kindNotBody}, {"array element", kindNotBody}, {"an empty JSON array", kindNotBody},
	{"line longer than", kindTooLong},
}

// kindOf is the kind of the error Fail was given, by its message: the format,
// or the text it starts with.
func kindOf(format string, args []any) errKind {
	msg := format
	if strings.HasPrefix(format, "%") && len(args) > 0 {
		switch a := args[0].(type) {
		case string:
			msg = a
		case error:
			msg = a.Error()
		}
	}
	for _, p := range kindPrefixes {
		if strings.HasPrefix(msg, p.prefix) {
			return p.kind
		}
	}
	return kindOther
}

// Fail reports a problem of the input on a line (0 when not line based).
// The message may quote the input (a HAR entry's URL): its credentials are
// masked here, for every output that prints errors.
// Past maxErrors errors on lines, it only counts it (see summary).
func (d *decoder) Fail(line int, format string, args ...any) {
	if d.stop {
		return
	}
	if d.past(line) {
		d.count(line, kindOf(format, args))
		return
	}
	d.nerr++
	if line > 0 {
		d.shown++
	}
	msg := redact.Text(fmt.Sprintf(format, args...))
	if !d.yield(wire.Request{}, &Error{Source: d.opts.Source, Line: line, Msg: msg}) {
		d.stop = true
	}
}

// counted reports whether an error on line is not to be reported in full:
// the consumer stopped, or it comes past the maxErrors reported in full and
// is counted as of kind k. A caller that checks it first spares describing
// an error that is only counted: a broken line then costs its walk and no
// more.
func (d *decoder) counted(line int, k errKind) bool {
	if d.stop {
		return true
	}
	if !d.past(line) {
		return false
	}
	d.count(line, k)
	return true
}

// past reports whether an error on line comes past the maxErrors reported
// in full.
func (d *decoder) past(line int) bool { return line > 0 && d.shown >= maxErrors }

// count counts an error past maxErrors as of kind k.
func (d *decoder) count(line int, k errKind) {
	d.nerr++
	d.more[k]++
	if d.moreFrom == 0 {
		d.moreFrom = line
	}
	d.moreTo = max(d.moreTo, line)
}

// summary reports the errors counted past maxErrors, in one error: "and
// 199,900 more errors (lines 102 to 200,001): 199,880 invalid JSON, 20
// binary data".
func (d *decoder) summary() {
	total := 0
	for _, n := range d.more {
		total += n
	}
	if total == 0 || d.stop {
		return
	}
	kinds := make([]errKind, 0, nKinds)
	for k, n := range d.more {
		if n > 0 {
			kinds = append(kinds, errKind(k))
		}
	}
	slices.SortStableFunc(kinds, func(a, b errKind) int { return d.more[b] - d.more[a] })
	var by []string
	for _, k := range kinds {
		by = append(by, wire.GroupDigits(d.more[k])+" "+kindNames[k])
	}
	where := "line " + wire.GroupDigits(d.moreFrom)
	if d.moreTo > d.moreFrom {
		where = "lines " + wire.GroupDigits(d.moreFrom) + " to " + wire.GroupDigits(d.moreTo)
	}
	what := "errors"
	if total == 1 {
		what = "error"
	}
	if !d.yield(wire.Request{}, &Error{Source: d.opts.Source,
		Msg: "and " + wire.GroupDigits(total) + " more " + what + " (" + where + "): " + strings.Join(by, ", ")}) {
		d.stop = true
	}
}

// Emit numbers a request and hands it to the caller, with the credentials
// of its endpoint and notes masked: this is the one place every output
// (inspect's endpoint, the viewer, the reports) gets them from.
func (d *decoder) Emit(r wire.Request) {
	if d.stop {
		return
	}
	d.index++
	r.Index = d.index
	r.Source = d.opts.Source
	r.Endpoint = redact.URL(r.Endpoint)
	r.Notes = d.maskNotes(r.Notes)
	if d.opts.Provenance != nil {
		r = d.opts.Provenance.Apply(r, d.opts.Interner)
	} else if !d.assumedSaid && provenance.Assumed(&r) {
		// Said once a source, on the first request it holds for.
		d.assumedSaid = true
		r.Notes = append(r.Notes[:len(r.Notes):len(r.Notes)], provenance.AssumedNote)
	}
	if !d.yield(r, nil) {
		d.stop = true
	}
}

// maskNotes is notes with their credentials masked, a copy when one is:
// a recording may share its notes between requests.
func (d *decoder) maskNotes(notes []string) []string {
	var out []string
	for i, n := range notes {
		// The requests of a recording, and the recordings of a folder,
		// repeat their notes: each is masked once a run (maskNote).
		if m := maskNote(n); m != n {
			if out == nil {
				out = slices.Clone(notes)
			}
			out[i] = m
		}
	}
	if out == nil {
		return notes
	}
	return out
}

// noteMasks holds the notes met by every decoder of the process, masked:
// the recordings of a folder repeat their notes from file to file (a
// reader's header, what it did not find), and masking one is a search for
// every credential rule (redact.Text), so each is masked once a run, not
// once a file. Bounded: past noteMasksMax notes it starts again empty.
var noteMasks struct {
	sync.Mutex
	m map[string]string
}

const noteMasksMax = 4096

// maskNote is redact.Text(n), through noteMasks.
func maskNote(n string) string {
	noteMasks.Lock()
	m, ok := noteMasks.m[n]
	noteMasks.Unlock()
	if ok {
		return m
	}
	m = redact.Text(n)
	noteMasks.Lock()
	if noteMasks.m == nil || len(noteMasks.m) >= noteMasksMax {
		noteMasks.m = make(map[string]string)
	}
	noteMasks.m[n] = m
	noteMasks.Unlock()
	return m
}

// detMemo is the Decoder's memo of messages that tell no format.
func (d *decoder) detMemo() body.DetectMemo {
	if d.det == nil {
		d.det = body.DetectMemo{}
	}
	return d.det
}

// Builder starts a request at the given place.
func (d *decoder) Builder(format wire.Format, line int, off, length int64) *classify.Builder {
	return &classify.Builder{Req: &wire.Request{Format: format, Line: line, Offset: off, Length: length}, In: d.opts.Interner}
}

// Interner is the run's interner.
func (d *decoder) Interner() *wire.Interner { return d.opts.Interner }

// Source names the input.
func (d *decoder) Source() string { return d.opts.Source }

// Stopped reports whether the consumer asked for no more.
func (d *decoder) Stopped() bool { return d.stop }

// Decode reads every request in r. Errors are yielded as they are met, with a
// zero Request; decoding goes on after them where the input allows.
func Decode(r io.Reader, opts Options) iter.Seq2[wire.Request, error] {
	if opts.Interner == nil {
		opts.Interner = wire.NewInterner()
	}
	return func(yield func(wire.Request, error) bool) {
		d := &decoder{opts: opts, yield: yield}
		d.run(r)
		d.summary()
	}
}

func (d *decoder) run(r io.Reader) {
	br := getReader(r)
	defer func() {
		putReader(br)
		for _, p := range d.pooled {
			putReader(p)
		}
	}()
	d.src, d.in = br, r
	if sk, ok := r.(io.ReadSeeker); ok {
		if at, err := sk.Seek(0, io.SeekCurrent); err == nil {
			d.seek, d.base = sk, at
		}
	}
	head, _ := br.Peek(8192)
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	trimmed := bytes.TrimLeft(head, " \t\r\n")
	switch {
	case len(head) == 0:
		d.Fail(0, "empty input")
		return
	case len(trimmed) == 0 && len(head) < 8192:
		d.Fail(0, "empty input (only white space)")
		return
	case compression(head) != "":
		// No decoder of these is in the module graph: say which and how.
		name := compression(head)
		d.Fail(0, "%s-compressed data (a compressed .jsonl such as Codex's rollout-*.jsonl.zst?), not JSON: decompress it first, for example with %s -d FILE", name, name)
		return
	case utf16Mark(head) != "":
		// Windows tools (PowerShell's ">" among them) write UTF-16; its
		// NUL bytes would otherwise read as binary data.
		d.Fail(0, "UTF-16 text (%s), not UTF-8: convert it first, for example with iconv -f UTF-16 -t UTF-8", utf16Mark(head))
		return
	case binaryHead(head):
		at := bytes.IndexByte(head, 0)
		d.Fail(1+lineOf(head, at), "binary data, not JSON (a NUL byte at byte %d)", at)
		return
	case len(trimmed) > 0 && trimmed[0] != '{' && trimmed[0] != '[':
		line := 1 + lineOf(head, len(head)-len(trimmed))
		if v := jsontext.Value(bytes.TrimSpace(trimmed)); len(head) < 8192 && checkValue(v) == nil {
			d.Fail(line, "not a request: a JSON %s at the top level", body.KindName(v.Kind()))
			return
		}
		d.Fail(line, "not JSON (starts with %q)", body.FirstRunes(trimmed, 12))
		return
	}
	if provenance.IsRecord(trimmed) {
		d.provenanceRecord(br)
		return
	}
	if sd := d.recording(head); sd != nil {
		if recording.New(d.opts.Format) != nil {
			d.runForcedLines(br, sd)
			return
		}
		d.runLines(br, sd, 1, 0)
		return
	}
	// Read the first line: a complete JSON value on it means JSONL.
	first, err := d.firstLine(br)
	if err != nil {
		d.Fail(1, "%v", err)
		return
	}
	if first == nil {
		return // too long, or binary: reported, and the other lines read
	}
	if isCompleteValue(first) {
		rest, _ := br.Peek(1)
		if len(rest) == 0 {
			d.value(first, 1, 0)
			return
		}
		n := int64(len(first))
		d.lineMode++
		d.value(first, 1, 0)
		d.lineMode--
		d.runJSONL(br, 2, n)
		return
	}
	// A document spread over lines (a pretty-printed body, an array, a HAR).
	doc, more, err := readDoc(first, br)
	if err != nil {
		d.Fail(0, "%v", err)
		return
	}
	// If several of its lines are values and it is not one document, it is
	// a JSONL whose first line is broken: it is read on, past the document
	// read, to its end. Anything else is one document, checked by value's
	// own walk.
	if looksLikeJSONL(doc) && (more || checkValue(doc) != nil) {
		d.runJSONL(d.reader(io.MultiReader(bytes.NewReader(doc), br)), 1, 0)
		return
	}
	if more {
		d.Fail(0, "a JSON document longer than %d bytes: not read", maxLine)
		return
	}
	d.value(doc, 1, 0)
}

// provenanceRecord reads the provenance record on an input's first line
// (provenance.RecordKey) and the lines after it as a JSONL: the record
// judges the requests unless Options.Provenance was given. A broken record
// is an error on line 1, and the requests are read on without it.
func (d *decoder) provenanceRecord(br *bufio.Reader) {
	first, n, _, err := d.readLine(br, 1, 0)
	if err != nil && err != io.EOF {
		d.Fail(1, "%v", err)
		return
	}
	if first != nil {
		x, err := provenance.ParseRecord(bytes.TrimSpace(first))
		switch {
		case err != nil:
			d.Fail(1, "%v", err)
		case d.opts.Provenance == nil:
			d.opts.Provenance = x
		}
	} else if n > 0 {
		d.Fail(1, "provenance record too long to read")
	}
	d.runJSONL(br, 2, n)
}

// firstLine reads the first line of an input, as its own copy. A first line
// too long to hold, or binary and longer than the reader's buffer, is
// reported, and the other lines are read as a JSONL's; first is then nil.
func (d *decoder) firstLine(br *bufio.Reader) (first []byte, err error) {
	first, n, nul, err := d.readLine(br, 1, 0)
	if err != nil && err != io.EOF {
		return nil, err
	}
	if first == nil && n > 0 {
		if nul >= 0 {
			d.Fail(1, "binary data, not JSON (a NUL byte at byte %d)", nul)
		}
		d.runJSONL(br, 2, n)
		return nil, nil
	}
	if len(first) > br.Size() {
		d.long = nil // joined in d.long: the caller keeps it
		return first, nil
	}
	return bytes.Clone(first), nil // in place in br's buffer
}

// readDoc reads the rest of an input whose first line is first, up to
// maxLine bytes in all, and joins it once. more reports that the input goes
// on past them: doc then holds one byte more than maxLine.
func readDoc(first []byte, br *bufio.Reader) (doc []byte, more bool, err error) {
	chunks := [][]byte{first}
	n := len(first)
	// Chunks start at what is buffered (at least 64 KiB) and double up to
	// the reader's size: a short document costs no buffer of br's size
	// (1 MB, zeroed, for a 5-byte input), a long one few chunks.
	size := max(br.Buffered(), 64<<10)
	for n <= maxLine {
		c := make([]byte, min(size, br.Size(), maxLine+1-n))
		size *= 2
		k, err := io.ReadFull(br, c)
		chunks = append(chunks, c[:k])
		n += k
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return nil, false, err
		}
	}
	doc = make([]byte, 0, n)
	for i, c := range chunks {
		doc = append(doc, c...)
		chunks[i] = nil // let each chunk go once joined
	}
	return doc, n > maxLine, nil
}

// binaryHead reports whether an input whose head holds a NUL byte is binary
// as a whole (an image, an executable, a file of zeros): one error. An input
// that opens as JSON does and is text but for its NUL bytes (a JSONL with a
// zero-filled tail after a crash, or a NUL on one of its lines) is read line
// by line, each line with a NUL byte being one error.
func binaryHead(head []byte) bool {
	if bytes.IndexByte(head, 0) < 0 {
		return false
	}
	t := bytes.TrimLeft(head, " \t\r\n")
	if len(t) == 0 || t[0] != '{' && t[0] != '[' {
		return true
	}
	// Text is UTF-8 without control characters but for white space; NUL
	// bytes are left out of the count, a zero-filled tail being no sign of a
	// binary file. More than one byte in ten that is not text is binary.
	bad, all := 0, 0
	for i := 0; i < len(head); {
		c := head[i]
		switch {
		case c == 0:
			i++
			continue
		case c < utf8.RuneSelf:
			if c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' || c == 0x7f {
				bad++
			}
			i++
			all++
			continue
		}
		r, n := utf8.DecodeRune(head[i:])
		if r == utf8.RuneError && n <= 1 && len(head)-i >= utf8.UTFMax {
			bad++ // not a rune cut by the end of the head
		}
		i += n
		all++
	}
	return bad*10 > all
}

// runJSONL decodes one value per line; blank lines are skipped. A line that
// fits the reader's buffer is decoded in place; decoders keep nothing of it.
func (d *decoder) runJSONL(br *bufio.Reader, line int, off int64) {
	d.lineMode++
	defer func() { d.lineMode-- }()
	if br == d.src && d.mapping == nil {
		if unmap := d.mapInput(br); unmap != nil {
			defer unmap()
			defer d.recoverFault(&line)
		}
	}
	for !d.stop {
		b, n, nul, err := d.readLine(br, line, off)
		if n > 0 {
			switch t := bytes.TrimSpace(b); {
			case nul >= 0:
				d.binaryLine(line, nul)
			case len(t) > 0:
				d.value(b, line, off)
				// A file of other JSON lines (an application's log) is
				// reported once, not once a line.
				if d.index == 0 && d.nerr >= giveUp && !d.stop {
					what := "request bodies"
					if body.Has(d.opts.Format) {
						what = string(d.opts.Format) + " request bodies"
					}
					d.Fail(0, "stopped after %d lines without a request body: not a JSONL of %s", line, what)
					return
				}
			}
			off += n
			line++
			if n > int64(br.Size()) && n <= wideMax && err == nil && !d.stop && d.mapping == nil {
				br = d.wider(br, n)
			}
		}
		if err == io.EOF {
			return
		}
		if err != nil {
			d.Fail(line, "%v", err)
			return
		}
	}
}

// wideMax is the longest line after which a JSONL is read on through a
// wider buffer (see wider).
var wideMax int64 = 16 << 20

// wider is br read through a buffer with room for lines twice as long as
// n, a line just read: a session's lines grow, and a line longer than the
// buffer is followed by more, each of which would be read in chunks and
// joined (or read twice) where one in the buffer is compared with the
// body before and scanned once (sharedLine). What br holds is read through
// it first.
//
// When br is the decoder's own reader of the input (or the one wider made
// last), the wider one reads what br holds from a copy and then the input
// itself, at most wideRead bytes a read: a bufio.Reader moves what it holds
// past the line it gives to its buffer's front before it reads again, and
// through a buffer of megabytes, filled whole by each read, that was most
// of a line a line, where it is now less than one read (at W1200 the moves
// took 20 to 27 ms of some 410 ms of decoding, now 8 to 12).
func (d *decoder) wider(br *bufio.Reader, n int64) *bufio.Reader {
	widened.Add(1)
	var base io.Reader
	switch {
	case br == d.src && plainInput(d.in):
		base = cappedReader{d.in, wideRead}
	case br == d.wide && br != nil:
		base = d.wideSrc
	}
	src := io.Reader(br)
	if base != nil {
		held, _ := br.Peek(br.Buffered())
		src = io.MultiReader(bytes.NewReader(bytes.Clone(held)), base)
		br.Discard(len(held))
	}
	d.wide = bufio.NewReaderSize(src, int(2*n))
	d.wideSrc = src
	return d.wide
}

// plainInput reports whether r is an input whose reads give an error only
// with no bytes (a file, bytes in memory): br holds no error of it to hand
// on when wider reads past br.
func plainInput(r io.Reader) bool {
	switch r.(type) {
	case *wire.InputFile, *os.File, *bytes.Reader, *strings.Reader:
		return true
	}
	return false
}

// wideRead is the most a widened reader reads at a time (see wider).
const wideRead = 256 << 10

// cappedReader reads at most n bytes at a time from r.
type cappedReader struct {
	r io.Reader
	n int
}

func (c cappedReader) Read(p []byte) (int, error) { return c.r.Read(p[:min(len(p), c.n)]) }

// readLine reads the next line, which starts at byte off of the input,
// newline included, and its length n in the input. A line with a NUL byte is
// binary: nul is where it is in the line (after leading white space), -1 if
// none. A line longer than maxLine, or a long one whose first chunk is
// binary, is read to its end without being held: b is then nil, and a line
// too long is reported here. A line longer than the reader's buffer is read
// into d.long, in one piece when the input can seek (see longLine).
func (d *decoder) readLine(br *bufio.Reader, line int, off int64) (b []byte, n int64, nul int, err error) {
	if d.mapping != nil && br == d.src {
		return d.mappedLine(line)
	}
	if b, nul, ok := d.sharedLine(br); ok {
		return b, int64(len(b)), nul, nil
	}
	b, err = br.ReadSlice('\n')
	nul = -1
	if err == bufio.ErrBufferFull {
		if at := bytes.IndexByte(bytes.TrimLeft(b, " \t\r\n"), 0); at >= 0 {
			// A long binary line (a zero-filled tail): skipped, not held.
			k, err := body.SkipLine(br)
			return nil, int64(len(b)) + k, at, err
		}
		if br == d.src && d.seek != nil {
			b, err = d.longLine(br, b, off)
		} else {
			b, err = body.LongLine(br, b, maxLine, d.long)
		}
		if len(b) <= keepLong {
			d.long = b[:0]
		} else {
			d.long = nil
		}
	} else if body.LineLen(b, err) > maxLine {
		b, err = nil, &body.LongLineError{Max: maxLine, Len: int64(len(b))}
	}
	if long, ok := err.(*body.LongLineError); ok {
		if !d.counted(line, kindTooLong) {
			d.Fail(line, "%v", long)
		}
		return nil, long.Len, -1, nil
	}
	if len(b) > 0 {
		nul = d.nulAt(b, -1)
	}
	return b, int64(len(b)), nul, err
}

// nulAt is where the first NUL byte of the line b is, counted after its
// leading white space, -1 if none. In a session (see sharedLine) b is
// compared with the body before first, unless shared says how many bytes
// they share already, and only the bytes after those is looked through;
// WalkAfter is told how many.
func (d *decoder) nulAt(b []byte, shared int) int {
	lead := len(b) - len(bytes.TrimLeft(b, " \t\r\n"))
	p := 0
	if last := d.sessionLine(); last != nil {
		if p = shared; p < 0 {
			p = body.CommonPrefix(b, last)
		}
		// A body starts with '{': p > 0 only when b starts without
		// white space (lead is 0).
		d.cache.Compared(&b[0], p)
	}
	if at := bytes.IndexByte(b[p:], 0); at >= 0 {
		return p + at - lead
	}
	return -1
}

// sessionLine is the body of the line before, which the next line of a
// session is compared with, or nil (not read line by line, nothing
// remembered, or the tail walk off).
func (d *decoder) sessionLine() []byte {
	if d.lineMode == 0 || !walkAfter || d.cache == nil {
		return nil
	}
	return d.cache.Line()
}

// sharedLine reads the next line when the body of the line before is
// remembered (a session of growing requests) and the line, newline
// included, is in br's buffer: the line is compared with that body first,
// once, and only what follows the bytes they share is looked through for
// the newline and a NUL byte (the body has neither, see
// body.ElementCache.Line); WalkAfter is told how much they share. Where
// ReadSlice and the NUL check read every byte of a line twice and
// WalkAfter's comparison a third time, a session's repeated bytes are
// read once. ok is false, and nothing read, for a line the buffer does
// not hold whole (a long line, the input's last without a newline, a read
// error): readLine then reads it as any other.
func (d *decoder) sharedLine(br *bufio.Reader) (b []byte, nul int, ok bool) {
	last := d.sessionLine()
	if len(last) == 0 {
		return nil, -1, false
	}
	data, _ := br.Peek(1)
	if len(data) == 0 {
		return nil, -1, false
	}
	p, q := 0, -1 // bytes shared with last; where the newline is
	for from := 0; ; {
		data, _ = br.Peek(br.Buffered())
		if p == from {
			p += body.CommonPrefix(data[p:], last[p:])
		}
		if p < len(data) {
			// The newline is at or after the first byte that differs
			// (or after all of last).
			if at := bytes.IndexByte(data[max(from, p):], '\n'); at >= 0 {
				q = max(from, p) + at
				break
			}
		}
		from = len(data)
		if len(data) == br.Size() {
			return nil, -1, false // longer than the buffer
		}
		if more, _ := br.Peek(len(data) + 1); len(more) <= len(data) {
			return nil, -1, false // the input's end or an error
		}
	}
	b = data[:q+1]
	if body.LineLen(b, nil) > maxLine {
		return nil, -1, false // too long: readLine says so
	}
	nul = d.nulAt(b, p)
	br.Discard(len(b))
	sharedLines.Add(1)
	return b, nul, true
}

// longLine reads a line of a seekable input longer than br's buffer, whose
// first chunk is first. When the buffer of the long line before (d.long)
// has room for it, the line is read into it as it goes, once; otherwise it
// is read to its end holding nothing, to learn its length, then read again
// into one buffer of that length, with room for the longer lines a session
// brings after it. A line of N bytes costs N bytes, where joining chunks
// (body.LongLine) costs 2N.
func (d *decoder) longLine(br *bufio.Reader, first []byte, off int64) ([]byte, error) {
	n := int64(len(first))
	last := first[len(first)-1]
	held := d.long[:0]
	if cap(held) > len(first) {
		held = append(held, first...)
	} else {
		held = nil
	}
	for {
		b, err := br.ReadSlice('\n')
		n += int64(len(b))
		if len(b) > 0 {
			last = b[len(b)-1]
		}
		if held != nil {
			if len(held)+len(b) <= cap(held) {
				held = append(held, b...)
			} else {
				held = nil // no room: read again below
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil && err != io.EOF {
			return nil, err
		}
		break
	}
	text := n
	if last == '\n' {
		text--
	}
	if text > int64(maxLine) {
		return nil, &body.LongLineError{Max: maxLine, Len: n}
	}
	if held != nil {
		longOnce.Add(1)
		return held, nil
	}
	if _, err := d.seek.Seek(d.base+off, io.SeekStart); err != nil {
		return nil, err
	}
	br.Reset(d.seek)
	buf := d.long
	if int64(cap(buf)) < n {
		buf = make([]byte, n, n+min(n/2, keepLong))
	}
	buf = buf[:n]
	if _, err := io.ReadFull(br, buf); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF // the input shrank under us
		}
		return nil, err
	}
	return buf, nil
}

// readers holds the decoders' line buffers (1 MB each) for the next input:
// a batch of a thousand small transcripts allocated two for each.
var readers = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, 1<<20) }}

// getReader is a pooled reader of r. Nothing read through it is kept past
// the decoder's run (lines a reader keeps are copied, see runLines).
func getReader(r io.Reader) *bufio.Reader {
	br := readers.Get().(*bufio.Reader)
	br.Reset(r)
	return br
}

func putReader(br *bufio.Reader) {
	br.Reset(nil)
	readers.Put(br)
}

// reader is a pooled reader of r, given back when the decoder's run ends.
func (d *decoder) reader(r io.Reader) *bufio.Reader {
	br := getReader(r)
	d.pooled = append(d.pooled, br)
	return br
}

// giveUp is how many errors a JSONL may give before its first request
// body before it is given up.
const giveUp = 10

// binaryLine reports a line with a NUL byte at nul: one error, or a count
// past maxErrors.
func (d *decoder) binaryLine(line, nul int) {
	if !d.counted(line, kindBinary) {
		d.Fail(line, "binary data, not JSON (a NUL byte at byte %d)", nul)
	}
}

// runLines feeds each line to a recording reader, from the given line at
// byte offset off. A binary line is reported here, as the reader would (see
// runJSONL).
func (d *decoder) runLines(br *bufio.Reader, sd recording.Reader, line int, off int64) {
	for !d.stop {
		b, n, nul, err := d.readLine(br, line, off)
		if n > 0 {
			switch t := bytes.TrimSpace(b); {
			case nul >= 0:
				d.binaryLine(line, nul)
			case len(t) > 0:
				// The reader may keep what it is given: a line in place in
				// the reader's buffer is copied, one joined in d.long is
				// handed over; a Borrower keeps nothing of it.
				if _, borrows := sd.(recording.Borrower); borrows {
					// Read in place: kept by nothing.
				} else if len(b) > br.Size() {
					d.long = nil
				} else {
					t = bytes.Clone(t)
				}
				sd.Line(d, t, line, off)
			}
			off += n
			line++
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			d.Fail(line, "%v", err)
			return
		}
	}
	if !d.stop {
		sd.End(d)
	}
}

// runForcedLines reads an input given a recording format with --format. A
// JSON document spread over lines (a pretty-printed body, a HAR) is one
// error, not one for each of its lines; an input whose first line is a
// record, or is broken, is read line by line.
func (d *decoder) runForcedLines(br *bufio.Reader, sd recording.Reader) {
	first, n, nul, err := d.readLine(br, 1, 0)
	if err != nil && err != io.EOF {
		d.Fail(1, "%v", err)
		return
	}
	if first == nil && n > 0 {
		// Too long, or binary: reported on its line, and the other lines
		// read.
		if nul >= 0 {
			d.Fail(1, "binary data, not JSON (a NUL byte at byte %d)", nul)
		}
		d.runLines(br, sd, 2, n)
		return
	}
	if len(first) > br.Size() {
		d.long = nil // joined in d.long: kept
	} else {
		first = bytes.Clone(first) // in place in br's buffer
	}
	if isCompleteValue(bytes.TrimPrefix(first, []byte("\xef\xbb\xbf"))) {
		d.runLines(d.reader(io.MultiReader(bytes.NewReader(first), br)), sd, 1, 0)
		return
	}
	// The first line is not a record: the input is read whole, as a
	// document spread over lines is (see run).
	doc, more, err := readDoc(first, br)
	if err != nil {
		d.Fail(0, "%v", err)
		return
	}
	if _, ok := sd.(recording.DocumentReader); ok && !more {
		// A recording written as one document (Gemini CLI's session-*.json).
		d.runLines(d.reader(io.MultiReader(bytes.NewReader(doc), br)), sd, 1, 0)
		return
	}
	if lines := bytes.Count(bytes.TrimRight(doc, " \t\r\n"), []byte("\n")) + 1; !more && lines > 1 && checkValue(doc) == nil {
		d.Fail(0, "not a %s recording: one JSON document spread over %d lines, where a recording has one JSON record a line", d.opts.Format, lines)
		return
	}
	d.runLines(d.reader(io.MultiReader(bytes.NewReader(doc), br)), sd, 1, 0)
}

// compression names the compression of an input by its magic number: "zstd"
// (a frame, RFC 8878), "gzip", or "" for anything else.
func compression(head []byte) string {
	switch {
	case bytes.HasPrefix(head, []byte{0x28, 0xb5, 0x2f, 0xfd}):
		return "zstd"
	case bytes.HasPrefix(head, []byte{0x1f, 0x8b}):
		return "gzip"
	}
	return ""
}

// utf16Mark names the UTF-16 encoding of an input that starts with a
// UTF-16 byte-order mark, or with a JSON opener (after white space) in
// UTF-16 without one; "" for anything else.
func utf16Mark(head []byte) string {
	switch {
	case bytes.HasPrefix(head, []byte{0xff, 0xfe}):
		return "a UTF-16LE byte-order mark"
	case bytes.HasPrefix(head, []byte{0xfe, 0xff}):
		return "a UTF-16BE byte-order mark"
	}
	for i := 0; i+1 < len(head); i += 2 {
		lo, hi := head[i], head[i+1]
		if hi == 0 && (lo == ' ' || lo == '\t' || lo == '\r' || lo == '\n') ||
			lo == 0 && (hi == ' ' || hi == '\t' || hi == '\r' || hi == '\n') {
			continue
		}
		switch {
		case hi == 0 && (lo == '{' || lo == '['):
			return "UTF-16LE without a byte-order mark"
		case lo == 0 && (hi == '{' || hi == '['):
			return "UTF-16BE without a byte-order mark"
		}
		return ""
	}
	return ""
}

func isCompleteValue(b []byte) bool {
	t := bytes.TrimSpace(b)
	if len(t) == 0 || (t[0] != '{' && t[0] != '[') {
		return false
	}
	return checkValue(t) == nil
}

// checkValue validates one JSON value (with surrounding white space).
func checkValue(b []byte) error {
	if at := body.DepthExceeded(b, body.MaxDepth); at >= 0 {
		return fmt.Errorf("JSON nested deeper than %d levels at byte %d", body.MaxDepth, at)
	}
	// Over a bytes.Buffer the Decoder reads b in place; ReadValue checks the
	// value in one pass without copying it.
	dec := jsontext.NewDecoder(bytes.NewBuffer(b), body.WalkOpts...)
	if _, err := dec.ReadValue(); err != nil {
		return err
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		return fmt.Errorf("unexpected data after the top-level value at byte %d", dec.InputOffset())
	}
	return nil
}

// check is checkValue with the decoder's walker: a JSONL of many lines that
// are not objects allocates no decoder a line.
func (d *decoder) check(b []byte) error {
	if at := body.DepthExceeded(b, body.MaxDepth); at >= 0 {
		return fmt.Errorf("JSON nested deeper than %d levels at byte %d", body.MaxDepth, at)
	}
	return d.walk.Check(b)
}

// checkObject checks v as checkValue does and, when it is an object,
// walks it in the same pass: the one check of a body found inside a
// container. A valid value of another kind gives a nil shape.
func checkObject(v jsontext.Value) (*body.Shape, error) {
	if v.Kind() != '{' {
		return nil, checkValue(v)
	}
	if at := body.DepthExceeded(v, body.MaxDepth); at >= 0 {
		return nil, fmt.Errorf("JSON nested deeper than %d levels at byte %d", body.MaxDepth, at)
	}
	return body.WalkShape(v)
}

func looksLikeJSONL(doc []byte) bool {
	valid, lines := 0, 0
	for len(doc) > 0 {
		var l []byte
		l, doc, _ = bytes.Cut(doc, []byte("\n"))
		if len(bytes.TrimSpace(l)) == 0 {
			continue
		}
		lines++
		if isCompleteValue(l) {
			valid++
		}
		if lines >= 50 {
			break
		}
	}
	return valid >= 1 && lines >= 2
}

// value decodes one JSON value that starts on the given line at byte offset
// off of the source: a body, an array of bodies, or a container (HAR, trace).
func (d *decoder) value(raw []byte, line int, off int64) {
	raw = bytes.TrimPrefix(raw, []byte("\xef\xbb\xbf"))
	if d.cache == nil {
		d.cache = body.NewElementCache()
	}
	d.lineShape, d.lineErrs = nil, d.nerr
	if d.lineMode > 0 && walkAfter {
		// A line of a session: walked from where it stops being the body
		// of the line before, when it was one (see body.Walker.WalkAfter).
		trimmed := bytes.TrimSpace(raw)
		if s := d.walk.WalkAfter(jsontext.Value(trimmed), d.cache); s != nil {
			tailWalks.Add(1)
			lead := int64(bytes.Index(raw, trimmed[:1]))
			d.lineShape = s
			d.objectShape(s, line, off+lead)
			return
		}
	} else {
		d.cache.Forget()
	}
	if !utf8.Valid(raw) {
		at := body.InvalidUTF8At(raw)
		d.Fail(line+bytes.Count(raw[:at], []byte("\n")), "invalid UTF-8 at byte %d (decoded with U+FFFD)", at)
	}
	trimmed := bytes.TrimSpace(raw)
	lead := int64(bytes.Index(raw, trimmed[:min(1, len(trimmed))]))
	v := jsontext.Value(trimmed)
	if v.Kind() == '{' {
		// An object is checked by the one walk that also splits it.
		if at := body.DepthExceeded(trimmed, body.MaxDepth); at >= 0 {
			if !d.counted(line, kindInvalidJSON) {
				d.Fail(line+lineOf(trimmed, at), "JSON nested deeper than %d levels at byte %d", body.MaxDepth, at)
			}
			return
		}
		s, err := d.walk.Walk(v)
		if err != nil {
			if !d.counted(line, kindInvalidJSON) {
				d.Fail(line+lineOfErr(trimmed, err), "%s", body.DescribeError(err))
			}
			return
		}
		d.whole = d.lineMode == 0
		if !d.whole {
			d.lineShape = s
		}
		d.objectShape(s, line, off+lead)
		d.whole = false
		return
	}
	if err := d.check(trimmed); err != nil {
		if !d.counted(line, kindInvalidJSON) {
			d.Fail(line+lineOfErr(trimmed, err), "%s", body.DescribeError(err))
		}
		return
	}
	switch v.Kind() {
	case '[':
		d.array(v, line, off+lead)
	default:
		d.Fail(line, "not a request: a JSON %s at the top level", body.KindName(v.Kind()))
	}
}

// array decodes a JSON array of values (bodies or containers).
func (d *decoder) array(v jsontext.Value, line int, off int64) {
	dec := jsontext.NewDecoder(bytes.NewBuffer(v), body.WalkOpts...)
	if _, err := dec.ReadToken(); err != nil {
		d.Fail(line, "%s", body.DescribeError(err))
		return
	}
	if dec.PeekKind() == ']' {
		d.Fail(line, "an empty JSON array: no request bodies in it")
		return
	}
	for n := 1; dec.PeekKind() != ']' && !d.stop; n++ {
		start := dec.InputOffset()
		el, err := dec.ReadValue()
		if err != nil {
			d.Fail(line+lineOf(v, int(start)), "%s", body.DescribeError(err))
			return
		}
		// Skip the separator white space to find where the element starts.
		elStart := int(start) + bytes.IndexAny(v[start:], "{[\"tfn-0123456789")
		elLine := line + lineOf(v, elStart)
		if el.Kind() != '{' {
			d.Fail(elLine, "array element %d is a JSON %s, not a request body", n, body.KindName(el.Kind()))
			continue
		}
		d.object(el, elLine, off+int64(elStart))
	}
}

// object decodes one JSON object: a container or a body.
func (d *decoder) object(v jsontext.Value, line int, off int64) {
	s, err := d.walk.Walk(v)
	if err != nil {
		d.Fail(line+lineOfErr(v, err), "%s", body.DescribeError(err))
		return
	}
	d.objectShape(s, line, off)
}

// objectShape decodes a walked object: a container or a body.
func (d *decoder) objectShape(s *body.Shape, line int, off int64) {
	format := d.opts.Format
	switch {
	case format == wire.FormatAuto || container(format) == nil && !body.Has(format):
		f, err := body.DetectShape(s, d.detMemo())
		if err != nil {
			if d.whole {
				line = 0 // the file is one document: its name says where
			}
			d.Fail(line, "%v", err)
			return
		}
		if format == wire.FormatAuto || container(f) != nil {
			format = f
		}
	case body.Has(format):
		// A forced body format still reads the bodies inside a HAR or a
		// trace; a body of another shape is an error, not an empty request.
		if f := s.Container(); f != wire.FormatAuto {
			format = f
		} else if !s.HasBodyMembers(format) {
			if d.whole {
				line = 0
			}
			d.Fail(line, "not a request body in the %s format (looked for %s)", format, body.BodyMembers[format])
			return
		}
	}
	if cd := container(format); cd != nil {
		cd(d, s.Value(), line, off)
		return
	}
	d.bodyShape(format, s, line, off, nil)
}

// bodyShape decodes one walked body of a known format and emits it; fill,
// when given, completes the request (a container's endpoint and usage).
func (d *decoder) bodyShape(format wire.Format, s *body.Shape, line int, off int64, fill func(*wire.Request)) {
	if s.Len() > 0 && !s.HasBodyMembers(format) {
		d.Fail(line, "not a request body in the %s format (looked for %s)", format, body.BodyMembers[format])
		return
	}
	if !body.Has(format) {
		d.Fail(line, "no reader for format %q", format)
		return
	}
	if d.cache == nil {
		d.cache = body.NewElementCache()
	}
	b := d.Builder(format, line, off, int64(len(s.Value())))
	// Segments are collected in the decoder's scratch array; share gives the
	// request its own (or the run's) afterwards.
	if !inPlace {
		d.scratch = nil // a new array: every segment copied into it
	}
	b.Req.Segments = d.scratch[:0]
	d.cache.Placing()
	if err := body.Decode(format, s, b, d.cache); err != nil {
		if !d.counted(line, kindBadBody) {
			d.Fail(line, "%s body: %s", format, body.DescribeError(err))
		}
		return
	}
	if fill != nil {
		fill(b.Req)
	}
	if s == d.lineShape && d.nerr == d.lineErrs {
		// A whole line's body, without an error: the next line is walked
		// after it.
		d.cache.Remember(s)
	}
	b.Req.Segments = d.share(b.Req.Segments, d.cache.Known())
	// The scratch array, kept, holds the segments of this body where they
	// were: the next body built in it finds its known ones there.
	d.cache.Placed(d.scratch)
	d.Emit(*b.Req)
}

// share is segs, in the backing array of the request before when segs
// starts with all of its segments (see wire.ExtendRun): a session of
// growing requests then holds each segment once, not once a request, and
// arrays that grow by doubling. Requests are handed out with no room after
// their segments (an append copies), and no request's segments are
// written after it is emitted.
// segs is the decoder's scratch array: it is kept for the next request
// (while small enough) and never handed out. Its first known segments are
// known to be the run's (body.ElementCache.Known) and are not compared.
func (d *decoder) share(segs []wire.Segment, known int) []wire.Segment {
	if cap(segs) <= keepScratch {
		d.scratch = segs[:0]
	} else {
		d.scratch = nil
	}
	n := len(d.segRun)
	var run []wire.Segment
	known = min(known, n)
	knownSegments.Add(int64(known))
	if n == 0 || len(segs) < n || !wire.SameSegments(segs[known:n], d.segRun[known:]) {
		// A run of its own, with room for the requests that extend it.
		run, n = wire.ExtendRun[wire.Segment](nil, len(segs)), 0
	} else {
		// The run's array, or, when it is full, a larger copy of it.
		run = wire.ExtendRun(d.segRun, len(segs))
	}
	copy(run[n:], segs[n:])
	d.segRun = run
	return run[:len(run):len(run)]
}

// keepScratch is the most segments the scratch array is kept for.
const keepScratch = 1 << 15

// containerDecoder decodes a value that holds bodies (a HAR, a trace line),
// emitting each with d.bodyShape or d.Emit.
type containerDecoder func(d *decoder, v jsontext.Value, line int, off int64)

// container is the reader of a container format, or nil.
func container(f wire.Format) containerDecoder {
	switch f {
	case wire.FormatHAR:
		return decodeHAR
	case wire.FormatClaudeTrace:
		return decodeClaudeTrace
	case wire.FormatOpenAIBatch:
		return decodeOpenAIBatch
	case wire.FormatOTel:
		return decodeOTel
	}
	return nil
}

// recording is the reader of the agent recording the input is, by --format
// or by the shape of its first lines, or nil.
func (d *decoder) recording(head []byte) recording.Reader {
	if d.opts.Format != wire.FormatAuto {
		return recording.New(d.opts.Format)
	}
	return recording.New(recording.Detect(head))
}

// Formats lists every format name --format accepts.
// This is the one list: each package below keeps the list of its own.
func Formats() []wire.Format {
	out := append([]wire.Format(nil), body.Formats()...)
	out = append(out, wire.FormatHAR, wire.FormatClaudeTrace, wire.FormatOpenAIBatch, wire.FormatOTel)
	return append(out, recording.Formats()...)
}

// lineOfErr is the 0-based line of a syntax error inside b.
func lineOfErr(b []byte, err error) int {
	var se *jsontext.SyntacticError
	if errors.As(err, &se) && se.ByteOffset >= 0 && se.ByteOffset <= int64(len(b)) {
		return lineOf(b, int(se.ByteOffset))
	}
	return 0
}

// lineOf is the 0-based line of byte offset at in b.
func lineOf(b []byte, at int) int {
	if at > len(b) {
		at = len(b)
	}
	return bytes.Count(b[:at], []byte("\n"))
}
