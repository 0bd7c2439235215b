package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/wirelens/wirelens/wire/wiretest"
)

// noLeak fails when an output shows a credential of wiretest.Leaks.
func noLeak(t *testing.T, what, out string) {
	t.Helper()
	if i := strings.Index(strings.ToLower(out), wiretest.LeakMarker); i >= 0 {
		t.Errorf("%s shows a credential: ...%s...", what, out[max(0, i-80):min(len(out), i+40)])
	}
}

// TestInspectMasksCredentials: inspect, in text and JSON, from a file and
// from standard input, never prints a recorded credential: the endpoints of
// HAR entries and trace lines lose their user:pass@ and key-like query
// values, and an error quoting a URL is masked the same way.
func TestInspectMasksCredentials(t *testing.T) {
	l := wiretest.WriteLeaks(t)
	wantEndpoints := map[string]bool{
		"https://[redacted]@api.openai.com/v1/chat/completions":                                                                 false,
		"https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse&key=[redacted]": false,
		"https://api.openai.com/v1/responses?X-Amz-Signature=[redacted]&X-Amz-Credential=[redacted]&X-Amz-Security-Token=[redacted]" +
			"&sig=[redacted]&token=[redacted]&access_token=[redacted]&api_key=[redacted]&apikey=[redacted]&X-Goog-Signature=[redacted]&partner=ok": false,
		"https://[redacted]@api.anthropic.com/v1/messages?beta=true&api_key=[redacted]": false,
	}
	for _, path := range []string{l.HAR, l.Trace} {
		code, out, stderr := runCLI(t, "", "inspect", path)
		if code != 0 {
			t.Fatalf("inspect %s: exit %d, %s", path, code, stderr)
		}
		noLeak(t, "inspect", out+stderr)

		code, out, stderr = runCLI(t, "", "inspect", "--json", path)
		if code != 0 {
			t.Fatalf("inspect --json %s: exit %d, %s", path, code, stderr)
		}
		noLeak(t, "inspect --json", out+stderr)
		var doc struct {
			Requests []struct {
				Endpoint string `json:"endpoint"`
			} `json:"requests"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Requests) == 0 {
			t.Fatalf("inspect --json %s: %v\n%s", path, err, out)
		}
		for _, r := range doc.Requests {
			if _, ok := wantEndpoints[r.Endpoint]; ok {
				wantEndpoints[r.Endpoint] = true
			}
		}

		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		_, out, stderr = runCLI(t, string(raw), "inspect", "--json", "-")
		noLeak(t, "inspect --json - (standard input)", out+stderr)
	}
	for e, seen := range wantEndpoints {
		if !seen {
			t.Errorf("no request has the masked endpoint %s", e)
		}
	}

	code, out, stderr := runCLI(t, "", "inspect", l.Broken)
	want := "POST https://[redacted]@api.anthropic.com/v1/messages?key=[redacted] has no recorded body"
	if code != 2 || !strings.Contains(stderr, want) {
		t.Errorf("inspect of a HAR without body: exit %d, stderr %q; want it to say %q", code, stderr, want)
	}
	noLeak(t, "inspect's error", out+stderr)
	_, out, stderr = runCLI(t, "", "inspect", "--json", l.Broken)
	if !strings.Contains(out, want) {
		t.Errorf("inspect --json does not list the masked error:\n%s", out)
	}
	noLeak(t, "inspect --json's errors", out+stderr)
}

// TestEveryOutputMasksCredentials runs every command that reads recordings
// on the leaky ones: none prints a credential, in any format.
func TestEveryOutputMasksCredentials(t *testing.T) {
	l := wiretest.WriteLeaks(t)
	for _, path := range []string{l.HAR, l.Trace, l.Broken} {
		for _, args := range [][]string{
			{"inspect"}, {"inspect", "--json"},
			{"check"}, {"check", "--json"}, {"check", "--sarif"}, {"check", "--every-request", "--json"},
			{"cache"}, {"cache", "--json"}, {"cache", "--by-model"},
			{"view"}, {"gen-session", "--decode"},
			{"context"}, {"context", "--json"}, {"whatif", "--layout", "isolated", "--sort-tools", "--freeze-time"},
			{"whatif", "--layout", "isolated", "--json"}, {"check", "--cache", "--max-reprocessed", "0", "--json"},
		} {
			_, out, stderr := runCLI(t, "", append(args, path)...)
			noLeak(t, strings.Join(args, " "), out+stderr)
		}
	}
	for _, args := range [][]string{
		{"diff", l.HAR + "@1", l.HAR + "@2"}, {"diff", "--json", l.HAR + "@1", l.Trace},
		{"check", "--before", l.HAR, "--after", l.Trace}, {"view", l.HAR, l.Trace, l.Broken},
	} {
		_, out, stderr := runCLI(t, "", args...)
		noLeak(t, strings.Join(args[:2], " "), out+stderr)
	}
}

// TestInspectRedact: inspect --json --redact carries each segment's text
// with every secret masked (a key a tool printed, a private key block), and
// the rest of the text as it was; check reports the same secrets masked;
// --redact without --json is a usage error.
func TestInspectRedact(t *testing.T) {
	key := "sk-ant-api03-" + strings.Repeat("Zx8Qw3Er5T", 9) + "y7uAA"
	pem := "-----BEGIN OPENSSH PRIVATE KEY-----\n" + strings.Repeat("b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAABlwAAAAdzc2gtcn\n", 4) +
		"-----END OPENSSH PRIVATE KEY-----"
	body, _ := json.Marshal(map[string]any{
		"model": "claude-sonnet-4-6", "max_tokens": 100,
		"system": "You are a coding agent.",
		"messages": []any{
			map[string]any{"role": "user", "content": "deploy it"},
			map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "tool_use", "id": "t1", "name": "bash", "input": map[string]any{"command": "cat .env"}}}},
			map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": "t1",
				"content": "ANTHROPIC_API_KEY=" + key + "\nDEPLOY_KEY='" + pem + "'\nREGION=eu-west-1\n"}}},
		},
	})
	path := t.TempDir() + "/req.json"
	if err := os.WriteFile(path, body, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := runCLI(t, "", "inspect", "--json", "--redact", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if strings.Contains(out, key[16:]) || strings.Contains(out, "b3BlbnNzaC1rZXktdjEAAAAABG5v") {
		t.Fatalf("inspect --redact shows a secret:\n%s", out)
	}
	var doc struct {
		Requests []struct {
			Segments []struct {
				ID   string  `json:"id"`
				Text *string `json:"text"`
			} `json:"segments"`
		} `json:"requests"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Requests) != 1 {
		t.Fatalf("%v\n%s", err, out)
	}
	var all strings.Builder
	for _, s := range doc.Requests[0].Segments {
		if s.Text == nil {
			t.Errorf("segment %s has no text", s.ID)
			continue
		}
		all.WriteString(*s.Text)
	}
	for _, want := range []string{"ANTHROPIC_API_KEY=[redacted by wirelens]", "DEPLOY_KEY='[redacted by wirelens]'", "REGION=eu-west-1", "You are a coding agent."} {
		if !strings.Contains(all.String(), want) {
			t.Errorf("redacted text lacks %q:\n%s", want, all.String())
		}
	}
	// Without --redact there is no text.
	_, plain, _ := runCLI(t, "", "inspect", "--json", path)
	if strings.Contains(plain, `"text"`) {
		t.Errorf("inspect --json without --redact carries text")
	}
	// check names both, masked.
	code, out, _ = runCLI(t, "", "check", "--json", path)
	if code != 1 || strings.Count(out, `"rule": "secret-in-context"`) != 2 || strings.Contains(out, key[16:]) {
		t.Errorf("check: exit %d\n%s", code, out)
	}
	if code, _, stderr := runCLI(t, "", "inspect", "--redact", path); code != 2 || !strings.Contains(stderr, "--redact needs --json") {
		t.Errorf("inspect --redact without --json: exit %d, %q", code, stderr)
	}
}
