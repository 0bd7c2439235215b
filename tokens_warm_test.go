package main

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wirelens/wirelens/wire"
)

// A command that counts no tokens (check) never builds the tokenizer's
// vocabulary; one that counts them (inspect) starts building it when it
// starts, before it reads its input, so that even an input it cannot read
// has it built. Each runs in a process of its own: the vocabulary is
// built once a process.
func TestTokenizerBuiltOnlyByCommandsThatCount(t *testing.T) {
	if cmd := os.Getenv("WIRELENS_TOKENS_PROBE"); cmd != "" {
		args := strings.Fields(cmd)
		run(context.Background(), args, strings.NewReader(""), io.Discard, io.Discard)
		// Wait for a build started in the background, if one was.
		for i := 0; i < 100 && !wire.TokensWarm(); i++ {
			time.Sleep(10 * time.Millisecond)
		}
		if wire.TokensWarm() {
			os.Stdout.WriteString("\nWARM\n")
		} else {
			os.Stdout.WriteString("\nCOLD\n")
		}
		os.Exit(0)
	}
	payload := filepath.Join("testdata", "payloads", "anthropic-messages.json")
	missing := filepath.Join(t.TempDir(), "missing.json")
	for _, c := range []struct{ args, want string }{
		{"check --json " + payload, "COLD"},
		{"check " + payload, "COLD"},
		{"inspect " + missing, "WARM"},
		{"cache --json " + missing, "WARM"},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestTokenizerBuiltOnlyByCommandsThatCount$")
		cmd.Env = append(os.Environ(), "WIRELENS_TOKENS_PROBE="+c.args)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v", c.args, err)
		}
		if got := strings.TrimSpace(string(out[strings.LastIndexByte(strings.TrimRight(string(out), "\n"), '\n')+1:])); got != c.want {
			t.Errorf("wirelens %s: vocabulary %s, want %s", c.args, got, c.want)
		}
	}
}

// The commands that look for secrets read gitleaks' rules from their start;
// the others never read them.
func TestFindsSecretsByCommand(t *testing.T) {
	root := newRoot(&App{})
	want := map[string]bool{"check": true, "report": true, "view": true, "watch": true, "demo": true,
		"inspect": false, "cache": false, "diff": false, "build": false}
	for name, w := range want {
		cmd, _, err := root.Find([]string{name})
		if err != nil || cmd.Name() != name {
			t.Fatalf("no command %s: %v", name, err)
		}
		if got := findsSecrets(cmd); got != w {
			t.Errorf("findsSecrets(%s) = %v, want %v", name, got, w)
		}
	}
	if !findsSecrets(root) {
		t.Error("the root command opens the viewer: it finds secrets")
	}
}
