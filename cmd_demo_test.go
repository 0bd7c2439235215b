package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/wirelens/wirelens/diff"
	"github.com/wirelens/wirelens/ui"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/audit"
	"github.com/wirelens/wirelens/wire/encode"
)

// TestDemoReportAgreesWithCheck: the demo's report without a terminal lists
// volatile-in-prefix for the legacy request (its system prompt carries the
// time), as `check` does on the same request, and not for the isolated one.
func TestDemoReportAgreesWithCheck(t *testing.T) {
	code, out, errs := runCLI(t, "", "demo")
	if code != 0 || errs != "" {
		t.Fatalf("demo: exit %d, stderr %q", code, errs)
	}
	left, right := demoColumns(t, out)
	if !strings.Contains(left, audit.RuleVolatileInPrefix) {
		t.Errorf("the legacy column lists no %s:\n%s", audit.RuleVolatileInPrefix, left)
	}
	if strings.Contains(right, audit.RuleVolatileInPrefix) {
		t.Errorf("the isolated column lists %s: its prefix holds no time", audit.RuleVolatileInPrefix)
	}

	legacy, _, err := demoRequests()
	if err != nil {
		t.Fatal(err)
	}
	body, err := encode.Encode(legacy, wire.FormatAnthropic)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "legacy.json")
	if err := os.WriteFile(path, body, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs = runCLI(t, "", "check", "--json", path)
	if code != 1 || !strings.Contains(out, `"rule": "`+audit.RuleVolatileInPrefix+`"`) {
		t.Errorf("check on the demo's legacy request: exit %d, stderr %q, no %s in:\n%s", code, errs, audit.RuleVolatileInPrefix, out)
	}
}

// demoColumns splits the demo report into its legacy and isolated columns,
// side by side (split at the gap) or stacked.
func demoColumns(t *testing.T, out string) (legacy, isolated string) {
	t.Helper()
	const gap = " │ "
	l, i := strings.Index(out, "LEGACY (before the fix)"), strings.Index(out, "ISOLATED (the fix)")
	if l < 0 || i < 0 {
		t.Fatalf("the report lacks its two columns:\n%s", out)
	}
	if i > l && !strings.Contains(out[l:i], "\n") {
		var lb, rb strings.Builder
		for _, line := range strings.Split(out[l:], "\n") {
			a, b, _ := strings.Cut(line, gap)
			lb.WriteString(a + "\n")
			rb.WriteString(b + "\n")
		}
		return lb.String(), rb.String()
	}
	return out[l:i], out[i:]
}

// TestDemoCacheStory: the demo builds each layout twice, a minute apart and
// after a one-line AGENTS.md edit; the legacy prefix breaks at the time in
// the middle of its system prompt, the isolated one holds its system
// prompt; the figures of the plain report are those of `cache` on the same
// builds and of the viewer's Cache view.
func TestDemoCacheStory(t *testing.T) {
	reqs, err := demoSequence()
	if err != nil {
		t.Fatal(err)
	}
	if len(reqs) != 4 {
		t.Fatalf("%d requests, want each layout twice", len(reqs))
	}
	for i, r := range reqs {
		agents := ""
		for _, s := range r.Segments {
			if s.Kind == wire.KindAgentsMD {
				agents += s.Text
			}
		}
		if edited := strings.Contains(agents, "before every commit."); edited != (i%2 == 1) {
			t.Errorf("request %d: AGENTS.md edited %v", i+1, edited)
		}
	}
	legacy, isolated, err := demoCaches()
	if err != nil {
		t.Fatal(err)
	}
	if b := legacy.step.Break; b == nil || b.Channel != wire.ChannelSystem || b.Kind != wire.KindTime {
		t.Errorf("the legacy prefix does not break at the time in the system prompt: %+v", b)
	}
	if !legacy.systemChanged || isolated.systemChanged {
		t.Errorf("system prompt changed: legacy %v, isolated %v", legacy.systemChanged, isolated.systemChanged)
	}
	if b := isolated.step.Break; b == nil || b.Channel != wire.ChannelMessages {
		t.Errorf("the isolated prefix does not hold through its system prompt: %+v", b)
	}
	if isolated.step.PrefixTokens <= legacy.step.PrefixTokens {
		t.Errorf("isolated reuses %d tokens, legacy %d", isolated.step.PrefixTokens, legacy.step.PrefixTokens)
	}

	// The plain report shows the figures side by side.
	t.Setenv("COLUMNS", "140")
	_, out, _ := runCLI(t, "", "demo")
	row := func(name string, vals ...string) {
		t.Helper()
		re := regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(name) + ` +` + regexp.QuoteMeta(vals[0]) + ` +` + regexp.QuoteMeta(vals[1]) + `$`)
		if !re.MatchString(out) {
			t.Errorf("the report has no row %q %q:\n%s", name, vals, out[:min(len(out), 2000)])
		}
	}
	pct := func(st *diff.Step) string {
		return wire.GroupDigits(st.PrefixTokens) + " (" + strconv.Itoa(int(math.Round(float64(st.PrefixTokens)*100/float64(st.TotalTokens)))) + "%)"
	}
	row("reused prefix", pct(legacy.step), pct(isolated.step))
	row("re-processed", wire.GroupDigits(legacy.step.Reprocessed), wire.GroupDigits(isolated.step.Reprocessed))

	// cache on the same builds, written as the provider's JSON, says the
	// same.
	dir := t.TempDir()
	var files []string
	for i, r := range reqs {
		body, err := encode.Encode(r, wire.FormatAnthropic)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, []string{"legacy1", "legacy2", "isolated1", "isolated2"}[i]+".json")
		if err := os.WriteFile(p, body, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	for k, want := range []demoCache{legacy, isolated} {
		code, out, errs := runCLI(t, "", "cache", "--json", files[2*k], files[2*k+1])
		if code != 0 {
			t.Fatalf("cache: exit %d: %s", code, errs)
		}
		var got struct {
			Requests []struct {
				PrefixTokens int `json:"prefix_tokens"`
				TotalTokens  int `json:"total_tokens"`
				Break        struct {
					Segment string `json:"segment"`
				} `json:"break"`
			} `json:"requests"`
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil || len(got.Requests) != 1 {
			t.Fatalf("cache --json: %v\n%s", err, out)
		}
		g := got.Requests[0]
		if g.PrefixTokens != want.step.PrefixTokens || g.TotalTokens != want.step.TotalTokens || g.Break.Segment != want.step.Break.Segment {
			t.Errorf("cache on the demo's %s builds: %+v, the report %d of %d at %s", []string{"legacy", "isolated"}[k],
				g, want.step.PrefixTokens, want.step.TotalTokens, want.step.Break.Segment)
		}
	}

	// The viewer's Cache view shows both breaks with the same figures.
	opts, err := demoOptions(&App{Theme: "mono"})
	if err != nil {
		t.Fatal(err)
	}
	m := ui.New(opts)
	drive := driveModel(m)
	drive(tea.WindowSizeMsg{Width: 160, Height: 48})
	drive(tea.KeyPressMsg{Code: tea.KeyEscape}) // the tour's hint
	drive(tea.KeyPressMsg{Code: '4', Text: "4"})
	screen := m.Render()
	if os.Getenv("WIRELENS_SHOW") != "" {
		t.Log(screen)
	}
	legacyPct := strconv.Itoa(int(math.Round(float64(legacy.step.PrefixTokens)*100/float64(legacy.step.TotalTokens)))) + "% " +
		strconv.Itoa(legacy.step.PrefixTokens) + "/" + strconv.Itoa(legacy.step.TotalTokens)
	for _, want := range []string{legacy.step.Break.Segment, isolated.step.Break.Segment, legacyPct} {
		if !strings.Contains(screen, want) {
			t.Errorf("the Cache view does not show the break at %s:\n%s", want, screen)
		}
	}
}

// driveModel runs m's Init and returns a function that hands m a message
// and runs every command it returns in turn, as the program would, until
// none is left (bounded), with no terminal.
func driveModel(m *ui.Model) func(tea.Msg) {
	var queue []tea.Msg
	var run func(cmd tea.Cmd)
	run = func(cmd tea.Cmd) {
		if cmd == nil {
			return
		}
		switch msg := cmd().(type) {
		case nil, tea.QuitMsg:
		case tea.BatchMsg:
			for _, c := range msg {
				run(c)
			}
		default:
			queue = append(queue, msg)
		}
	}
	run(m.Init())
	return func(msg tea.Msg) {
		queue = append(queue, msg)
		for n := 0; len(queue) > 0 && n < 10000; n++ {
			msg := queue[0]
			queue = queue[1:]
			_, cmd := m.Update(msg)
			run(cmd)
		}
	}
}
