package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockedBuffer is a bytes.Buffer safe to write and read at once.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// runUntil runs wirelens with args until its standard error holds until
// (or 10 s pass), then cancels it, and returns its exit code and stderr.
func runUntil(t *testing.T, until string, args ...string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errb lockedBuffer
	done := make(chan int, 1)
	go func() { done <- run(ctx, args, strings.NewReader(""), &out, &errb) }()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(errb.String(), until) && time.Now().Before(deadline) {
		select {
		case code := <-done:
			return code, errb.String()
		case <-time.After(10 * time.Millisecond):
		}
	}
	cancel()
	return <-done, errb.String()
}

// The start-up line and the errors of proxy never print --upstream's
// user:pass@ or a key in its query.
func TestProxyStartupLineMasksTheUpstream(t *testing.T) {
	out := filepath.Join(t.TempDir(), "c.jsonl")
	_, stderr := runUntil(t, "Ctrl-C stops it", "proxy", "--out", out, "--upstream", "https://alice:TESTSECRETpw@127.0.0.1:1/v1?key=TESTSECRETkey&x=1")
	if !strings.Contains(stderr, "forwarding to https://") || strings.Contains(stderr, "TESTSECRET") {
		t.Errorf("stderr %q", stderr)
	}
	code, _, stderr := runCLI(t, "", "proxy", "--out", out, "--upstream", "ftp://alice:TESTSECRETpw@x/?key=TESTSECRETkey")
	if code != 2 || !strings.Contains(stderr, "--upstream") || strings.Contains(stderr, "TESTSECRET") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

// redactSides writes two requests that carry credentials in every string
// that leaves: the model name, a tool's name and description, tool-call
// arguments and a tool result (a password with & in it, a JSON member and
// an assignment).
func redactSides(t *testing.T) (before, after string, secrets []string) {
	t.Helper()
	key := "sk-ant-api03-" + strings.Repeat("Hq4Rt8Wz2N", 9) + "b5cAA"
	pw1, pw2 := "Xk9&mQ2#vL7pR4tZ", "correct&horse&battery"
	mk := func(name, extra string) string {
		body, _ := json.Marshal(map[string]any{"model": "claude-" + key, "max_tokens": 10, "system": "You are an agent." + extra,
			"tools": []any{map[string]any{"name": "deploy-" + key, "description": "logs in", "input_schema": map[string]any{"type": "object"}}},
			"messages": []any{
				map[string]any{"role": "user", "content": "log in"},
				map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "tool_use", "id": "c1", "name": "login",
					"input": map[string]any{"user": "bob", "password": pw1}}}},
				map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": "c1",
					"content": "DB_PASSWORD=" + pw2 + "\nok" + extra}}},
			}})
		p := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(p, body, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// The after side changes every segment that carries a secret, so that
	// the report's diff shows them.
	return mk("before.json", ""), mk("after.json", " Be brief."), []string{key[16:], pw1, pw2, "Xk9", "horse"}
}

// --redact masks every string that leaves, not only segment text: the
// model name, tool names, labels, tool-call arguments and tool results,
// passwords with & in them included (inspect --json --redact, report
// --redact in both formats).
func TestRedactEveryStringThatLeaves(t *testing.T) {
	before, after, secrets := redactSides(t)
	outs := map[string]string{}
	code, out, stderr := runCLI(t, "", "inspect", "--json", "--redact", before)
	if code != 0 {
		t.Fatalf("inspect: exit %d %s", code, stderr)
	}
	outs["inspect --json --redact"] = out
	for _, format := range []string{"markdown", "html"} {
		code, out, stderr = runCLI(t, "", "report", "--before", before, "--after", after, "--format", format, "--redact")
		if code != 0 {
			t.Fatalf("report %s: exit %d %s", format, code, stderr)
		}
		outs["report --redact "+format] = out
	}
	for name, out := range outs {
		for _, s := range secrets {
			if i := strings.Index(out, s); i >= 0 {
				t.Errorf("%s shows %q: ...%s...", name, s, out[max(0, i-80):min(len(out), i+40)])
			}
		}
		if plain := strings.ReplaceAll(out, "\\", ""); strings.HasPrefix(name, "report") && (!strings.Contains(plain, "PASSWORD=[redacted by wirelens]") || !strings.Contains(plain, "claude-[redacted by wirelens]")) {
			t.Errorf("%s does not show the tool result and the model masked:\n%s", name, out)
		}
		if name == "inspect --json --redact" && (!strings.Contains(out, "bob") || !strings.Contains(out, "DB_PASSWORD=[redacted by wirelens]")) {
			t.Errorf("%s lost the text around the secrets", name)
		}
	}
}

// The Markdown report: payload text outside code spans (the model names,
// the findings' words) forms no GitHub math ($…$), no cross-reference
// (owner/repo#1, #2), no emoji (:smile:) and no mention (@octocat).
func TestReportMarkdownGitHubSyntax(t *testing.T) {
	hostile := "m $x^2$ wirelens/wirelens#1 #2 :smile: @octocat"
	dir := t.TempDir()
	mk := func(name, system string) string {
		body, _ := json.Marshal(map[string]any{"model": hostile, "max_tokens": 10, "system": system,
			"messages": []any{map[string]any{"role": "user", "content": "hi"}}})
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, body, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	code, md, stderr := runCLI(t, "", "report", "--before", mk("a.json", "one"), "--after", mk("b.json", "two"))
	if code != 0 {
		t.Fatalf("exit %d %s", code, stderr)
	}
	plain := strings.ReplaceAll(outsideCode(md), "\\", "")
	if !strings.Contains(plain, "smile") {
		t.Fatalf("the model name is not in the report's text:\n%s", md)
	}
	for _, bad := range []string{"$x", "x^2$", "wirelens#1", "#2", ":smile:", "@octocat"} {
		if strings.Contains(plain, bad) {
			t.Errorf("the report's Markdown holds %q outside code, which GitHub renders:\n%s", bad, md)
		}
	}
}
