package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/encode"
)

// demoBuilds writes the demo's poisoned workspace built in the legacy and
// the isolated layout, at a fixed time, and returns their paths.
func demoBuilds(t *testing.T) (legacy, isolated string) {
	t.Helper()
	// The demo's own workspace, at its fixed path, so that the labels and
	// byte counts do not depend on where the checkout lies.
	l, i, err := demoRequests()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for name, req := range map[string]wire.Request{"legacy": l, "isolated": i} {
		out, err := encode.Encode(req, req.Format)
		if err != nil {
			t.Fatalf("encode %s: %v", name, err)
		}
		if err := os.WriteFile(filepath.Join(dir, name+".json"), out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "legacy.json"), filepath.Join(dir, "isolated.json")
}

// TestReportMarkdownGolden: the Markdown report of the demo's legacy and
// isolated builds (temporary paths written as "tmp/").
func TestReportMarkdownGolden(t *testing.T) {
	legacy, isolated := demoBuilds(t)
	code, out, stderr := runCLI(t, "", "report", "--before", legacy, "--after", isolated)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"## Trust map of the first request", "981 bytes of workspace text moved out of the system channel",
		"## Findings", "### Fixed (20)", "## Prompt cache and money per session", "## Token breakdown of the first request", "## Diff of the first request"} {
		if !strings.Contains(strings.ReplaceAll(out, "\\", ""), want) {
			t.Errorf("report lacks %q", want)
		}
	}
	out = strings.ReplaceAll(out, filepath.Dir(legacy)+"/", "tmp/")
	golden.RequireEqual(t, []byte(out))
}

// hostileSides writes two requests whose text is hostile to Markdown,
// HTML and terminals, one with a secret, and returns their paths.
func hostileSides(t *testing.T) (string, string, string) {
	t.Helper()
	key := "sk-ant-api03-" + strings.Repeat("Qm7Lp2Xv9K", 9) + "r4sAA"
	hostile := "</code></td></table><script>alert(1)</script><img src=x onerror=alert(2)> @octocat #1 [link](https://evil.example) " +
		"```\n| a | b |\n<!-- c --> \x1b[2J bidi\u202Eevil \U000E0041 key " + key
	mk := func(name, system string) string {
		body, _ := json.Marshal(map[string]any{"model": "claude-sonnet-4-6", "max_tokens": 10, "system": system,
			"messages": []any{map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": "<untrusted_agents_md>" + hostile + "</untrusted_agents_md>"}}}}})
		p := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(p, body, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	return mk("before.json", "You are an agent. "+hostile), mk("after.json", "You are an agent."), key
}

// TestReportHostile: payload text never forms markup, a mention, a link or
// a script in either format, hazards show visibly, and --redact masks the
// secret the payload carries.
func TestReportHostile(t *testing.T) {
	before, after, key := hostileSides(t)
	code, md, stderr := runCLI(t, "", "report", "--before", before, "--after", after, "--redact")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	code, page, stderr := runCLI(t, "", "report", "--before", before, "--after", after, "--format", "html", "--redact")
	if code != 0 {
		t.Fatalf("html: exit %d: %s", code, stderr)
	}
	for name, doc := range map[string]string{"markdown": outsideCode(md), "html": page} {
		for _, bad := range []string{"<script", "<img", "\x1b", "\u202E", "\U000E0041", key[20:]} {
			if strings.Contains(doc, bad) {
				t.Errorf("%s report holds %q", name, bad)
			}
		}
	}
	for name, doc := range map[string]string{"markdown": md, "html": page} {
		if !strings.Contains(doc, "[U+202E]") || !strings.Contains(doc, "␛[2J") {
			t.Errorf("%s report does not show the hazards", name)
		}
	}
	if strings.Count(page, "<script") != 0 || strings.Count(page, "<table>") != strings.Count(page, "</table>") {
		t.Errorf("html structure broken")
	}
	if !strings.Contains(page, "Content-Security-Policy") || strings.Contains(page, "http://") && !strings.Contains(page, "evil.example") {
		t.Errorf("html has no content security policy")
	}
	// Every payload mention and link sits in a code span or is escaped.
	for _, line := range strings.Split(md, "\n") {
		if strings.Contains(line, "](https://evil") && !strings.Contains(line, "`") {
			t.Errorf("markdown forms a link: %s", line)
		}
	}
	// Without --redact the findings still never show the secret.
	_, md, _ = runCLI(t, "", "report", "--before", before, "--after", after)
	if !strings.Contains(md, "secret-in-context") && !strings.Contains(md, `secret\-in\-context`) {
		t.Errorf("the secret is not a finding")
	}
	if i := strings.Index(md, "| high | secret"); i >= 0 && strings.Contains(md[i:i+600], key[20:]) {
		t.Errorf("the finding shows the secret")
	}
}

// TestReportMarkdownLimit: a report whose diffs would pass GitHub's comment
// limit stops within it and says where it was cut.
func TestReportMarkdownLimit(t *testing.T) {
	var text strings.Builder
	for i := range 150 {
		text.WriteString(strings.Repeat("x", i%200) + " line\n")
	}
	mk := func(name, s string) string {
		msgs := []any{}
		for k := range 60 {
			msgs = append(msgs, map[string]any{"role": "user", "content": s + strings.Repeat("y", k)}, map[string]any{"role": "assistant", "content": "ok"})
		}
		body, _ := json.Marshal(map[string]any{"model": "claude-sonnet-4-6", "max_tokens": 10, "system": s, "messages": msgs})
		p := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(p, body, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a := mk("a.json", text.String())
	b := mk("b.json", strings.ReplaceAll(text.String(), "line", "LINE"))
	code, md, stderr := runCLI(t, "", "report", "--before", a, "--after", b)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if n := utf8.RuneCountInString(md); n > 65536 {
		t.Errorf("report is %d characters", n)
	}
	if !strings.Contains(md, "Cut here") {
		t.Errorf("no note of the cut (%d characters)", utf8.RuneCountInString(md))
	}
}

// TestReportUsage: missing sides and an unknown format are usage errors.
func TestReportUsage(t *testing.T) {
	if code, _, stderr := runCLI(t, "", "report", "--before", "x.json"); code != 2 || !strings.Contains(stderr, "--after") {
		t.Errorf("exit %d, %q", code, stderr)
	}
	if code, _, stderr := runCLI(t, "", "report", "--before", "a", "--after", "b", "--format", "pdf"); code != 2 || !strings.Contains(stderr, "--format") {
		t.Errorf("exit %d, %q", code, stderr)
	}
}

// TestReportChromium renders the HTML report of the demo's builds in
// headless Chromium (skipped when it is not installed) and checks the DOM
// it built: every section is there, and the hostile payload made no script,
// image or element of its own.
func TestReportChromium(t *testing.T) {
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium not installed (apt-get install chromium)")
	}
	if testing.Short() {
		t.Skip("starts a browser")
	}
	legacy, isolated := demoBuilds(t)
	hb, ha, _ := hostileSides(t)
	for _, pair := range [][2]string{{legacy, isolated}, {hb, ha}} {
		code, page, stderr := runCLI(t, "", "report", "--before", pair[0], "--after", pair[1], "--format", "html")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		dir := t.TempDir()
		file := filepath.Join(dir, "report.html")
		if err := os.WriteFile(file, []byte(page), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
			"--disable-component-update", "--disable-sync", "--no-first-run", "--user-data-dir="+filepath.Join(dir, "profile"),
			"--dump-dom", "file://"+file)
		dom, err := cmd.Output()
		if err != nil {
			t.Fatalf("chromium: %v", err)
		}
		d := string(dom)
		for _, id := range []string{"trust-map-of-the-first-request", "findings", "prompt-cache-and-money-per-session",
			"token-breakdown-of-the-first-request", "diff-of-the-first-request"} {
			if !strings.Contains(d, `id="`+id+`"`) {
				t.Errorf("rendered DOM lacks section %s", id)
			}
		}
		if strings.Contains(d, "<script") || strings.Contains(d, "<img") || strings.Contains(d, "onerror") && !strings.Contains(d, "&lt;img") {
			t.Errorf("hostile markup got through:\n%s", d)
		}
		if strings.Count(d, "<table>") != strings.Count(page, "<table>") {
			t.Errorf("the browser built %d tables, the page has %d", strings.Count(d, "<table>"), strings.Count(page, "<table>"))
		}
	}
}

// outsideCode is Markdown without its fenced blocks and code spans: the text
// GitHub reads as markup.
func outsideCode(md string) string {
	var out strings.Builder
	fence := ""
	for _, line := range strings.Split(md, "\n") {
		trim := strings.TrimLeft(line, " ")
		if fence != "" {
			if strings.TrimRight(trim, " ") == fence {
				fence = ""
			}
			continue
		}
		if n := len(trim) - len(strings.TrimLeft(trim, "`")); n >= 3 {
			fence = trim[:n]
			continue
		}
		// Code spans: a run of backticks to the next run of the same length.
		for {
			i := strings.IndexByte(line, '`')
			if i < 0 {
				break
			}
			n := len(line[i:]) - len(strings.TrimLeft(line[i:], "`"))
			run := line[i : i+n]
			j := strings.Index(line[i+n:], run)
			for j >= 0 && i+n+j+n < len(line) && line[i+n+j+n] == '`' {
				k := strings.Index(line[i+n+j+n:], run)
				if k < 0 {
					j = -1
					break
				}
				j += n + k
			}
			if j < 0 {
				break
			}
			line = line[:i] + line[i+n+j+n:]
		}
		out.WriteString(line + "\n")
	}
	return out.String()
}
