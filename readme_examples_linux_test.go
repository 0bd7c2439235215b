//go:build linux

package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// readmeExample is one command line of a ```sh block of the README.
type readmeExample struct {
	line string // as run by bash, its comment cut
	skip string // why it is not run, when it is not
	env  string // a NAME=VALUE line: set for the lines after it
}

// readmeExamples are the command lines of the README's ```sh blocks, in
// order, lines continued with a backslash joined, comments cut, each with
// the reason it is not run when it is not.
func readmeExamples(readme string) []readmeExample {
	var out []readmeExample
	in := false
	pending := ""
	for _, l := range strings.Split(readme, "\n") {
		switch {
		case strings.HasPrefix(l, "```sh"):
			in = true
			continue
		case strings.HasPrefix(l, "```"):
			in = false
			continue
		case !in:
			continue
		}
		if strings.HasSuffix(l, "\\") {
			pending += strings.TrimSuffix(l, "\\") + " "
			continue
		}
		line := strings.TrimSpace(cutComment(pending + l))
		pending = ""
		if line == "" {
			continue
		}
		out = append(out, classifyExample(line))
	}
	return out
}

// cutComment cuts a shell comment (a # after a blank, outside quotes).
func cutComment(l string) string {
	quote := byte(0)
	for i := 0; i < len(l); i++ {
		c := l[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '#' && (i == 0 || l[i-1] == ' ' || l[i-1] == '\t'):
			return l[:i]
		}
	}
	return l
}

var assignment = regexp.MustCompile(`^[A-Z_]+=\S+$`)

// classifyExample says whether an example line is run and, when it is
// not, why.
func classifyExample(line string) readmeExample {
	e := readmeExample{line: line}
	fields := strings.Fields(line)
	switch {
	case assignment.MatchString(line):
		e.env = line
	case strings.HasPrefix(line, "go run . "):
		// wirelens built from source: the binary under test.
		e.line = "wirelens " + strings.TrimPrefix(line, "go run . ")
	case fields[0] == "go" || fields[0] == "bash" || fields[0] == "sh":
		e.skip = "the Go toolchain or the project's own scripts (go test, go install, .ci/*), not a wirelens command line"
	case fields[0] == "git" || strings.HasPrefix(line, "(cd ../before"):
		e.skip = "needs a git checkout of the base commit ($BASE_SHA) beside the repository"
	case fields[0] == "codex":
		e.skip = "runs the codex agent (not installed here), pointed at a running proxy"
	case strings.Contains(line, "wirelens record"):
		e.skip = "runs a coding agent, not installed here"
	case strings.Contains(line, "wirelens proxy"):
		e.skip = "a server that runs until interrupted (and --upstream needs the network)"
	case fields[0] != "wirelens":
		e.skip = "not a wirelens command line"
	}
	if e.skip == "" && e.env == "" {
		for _, tool := range []string{"jq", "less"} {
			if strings.Contains(e.line, "| "+tool) {
				if _, err := exec.LookPath(tool); err != nil {
					e.skip = tool + " is not installed here"
				}
			}
		}
	}
	return e
}

// exampleExit is the exit code an example line must end with: check's
// findings at or above --fail-on (high by default) and diff's differing
// requests are 1 (README "Exit codes"), everything else 0. (The CI
// example's check --before --after is 0: the fix introduces no finding.)
func exampleExit(line string) int {
	for _, one := range []string{
		"wirelens check request.json",
		"wirelens check --fail-on medium --json session.jsonl",
		"wirelens check --workspace . recorded.json",
		"wirelens check claude.jsonl codex.jsonl gemini.jsonl",
		"wirelens check --cache --max-reprocessed 2048 --fail-on medium session.jsonl",
		"wirelens diff legacy.json isolated.json",
		"wirelens diff session.jsonl@3 session.jsonl@4 --json",
	} {
		if line == one {
			return 1
		}
	}
	return 0
}

// TestREADMEExamples runs every command line of the README's ```sh blocks,
// as bash runs it (pipes, redirections, ~), with wirelens the binary under
// test, in a folder laid out with the files the lines name: once piped
// (standard output a pipe, standard input empty) and once in a
// pseudo-terminal where q is typed until it exits. A panic, a stack trace,
// a line that hangs or an exit code other than the README's (see
// exampleExit) fails it. Lines that need what a test cannot have (an
// agent, a server, the network, a git checkout) are skipped, each with its
// reason in the log.
func TestREADMEExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every README example twice")
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	examples := readmeExamples(string(readme))
	if len(examples) < 40 {
		t.Fatalf("found %d example lines in the README's sh blocks, want the README's 40 or more", len(examples))
	}
	dir, env := exampleFolder(t)
	run := 0
	for _, e := range examples {
		if e.env != "" {
			env = append(env, e.env)
			continue
		}
		if e.skip != "" {
			t.Logf("skipped: %s: %s", e.line, e.skip)
			continue
		}
		run++
		want := exampleExit(e.line)
		t.Run(e.line, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
			defer cancel()
			cmd := exec.CommandContext(ctx, "bash", "-o", "pipefail", "-c", e.line)
			cmd.Dir, cmd.Env = dir, env
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			code := 0
			if err := cmd.Run(); err != nil {
				ee, ok := err.(*exec.ExitError)
				if !ok || ctx.Err() != nil {
					t.Fatalf("piped: %v (stderr %q)", err, stderr.String())
				}
				code = ee.ExitCode()
			}
			if code != want || crashed(stderr.String()) {
				t.Errorf("piped: exit %d, want %d; stderr %q", code, want, clip(stderr.String()))
			}
			if !strings.Contains(e.line, ">") && stdout.Len() == 0 {
				t.Errorf("piped: nothing on standard output")
			}
			// A pager quit with q before the command before it has
			// written everything ends that command with SIGPIPE, as in
			// any shell: there only the pager's exit counts.
			pipefail := "pipefail"
			if strings.HasSuffix(e.line, "| less") {
				pipefail = "nounset"
			}
			tc := exec.Command("bash", "-o", pipefail, "-c", e.line)
			tc.Dir, tc.Env = dir, append(env, "TERM=xterm-256color")
			code, screen := runCmdInPTY(t, "q", tc)
			if code != want || crashed(screen) {
				t.Errorf("in a terminal: exit %d, want %d; screen %q", code, want, clip(screen))
			}
		})
	}
	if run < 35 {
		t.Errorf("ran %d example lines, want 35 or more", run)
	}
}

// crashed reports whether output holds a Go panic or stack trace.
func crashed(s string) bool {
	return strings.Contains(s, "panic:") || goroutine.MatchString(s) || stackFrame.MatchString(s)
}

// goroutine is the head of a goroutine's stack: "goroutine 1 [running]:".
var goroutine = regexp.MustCompile(`goroutine \d+ \[`)

// stackFrame is a line of a Go stack trace: "\t/path/file.go:94 +0x1d".
var stackFrame = regexp.MustCompile(`\.go:\d+ \+0x[0-9a-f]+`)

func clip(s string) string {
	if len(s) > 2000 {
		return s[:1000] + " ... " + s[len(s)-1000:]
	}
	return s
}

// exampleFolder lays out what the README's examples name: the project
// folder (a copy of the poisoned workspace, with its deploy skill, and the
// repository's testdata/workspaces/poisoned), ../common-lib, a HOME with
// ~/.codex/sessions and ~/src/project, the request, session, HAR,
// claude-trace and capture files, a price table, the agents' captures
// record would write, and a wirelens on PATH that is this test binary. It
// returns the project folder and the environment to run the lines in.
func exampleFolder(t *testing.T) (string, []string) {
	t.Helper()
	root := t.TempDir()
	proj := filepath.Join(root, "project")
	home := filepath.Join(root, "home")
	bin := filepath.Join(root, "bin")
	copyTree(t, "testdata/workspaces/poisoned", proj)
	copyTree(t, "testdata/workspaces/poisoned", filepath.Join(proj, "testdata/workspaces/poisoned"))
	copyTree(t, "testdata/workspaces/clean", filepath.Join(root, "common-lib"))
	copyTree(t, "testdata/workspaces/poisoned", filepath.Join(home, "src/project"))
	copyTree(t, "testdata/codex-rollouts", filepath.Join(home, ".codex/sessions"))
	for dst, src := range map[string]string{
		"capture.har":        "testdata/payloads/capture.har",
		"capture.jsonl":      "testdata/sessions/session.jsonl",
		"claude-trace.jsonl": "testdata/payloads/claude-trace.jsonl",
		"my-prices.json":     "wire/price/prices.json",
		"wire.json":          "testdata/check/workspace-pasted.json",
		"claude.jsonl":       "testdata/agents/claude-code.jsonl",
		"codex.jsonl":        "testdata/agents/codex.jsonl",
		"gemini.jsonl":       "testdata/agents/gemini-cli.jsonl",
		"base.jsonl":         "testdata/sessions/session.jsonl",
		"head.jsonl":         "testdata/check/repeated.jsonl",
		"idle.jsonl":         "testdata/cache/idle.claude-trace.jsonl",
	} {
		copyFile(t, src, filepath.Join(proj, dst))
	}
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	script := "#!/bin/sh\nWIRELENS_TEST_AS_MAIN=1 exec '" + self + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "wirelens"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "HOME=") && !strings.HasPrefix(kv, "PATH=") && !strings.HasPrefix(kv, "NO_COLOR=") {
			env = append(env, kv)
		}
	}
	env = append(env, "HOME="+home, "PATH="+bin+":"+os.Getenv("PATH"))
	// A session long enough for the lines that name its 12th request,
	// ending with a forged <system-reminder> in a tool result; a request
	// and a recording as a build without the fix makes them (the poisoned
	// workspace in the system prompt), and before.json likewise, as the
	// base commit would build it.
	legacy := []string{"build", ".", "--layout", "legacy", "--now", "2026-01-01T00:00:00Z"}
	for _, f := range []struct {
		file string
		args []string
		tail string
	}{
		{"session.jsonl", []string{"gen-session", "--requests", "14"}, "testdata/check/repeated.jsonl"},
		{"request.json", legacy, ""},
		{"recorded.json", legacy, ""},
		{"before.json", legacy, ""},
	} {
		cmd := exec.Command(self, f.args...)
		cmd.Dir, cmd.Env = proj, append(env, "WIRELENS_TEST_AS_MAIN=1")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("wirelens %v: %v", f.args, err)
		}
		if f.tail != "" {
			tail, err := os.ReadFile(f.tail)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, tail...)
		}
		if err := os.WriteFile(filepath.Join(proj, f.file), out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return proj, env
}

// copyTree copies the regular files under src to dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if d.Type().IsRegular() {
			copyFile(t, p, filepath.Join(dst, rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
