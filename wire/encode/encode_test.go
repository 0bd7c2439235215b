package encode

import (
	"bytes"
	"strings"
	"testing"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/decode"
	"github.com/wirelens/wirelens/wire/scan"
)

// testDraft is a draft with two system blocks, a multi-block user
// message, an assistant turn and hostile text.
func testDraft() Draft {
	return Draft{
		Model: "test-model",
		System: []DraftBlock{
			{Text: "Host rules.\n"},
			{Text: "More rules with \"quotes\" and <tags> & ampersands.", CacheBreakpoint: true},
		},
		Messages: []DraftMessage{
			{Role: "user", Blocks: []DraftBlock{{Text: "first \u202eevil\u202c part"}, {Text: "second part \U000E0041\x1b[31m"}}},
			{Role: "assistant", Blocks: []DraftBlock{{Text: "an answer"}}},
			{Role: "user", Blocks: []DraftBlock{{Text: "日本語 and emoji \U0001F468\u200d\U0001F469"}}},
		},
	}
}

func decodeOne(t *testing.T, body []byte, api wire.Format) wire.Request {
	t.Helper()
	var got []wire.Request
	for r, err := range decode.Decode(bytes.NewReader(body), decode.Options{Source: "enc", Format: api}) {
		if err != nil {
			t.Fatalf("%s: decoding the encoded body: %v\n%s", api, err, body)
		}
		got = append(got, r)
	}
	if len(got) != 1 {
		t.Fatalf("%s: %d requests decoded", api, len(got))
	}
	return got[0]
}

func TestEncodeRoundTripEveryFormat(t *testing.T) {
	for _, api := range Formats {
		d := testDraft()
		built, err := d.Request(api, wire.NewInterner())
		if err != nil {
			t.Fatal(err)
		}
		body, err := Encode(built, api)
		if err != nil {
			t.Fatalf("%s: %v", api, err)
		}
		// Auto-detection must find the format, too.
		auto := decodeOne(t, body, wire.FormatAuto)
		if auto.Format != api {
			t.Fatalf("%s: the encoded body is detected as %s", api, auto.Format)
		}
		got := decodeOne(t, body, api)
		if got.Model != "test-model" {
			t.Errorf("%s: model %q", api, got.Model)
		}
		if len(got.Segments) != len(built.Segments) {
			t.Fatalf("%s: %d segments built, %d decoded", api, len(built.Segments), len(got.Segments))
		}
		for i := range built.Segments {
			b, g := built.Segments[i], got.Segments[i]
			if b.ID != g.ID || b.Channel != g.Channel || b.Role != g.Role || b.Kind != g.Kind || b.Trust != g.Trust ||
				b.Text != g.Text || built.Breakpoint(i) != got.Breakpoint(i) {
				t.Errorf("%s: segment %d built %+v decoded %+v", api, i, b, g)
			}
		}
		// Encoding the decoded request again gives the same bytes.
		again, err := Encode(got, api)
		if err != nil || !bytes.Equal(again, body) {
			t.Errorf("%s: re-encoding the decoded request differs (%v)", api, err)
		}
	}
}

func TestEncodeIsDeterministicAndSafeToPrint(t *testing.T) {
	for _, api := range Formats {
		r, _ := testDraft().Request(api, nil)
		a, err := Encode(r, api)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := Encode(r, api)
		if !bytes.Equal(a, b) {
			t.Fatalf("%s: two encodings differ", api)
		}
		if hz := scan.Hazards(string(a)); len(hz) > 0 {
			t.Fatalf("%s: raw hazard %+v in the JSON", api, hz[0])
		}
		for _, want := range []string{`\u202e`, `\udb40\udc41`, `\u001b[31m`, "日本語", "\U0001F468\u200d\U0001F469", "<tags> & ampersands"} {
			if !strings.Contains(string(a), want) {
				t.Errorf("%s: want %q in the JSON", api, want)
			}
		}
		if !bytes.HasSuffix(a, []byte("}\n")) || !bytes.Contains(a, []byte("\n  \"")) {
			t.Errorf("%s: not indented JSON ending with a newline", api)
		}
	}
}

func TestEncodeFormatShapes(t *testing.T) {
	r, _ := testDraft().Request(wire.FormatAnthropic, nil)
	want := map[wire.Format][]string{
		wire.FormatAnthropic:       {`"system": [`, `"cache_control": {`, `"max_tokens": 4096`, `"type": "text"`},
		wire.FormatOpenAIChat:      {`"role": "system"`, `"content": "Host rules.\n"`, `"role": "assistant"`},
		wire.FormatOpenAIResponses: {`"instructions": "Host rules.\n\n\nMore rules`, `"type": "input_text"`, `"type": "output_text"`},
		wire.FormatGemini:          {`"systemInstruction": {`, `"role": "model"`, `"contents": [`},
	}
	for api, subs := range want {
		out, err := Encode(r, api)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range subs {
			if !strings.Contains(string(out), s) {
				t.Errorf("%s: want %s in\n%s", api, s, out)
			}
		}
		if api != wire.FormatAnthropic && strings.Contains(string(out), "cache_control") {
			t.Errorf("%s: cache_control written", api)
		}
	}
}

func TestEncodeErrors(t *testing.T) {
	r, _ := testDraft().Request(wire.FormatAnthropic, nil)
	if _, err := Encode(r, wire.FormatHAR); err == nil || !strings.Contains(err.Error(), `cannot encode "har"`) {
		t.Fatalf("unknown format: %v", err)
	}
	r.Segments = append(r.Segments, wire.Segment{ID: "tools[0]", Part: "tools[0]", Channel: wire.ChannelTools, Kind: wire.KindToolSchema})
	if _, err := Encode(r, wire.FormatAnthropic); err == nil || !strings.Contains(err.Error(), "tools[0]: cannot encode") {
		t.Fatalf("tool schema: %v", err)
	}
}
