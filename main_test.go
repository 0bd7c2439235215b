package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runCLI runs the program as a user would, with stdin as standard input,
// and returns its exit code, standard output and standard error.
func runCLI(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

// buildToFile builds the poisoned workspace at a fixed time with the given
// build flags into a temp file named for name.
func buildToFile(t *testing.T, name string, flags ...string) string {
	t.Helper()
	args := append([]string{"build", buildPoisoned, "--now", "2026-11-29T22:08:44Z"}, flags...)
	code, out, errs := runCLI(t, "", args...)
	if code != 0 || out == "" {
		t.Fatalf("build %v: exit %d, stderr %q", flags, code, errs)
	}
	p := filepath.Join(t.TempDir(), name+".json")
	if err := os.WriteFile(p, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRootPrintsHelpWithoutArguments(t *testing.T) {
	code, out, stderr := runCLI(t, "")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	for _, cmd := range []string{"view", "watch", "demo", "build", "inspect", "check", "cache", "diff"} {
		if !strings.Contains(out, cmd) {
			t.Errorf("help does not list %q", cmd)
		}
	}
	if strings.Contains(out, "gen-session") {
		t.Error("the hidden generator is listed in the help")
	}
}

func TestEveryCommandHasHelp(t *testing.T) {
	for _, cmd := range []string{"view", "watch", "demo", "build", "inspect", "check", "cache", "diff"} {
		code, out, _ := runCLI(t, "", cmd, "--help")
		if code != 0 || !strings.Contains(out, "USAGE") || !strings.Contains(out, "wirelens "+cmd) {
			t.Errorf("%s --help: exit %d\n%s", cmd, code, out)
		}
	}
}

func TestUsageErrorsAreOneLineExitTwo(t *testing.T) {
	for _, args := range [][]string{
		{"inspect", "--no-such-flag", "x.json"},
		{"--theme", "purple", "inspect", "x.json"},
		{"--format", "yaml", "inspect", "x.json"},
		{"frobnicate"},
	} {
		code, _, stderr := runCLI(t, "", args...)
		if code != 2 || !strings.HasPrefix(stderr, "wirelens: ") || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one wirelens: line", args, code, stderr)
		}
	}
}
