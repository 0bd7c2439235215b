package recording

import (
	"reflect"
	"testing"

	"github.com/wirelens/wirelens/wire/body"
)

// codexOdd are hand-made lines of the shapes the fast read is unsure of.
var codexOdd = []string{
	`{}`, `{"payload":null}`, `{"type":"event_msg","payload":{"type":"token_count","info":null}}`,
	`{"type":"event_msg","payload":{"type":"token_count","info":{"last_token_usage":{"input_tokens":3,"cached_input_tokens":null,"output_tokens":2},"total_token_usage":null,"model_context_window":1}}}`,
	`{"type":"event_msg","payload":{"type":"token_count","input_tokens":5,"cached_input_tokens":2,"output_tokens":1}}`,
	`{"type":"event_msg","payload":{"input_tokens":null,"cached_input_tokens":7,"cached_input_tokens":null}}`,
	`{"type":"event_msg","payload":{"input_tokens":1.5}}`, `{"type":"event_msg","payload":{"input_tokens":"1"}}`, `{"payload":{"output_tokens":1e2}}`,
	`{"type":"event_msg","payload":{"info":{"last_token_usage":{"input_tokens":1}},"info":{"total_token_usage":{"input_tokens":2}}}}`,
	`{"type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"cmd\":[\"ls\"]}","call_id":"c1"}}`,
	`{"type":"response_item","payload":{"type":"function_call","name":"shell","arguments":{"cmd":["ls"]},"call_id":"c1"}}`,
	`{"type":"response_item","payload":{"type":"custom_tool_call","name":"apply_patch","input":"x","input":null}}`,
	`{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"},null]}}`,
	`{"type":"response_item","payload":{"type":"message","role":"user","content":"plain"},"payload":{"role":"assistant"}}`,
	`{"type":"session_meta","payload":{"cli_version":"0.1","base_instructions":{"text":"sys"},"base_instructions":null}}`,
	`{"type":"session_meta","payload":{"base_instructions":null,"instructions":"ui","cwd":"/w"}}`,
	`{"type":"session_meta","payload":{"base_instructions":"text"}}`, `{"type":"turn_context","payload":{"model":"m","approval_policy":{"x":1}}}`,
	`{"type":"compacted","payload":{"message":"m","replacement_history":[{"type":"message"}]}}`,
	`{"type":"response_item","payload":{"type":"message","Role":"user","ROLE":"x"}}`, `{"type":"x","payload":5}`, `{"type":"x","payload":[]}`,
	`{"timestamp":"2025-01-01T00:00:00Z","type":"event_msg","payload":{}} x`, `{"type":"t\u0079pe","payload":{"type":"\u006dessage"}}`,
	`{"ty\u0070e":"x"}`, `{"id":"i","instructions":"ui","cli_version":"0.2","record_type":null}`, `{"record_type":"state"}`,
	`{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"bad \xff"}]}}`,
}

// TestCodexLineReadMatchesUnmarshal: every line of the Codex rollouts in
// testdata, and odd ones, read by the token reader (a line, an early
// rollout's payload, content items) is what json.Unmarshal made of it, or
// the token reader gives up; it takes every real line.
func TestCodexLineReadMatchesUnmarshal(t *testing.T) {
	lines := testdataLines(t, "codex-rollouts/*/*/*.jsonl", "recordings/codex/*/*/*/*.jsonl", "agents/codex*.jsonl")
	real := len(lines)
	for _, s := range codexOdd {
		lines = append(lines, []byte(s))
	}
	fast, items := 0, 0
	for i, l := range lines {
		var want, got codexLine
		werr := body.Unmarshal(l, &want)
		if got.read(l) {
			fast++
			if werr != nil {
				t.Errorf("%.200s: the token reader took what Unmarshal refuses (%v)", l, werr)
			} else if !reflect.DeepEqual(want, got) {
				t.Errorf("%.200s:\ntoken reader %+v\nUnmarshal    %+v", l, got, want)
			}
		} else if i < real {
			t.Errorf("%.200s: a real line not read by the token reader", l)
		}
		var wp, gp codexPayload
		perr := body.Unmarshal(l, &wp)
		if readCodexPayload(l, &gp) && (perr != nil || !reflect.DeepEqual(wp, gp)) {
			t.Errorf("%.200s: as a payload:\ntoken reader %+v\nUnmarshal    %+v (%v)", l, gp, wp, perr)
		}
		if want.Payload == nil {
			continue
		}
		for _, v := range append(codexContents(want.Payload), []byte(`null`), []byte(`[]`), []byte(`[{"type":"x"},{"text":1}]`), []byte(`{"text":"t"}`)) {
			var wt, gt []codexText
			terr := body.Unmarshal(v, &wt)
			if readCodexTexts(v, &gt) {
				items++
				if terr != nil || !reflect.DeepEqual(wt, gt) {
					t.Errorf("%.200s: content items:\ntoken reader %+v\nUnmarshal    %+v (%v)", v, gt, wt, terr)
				}
			}
			if codexTexts(v, &gt) != (terr == nil) {
				t.Errorf("%.200s: codexTexts is not Unmarshal's verdict", v)
			}
		}
	}
	t.Logf("%d of %d lines read by the token reader (%d real), %d content values", fast, len(lines), real, items)
	if real < 40 || items < 100 {
		t.Fatalf("only %d real lines, %d content values", real, items)
	}
}

// codexContents are the payload's values that are read as content items.
func codexContents(p *codexPayload) [][]byte {
	var out [][]byte
	for _, v := range [][]byte{p.Content, p.Summary, p.Output} {
		if len(v) > 0 {
			out = append(out, v)
		}
	}
	return out
}

// TestFastReadsTellASCII: a line the Claude Code or Codex fast read takes
// is told ASCII exactly when it is (readLine then skips its UTF-8 check).
func TestFastReadsTellASCII(t *testing.T) {
	lines := testdataLines(t, "claude-code-transcripts/*.jsonl*", "recordings/claude-code/*/*.jsonl",
		"codex-rollouts/*/*/*.jsonl", "recordings/codex/*/*/*/*.jsonl")
	for _, s := range []string{`{"type":"user","cwd":"/é"}`, "{\"type\":\"user\",\"x\":{\"k\xc3\xa9\":1}}", `{"type":"user","message":{"content":"\u00e9"}}`,
		`{"type":"event_msg","payload":{"type":"é"}}`, "{\"type\":\"x\",\"payload\":{\"info\":{\"n\":[\"\xe2\x80\xae\"]}}}"} {
		lines = append(lines, []byte(s))
	}
	told, other := 0, 0
	for _, l := range lines {
		want := true
		for _, c := range l {
			want = want && c < 0x80
		}
		var e claudeCodeEntry
		if ok, ascii := e.readASCII(l, nil, ""); ok {
			told++
			if ascii != want {
				t.Errorf("%.200q: the Claude Code read found it ASCII %v", l, ascii)
			}
		}
		var r codexLine
		if ok, ascii := r.readASCII(l); ok {
			told++
			if ascii != want {
				t.Errorf("%.200q: the Codex read found it ASCII %v", l, ascii)
			}
		}
		if !want {
			other++
		}
	}
	if told < len(lines) || other < 5 {
		t.Fatalf("%d reads told of %d lines, %d not ASCII", told, len(lines), other)
	}
}
