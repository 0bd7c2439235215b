//go:build linux

package main

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// sgrColour is a Select Graphic Rendition that sets a foreground colour.
var sgrColour = regexp.MustCompile(`\x1b\[(?:[0-9]+;)*(?:3[0-7]|38;[25];[0-9;]+|9[0-7])(?:;[0-9]+)*m`)

// ttyLines are the lines a terminal showed, escapes stripped.
func ttyLines(screen string) []string {
	return strings.Split(strings.ReplaceAll(ansi.Strip(screen), "\r\n", "\n"), "\n")
}

// runTTY runs wirelens with args in a pseudo-terminal of 80 columns, with
// extra environment variables.
func runTTY(t *testing.T, env []string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(append(os.Environ(), "WIRELENS_TEST_AS_MAIN=1", "TERM=xterm-256color", "NO_COLOR=", "COLORFGBG="), env...)
	return runCmdInPTY(t, "", cmd)
}

// TestCheckTextOnATerminal: on an 80-column terminal each finding of check
// is its severity (coloured), rule and place on a line, then its message,
// excerpt and repeat count wrapped under the rule (a hanging indent of 10),
// no line wider than 80 and no tag cut at its hyphen; NO_COLOR and
// --theme mono keep the layout without a colour; piped, each finding stays
// one line (for grep).
func TestCheckTextOnATerminal(t *testing.T) {
	file := "testdata/check/repeated.jsonl"
	code, screen := runTTY(t, nil, "check", file)
	if code != 1 {
		t.Fatalf("exit %d: %q", code, screen)
	}
	if !sgrColour.MatchString(screen) {
		t.Errorf("no colour on a terminal: %q", screen)
	}
	lines := ttyLines(screen)
	heads, cont := 0, 0
	for i, l := range lines {
		if w := ansi.StringWidth(l); w > 80 {
			t.Errorf("line %d is %d wide: %q", i+1, w, l)
		}
		switch {
		case strings.HasPrefix(l, "  high    "):
			heads++
		case strings.HasPrefix(l, strings.Repeat(" ", 10)):
			cont++
		}
	}
	if heads != 6 || cont < 2*heads {
		t.Errorf("%d finding heads, %d continuation lines; want 6 and two or more each:\n%s", heads, cont, strings.Join(lines, "\n"))
	}
	if !strings.Contains(strings.Join(lines, "\n"), "&lt;/system-reminder&gt;") || !strings.Contains(strings.Join(lines, "\n"), "(in 3 requests from here)") {
		t.Errorf("a tag cut at its hyphen, or the repeat count lost:\n%s", strings.Join(lines, "\n"))
	}
	for _, env := range [][]string{{"NO_COLOR=1"}, {"WIRELENS_X=1"}} {
		args := []string{"check", file}
		if env[0] == "WIRELENS_X=1" {
			args = []string{"--theme", "mono", "check", file}
		}
		_, plain := runTTY(t, env, args...)
		if sgrColour.MatchString(plain) {
			t.Errorf("%v %v: coloured: %q", env, args, plain)
		}
		if strings.Join(ttyLines(plain), "\n") != strings.Join(lines, "\n") {
			t.Errorf("%v %v: another layout than with colour:\n%s", env, args, strings.Join(ttyLines(plain), "\n"))
		}
	}
	code, out, _ := runCLI(t, "", "check", file)
	n := 0
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "  high    ") {
			n++
			if !strings.Contains(l, "messages[") || !strings.Contains(l, " | ") {
				t.Errorf("piped finding not on one line: %q", l)
			}
		}
	}
	if code != 1 || n != 6 || strings.Contains(out, "\x1b") {
		t.Errorf("piped: exit %d, %d finding lines, escapes %v", code, n, strings.Contains(out, "\x1b"))
	}
}

// TestDiffColoursOnATerminal: on a terminal diff shows removed and added
// lines in colour and changed words in the word styles without brackets;
// piped (and with NO_COLOR) the words keep [-deleted-] and {+inserted+}
// and nothing is coloured.
func TestDiffColoursOnATerminal(t *testing.T) {
	a, b := buildToFile(t, "legacy.json", "--layout", "legacy"), buildToFile(t, "isolated.json")
	code, screen := runTTY(t, nil, "diff", a, b)
	if code != 1 || !sgrColour.MatchString(screen) {
		t.Fatalf("exit %d, coloured %v: %q", code, sgrColour.MatchString(screen), screen)
	}
	text := strings.Join(ttyLines(screen), "\n")
	if strings.Contains(text, "[-") || strings.Contains(text, "{+") {
		t.Errorf("brackets on a terminal with colour:\n%s", text)
	}
	if !strings.Contains(screen, "\x1b[1;7;") {
		t.Errorf("no changed word in the word style (bold, reverse): %q", screen)
	}
	_, plain := runTTY(t, []string{"NO_COLOR=1"}, "diff", a, b)
	_, piped, _ := runCLI(t, "", "diff", a, b)
	for name, out := range map[string]string{"NO_COLOR": plain, "piped": piped} {
		if sgrColour.MatchString(out) || !strings.Contains(out, "[-") || !strings.Contains(out, "{+") {
			t.Errorf("%s: coloured, or the words unbracketed: %q", name, clip(out))
		}
	}
}
