package decode

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wirelens/wirelens/wire"
)

// fixture is the path of a payload fixture.
func fixture(name string) string { return filepath.Join("..", "..", "testdata", "payloads", name) }

// decodeAll decodes a file and returns its requests and errors.
func decodeAll(t *testing.T, path string, opts Options) ([]wire.Request, []error) {
	t.Helper()
	var reqs []wire.Request
	var errs []error
	for r, err := range Path(path, opts) {
		if err != nil {
			var de *Error
			if !errors.As(err, &de) {
				t.Fatalf("%s: error %v is a %T, not a *DecodeError", path, err, err)
			}
			errs = append(errs, err)
			continue
		}
		reqs = append(reqs, r)
	}
	return reqs, errs
}

// wantPart is what one wire part must have become. Kind and Trust are
// checked only when set (parts that carry envelopes are cut further by the
// classifier, whose kinds are its own business).
type wantPart struct {
	id      string
	channel wire.Channel
	role    string
	kind    wire.Kind
	trust   wire.Trust
	name    string
	text    string
	bp      bool
}

// checkParts compares a request's segments, grouped by part, with want.
func checkParts(t *testing.T, r wire.Request, want []wantPart) {
	t.Helper()
	var order []string
	byPart := map[string][]wire.Segment{}
	bpPart := map[string]bool{} // the parts with a segment that carries a breakpoint
	for i, s := range r.Segments {
		if _, ok := byPart[s.Part]; !ok {
			order = append(order, s.Part)
		}
		byPart[s.Part] = append(byPart[s.Part], s)
		bpPart[s.Part] = bpPart[s.Part] || r.Breakpoint(i)
	}
	var wantIDs []string
	for _, w := range want {
		wantIDs = append(wantIDs, w.id)
	}
	if strings.Join(order, " ") != strings.Join(wantIDs, " ") {
		t.Fatalf("%s: parts\n got  %v\n want %v", r.Name(), order, wantIDs)
	}
	for _, w := range want {
		segs := byPart[w.id]
		var text strings.Builder
		bp := bpPart[w.id]
		for _, s := range segs {
			text.WriteString(s.Text)
			if s.Channel != w.channel || s.Role != w.role {
				t.Errorf("%s %s: channel/role %s/%s, want %s/%s", r.Name(), s.ID, s.Channel, s.Role, w.channel, w.role)
			}
			if s.Hash != wire.HashText(s.Text) {
				t.Errorf("%s %s: hash does not match the text", r.Name(), s.ID)
			}
		}
		if text.String() != w.text {
			t.Errorf("%s %s: text %q, want %q", r.Name(), w.id, text.String(), w.text)
		}
		if bp != w.bp {
			t.Errorf("%s %s: cache breakpoint %v, want %v", r.Name(), w.id, bp, w.bp)
		}
		if w.name != "" && segs[0].Label != w.name {
			t.Errorf("%s %s: name %q, want %q", r.Name(), w.id, segs[0].Label, w.name)
		}
		if w.kind != "" {
			if len(segs) != 1 || segs[0].ID != w.id {
				t.Errorf("%s %s: cut into %d segments, want the whole part", r.Name(), w.id, len(segs))
				continue
			}
			if segs[0].Kind != w.kind || segs[0].Trust != w.trust {
				t.Errorf("%s %s: kind/trust %s/%s, want %s/%s", r.Name(), w.id, segs[0].Kind, segs[0].Trust, w.kind, w.trust)
			}
		}
	}
}

func checkUsage(t *testing.T, r wire.Request, want *wire.Usage) {
	t.Helper()
	switch {
	case want == nil && r.Usage != nil:
		t.Errorf("%s: usage %+v, want none", r.Name(), *r.Usage)
	case want != nil && r.Usage == nil:
		t.Errorf("%s: no usage, want %+v", r.Name(), *want)
	case want != nil && *r.Usage != *want:
		t.Errorf("%s: usage %+v, want %+v", r.Name(), *r.Usage, *want)
	}
}

func stringsReaderDec(s string) *strings.Reader { return strings.NewReader(s) }

// A JSON array of bodies and a JSONL session: each request knows its line,
// index and the bytes it came from.
func TestDecodeArrayAndSession(t *testing.T) {
	for _, c := range []struct {
		path    string
		lines   []int
		models  []string
		formats []wire.Format
	}{
		{fixture("array.json"), []int{2, 21}, []string{"claude-haiku-4-5", "gpt-4.1-mini"}, []wire.Format{wire.FormatAnthropic, wire.FormatOpenAIChat}},
		{filepath.Join("..", "..", "testdata", "sessions", "session.jsonl"), []int{1, 2, 3},
			[]string{"claude-sonnet-4-5", "claude-sonnet-4-5", "claude-sonnet-4-5"}, []wire.Format{wire.FormatAnthropic, wire.FormatAnthropic, wire.FormatAnthropic}},
	} {
		reqs, errs := decodeAll(t, c.path, Options{})
		if len(errs) > 0 || len(reqs) != len(c.lines) {
			t.Fatalf("%s: %d requests, errors %v", c.path, len(reqs), errs)
		}
		src, err := os.ReadFile(c.path)
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range reqs {
			if r.Line != c.lines[i] || r.Index != i+1 || r.Model != c.models[i] || r.Format != c.formats[i] || r.Source != c.path {
				t.Errorf("%s request %d: line %d index %d model %q format %q source %q", c.path, i+1, r.Line, r.Index, r.Model, r.Format, r.Source)
			}
			body := src[r.Offset : r.Offset+r.Length]
			if body[0] != '{' || body[len(body)-1] != '}' || !strings.Contains(string(body), `"`+c.models[i]+`"`) {
				t.Errorf("%s request %d: offset %d length %d do not frame its body: %.40q", c.path, i+1, r.Offset, r.Length, body)
			}
		}
	}
}

// --format overrides detection: a Chat body that looks like Anthropic's by
// its model name is read as Chat when told, and a forced body format still
// reads the bodies inside a HAR.
func TestDecodeFormatOverride(t *testing.T) {
	in := `{"model":"claude-via-proxy","messages":[{"role":"user","content":"hi"}]}`
	for _, c := range []struct {
		format wire.Format
		want   wire.Format
	}{{wire.FormatAuto, wire.FormatAnthropic}, {wire.FormatOpenAIChat, wire.FormatOpenAIChat}} {
		var got []wire.Request
		for r, err := range Decode(stringsReaderDec(in), Options{Format: c.format}) {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, r)
		}
		if len(got) != 1 || got[0].Format != c.want {
			t.Errorf("--format %q: %v, want one %s request", c.format, got, c.want)
		}
	}
	// Every model entry of the HAR read as Anthropic: the Chat bodies have
	// messages and are read; the Gemini and Responses bodies are reported.
	reqs, errs := decodeAll(t, fixture("capture.har"), Options{Format: wire.FormatAnthropic})
	if len(reqs) != 3 || len(errs) != 2 ||
		errs[0].Error() != fixture("capture.har")+":226: not a request body in the anthropic format (looked for messages, system)" ||
		errs[1].Error() != fixture("capture.har")+":270: not a request body in the anthropic format (looked for messages, system)" {
		t.Fatalf("%d requests (want 3), errors %v (want the Gemini and Responses entries')", len(reqs), errs)
	}
	for _, r := range reqs {
		if r.Format != wire.FormatAnthropic || r.Endpoint == "" {
			t.Errorf("request %d: format %q endpoint %q", r.Index, r.Format, r.Endpoint)
		}
	}
	checkParts(t, reqs[0], anthropicStringParts)
}

// Detection remembers the messages that told it nothing, not the answer: a
// later request whose new message tells is read by it, and the requests
// before it are not changed.
func TestDecodeDetectMemo(t *testing.T) {
	in := `{"model":"m","messages":[{"role":"user","content":[{"type":"text","text":"hi"}]}]}
{"model":"m","messages":[{"role":"user","content":[{"type":"text","text":"hi"}]},{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Read","input":{}}]}]}
{"model":"m","messages":[{"role":"user","content":[{"type":"text","text":"hi"}]}]}
{"model":"m","messages":[{"role":"user","content":[{"type":"text","text":"hi"}]},{"role":"tool","content":"x"}]}
`
	var got []wire.Format
	for r, err := range Decode(strings.NewReader(in), Options{Source: "d.jsonl"}) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, r.Format)
	}
	want := []wire.Format{wire.FormatOpenAIChat, wire.FormatAnthropic, wire.FormatOpenAIChat, wire.FormatOpenAIChat}
	if !slices.Equal(got, want) {
		t.Errorf("formats %v, want %v", got, want)
	}
}
