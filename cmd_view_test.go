package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/wirelens/wirelens/assemble"
	"github.com/wirelens/wirelens/diff"
	"github.com/wirelens/wirelens/ui"
	"github.com/wirelens/wirelens/wire"
)

// TestViewDemoOptions checks what the demo opens: the legacy request with
// workspace text in its system prompt, the isolated one without, each built
// twice, the first builds marked for the diff, the tour on.
func TestViewDemoOptions(t *testing.T) {
	opts, err := demoOptions(&App{Theme: "mono"})
	if err != nil {
		t.Fatal(err)
	}
	if len(opts.Requests) != 4 || !opts.Tour || !reflect.DeepEqual(opts.Marks, []int{0, 2}) {
		t.Fatalf("demo options: %d requests, tour %v, marks %v", len(opts.Requests), opts.Tour, opts.Marks)
	}
	untrustedInSystem := func(r wire.Request) int {
		n := 0
		for _, s := range r.Segments {
			if s.Channel == wire.ChannelSystem && s.Trust == wire.Untrusted {
				n++
			}
		}
		return n
	}
	// Each layout is built twice: the legacy pair, then the isolated pair.
	for i, legacy := range []bool{true, true, false, false} {
		if n := untrustedInSystem(opts.Requests[i]); (n > 0) != legacy {
			t.Fatalf("request %d has %d untrusted system segments", i+1, n)
		}
	}
	m := ui.New(opts)
	m.Update(nil)
	screen := m.Render()
	for _, want := range []string{"Tour:", "[UNTRUSTED]", "#1 LEGACY", "1 LEGACY", "2 LEGACY", "3 ISOLATED", "4 ISOLATED"} {
		if !strings.Contains(screen, want) || strings.ContainsRune(screen, 0x1b) {
			t.Fatalf("demo first screen lacks %q:\n%s", want, screen)
		}
	}
}

// TestWatchStreamPassesRebuildsToTheViewer checks what the viewer gets of a
// watcher's stream: each build and note in order, as live items (no
// progress, no input error), but no unchanged rebuild, and the end of the
// stream.
func TestWatchStreamPassesRebuildsToTheViewer(t *testing.T) {
	req := &wire.Request{Index: 2}
	failed := errors.New("x: no such directory")
	in := make(chan assemble.Rebuild, 4)
	in <- assemble.Rebuild{Request: req, Report: &assemble.RefreshReport{}, Note: "#2 rebuilt: nothing changed on the wire"}
	in <- assemble.Rebuild{Unchanged: true, Note: "#2 unchanged: only the time would change on the wire"}
	in <- assemble.Rebuild{Note: "rebuild failed: " + failed.Error(), Err: failed}
	in <- assemble.Rebuild{Note: "watch: queue overflow", Err: errors.New("queue overflow")}
	close(in)
	var got []ui.Item
	for it := range watchStream(context.Background(), in) {
		got = append(got, it)
	}
	want := []ui.Item{
		{Req: req, Note: "#2 rebuilt: nothing changed on the wire", Progress: -1},
		{Note: "rebuild failed: x: no such directory", Progress: -1},
		{Note: "watch: queue overflow", Progress: -1},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("items %+v, want %+v", got, want)
	}
}

// TestWatchRebuildsOnChange runs the watch command's watcher on a workspace,
// edits its AGENTS.md and waits for the rebuild in the viewer's stream.
func TestWatchRebuildsOnChange(t *testing.T) {
	dir := t.TempDir()
	agents := filepath.Join(dir, "AGENTS.md")
	if err := os.WriteFile(agents, []byte("# Notes\nUse tabs.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	w := newWatcher(&App{In: wire.NewInterner()}, dir, assemble.LayoutLegacy, wire.FormatAnthropic, nil, nil, false)
	first := w.Build()
	if first.Err != nil {
		t.Fatal(first.Err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rebuilds, err := w.Watch(ctx, first)
	if err != nil {
		t.Fatal(err)
	}
	stream := watchStream(ctx, rebuilds)
	next := func(what string) ui.Item {
		t.Helper()
		for {
			select {
			case it, ok := <-stream:
				if !ok {
					t.Fatalf("%s: the stream ended", what)
				}
				if it.Req != nil || strings.HasPrefix(it.Note, "rebuild failed") {
					return it
				}
			case <-time.After(20 * time.Second):
				t.Fatalf("%s: no rebuild", what)
			}
		}
	}
	if it := next("first"); it.Req.Index != 1 || it.Note != "#1 built legacy layout" {
		t.Fatalf("first item: request %d, note %q", it.Req.Index, it.Note)
	}
	if err := os.WriteFile(agents, []byte("# Notes\nUse spaces.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	it := next("after the edit")
	if it.Req == nil || it.Req.Index != 2 || !strings.Contains(it.Note, "changed") {
		t.Fatalf("after the edit: %+v", it)
	}
	text := ""
	for _, s := range it.Req.Segments {
		text += s.Text
	}
	if !strings.Contains(text, "Use spaces.") {
		t.Fatal("the rebuild does not hold the edited AGENTS.md")
	}
	if strings.Contains(it.Note, "(s)") {
		t.Errorf("note %q", it.Note)
	}
	// The time is frozen between rebuilds (no --live-clock): the legacy
	// prefix breaks at the edited AGENTS.md, not at the clock.
	steps, _ := diff.Analyze([]wire.Request{*first.Request, *it.Req})
	if len(steps) != 1 || steps[0].Break == nil || steps[0].Break.Kind != wire.KindAgentsMD {
		t.Fatalf("the legacy prefix does not break at AGENTS.md: %+v", steps[0].Break)
	}
}

// TestWatchHeaderShowsTheLayout: the layout watch starts in is in the
// header from the first screen, first in its information, so 80 columns do
// not cut it; --live-clock is offered and README says what watch shows.
func TestWatchHeaderShowsTheLayout(t *testing.T) {
	req, _, err := demoRequests()
	if err != nil {
		t.Fatal(err)
	}
	m := ui.New(ui.Options{Requests: []wire.Request{req}, Analysis: ui.DefaultAnalysis(), Theme: "mono",
		Toggle: func() (string, error) { return "isolated", nil }, Layout: "legacy", Live: true})
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	head, _, _ := strings.Cut(m.Render(), "\n")
	if !strings.Contains(head, "│ LEGACY · ") {
		t.Errorf("80-column header without the whole layout: %q", head)
	}
	code, out, _ := runCLI(t, "", "watch", "--help")
	if code != 0 || !strings.Contains(out, "--live-clock") {
		t.Errorf("watch --help lacks --live-clock:\n%s", out)
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "`--live-clock`") {
		t.Error("README does not document --live-clock")
	}
}

// TestViewCacheOneSequenceLikeCache checks that the viewer compares the
// requests of several files as one sequence, as `cache A B` does (the first
// request of the second file is compared with the last of the first), and
// that --separate (CompareBySource) makes each file a sequence of its own;
// the plain report follows both.
func TestViewCacheOneSequenceLikeCache(t *testing.T) {
	files := []string{"testdata/payloads/anthropic-messages.json", "testdata/sessions/session.jsonl"}
	app := &App{In: wire.NewInterner()}
	l := app.Load(files)
	if len(l.Errors) > 0 || len(l.Requests) != 4 {
		t.Fatalf("fixtures: %d requests, errors %v", len(l.Requests), l.Errors)
	}
	compared := func(steps []*diff.Step) []int {
		var got []int
		for i, st := range steps {
			if st != nil {
				got = append(got, i)
			}
		}
		return got
	}
	one := ui.DefaultAnalysis().Cache(l.Requests)
	if got := compared(one); !reflect.DeepEqual(got, []int{1, 2, 3}) {
		t.Fatalf("one sequence: steps for requests %v, want [1 2 3]", got)
	}
	if st := one[1]; st.PrevSource != files[0] || st.Source != files[1] {
		t.Fatalf("the second file's first request is compared with %s@%d, want the first file's", st.PrevSource, st.PrevIndex)
	}
	// The same as cache's own comparison of the same files.
	var seq diff.Sequence
	for i := range l.Requests {
		st := seq.Add(&l.Requests[i])
		if (st == nil) != (one[i] == nil) || (st != nil && (st.PrefixTokens != one[i].PrefixTokens || st.PrevIndex != one[i].PrevIndex)) {
			t.Fatalf("request %d: the viewer's step differs from cache's", i+1)
		}
	}
	apart := ui.CompareBySource(l.Requests)
	if got := compared(apart); !reflect.DeepEqual(got, []int{2, 3}) {
		t.Fatalf("--separate: steps for requests %v, want [2 3]", got)
	}
	for _, i := range []int{2, 3} {
		if st := apart[i]; st.TotalTokens <= 0 || st.PrefixTokens > st.TotalTokens || st.PrevSource != files[1] {
			t.Fatalf("step %+v", st)
		}
	}
	// The report's words, its wrapping undone.
	report := func(args ...string) string {
		var out, errb strings.Builder
		if code := run(context.Background(), append([]string{"view"}, args...), strings.NewReader(""), &out, &errb); code != 0 {
			t.Fatalf("view %v: exit %d: %s", args, code, errb.String())
		}
		return strings.Join(strings.Fields(out.String()), " ")
	}
	if r := report(files...); strings.Count(r, "compared with the one before") != 1 || !strings.Contains(r, "4 requests, 3 compared") {
		t.Fatalf("the report of two files is not one sequence of 4 requests:\n%s", r)
	}
	if r := report(append([]string{"--separate"}, files...)...); !strings.Contains(r, "3 requests, 2 compared") {
		t.Fatalf("view --separate: the first file (one request) is compared with the second:\n%s", r)
	}
}

// TestViewReportWhenNotATerminal checks the plain report view prints into a
// pipe: segments, findings and the cache, nothing raw from the payload.
func TestViewReportWhenNotATerminal(t *testing.T) {
	var out, errb strings.Builder
	code := run(context.Background(), []string{"view", "testdata/sessions/session.jsonl"}, strings.NewReader(""), &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"session.jsonl@3", "requests checked", "compared with the one before", "session.jsonl@2"} {
		if !strings.Contains(out.String(), want) {
			t.Fatalf("report lacks %q:\n%s", want, out.String())
		}
	}
	hostile := `{"model":"m\u001b]0;x\u0007","max_tokens":1,"system":"s","messages":[{"role":"user","content":"a\u001b[2J\u202eb"}]}` + "\n" +
		`{"model":"m\u001b]0;x\u0007","max_tokens":1,"system":"s2\u009b1m","messages":[{"role":"user","content":"a\u001b[2J\u202eb"}]}`
	out.Reset()
	code = run(context.Background(), []string{"view", "-"}, strings.NewReader(hostile), &out, &errb)
	if code != 0 {
		t.Fatalf("hostile: exit %d: %s", code, errb.String())
	}
	for _, bad := range []string{"\x1b", "\u202e", "\u009b"} {
		if strings.Contains(out.String(), bad) {
			t.Fatalf("the report holds %q raw:\n%q", bad, out.String())
		}
	}
	if !strings.Contains(out.String(), "compared with the one before") {
		t.Fatalf("hostile report lacks the cache:\n%s", out.String())
	}
	// the root command forwards FILE to view
	out.Reset()
	if code := run(context.Background(), []string{"testdata/sessions/session.jsonl"}, strings.NewReader(""), &out, &errb); code != 0 || !strings.Contains(out.String(), "compared with the one before") {
		t.Fatalf("wirelens FILE: exit %d\n%s", code, out.String())
	}
}

// TestViewDiffCarriesWords checks the segment diff reaches the viewer with
// its word diff.
func TestViewDiffCarriesWords(t *testing.T) {
	app := &App{In: wire.NewInterner()}
	l := app.Load([]string{"testdata/sessions/session.jsonl"})
	if len(l.Requests) < 2 {
		t.Fatalf("fixture: %d requests", len(l.Requests))
	}
	a, b := l.Requests[0], l.Requests[0]
	b.Segments = append([]wire.Segment(nil), a.Segments...)
	for i := range b.Segments {
		if b.Segments[i].Channel == wire.ChannelSystem {
			b.Segments[i].Text = strings.Replace(b.Segments[i].Text, "coding", "helpful", 1)
			b.Segments[i].Hash = wire.HashText(b.Segments[i].Text)
		}
	}
	d := ui.DefaultAnalysis().Diff(&a, &b)
	if d.First == nil {
		t.Fatal("no divergence found")
	}
	words := 0
	for _, s := range d.Segments {
		for _, h := range s.Hunks {
			for _, w := range h.Words {
				if w.Op != diff.OpEqual && (w.Text == "coding" || w.Text == "helpful") {
					words++
				}
			}
		}
	}
	if words != 2 {
		t.Fatalf("changed words carried: %d, want 2 (%+v)", words, d.Segments)
	}
}

// watch and build describe the same host: a workspace watched and a
// workspace built carry the same isolated system prompt.
func TestWatchAndBuildShareTheHostFacts(t *testing.T) {
	t.Setenv("SHELL", "/usr/bin/fish")
	dir := filepath.Join("testdata", "workspaces", "clean")
	w := newWatcher(&App{In: wire.NewInterner()}, dir, assemble.LayoutIsolated, wire.FormatAnthropic, nil, nil, false)
	first := w.Build()
	if first.Err != nil {
		t.Fatal(first.Err)
	}
	watched := first.Request
	code, out, stderr := runCLI(t, "", "build", dir)
	if code != 0 {
		t.Fatalf("build: exit %d: %s", code, stderr)
	}
	var body struct {
		System []struct {
			Text string `json:"text"`
		} `json:"system"`
	}
	if err := json.Unmarshal([]byte(out), &body); err != nil || len(body.System) != 1 {
		t.Fatalf("build output: %v", err)
	}
	var sys string
	for _, s := range watched.Segments {
		if s.Channel == wire.ChannelSystem {
			sys += s.Text
		}
	}
	if !strings.Contains(sys, "fish") || sys != body.System[0].Text {
		t.Fatalf("watch's system prompt differs from build's (or misses the shell):\nwatch: %.200q\nbuild: %.200q", sys, body.System[0].Text)
	}
}

// TestWatchLabelsEachBuildByItsLayout: after L (the watcher's Toggle), the
// request list still says which build is of which layout: LEGACY and
// ISOLATED, as in the demo (watch gave its builds no label).
func TestWatchLabelsEachBuildByItsLayout(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "AGENTS.md"), []byte("# Notes\nUse tabs.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	w := newWatcher(&App{In: wire.NewInterner()}, dir, assemble.LayoutLegacy, wire.FormatAnthropic, nil, nil, false)
	first := w.Build()
	w.Toggle()
	second := w.Build()
	if first.Err != nil || second.Err != nil || second.Request == nil {
		t.Fatalf("builds: %v, %v", first.Err, second.Err)
	}
	labels := watchLabels(dir)
	if labels[first.Request.Source] != "LEGACY" || labels[second.Request.Source] != "ISOLATED" {
		t.Fatalf("labels %v for sources %q and %q", labels, first.Request.Source, second.Request.Source)
	}
	m := ui.New(ui.Options{Requests: []wire.Request{*first.Request, *second.Request}, Analysis: ui.DefaultAnalysis(),
		Theme: "mono", Labels: labels, Layout: "isolated", Live: true})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	screen := m.Render()
	for _, want := range []string{"1 LEGACY", "2 ISOLATED"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the list lacks %q:\n%s", want, screen)
		}
	}
}
