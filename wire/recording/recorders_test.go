package recording

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
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
	// kimi-cli has two sessions there: one with wire.jsonl, one with host notes and _usage.
	want := map[wire.Format]int{wire.FormatKimiCLI: 2, wire.FormatKimiCode: 1, wire.FormatCodex: 1, wire.FormatClaudeCode: 1, wire.FormatGeminiCLI: 2}
	for _, f := range Formats() {
		if got[f] != want[f] {
			t.Errorf("%s: %d recordings listed, want %d", f, got[f], want[f])
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

// walkCaps sets the bounds of a walk for one test.
func walkCaps(t *testing.T, depth, entries, files int) {
	old := [3]int{maxDirDepth, maxWalkEntries, maxWalkFiles}
	maxDirDepth, maxWalkEntries, maxWalkFiles = depth, entries, files
	t.Cleanup(func() { maxDirDepth, maxWalkEntries, maxWalkFiles = old[0], old[1], old[2] })
}

// TestFindFilesIsBounded: the walk of a directory given by mistake (/, a
// home directory) stops at its caps of entries visited and of recordings
// found, and says so with a *WalkLimitError naming the directory and the
// cap, still listing what it found; directories deeper than its depth are
// passed over.
func TestFindFilesIsBounded(t *testing.T) {
	claude := wiretest.Read(t, "recordings", "claude-code", "-home-dev-repo", "5f0c2a6e-1b7d-4c3e-9f10-2a3b4c5d6e7f.jsonl")
	root := t.TempDir()
	write := func(rel string, data []byte) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, rel := range []string{"p1/s.jsonl", "p2/s.jsonl", "p3/s.jsonl", "p4/deep/er/s.jsonl"} {
		write(rel, claude)
	}
	for i := range 40 {
		write("z/filler"+strconv.Itoa(i)+".txt", []byte("x"))
	}

	check := func(err error, limit int, what string) {
		t.Helper()
		var pe *fs.PathError
		var we *WalkLimitError
		if !errors.As(err, &pe) || !errors.As(err, &we) || pe.Path != root || we.Limit != limit || we.What != what {
			t.Fatalf("got %v, want a walk limit of %d %s at %s", err, limit, what, root)
		}
		if msg := we.Error(); !strings.Contains(msg, strconv.Itoa(limit)+" "+what) || strings.Contains(msg, "\n") {
			t.Errorf("message %q does not name the cap on one line", msg)
		}
	}

	walkCaps(t, 7, 12, 100)
	files, err := FindFiles(root, wire.FormatAuto)
	check(err, 12, "entries visited")
	if len(files) == 0 || len(files) > 4 {
		t.Errorf("%d recordings listed before the cap of entries", len(files))
	}

	walkCaps(t, 7, 1000, 2)
	files, err = FindFiles(root, wire.FormatAuto)
	check(err, 2, "recordings found")
	if len(files) != 2 {
		t.Errorf("%d recordings listed, want the 2 found before the cap", len(files))
	}

	walkCaps(t, 2, 1000, 100)
	files, err = FindFiles(root, wire.FormatAuto)
	if err != nil || len(files) != 3 {
		t.Fatalf("depth 2: %d recordings, %v; want the 3 above the deep one", len(files), err)
	}
	for _, f := range files {
		if strings.Contains(f.Rel, "deep") {
			t.Errorf("%s is deeper than the walk goes", f.Rel)
		}
	}
}

// TestFindFilesDetectsOnEveryCore: the heads of a folder's files are read
// on several goroutines (detectAll), and the listing is the one a serial
// reading gives: each file with the format its own head has, its size, in
// the order of the walk's sort, the files that are no recordings left out.
func TestFindFilesDetectsOnEveryCore(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	claude := wiretest.Read(t, "recordings", "claude-code", "-home-dev-repo", "5f0c2a6e-1b7d-4c3e-9f10-2a3b4c5d6e7f.jsonl")
	root := t.TempDir()
	want := map[string]int64{}
	for i := range 150 {
		rel := filepath.Join("p"+strconv.Itoa(i%7), "s"+strconv.Itoa(i)+".jsonl")
		data := claude[:len(claude)-i]
		if i%5 == 0 {
			data = []byte("not a recording\n")
		} else {
			want[rel] = int64(len(data))
		}
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files, err := FindFiles(root, wire.FormatAuto)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != len(want) {
		t.Fatalf("%d recordings listed, want %d", len(files), len(want))
	}
	for i, f := range files {
		if size, ok := want[f.Rel]; !ok || f.Size != size || f.Format != DetectFile(f.Path) {
			t.Errorf("%s: listed as %s of %d bytes, want %s of %d", f.Rel, f.Format, f.Size, DetectFile(f.Path), size)
		}
		if i > 0 && files[i-1].Mod.Equal(f.Mod) && files[i-1].Rel >= f.Rel {
			t.Errorf("%s listed after %s", f.Rel, files[i-1].Rel)
		}
	}
}
