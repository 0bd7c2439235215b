package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

type diffTestDoc struct {
	A               string `json:"a"`
	B               string `json:"b"`
	FirstDivergence *struct {
		Segment string `json:"segment"`
		Channel string `json:"channel"`
		Offset  int    `json:"offset"`
	} `json:"first_divergence"`
	Segments []struct {
		ID      string `json:"id"`
		Status  string `json:"status"`
		From    string `json:"from"`
		Channel string `json:"channel"`
		Kind    string `json:"kind"`
		Hunks   []struct {
			Op   string `json:"op"`
			Text string `json:"text"`
		} `json:"hunks"`
	} `json:"segments"`
}

// TestDiffCommandLegacyAgainstIsolated: the reviewer's use: build both
// layouts of a workspace and diff them.
func TestDiffCommandLegacyAgainstIsolated(t *testing.T) {
	legacy, isolated := buildToFile(t, "legacy", "--layout", "legacy"), buildToFile(t, "isolated", "--layout", "isolated")
	code, out, errs := runCLI(t, "", "diff", legacy, isolated, "--json")
	if code != 1 || errs != "" {
		t.Fatalf("exit %d (want 1: they differ), stderr %q", code, errs)
	}
	var doc diffTestDoc
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("diff --json: %v\n%s", err, out)
	}
	if doc.A != legacy || doc.B != isolated {
		t.Errorf("a/b: %q %q", doc.A, doc.B)
	}
	if doc.FirstDivergence == nil || doc.FirstDivergence.Channel != "system" || doc.FirstDivergence.Segment == "" {
		t.Fatalf("first divergence %+v", doc.FirstDivergence)
	}
	statuses := map[string]int{}
	agentsMoved := false
	for _, s := range doc.Segments {
		statuses[s.Status]++
		switch s.Status {
		case "same", "changed", "added", "removed":
		default:
			t.Errorf("%s: status %q", s.ID, s.Status)
		}
		if s.Kind == "agents-md" && s.Channel == "messages" && strings.HasPrefix(s.From, "system[0]") {
			agentsMoved = true
		}
		if s.Status == "changed" && len(s.Hunks) == 0 {
			t.Errorf("%s changed without hunks", s.ID)
		}
	}
	if !agentsMoved {
		t.Error("the AGENTS.md body is not shown moving from system to a user fragment")
	}
	if statuses["removed"] == 0 || statuses["added"] == 0 || statuses["same"] == 0 {
		t.Errorf("statuses %v", statuses)
	}

	code, out, _ = runCLI(t, "", "diff", legacy, isolated)
	if code != 1 {
		t.Fatalf("text: exit %d", code)
	}
	first := strings.Index(out, "first divergence (cache order): ")
	seg := strings.Index(out, "\n~ ")
	if first < 0 || seg < 0 || first > seg {
		t.Errorf("the first divergence is not on top:\n%s", out)
	}
	if !strings.Contains(out, "agents-md <untrusted_agents_md>  changed (was system[0]/agents-md, in system)") {
		t.Errorf("text does not show the AGENTS.md move:\n%s", out)
	}
}

func TestDiffCommandExitCodes(t *testing.T) {
	isolated := buildToFile(t, "isolated", "--layout", "isolated")
	code, out, errs := runCLI(t, "", "diff", isolated, isolated)
	if code != 0 || errs != "" || !strings.Contains(out, "identical") {
		t.Errorf("identical: exit %d, stderr %q, out %q", code, errs, out)
	}
	code, out, _ = runCLI(t, "", "diff", isolated, isolated, "--json")
	var doc map[string]any
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != 0 || doc["first_divergence"] != nil {
		t.Errorf("identical JSON: exit %d, first_divergence %v, err %v", code, doc["first_divergence"], err)
	}

	// FILE@N: the requests of a session, and one past its end.
	session := filepath.Join("testdata", "cache", "recorded.claude-trace.jsonl")
	code, out, _ = runCLI(t, "", "diff", session+"@2", session+"@3")
	if code != 1 || !strings.Contains(out, "+ messages[3]") || !strings.Contains(out, "+ messages[4]") {
		t.Errorf("@2 against @3: exit %d\n%s", code, out)
	}
	code, _, errs = runCLI(t, "", "diff", session+"@2", session+"@9")
	if code != 2 || !strings.Contains(errs, session+" has 3 requests, no request 9") || strings.Count(errs, "\n") != 1 {
		t.Errorf("@9 of 3: exit %d, stderr %q", code, errs)
	}
	code, _, errs = runCLI(t, "", "diff", session+"@0", session)
	if code != 2 || !strings.Contains(errs, "count from 1") {
		t.Errorf("@0: exit %d, stderr %q", code, errs)
	}
	code, _, errs = runCLI(t, "", "diff", "-", "-")
	if code != 2 || !strings.Contains(errs, "not both") {
		t.Errorf("- -: exit %d, stderr %q", code, errs)
	}
	code, _, errs = runCLI(t, "", "diff", filepath.Join(t.TempDir(), "none.json"), isolated)
	if code != 2 || !strings.Contains(errs, "none.json") {
		t.Errorf("missing file: exit %d, stderr %q", code, errs)
	}
	// Standard input for one side.
	data, err := os.ReadFile(isolated)
	if err != nil {
		t.Fatal(err)
	}
	code, _, errs = runCLI(t, string(data), "diff", "-", isolated)
	if code != 0 || errs != "" {
		t.Errorf("stdin against the same file: exit %d, stderr %q", code, errs)
	}
}

// TestDiffCommandWordsAndHostile: a changed line shows its word diff, and
// hostile text is shown through the sanitiser.
func TestDiffCommandWordsAndHostile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, sys string) string {
		b, _ := json.Marshal(map[string]any{"model": "gpt-5", "messages": []any{
			map[string]any{"role": "system", "content": sys},
			map[string]any{"role": "user", "content": "hi"}}})
		p := filepath.Join(dir, name)
		os.WriteFile(p, b, 0o644)
		return p
	}
	a := write("a.json", "Rule one.\nUse the quick \x1b[2J brown fox.\nRule three.\n")
	b := write("b.json", "Rule one.\nUse the quick \x1b[2J red fox \u202e.\nRule three.\n")
	code, out, _ := runCLI(t, "", "diff", a, b)
	if code != 1 {
		t.Fatalf("exit %d", code)
	}
	if !strings.Contains(out, "[-brown-]") || !strings.Contains(out, "{+red+}") {
		t.Errorf("no word diff:\n%s", out)
	}
	if strings.ContainsAny(out, "\x1b\u202e") {
		t.Errorf("raw escape or bidi character in the output:\n%q", out)
	}
	if !strings.Contains(out, "␛") || !strings.Contains(out, "[U+202E]") {
		t.Errorf("the hostile characters are not shown visibly:\n%s", out)
	}
}

// TestDiffCommandModelAndFormat: two requests of different models or wire
// formats are still compared segment by segment, and the change of model
// and of format is named on top (and in JSON).
func TestDiffCommandModelAndFormat(t *testing.T) {
	claude := buildToFile(t, "claude", "--model", "claude-sonnet-4-5")
	opus := buildToFile(t, "opus", "--model", "claude-opus-4-1")
	chat := buildToFile(t, "chat", "--model", "claude-sonnet-4-5", "--api", "openai-chat")

	// Only the model differs: not identical (exit 1), no segment diverges.
	code, out, _ := runCLI(t, "", "diff", claude, opus)
	lines := strings.Split(out, "\n")
	if code != 1 || len(lines) < 3 || lines[2] != "model: claude-sonnet-4-5 → claude-opus-4-1" ||
		!strings.Contains(out, "only the model or format differs") {
		t.Errorf("model change: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, "", "diff", "--json", claude, opus)
	var doc map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if code != 1 || string(doc["first_divergence"]) != "null" || string(doc["identical"]) != "false" ||
		!strings.Contains(string(doc["model"]), `"claude-opus-4-1"`) {
		t.Errorf("model change JSON: exit %d, first %s, identical %s, model %s", code, doc["first_divergence"], doc["identical"], doc["model"])
	}

	// Another format of the same request: the segments align across the
	// formats (the Anthropic system block with the OpenAI system message).
	code, out, _ = runCLI(t, "", "diff", "--json", claude, chat)
	var fd struct {
		Format   *struct{ A, B string } `json:"format"`
		Segments []struct {
			ID     string `json:"id"`
			Status string `json:"status"`
			From   string `json:"from"`
		} `json:"segments"`
	}
	if err := json.Unmarshal([]byte(out), &fd); err != nil {
		t.Fatal(err)
	}
	if code != 1 || fd.Format == nil || fd.Format.A != "anthropic" || fd.Format.B != "openai-chat" {
		t.Fatalf("format change: exit %d, format %+v", code, fd.Format)
	}
	aligned := false
	for _, s := range fd.Segments {
		if s.Status == "removed" || s.Status == "added" {
			t.Errorf("segment %s %s: the same text in another format should align", s.ID, s.Status)
		}
		if s.From == "system[0]" && s.ID == "messages[0]" {
			aligned = true
		}
	}
	if !aligned {
		t.Errorf("system[0] not paired with the OpenAI system message: %+v", fd.Segments)
	}
	_, out, _ = runCLI(t, "", "diff", claude, chat)
	if !strings.Contains(out, "\nformat: anthropic → openai-chat\n") {
		t.Errorf("text does not name the format change:\n%s", out)
	}
}

// The same messages in another order are another request: diff exits 1,
// says so in JSON (identical false, the segment reordered) and in text.
func TestDiffCommandMessagesReordered(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	write := func(path, first, second string) {
		body := `{"model":"claude-sonnet-4-5","max_tokens":10,"system":"rules","messages":[{"role":"user","content":"` + first +
			`"},{"role":"assistant","content":"ok"},{"role":"user","content":"` + second + `"}]}`
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(a, "read the file", "now fix it")
	write(b, "now fix it", "read the file")
	code, out, errs := runCLI(t, "", "diff", a, b, "--json")
	if code != 1 || errs != "" {
		t.Fatalf("exit %d (want 1: another order), stderr %q\n%s", code, errs, out)
	}
	var doc struct {
		Identical bool `json:"identical"`
		Segments  []struct {
			ID        string `json:"id"`
			Reordered bool   `json:"reordered"`
		} `json:"segments"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	reordered := 0
	for _, s := range doc.Segments {
		if s.Reordered {
			reordered++
		}
	}
	if doc.Identical || reordered == 0 {
		t.Errorf("identical %v, %d segments reordered\n%s", doc.Identical, reordered, out)
	}
	code, out, _ = runCLI(t, "", "diff", a, b)
	if code != 1 || !strings.Contains(out, "same text, reordered") {
		t.Errorf("exit %d, text:\n%s", code, out)
	}
}

// TestDiffSaysOneSegment: a request of one segment is "1 segment", not "1
// segments"; the count of lines left out agrees with its number too.
func TestDiffSaysOneSegment(t *testing.T) {
	a := writeTemp(t, "a.json", `{"model":"m","messages":[{"role":"user","content":"one"}]}`)
	b := writeTemp(t, "b.json", `{"model":"m","messages":[{"role":"user","content":"two"}]}`)
	_, out, _ := runCLI(t, "", "diff", a, b)
	if !strings.Contains(out, ", 1 segment, ") || strings.Contains(out, "1 segments") {
		t.Errorf("diff of one-segment requests:\n%s", out)
	}
}

// TestDemoReportGroupsDigits: the demo's report writes every byte count
// as the rest of it does, with thousands grouped ("1,186 bytes", not
// "1186 bytes" beside "3,039").
func TestDemoReportGroupsDigits(t *testing.T) {
	_, out, _ := runCLI(t, "", "demo")
	if ungrouped := regexp.MustCompile(`\b\d{4,} bytes`).FindString(out); ungrouped != "" || !strings.Contains(out, ",") {
		t.Errorf("the demo report says %q", ungrouped)
	}
}
