package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/decode"
	"github.com/wirelens/wirelens/wire/redact"
)

// The shape of `inspect --json` as encoding/json writes it: the reference
// writeInspectRequestJSON is compared with.

// inspectSegmentJSON is one segment in `inspect --json`.
type inspectSegmentJSON struct {
	ID         string        `json:"id"`
	Channel    wire.Channel  `json:"channel"`
	Role       string        `json:"role"`
	Kind       wire.Kind     `json:"kind"`
	Trust      wire.Trust    `json:"trust"`
	Envelope   string        `json:"envelope"`
	Label      string        `json:"label,omitempty"`
	Server     string        `json:"server,omitempty"`
	Bytes      int           `json:"bytes"`
	Tokens     int           `json:"tokens"`
	Breakpoint bool          `json:"cache_breakpoint,omitempty"`
	Escapes    []wire.Escape `json:"escapes"`
	// Text is the segment's text with every secret masked (--redact).
	Text *string `json:"text,omitempty"`
}

type inspectRequestJSON struct {
	Source   string               `json:"source"`
	Index    int                  `json:"index"`
	Line     int                  `json:"line,omitempty"`
	Format   wire.Format          `json:"format"`
	Model    string               `json:"model"`
	Endpoint string               `json:"endpoint,omitempty"`
	Tokens   int                  `json:"tokens"`
	Bytes    int                  `json:"bytes"`
	Segments []inspectSegmentJSON `json:"segments"`
	Usage    *wire.Usage          `json:"usage,omitempty"`
	Notes    []string             `json:"notes,omitempty"`
}

// inspectRequest is the JSON form of one request; with redacted, each
// segment carries its text with every secret masked.
func inspectRequest(r *wire.Request, redacted bool) inspectRequestJSON {
	rj := inspectRequestJSON{Source: r.Source, Index: r.Index, Line: r.Line, Format: r.Format, Model: r.Model,
		Endpoint: r.Endpoint, Usage: r.Usage, Notes: r.Notes, Bytes: r.Bytes(),
		Segments: make([]inspectSegmentJSON, 0, len(r.Segments))}
	for j := range r.Segments {
		s := &r.Segments[j]
		esc := s.Escapes
		if esc == nil {
			esc = []wire.Escape{}
		}
		n := s.Tokens()
		rj.Tokens += n
		rj.Segments = append(rj.Segments, inspectSegmentJSON{ID: s.ID, Channel: s.Channel, Role: s.Role,
			Kind: s.Kind, Trust: s.Trust, Envelope: s.Envelope, Label: s.Label, Server: s.Server, Bytes: len(s.Text),
			Tokens: n, Breakpoint: r.Breakpoint(j), Escapes: esc})
		if redacted {
			text := redact.MaskSecrets(s.Text)
			rj.Segments[len(rj.Segments)-1].Text = &text
		}
	}
	return rj
}

// writeInspectRequestJSONRef is what writeInspectRequestJSON wrote before
// it wrote straight into its buffer: encoding/json, indented, made safe.
func writeInspectRequestJSONRef(w *bytes.Buffer, r *wire.Request, comma, redacted bool) {
	b, err := marshalJSON(inspectRequest(r, redacted), "    ")
	if err != nil {
		panic(err)
	}
	if comma {
		w.WriteString(",")
	}
	w.WriteString("\n    ")
	w.Write(b)
}

// writeInspectRequestJSON writes what encoding/json and scan.SafeJSON
// write, byte for byte, for every request of every fixture (hostile
// corpora among them) and for requests with every optional member and
// hostile text in every string.
func TestInspectJSONWriterSameAsEncoder(t *testing.T) {
	var reqs []wire.Request
	err := filepath.WalkDir("testdata", func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		in, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for r, err := range decode.Decode(bytes.NewReader(in), decode.Options{Source: path}) {
			if err == nil {
				reqs = append(reqs, r)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(reqs) < 60 {
		t.Fatalf("only %d requests in the fixtures", len(reqs))
	}
	hostile := []string{"", "plain", `q"uote`, `back\slash`, "tab\tnew\nline", "esc\x1b[31mred", "bidi \u202eevil",
		"del\x7f", "nul\x00", "invalid \xff\xfe", "<html>&amp;", "line\u2028sep\u2029", "tag \U000E0041\U000E007F",
		"zero\u200bwidth", "emoji 😀", "é", "\x1b]8;;http://x\x07link"}
	for i, h := range hostile {
		reqs = append(reqs, wire.Request{Source: h, Index: i, Line: i, Format: wire.Format(h), Model: h, Endpoint: h,
			Usage: &wire.Usage{InputTokens: i, CachedTokens: 2, CacheWriteTokens: 1, OutputTokens: i % 2, CachedUnknown: i%3 == 0},
			Notes: []string{h, h + "x"},
			Segments: []wire.Segment{{ID: h, Part: h, Channel: wire.Channel(h), Role: h, Kind: wire.Kind(h), Trust: wire.Trust(h),
				Envelope: h, Label: h, Text: h,
				Escapes: []wire.Escape{{Rule: h, Offset: i, Text: h, Original: h}, {Rule: "r", Text: h}}}, {Text: h}}})
		if i%2 == 0 {
			reqs[len(reqs)-1].Breakpoints = []int{i % 4 / 2} // on the first segment, or the second
		}
	}
	reqs = append(reqs, wire.Request{}, wire.Request{Notes: []string{}})
	for i := range reqs {
		for _, redacted := range []bool{false, true} {
			var got, want bytes.Buffer
			if err := writeInspectRequestJSON(&got, &reqs[i], i%2 == 1, redacted); err != nil {
				t.Fatal(err)
			}
			writeInspectRequestJSONRef(&want, &reqs[i], i%2 == 1, redacted)
			if got.String() != want.String() {
				t.Fatalf("request %d (%s), redacted %v:\n%s\nwant\n%s", i, reqs[i].Name(), redacted, got.String(), want.String())
			}
			if strings.ContainsAny(got.String(), "\x1b\u202e") {
				t.Fatalf("request %d: a hazard reached the output raw", i)
			}
		}
	}
}

// The ASCII fast path of table cells measures and cuts as ansi does.
func TestCellWidthAndTruncateAsANSI(t *testing.T) {
	cells := []string{"", "a", "messages[12].content[3]", "tool-schema", "12,345", "x ⚑", "é", "日本", "a\x1b[31mb",
		"tab\there", "del\x7f", strings.Repeat("long-id.", 20)}
	for _, c := range cells {
		if got, want := cellWidth(c), ansi.StringWidth(c); got != want {
			t.Errorf("cellWidth(%q) = %d, ansi says %d", c, got, want)
		}
		for w := -1; w <= len(c)+2; w++ {
			if got, want := cellTruncate(c, w), ansi.Truncate(c, w, "…"); got != want {
				t.Errorf("cellTruncate(%q, %d) = %q, ansi says %q", c, w, got, want)
			}
		}
	}
}
