package main

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/wirelens/wirelens/wire"
)

// TestViewerExportIsInspectAndCheck: the viewer's w writes a request as
// `inspect --json --redact` writes a file of that one request (byte for
// byte: the key a tool printed masked), and findings as `check --json`
// writes them (the same findings, summary and errors).
func TestViewerExportIsInspectAndCheck(t *testing.T) {
	key := "sk-ant-api03-" + strings.Repeat("Zx8Qw3Er5T", 9) + "y7uAA"
	body, _ := json.Marshal(map[string]any{
		"model": "claude-sonnet-4-6", "max_tokens": 100, "system": "You are a coding agent.",
		"messages": []any{map[string]any{"role": "user", "content": "ANTHROPIC_API_KEY=" + key + "\nThe file \u202egnp.sh\n"}},
	})
	path := t.TempDir() + "/req.json"
	if err := os.WriteFile(path, body, 0o644); err != nil {
		t.Fatal(err)
	}
	app := &App{In: wire.NewInterner()}
	l := app.Load([]string{path})
	if len(l.Errors) > 0 || len(l.Requests) != 1 {
		t.Fatalf("%d requests, errors %v", len(l.Requests), l.Errors)
	}
	ex := viewerExport()
	var got bytes.Buffer
	if err := ex.Request(&got, &l.Requests[0]); err != nil {
		t.Fatal(err)
	}
	_, want, _ := runCLI(t, "", "inspect", "--json", "--redact", path)
	if got.String() != want || strings.Contains(want, key[16:]) || !strings.Contains(want, "[redacted by wirelens]") {
		t.Fatalf("the request's export:\n%s\ninspect --json --redact:\n%s", got.String(), want)
	}
	_, checked, _ := runCLI(t, "", "check", "--json", path)
	var doc checkJSON
	if err := json.Unmarshal([]byte(checked), &doc); err != nil || len(doc.Findings) == 0 {
		t.Fatalf("check --json: %v\n%s", err, checked)
	}
	got.Reset()
	if err := ex.Findings(&got, doc.Findings); err != nil {
		t.Fatal(err)
	}
	doc.Notes = nil // what check assumed of the source: the viewer has no such note
	var again bytes.Buffer
	writeJSON(&again, doc)
	if got.String() != again.String() || strings.Contains(got.String(), key[16:]) {
		t.Fatalf("the findings' export:\n%s\ncheck --json:\n%s", got.String(), checked)
	}
	got.Reset()
	if err := ex.Findings(&got, nil); err != nil || !strings.Contains(got.String(), `"findings": []`) {
		t.Errorf("no findings: %v %s", err, got.String())
	}
}
