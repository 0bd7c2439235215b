package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRequestRefs: FILE@N names the N-th request of FILE for every command
// that reads FILEs; past the last one it is one line saying how many FILE
// holds, with exit 2, not "no such file".
func TestRequestRefs(t *testing.T) {
	session := filepath.Join("testdata", "cache", "recorded.claude-trace.jsonl")
	code, out, errs := runCLI(t, "", "inspect", "--json", session+"@2")
	var doc struct {
		Requests []struct {
			Source string `json:"source"`
			Index  int    `json:"index"`
		} `json:"requests"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != 0 || errs != "" {
		t.Fatalf("inspect @2: exit %d, stderr %q, %v", code, errs, err)
	}
	if len(doc.Requests) != 1 || doc.Requests[0].Index != 2 || doc.Requests[0].Source != session {
		t.Errorf("inspect @2 lists %+v, want request 2 alone", doc.Requests)
	}
	stdin, err := os.ReadFile(session)
	if err != nil {
		t.Fatal(err)
	}
	if code, out, errs := runCLI(t, string(stdin), "inspect", "--json", "--", "-@3"); code != 0 || errs != "" || !strings.Contains(out, `"index": 3`) {
		t.Errorf("inspect -- -@3: exit %d, stderr %q", code, errs)
	}

	want := "wirelens: " + session + " has 3 requests, no request 9\n"
	for _, args := range [][]string{
		{"inspect", session + "@9"},
		{"inspect", "--json", session + "@9"},
		{"check", session + "@9"},
		{"cache", session + "@9"},
		{"diff", session, session + "@9"},
		{"check", "--before", session, "--after", session + "@9"},
	} {
		code, _, errs := runCLI(t, "", args...)
		if code != 2 || errs != want {
			t.Errorf("%q: exit %d, stderr %q; want exit 2 and %q", args, code, errs, want)
		}
	}
	one := filepath.Join("testdata", "payloads", "anthropic-messages.json")
	for _, args := range [][]string{
		{"inspect", one + "@2"}, {"check", one + "@2"}, {"cache", one + "@2"}, {"diff", one, one + "@2"},
		{"view", one + "@2"}, {one + "@2"},
	} {
		if code, _, errs := runCLI(t, "", args...); code != 2 || !strings.HasSuffix(errs, "wirelens: "+one+" has 1 request, no request 2\n") {
			t.Errorf("%q, @2 of one request: exit %d, stderr %q", args, code, errs)
		}
	}
	body, err := os.ReadFile(one)
	if err != nil {
		t.Fatal(err)
	}
	if code, _, errs := runCLI(t, string(body), "inspect", "--", "-@2"); code != 2 || errs != "wirelens: - has 1 request, no request 2\n" {
		t.Errorf("-@2 of one request: exit %d, stderr %q", code, errs)
	}
	// A FILE that is missing is still "no such file", named without @N.
	missing := filepath.Join(t.TempDir(), "gone.jsonl")
	if code, _, errs := runCLI(t, "", "inspect", missing+"@2"); code != 2 || errs != "wirelens: "+missing+": no such file\n" {
		t.Errorf("missing@2: exit %d, stderr %q", code, errs)
	}
	if code, _, errs := runCLI(t, "", "inspect", session+"@0"); code != 2 || !strings.Contains(errs, "count from 1") {
		t.Errorf("@0: exit %d, stderr %q", code, errs)
	}
}

// TestBuildSystemTemplateTooLarge: a --system template is read up to
// maxTemplateBytes; a larger one is one line with exit 2.
func TestBuildSystemTemplateTooLarge(t *testing.T) {
	tpl := filepath.Join(t.TempDir(), "huge.md")
	if err := os.WriteFile(tpl, []byte(strings.Repeat("rules\n", maxTemplateBytes/6+1)), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCLI(t, "", "build", buildPoisoned, "--system", tpl, "--now", "2026-11-29T22:08:44Z")
	want := "wirelens: --system " + tpl + ": larger than 1 MiB, the most wirelens reads of one file: read no further\n"
	if code != 2 || out != "" || errs != want {
		t.Errorf("exit %d, stderr %q; want %q", code, errs, want)
	}
}
