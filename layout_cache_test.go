package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestIsolatedLayoutKeepsTheWorkspaceCached is the point of the isolated
// layout for prompt caching: two builds that differ only by the time share
// the system prompt and the whole workspace fragment, and the prefix breaks
// at the time fringe, on the timestamp. In the legacy layout the same change
// breaks inside the system prompt.
func TestIsolatedLayoutKeepsTheWorkspaceCached(t *testing.T) {
	dir := t.TempDir()
	build := func(layout, now string) string {
		t.Helper()
		code, out, stderr := runCLI(t, "", "build", filepath.Join("testdata", "workspaces", "poisoned"),
			"--layout", layout, "--now", now)
		if code != 0 {
			t.Fatalf("build %s: exit %d: %s", layout, code, stderr)
		}
		p := filepath.Join(dir, layout+"-"+strings.ReplaceAll(now, ":", "")+".json")
		if err := os.WriteFile(p, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	type cacheDoc struct {
		Requests []struct {
			PrefixBytes int `json:"prefix_bytes"`
			Break       *struct {
				Segment  string `json:"segment"`
				Channel  string `json:"channel"`
				Kind     string `json:"kind"`
				Volatile string `json:"volatile"`
			} `json:"break"`
		} `json:"requests"`
	}
	cache := func(a, b string) cacheDoc {
		t.Helper()
		code, out, stderr := runCLI(t, "", "cache", "--json", a, b)
		if code != 0 {
			t.Fatalf("cache: exit %d: %s", code, stderr)
		}
		var doc cacheDoc
		if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Requests) != 1 || doc.Requests[0].Break == nil {
			t.Fatalf("cache output: %v\n%s", err, out)
		}
		return doc
	}

	a, b := build("isolated", "2026-11-29T22:08:44Z"), build("isolated", "2026-11-29T23:08:44Z")
	iso := cache(a, b).Requests[0]
	if br := iso.Break; br.Channel != "messages" || br.Kind != "time" || br.Volatile != "timestamp" {
		t.Fatalf("isolated: the prefix breaks at %+v, want the time fringe's timestamp", *br)
	}
	body, _ := os.ReadFile(a)
	var req struct {
		System []struct {
			Text string `json:"text"`
		} `json:"system"`
		Messages []struct {
			Content []struct {
				Text         string          `json:"text"`
				CacheControl json.RawMessage `json:"cache_control"`
			} `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil || len(req.Messages) < 2 || len(req.System) != 1 {
		t.Fatalf("isolated build: %v", err)
	}
	ws := req.Messages[0].Content[0]
	if !strings.HasPrefix(ws.Text, "# External Workspace Context") || len(ws.CacheControl) == 0 {
		t.Fatalf("the first message must be the workspace fragment with a cache breakpoint: %.60q", ws.Text)
	}
	if !strings.HasPrefix(req.Messages[1].Content[0].Text, "# Current time (fringe)") {
		t.Fatalf("the time fringe must follow the workspace: %.60q", req.Messages[1].Content[0].Text)
	}
	if min := len(req.System[0].Text) + len(ws.Text); iso.PrefixBytes < min {
		t.Errorf("isolated: %d prefix bytes, want at least system + workspace = %d", iso.PrefixBytes, min)
	}

	leg := cache(build("legacy", "2026-11-29T22:08:44Z"), build("legacy", "2026-11-29T23:08:44Z")).Requests[0]
	if br := leg.Break; br.Channel != "system" || br.Kind != "time" || br.Volatile != "timestamp" {
		t.Fatalf("legacy: the prefix breaks at %+v, want the timestamp in the system prompt", *br)
	}
	if leg.PrefixBytes >= iso.PrefixBytes {
		t.Errorf("legacy keeps %d prefix bytes, isolated %d: the isolated layout must keep more", leg.PrefixBytes, iso.PrefixBytes)
	}
}
