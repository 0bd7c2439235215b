package decode

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirelens/wirelens/wire"
)

// writeRollout writes a Codex rollout of the given number of turns: each
// turn a user message, reasoning, a function call, a token_count, the call's
// output (outBytes of text) and the answer. A rollout grows with its turns,
// while the requests it implies grow with their square.
func writeRollout(w io.Writer, turns, outBytes int) error {
	bw := bufio.NewWriter(w)
	line := func(typ string, payload any) {
		// Members in Codex's order: the type comes before the payload.
		b, _ := json.Marshal(struct {
			Timestamp string `json:"timestamp"`
			Type      string `json:"type"`
			Payload   any    `json:"payload"`
		}{"2025-10-29T00:59:38.317Z", typ, payload})
		bw.Write(b)
		bw.WriteByte('\n')
	}
	line("session_meta", map[string]any{"id": "019a2d7a", "cli_version": "0.46.0",
		"base_instructions": map[string]any{"text": strings.Repeat("You are Codex, a coding agent. Follow the rules. ", 200)}})
	line("response_item", map[string]any{"type": "message", "role": "user", "content": []any{
		map[string]any{"type": "input_text", "text": "<environment_context>\n  <cwd>/home/dev/repo</cwd>\n</environment_context>"}}})
	line("turn_context", map[string]any{"model": "gpt-5-codex", "summary": "auto"})
	input := 12000
	for t := 0; t < turns; t++ {
		line("response_item", map[string]any{"type": "message", "role": "user", "content": []any{
			map[string]any{"type": "input_text", "text": fmt.Sprintf("step %d: look at file_%d.go and fix the bug", t, t)}}})
		line("response_item", map[string]any{"type": "reasoning", "summary": []any{
			map[string]any{"type": "summary_text", "text": fmt.Sprintf("**Inspecting file_%d.go**", t)}}, "encrypted_content": "gAAAA"})
		line("response_item", map[string]any{"type": "function_call", "name": "shell", "call_id": fmt.Sprintf("call_%d", t),
			"arguments": fmt.Sprintf(`{"command":["cat","file_%d.go"]}`, t)})
		line("event_msg", map[string]any{"type": "token_count", "info": map[string]any{
			"last_token_usage": map[string]any{"input_tokens": input, "cached_input_tokens": input - 300, "output_tokens": 80}}})
		body := fmt.Sprintf("// file_%d.go\n", t) + strings.Repeat(fmt.Sprintf("func f%d() { return %d }\n", t, t), outBytes/20+1)
		line("response_item", map[string]any{"type": "function_call_output", "call_id": fmt.Sprintf("call_%d", t), "output": body[:outBytes]})
		line("response_item", map[string]any{"type": "message", "role": "assistant", "content": []any{
			map[string]any{"type": "output_text", "text": fmt.Sprintf("Fixed file_%d.go.", t)}}})
		line("event_msg", map[string]any{"type": "token_count", "info": map[string]any{
			"last_token_usage": map[string]any{"input_tokens": input + outBytes/4, "cached_input_tokens": input, "output_tokens": 20}}})
		input += outBytes/4 + 120
	}
	return bw.Flush()
}

// rolloutFile writes a generated rollout into dir and returns its path and size.
func rolloutFile(tb testing.TB, dir string, turns, outBytes int) (string, int64) {
	tb.Helper()
	path := filepath.Join(dir, "rollout-generated.jsonl")
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	if err := writeRollout(f, turns, outBytes); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		tb.Fatal(err)
	}
	return path, st.Size()
}

// A long rollout holds its distinct text once: the requests it implies
// repeat each other, but share their text and their common segments.
func TestRecordingCodexLongRolloutSharesText(t *testing.T) {
	const turns = 200
	path, size := rolloutFile(t, t.TempDir(), turns, 2000)
	in := wire.NewInterner()
	var reqs []wire.Request
	for r, err := range Path(path, Options{Interner: in}) {
		if err != nil {
			t.Fatal(err)
		}
		reqs = append(reqs, r)
	}
	// Two requests per turn: the call, and the answer after its output.
	if len(reqs) != 2*turns {
		t.Fatalf("got %d requests, want %d", len(reqs), 2*turns)
	}
	total := 0
	for i := range reqs {
		total += reqs[i].Bytes()
		if reqs[i].Usage == nil {
			t.Fatalf("request %d has no usage", i+1)
		}
	}
	if int64(total) < 50*size {
		t.Fatalf("the requests hold %d bytes of text in all, expected far more than the %d-byte file", total, size)
	}
	if in.Bytes > size {
		t.Errorf("the interner holds %d bytes, more than the %d-byte recording: text is held twice", in.Bytes, size)
	}
	last, prev := reqs[len(reqs)-1].Segments, reqs[len(reqs)-2].Segments
	if len(prev) == 0 || &last[0] != &prev[0] {
		t.Errorf("consecutive requests do not share their common segments")
	}
	// The last request: instructions, the environment, then five items a turn
	// but the last turn's answer (the request is for it).
	if got, want := len(partsOf(reqs[len(reqs)-1])), 1+1+5*turns-1; got != want {
		t.Errorf("last request has %d parts, want %d", got, want)
	}
	// Usage of request 2k+1 is the call's token_count of turn k.
	if u := reqs[2*7].Usage; u.InputTokens != 12000+7*(500+120) || u.OutputTokens != 80 {
		t.Errorf("turn 7 call usage %+v", u)
	}
}

func BenchmarkRecordingCodexRollout(b *testing.B) {
	for _, c := range []struct {
		name            string
		turns, outBytes int
	}{{"300x8KB", 300, 8 << 10}, {"2000x16KB", 2000, 16 << 10}} {
		b.Run(c.name, func(b *testing.B) {
			path, size := rolloutFile(b, b.TempDir(), c.turns, c.outBytes)
			data, err := os.ReadFile(path)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(size)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				n := 0
				for r, err := range Decode(bytes.NewReader(data), Options{Source: path}) {
					if err != nil {
						b.Fatal(err)
					}
					n += len(r.Segments)
				}
				if n == 0 {
					b.Fatal("no segments")
				}
			}
		})
	}
}

// writeKimiCode writes a kimi-code wire.jsonl of the given number of steps,
// each a tool call and its result of outBytes, with an llm.request per step.
func writeKimiCode(w io.Writer, steps, outBytes int) error {
	bw := bufio.NewWriter(w)
	line := func(v any) {
		b, _ := json.Marshal(v)
		bw.Write(b)
		bw.WriteByte('\n')
	}
	type rec = map[string]any
	loop := func(ev rec) { line(rec{"type": "context.append_loop_event", "agentId": "main", "event": ev}) }
	line(rec{"type": "metadata", "protocol_version": "1.5", "created_at": 1})
	line(rec{"type": "config.update", "agentId": "main", "systemPrompt": strings.Repeat("You are Kimi Code. ", 500)})
	line(rec{"type": "context.append_message", "agentId": "main", "message": rec{"role": "user",
		"content": []any{rec{"type": "text", "text": "fix every file"}}, "toolCalls": []any{}, "origin": rec{"kind": "user"}}})
	line(rec{"type": "llm.tools_snapshot", "agentId": "main", "hash": "h", "tools": []any{rec{"name": "Bash", "description": "Run.", "parameters": rec{}}}})
	for s := 0; s < steps; s++ {
		id := fmt.Sprintf("s%d", s)
		loop(rec{"type": "step.begin", "uuid": id})
		line(rec{"type": "llm.request", "agentId": "main", "model": "kimi-k2", "toolsHash": "h", "messageCount": 1 + 2*s})
		loop(rec{"type": "content.part", "stepUuid": id, "part": rec{"type": "text", "text": fmt.Sprintf("Step %d.", s)}})
		loop(rec{"type": "tool.call", "stepUuid": id, "toolCallId": fmt.Sprintf("c%d", s), "name": "Bash", "args": rec{"command": fmt.Sprintf("cat f%d", s)}})
		body := strings.Repeat(fmt.Sprintf("line %d of file %d\n", s, s), outBytes/12+1)[:outBytes]
		loop(rec{"type": "tool.result", "toolCallId": fmt.Sprintf("c%d", s), "result": rec{"output": body}})
		loop(rec{"type": "step.end", "uuid": id, "usage": rec{"inputOther": 100, "output": 10, "inputCacheRead": 1000 * s, "inputCacheCreation": 0}})
	}
	return bw.Flush()
}

func TestRecordingKimiCodeLongSessionSharesText(t *testing.T) {
	const steps = 150
	path := filepath.Join(t.TempDir(), "wire.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := writeKimiCode(f, steps, 3000); err != nil {
		t.Fatal(err)
	}
	f.Close()
	st, _ := os.Stat(path)
	in := wire.NewInterner()
	var reqs []wire.Request
	for r, err := range Path(path, Options{Interner: in}) {
		if err != nil {
			t.Fatal(err)
		}
		reqs = append(reqs, r)
	}
	if len(reqs) != steps {
		t.Fatalf("got %d requests", len(reqs))
	}
	for i, r := range reqs {
		// tools[0], system[0], the prompt, then per earlier step its
		// text, its call and its result.
		if got, want := len(partsOf(r)), 3+3*i; got != want {
			t.Fatalf("request %d has %d parts, want %d (notes %q)", i+1, got, want, r.Notes)
		}
		if hasNote(r, "baseline") || hasNote(r, "the request counted") {
			t.Fatalf("request %d: messageCount disagrees: %q", i+1, r.Notes)
		}
		if r.Usage == nil || r.Usage.CachedTokens != 1000*i {
			t.Fatalf("request %d usage %+v", i+1, r.Usage)
		}
	}
	if in.Bytes > st.Size() {
		t.Errorf("the interner holds %d bytes, more than the %d-byte recording", in.Bytes, st.Size())
	}
	last, prev := reqs[len(reqs)-1].Segments, reqs[len(reqs)-2].Segments
	if &last[0] != &prev[0] {
		t.Errorf("consecutive requests do not share their common segments")
	}
}

func BenchmarkRecordingKimiCode(b *testing.B) {
	var buf bytes.Buffer
	if err := writeKimiCode(&buf, 1000, 8<<10); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		n := 0
		for r, err := range Decode(bytes.NewReader(data), Options{Source: "wire.jsonl"}) {
			if err != nil {
				b.Fatal(err)
			}
			n += len(r.Segments)
		}
		if n == 0 {
			b.Fatal("no segments")
		}
	}
}
