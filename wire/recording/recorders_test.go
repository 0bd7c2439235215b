package recording

import (
	"path/filepath"
	"testing"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/wiretest"
)

// TestDetectFixtures: each agent's recording is told by its first lines, the
// kimi-cli event log beside a context is told apart, and a provider body is
// no recording.
func TestDetectFixtures(t *testing.T) {
	rec := wiretest.Testdata(t, "recordings")
	for path, want := range map[string]wire.Format{
		"claude-code/-home-dev-repo/5f0c2a6e-1b7d-4c3e-9f10-2a3b4c5d6e7f.jsonl":                   wire.FormatClaudeCode,
		"kimi-cli/3f2a9c/7d1e5b2a-0c4f-4e8e-9a51-6b2d0e4c1f00/context.jsonl":                      wire.FormatKimiCLI,
		"kimi-cli/3f2a9c/7d1e5b2a-0c4f-4e8e-9a51-6b2d0e4c1f00/wire.jsonl":                         FormatKimiCLIWire,
		"codex/2025/10/29/rollout-2025-10-29T00-59-38-019a2d7a-41c4-78b1-b7cc-a45d62a89cd5.jsonl": wire.FormatCodex,
		"kimi-code/c2a1f0/0f9e8d7c-aaaa-4bbb-8ccc-123456789abc/agents/main/wire.jsonl":            wire.FormatKimiCode,
	} {
		if got := DetectFile(filepath.Join(rec, filepath.FromSlash(path))); got != want {
			t.Errorf("%s: detected %q, want %q", path, got, want)
		}
	}
	for _, body := range []string{"anthropic-messages.json", "openai-chat.json", "gemini.json", "capture.har", "claude-trace.jsonl"} {
		if got := DetectFile(wiretest.Testdata(t, "payloads", body)); got != "" {
			t.Errorf("%s: a payload detected as the recording %q", body, got)
		}
	}
	if got := Detect([]byte("\xef\xbb\xbf" + `{"role":"_system_prompt","content":"x"}` + "\n")); got != wire.FormatKimiCLI {
		t.Errorf("a byte-order mark hides the recording: %q", got)
	}
}

// TestFindFilesAndNew: a sessions root lists every recording once, by its
// format (the kimi-cli event log is not one), and New makes a reader for
// exactly the recording formats.
func TestFindFilesAndNew(t *testing.T) {
	files, err := FindFiles(wiretest.Testdata(t, "recordings"), wire.FormatAuto)
	if err != nil {
		t.Fatal(err)
	}
	got := map[wire.Format]int{}
	for _, f := range files {
		got[f.Format]++
		if f.Format == FormatKimiCLIWire {
			t.Errorf("%s listed as a recording", f.Rel)
		}
	}
	for _, f := range Formats() {
		if got[f] != 1 {
			t.Errorf("%s: %d recordings listed, want 1", f, got[f])
		}
		if New(f) == nil {
			t.Errorf("New(%s) is nil", f)
		}
	}
	only, err := FindFiles(wiretest.Testdata(t, "recordings"), wire.FormatCodex)
	if err != nil || len(only) != 1 || only[0].Format != wire.FormatCodex {
		t.Errorf("FindFiles with --format codex: %+v, %v", only, err)
	}
	for _, f := range []wire.Format{wire.FormatAnthropic, wire.FormatHAR, wire.FormatAuto} {
		if New(f) != nil {
			t.Errorf("New(%q) made a recording reader", f)
		}
	}
}
