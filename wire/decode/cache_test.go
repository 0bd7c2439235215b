package decode

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/encode"
)

// eachLine decodes every line of a JSONL on its own (no element cache
// shared between lines).
func eachLine(t *testing.T, jsonl []byte) []wire.Request {
	t.Helper()
	var out []wire.Request
	for i, line := range bytes.Split(bytes.TrimRight(jsonl, "\n"), []byte("\n")) {
		for r, err := range Decode(bytes.NewReader(line), Options{Source: "s.jsonl"}) {
			if err != nil {
				t.Fatalf("line %d: %v", i+1, err)
			}
			out = append(out, r)
		}
	}
	return out
}

// Decoding a session with the element cache gives exactly the segments that
// decoding each request alone gives.
func TestDecodeCacheSameSegments(t *testing.T) {
	var gen bytes.Buffer
	if err := encode.GenerateSession(&gen, 12, 3); err != nil {
		t.Fatal(err)
	}
	chat := `{"model":"gpt","messages":[{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"read","arguments":"{}"}}]},{"role":"tool","tool_call_id":"c1","content":"same result"}]}
{"model":"gpt","messages":[{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"write","arguments":"{}"}}]},{"role":"tool","tool_call_id":"c1","content":"same result"}]}
{"model":"gpt","messages":[{"role":"user","content":"same result"},{"role":"tool","tool_call_id":"c1","content":"same result"}]}
`
	for name, in := range map[string][]byte{"generated": gen.Bytes(), "chat": []byte(chat)} {
		var got []wire.Request
		for r, err := range Decode(bytes.NewReader(in), Options{Source: "s.jsonl"}) {
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			got = append(got, r)
		}
		want := eachLine(t, in)
		if len(got) != len(want) {
			t.Fatalf("%s: %d requests, want %d", name, len(got), len(want))
		}
		for i := range got {
			if !reflect.DeepEqual(got[i].Segments, want[i].Segments) {
				t.Errorf("%s request %d: segments differ from decoding it alone", name, i+1)
			}
		}
	}
	// The tool result is named after the call that precedes it in its own
	// request, though its bytes are the same in all three.
	var names []string
	for r, err := range Decode(strings.NewReader(chat), Options{}) {
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, r.Segments[len(r.Segments)-1].Label)
	}
	if strings.Join(names, ",") != "read,write," {
		t.Errorf("tool result names %q, want read, write and none", names)
	}
}

// The same message bytes in bodies of two formats are read by each format's
// rules: a developer message is system in Chat, a plain message in Anthropic.
func TestDecodeCacheKeepsFormatsApart(t *testing.T) {
	in := `{"model":"gpt","messages":[{"role":"developer","content":"rules"}]}
{"model":"claude-x","system":"s","messages":[{"role":"developer","content":"rules"}]}
`
	var chans []wire.Channel
	for r, err := range Decode(strings.NewReader(in), Options{}) {
		if err != nil {
			t.Fatal(err)
		}
		chans = append(chans, r.Segments[len(r.Segments)-1].Channel)
	}
	if len(chans) != 2 || chans[0] != wire.ChannelSystem || chans[1] != wire.ChannelMessages {
		t.Errorf("channels %v, want [system messages]", chans)
	}
}
