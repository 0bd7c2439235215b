package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type inspectDoc struct {
	Requests []struct {
		Source   string `json:"source"`
		Index    int    `json:"index"`
		Line     int    `json:"line"`
		Format   string `json:"format"`
		Model    string `json:"model"`
		Segments []struct {
			ID       string `json:"id"`
			Channel  string `json:"channel"`
			Role     string `json:"role"`
			Kind     string `json:"kind"`
			Trust    string `json:"trust"`
			Envelope string `json:"envelope"`
			Bytes    int    `json:"bytes"`
			Tokens   int    `json:"tokens"`
			Escapes  []struct {
				Rule   string `json:"rule"`
				Offset int    `json:"offset"`
				Text   string `json:"text"`
			} `json:"escapes"`
		} `json:"segments"`
		Usage *struct {
			InputTokens  int `json:"input_tokens"`
			CachedTokens int `json:"cached_tokens"`
		} `json:"usage"`
	} `json:"requests"`
	Errors []struct {
		Source  string `json:"source"`
		Line    int    `json:"line"`
		Message string `json:"message"`
	} `json:"errors"`
}

func TestInspectJSONIsolatedBuild(t *testing.T) {
	code, built, stderr := runCLI(t, "", "build", filepath.Join("testdata", "workspaces", "poisoned"),
		"--now", "2026-11-29T22:08:44Z")
	if code != 0 {
		t.Fatalf("build exit %d: %s", code, stderr)
	}
	code, out, stderr := runCLI(t, built, "inspect", "-", "--json")
	if code != 0 || stderr != "" {
		t.Fatalf("inspect exit %d, stderr %q", code, stderr)
	}
	var doc inspectDoc
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if len(doc.Requests) != 1 || doc.Errors == nil || len(doc.Errors) != 0 {
		t.Fatalf("requests %d, errors %v (want 1 request and an empty errors array)", len(doc.Requests), doc.Errors)
	}
	r := doc.Requests[0]
	if r.Source != "-" || r.Index != 1 || r.Format != "anthropic" {
		t.Errorf("request source %q index %d format %q", r.Source, r.Index, r.Format)
	}
	var agents, system int
	for _, s := range r.Segments {
		if s.Bytes <= 0 && s.Kind != "other" {
			t.Errorf("%s: %d bytes", s.ID, s.Bytes)
		}
		if s.Bytes > 8 && s.Tokens <= 0 {
			t.Errorf("%s: %d bytes but %d tokens", s.ID, s.Bytes, s.Tokens)
		}
		if s.Escapes == nil {
			t.Errorf("%s: escapes is null, want an array", s.ID)
		}
		if s.Channel == "system" {
			system++
			if s.Trust != "trusted" {
				t.Errorf("isolated build has %s %s in the system channel", s.Trust, s.Kind)
			}
		}
		if s.Envelope == "untrusted_agents_md" {
			agents++
			if s.Trust != "untrusted" || s.Kind != "agents-md" {
				t.Errorf("agents body: kind %s trust %s", s.Kind, s.Trust)
			}
			if len(s.Escapes) == 0 {
				t.Errorf("the poisoned AGENTS.md body lists no escapes")
			}
			for _, e := range s.Escapes {
				if e.Offset < 0 || e.Offset >= s.Bytes || e.Text == "" {
					t.Errorf("escape %+v outside the %d-byte body", e, s.Bytes)
				}
			}
		}
	}
	if agents != 1 || system == 0 {
		t.Errorf("%d agents-md envelopes, %d system segments", agents, system)
	}
}

func TestInspectTextAndErrors(t *testing.T) {
	dir := t.TempDir()
	session := filepath.Join(dir, "session.jsonl")
	lines := `{"model":"claude-sonnet-4-6","system":"Be brief.","messages":[{"role":"user","content":"one"}]}
{"model":"claude-sonnet-4-6","messages":[{"role":"user","content":"tw
{"model":"claude-sonnet-4-6","system":"Be brief.","messages":[{"role":"user","content":"three \u202e"}]}
`
	if err := os.WriteFile(session, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := runCLI(t, "", "inspect", session)
	if code != 2 {
		t.Errorf("exit %d, want 2 for a broken line", code)
	}
	wantErr := "wirelens: " + session + ":2: invalid JSON"
	if !strings.HasPrefix(stderr, wantErr) || strings.Count(stderr, "\n") != 1 {
		t.Errorf("stderr %q, want one line starting %q", stderr, wantErr)
	}
	for _, want := range []string{session + "  anthropic", session + "@2  anthropic", "SEGMENT", "system[0]", "host-rules", "user-input"} {
		if !strings.Contains(out, want) {
			t.Errorf("text output lacks %q:\n%s", want, out)
		}
	}
	if strings.ContainsRune(out, '\u202e') {
		t.Error("a bidi override reached the output raw")
	}

	code, out, _ = runCLI(t, "", "inspect", "--json", session, filepath.Join(dir, "missing.json"))
	var doc inspectDoc
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if code != 2 || len(doc.Requests) != 2 || len(doc.Errors) != 2 {
		t.Fatalf("exit %d, %d requests, %d errors; want 2, 2, 2", code, len(doc.Requests), len(doc.Errors))
	}
	if doc.Errors[0].Line != 2 || doc.Requests[1].Line != 3 || doc.Requests[1].Index != 2 {
		t.Errorf("error line %d, second request line %d index %d", doc.Errors[0].Line, doc.Requests[1].Line, doc.Requests[1].Index)
	}
	if doc.Errors[1].Message != "no such file" {
		t.Errorf("missing file: %q", doc.Errors[1].Message)
	}
}

func TestInspectNeedsAFile(t *testing.T) {
	code, _, stderr := runCLI(t, "", "inspect")
	if code != 2 || !strings.HasPrefix(stderr, "wirelens: ") || strings.Count(stderr, "\n") != 1 {
		t.Fatalf("exit %d stderr %q, want exit 2 and one line", code, stderr)
	}
}
