package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
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
		if code != 0 || !strings.Contains(out, "Usage:\n  wirelens "+cmd) {
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

// TestHelpIsPlainAndNarrow holds the help to the shape of item 15 of issue
// 14: no line ends in padding, no line is wider than 80 columns when the
// width is not known (the command column is the width of the longest name,
// the --format list wraps), the text keeps the casing it was written in,
// and a global flag is listed only for the commands it does something for.
func TestHelpIsPlainAndNarrow(t *testing.T) {
	t.Setenv("COLUMNS", "")
	cmds := []string{"", "view", "watch", "demo", "build", "inspect", "check", "cache", "diff"}
	for _, cmd := range cmds {
		args := []string{"--help"}
		if cmd != "" {
			args = []string{cmd, "--help"}
		}
		code, out, _ := runCLI(t, "", args...)
		if code != 0 {
			t.Fatalf("%v: exit %d", args, code)
		}
		for i, line := range strings.Split(out, "\n") {
			if strings.TrimRight(line, " ") != line {
				t.Errorf("%v: line %d ends in spaces: %q", args, i+1, line)
			}
			// Long prose paragraphs are written at up to 100 columns; the
			// generated columns must keep to 80.
			if strings.HasPrefix(line, "  ") && ansi.StringWidth(line) > 80 {
				t.Errorf("%v: line %d is %d columns wide: %q", args, i+1, ansi.StringWidth(line), line)
			}
		}
		for _, bad := range []string{"Prompt-Cache", "Segment-Aligned", "Api ", "USAGE", "FLAGS"} {
			if strings.Contains(out, bad) {
				t.Errorf("%v: help says %q", args, bad)
			}
		}
		_, globals, _ := strings.Cut(out, "Global flags:")
		flags := map[string]bool{}
		for _, f := range []string{"--format", "--theme", "--no-color"} {
			flags[f] = strings.Contains(globals, f)
		}
		want := map[string][]string{
			"view": {"--format", "--theme", "--no-color"}, "watch": {"--theme", "--no-color"},
			"demo": {"--theme", "--no-color"}, "inspect": {"--format"}, "check": {"--format", "--theme", "--no-color"},
			"cache": {"--format"}, "diff": {"--format", "--theme", "--no-color"},
		}[cmd]
		if cmd == "" {
			// The root lists them all as its own flags.
			for f := range flags {
				if !strings.Contains(out, f) {
					t.Errorf("wirelens --help does not list %s", f)
				}
			}
			continue
		}
		for f, listed := range flags {
			if listed != slices.Contains(want, f) {
				t.Errorf("%s --help: %s listed %v, want %v", cmd, f, listed, !listed)
			}
		}
	}
	// The command column is the longest command name wide, not the width
	// of the usage lines.
	_, out, _ := runCLI(t, "", "--help")
	if !strings.Contains(out, "\n  cache        Prompt-cache stability over a sequence of requests\n") {
		t.Errorf("command column not as narrow as its names:\n%s", out)
	}
}

// TestArgumentErrorsAreSentences: a missing or extra argument is one line
// naming what is missing, never cobra's "requires at least 1 arg(s)".
func TestArgumentErrorsAreSentences(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"inspect"}, "wirelens: inspect: no FILE given: name a request file"},
		{[]string{"cache"}, "wirelens: cache: no FILE given"},
		{[]string{"view"}, "wirelens: view: no FILE given"},
		{[]string{"diff"}, "wirelens: diff: no request given: name the two requests to compare, A and B"},
		{[]string{"diff", "a.json"}, `wirelens: diff: only A given: name B too, the request to compare "a.json" with`},
		{[]string{"diff", "a", "b", "c"}, `wirelens: diff: compares two requests, A and B, but was given 3: "a" "b" "c"`},
		{[]string{"demo", "x"}, `wirelens: demo: takes no argument, but was given "x"`},
		{[]string{"watch", "a", "b"}, `wirelens: watch: takes one workspace DIR at most, but was given 2`},
		{[]string{"inspect", "--nope", "x"}, "wirelens: inspect: unknown flag: --nope"},
	} {
		code, _, stderr := runCLI(t, "", c.args...)
		if code != 2 || !strings.HasPrefix(stderr, c.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%q: exit %d, stderr %q; want exit 2 and one line starting %q", c.args, code, stderr, c.want)
		}
		if strings.Contains(stderr, "arg(s)") {
			t.Errorf("%q: cobra's wording: %q", c.args, stderr)
		}
	}
}

// TestRootShorthandRefusesUnknownWords checks that "wirelens WORD" with a
// word that is neither a command nor a file is an unknown command (exit 2,
// a suggestion where one is close, nothing on stdout), never opened as a
// file and never half-reported, and that a missing path is named as one.
func TestRootShorthandRefusesUnknownWords(t *testing.T) {
	f := "testdata/sessions/session.jsonl"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"inpsect", f}, `unknown command "inpsect": did you mean inspect?`},
		{[]string{"chek"}, "did you mean check?"},
		{[]string{"nosuchword"}, `unknown command "nosuchword"`},
		{[]string{f, "nosuch.json"}, "nosuch.json: no such file"},
	} {
		code, out, errs := runCLI(t, "", tc.args...)
		if code != 2 || out != "" || !strings.Contains(errs, tc.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d, stdout %d bytes, stderr %q; want 2, nothing, one line with %q", tc.args, code, len(out), errs, tc.want)
		}
	}
	// An existing file still opens (piped: the plain-text report).
	if code, out, errs := runCLI(t, "", f); code != 0 || out == "" {
		t.Fatalf("wirelens %s: exit %d, stdout %d bytes, stderr %q", f, code, len(out), errs)
	}
}

// TestErrorsNameWhatIsMissing: a command given too few arguments names
// itself and what is missing (record the -- before COMMAND), a mistyped
// root flag is one "wirelens: unknown flag" (not "wirelens: wirelens:"),
// and a --prices file that is not there is one line naming it, not Go's
// stat error; each exits 2.
func TestErrorsNameWhatIsMissing(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"context"}, "wirelens: context: no FILE given"},
		{[]string{"record"}, "wirelens: record: no COMMAND given: name the agent to run after --"},
		{[]string{"record", "--mock"}, "wirelens: record: no COMMAND given"},
		{[]string{"--versoin"}, "wirelens: unknown flag: --versoin (see wirelens --help)"},
		{[]string{"cache", "--prices", "nosuch.json", "testdata/sessions/session.jsonl"}, "wirelens: --prices nosuch.json: no such file"},
		{[]string{"whatif", "--prices", "nosuch.json", "--demo"}, "wirelens: --prices nosuch.json: no such file"},
	} {
		code, _, stderr := runCLI(t, "", c.args...)
		if code != 2 || !strings.HasPrefix(stderr, c.want) || strings.Count(stderr, "\n") != 1 ||
			strings.Contains(stderr, "wirelens: wirelens:") || strings.Contains(stderr, "stat ") || strings.Contains(stderr, "arg(s)") {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line starting %q", c.args, code, stderr, c.want)
		}
	}
}
