package decode

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/recording"
)

// Gemini CLI sessions, rebuilt from the types of its chatRecordingService
// (testdata/recordings/README.md): the older one-document .json and the
// newer .jsonl with a message rewritten, a rewind and a $set.

var (
	fixtureGeminiDir   = filepath.Join(recordingsDir, "gemini-cli", "8a1f3c", "chats")
	fixtureGeminiJSON  = filepath.Join(fixtureGeminiDir, "session-2025-09-18T10-02-7b3e1c2a.json")
	fixtureGeminiJSONL = filepath.Join(fixtureGeminiDir, "session-2026-01-07T08-15-c41d9e02.jsonl")
)

func TestRecordingGeminiCLIDocument(t *testing.T) {
	for _, format := range []wire.Format{wire.FormatAuto, wire.FormatGeminiCLI} {
		reqs, errs := decodeRecording(t, fixtureGeminiJSON, Options{Format: format})
		if len(errs) != 0 || len(reqs) != 3 {
			t.Fatalf("format %q: %d requests, errors %v; want 3, none", format, len(reqs), errs)
		}
		want := [][]string{
			{"contents[0].parts[0]"},
			{"contents[0].parts[0]", "contents[1].parts[0]", "contents[1].parts[1]", "contents[2].parts[0]"},
			{"contents[0].parts[0]", "contents[1].parts[0]", "contents[1].parts[1]", "contents[2].parts[0]", "contents[3].parts[0]", "contents[4].parts[0]"},
		}
		for i, r := range reqs {
			if got := partsOf(r); !reflect.DeepEqual(got, want[i]) {
				t.Errorf("request %d: parts %v, want %v", i, got, want[i])
			}
			if r.Format != wire.FormatGeminiCLI || !hasNote(r, "system instruction not recorded") || !hasNote(r, "tool declarations not recorded") {
				t.Errorf("request %d: format %q, notes %q", i, r.Format, r.Notes)
			}
		}
		r := reqs[1]
		if r.Model != "gemini-2.5-pro" || r.Usage == nil || *r.Usage != (wire.Usage{InputTokens: 8240, CachedTokens: 8000, OutputTokens: 12}) {
			t.Errorf("request 1: model %q, usage %+v", r.Model, r.Usage)
		}
		call, result := r.Segments[2], r.Segments[3]
		if call.Role != "model" || !strings.Contains(call.Text, "NOTES.md") || result.Role != "user" || !strings.Contains(result.Text, "Ship on Friday") {
			t.Errorf("request 1: tool call %+v, result %+v", call, result)
		}
		if !hasNote(reqs[0], "64 thought tokens") || !hasNote(reqs[1], "thoughts of earlier turns not resent") {
			t.Errorf("thought notes: %q, %q", reqs[0].Notes, reqs[1].Notes)
		}
		// The info message is the CLI's own: not sent; the last answer
		// records no usage and another model.
		last := reqs[2]
		if last.Model != "gemini-2.5-flash" || last.Usage != nil || !hasNote(last, "usage not recorded") ||
			last.Segments[5].Text != "Thanks." {
			t.Errorf("last request: model %q, usage %+v, notes %q", last.Model, last.Usage, last.Notes)
		}
	}
}

func TestRecordingGeminiCLIJSONL(t *testing.T) {
	reqs, errs := decodeRecording(t, fixtureGeminiJSONL, Options{})
	if len(errs) != 0 || len(reqs) != 3 {
		t.Fatalf("%d requests, errors %v; want 3 (g1 rewritten once, g3 rewound), none", len(reqs), errs)
	}
	// g1 answered with a tool call only: its latest record, with tokens and
	// the call, is the one read.
	if u := reqs[0].Usage; u == nil || *u != (wire.Usage{InputTokens: 5000, CachedTokens: 4096, OutputTokens: 9}) || reqs[0].Line != 4 {
		t.Errorf("request 0: usage %+v, line %d", u, reqs[0].Line)
	}
	want := []string{"contents[0].parts[0]", "contents[1].parts[0]", "contents[2].parts[0]", "contents[3].parts[0]", "contents[4].parts[0]"}
	last := reqs[2]
	if got := partsOf(last); !reflect.DeepEqual(got, want) || last.Line != 10 {
		t.Errorf("last request: parts %v, line %d; want %v, line 10", got, last.Line, want)
	}
	for _, s := range last.Segments {
		if strings.Contains(s.Text, "Delete") {
			t.Errorf("a rewound message is in the contents: %q", s.Text)
		}
	}
	if last.Segments[4].Text != "Summarize main.go." {
		t.Errorf("last user turn %q", last.Segments[4].Text)
	}
}

func TestDetectGeminiCLI(t *testing.T) {
	for _, p := range []string{fixtureGeminiJSON, fixtureGeminiJSONL} {
		if f := recording.DetectFile(p); f != wire.FormatGeminiCLI {
			t.Errorf("%s: detected %q", p, f)
		}
	}
	// A Claude Code line has a sessionId but no projectHash.
	if f := recording.Detect([]byte(`{"sessionId":"s","type":"user","uuid":"u","message":{}}`)); f != wire.FormatClaudeCode {
		t.Errorf("claude-code line detected as %q", f)
	}
	files, err := recording.FindFiles(filepath.Join(recordingsDir, "gemini-cli"), wire.FormatGeminiCLI)
	if err != nil || len(files) != 2 {
		t.Fatalf("FindFiles: %d files, %v; want the .json and the .jsonl", len(files), err)
	}
	found := map[string]bool{}
	for _, f := range files {
		found[filepath.Base(f.Path)] = true
	}
	if !found[filepath.Base(fixtureGeminiJSON)] || !found[filepath.Base(fixtureGeminiJSONL)] {
		t.Errorf("FindFiles listed %v", found)
	}
}

func TestRecordingGeminiCLIBrokenIsOneError(t *testing.T) {
	doc, err := os.ReadFile(fixtureGeminiJSON)
	if err != nil {
		t.Fatal(err)
	}
	// Cut the document in the middle of its messages.
	path := filepath.Join(t.TempDir(), "session-broken.json")
	if err := os.WriteFile(path, doc[:len(doc)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	for _, format := range []wire.Format{wire.FormatAuto, wire.FormatGeminiCLI} {
		reqs, errs := decodeRecording(t, path, Options{Format: format})
		if len(reqs) != 0 || len(errs) != 1 {
			t.Errorf("format %q: %d requests, errors %v; want none and one error", format, len(reqs), errs)
		}
	}
}
