package ui

import (
	"fmt"
	"os"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/wirelens/wirelens/themes"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/decode"
)

// responseTrace is the Response view's fixture (testdata/response): a
// request with a streamed response, and one recorded without.
const responseTrace = "testdata/response/trace.jsonl"

func responseSession(t testing.TB) []wire.Request {
	t.Helper()
	f, err := os.Open(responseTrace)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var reqs []wire.Request
	for r, err := range decode.Decode(f, decode.Options{Source: responseTrace}) {
		if err != nil {
			t.Fatal(err)
		}
		reqs = append(reqs, r)
	}
	if len(reqs) != 2 {
		t.Fatalf("%d requests in %s", len(reqs), responseTrace)
	}
	return reqs
}

// TestResponseView: 7 shows the response recorded with the selected
// request: its status, headers with the key masked, usage and the answer
// joined from the stream's deltas, its hazards made visible; a request
// recorded without one says so, and so does one built or piped.
func TestResponseView(t *testing.T) {
	m := startModel(t, Options{Requests: responseSession(t), Theme: themes.Mono}, 120, 40)
	pressKeys(t, m, "7")
	screen := plain(m.Render())
	assertClean(t, "response", screen)
	for _, want := range []string{"Response · #1", "HTTP 200 · text/event-stream · 10 server-sent events", "request-id: req_011",
		"input 2,200 tokens (cached 1,000, cache writes 0)", "output 42", "The tests pass. Run ⟦␛[31m⟧make⟦␛[0m⟧ next; the file ⟦[U+202E]⟧gnp.sh",
		`[tool call Bash] {"command":"make test"}`, "7 Response"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the Response view does not show %q:\n%s", want, screen)
		}
	}
	if strings.Contains(screen, "Xy9Xy9") || !strings.Contains(screen, "x-api-key: ") {
		t.Errorf("the API key is not masked:\n%s", screen)
	}
	pressKeys(t, m, "1", "shift+tab", "j", "7")
	if s := plain(m.Render()); !strings.Contains(s, "Response · #2") || !strings.Contains(s, "No response was recorded with this request") {
		t.Errorf("a request without a response:\n%s", s)
	}
	reqs, a := goldenSession()
	m = startModel(t, Options{Requests: reqs, Analysis: a, Theme: themes.Mono}, 100, 30)
	pressKeys(t, m, "7")
	if s := plain(m.Render()); !strings.Contains(s, "No response was recorded") {
		t.Errorf("a request not on disk:\n%s", s)
	}
}

// TestZoomKey: z gives the focused pane the screen (the content reflows to
// the whole width), tab moves the zoom to the next pane, z again gives the
// layout back; elsewhere z says what it does.
func TestZoomKey(t *testing.T) {
	reqs, a := goldenSession()
	m := startModel(t, Options{Requests: reqs, Analysis: a, Theme: themes.Mono}, 80, 24)
	pressKeys(t, m, "tab", "tab")
	if m.pane() != paneContent {
		t.Fatalf("pane %d, want the content", m.pane())
	}
	narrow := m.body.Width
	pressKeys(t, m, "z")
	s := plain(m.Render())
	if m.body.Width != 78 || narrow >= 78 || strings.Contains(s, "Requests") || strings.Contains(s, "TRUSTED PREFIX") {
		t.Fatalf("zoomed content (width %d, was %d):\n%s", m.body.Width, narrow, s)
	}
	if top := strings.Split(s, "\n")[1]; !strings.HasPrefix(top, "╔═ messages[0].content[0]/untrusted_agents_md") {
		t.Fatalf("the zoomed pane does not start at the left edge: %q", top)
	}
	pressKeys(t, m, "tab")
	if s := plain(m.Render()); !strings.Contains(s, "Requests") || strings.Contains(s, "MESSAGES") {
		t.Fatalf("tab while zoomed, the list alone:\n%s", s)
	}
	pressKeys(t, m, "z")
	if s := plain(m.Render()); !strings.Contains(s, "Requests") || !strings.Contains(s, "MESSAGES") || m.body.Width != narrow {
		t.Fatalf("z again, the layout back (width %d):\n%s", m.body.Width, s)
	}
	pressKeys(t, m, "3", "z")
	if m.zoom || !strings.Contains(m.status, "z zooms a pane of the wire view") {
		t.Fatalf("z in Findings: zoom %v, %q", m.zoom, m.status)
	}
}

// TestMouseKey: M leaves the mouse to the terminal (no mouse mode asked
// for, so its own selection works) and says so, and the status line goes
// on saying so; M again takes it back.
func TestMouseKey(t *testing.T) {
	reqs, a := goldenSession()
	m := startModel(t, Options{Requests: reqs, Analysis: a, Theme: themes.Mono}, 80, 24)
	if m.View().MouseMode != tea.MouseModeCellMotion {
		t.Fatal("the viewer does not start with the mouse")
	}
	pressKeys(t, m, "M")
	if m.View().MouseMode != tea.MouseModeNone || !strings.Contains(plain(m.Render()), "mouse: the terminal's") {
		t.Fatalf("after M: mode %v, status %q", m.View().MouseMode, m.status)
	}
	pressKeys(t, m, "j")
	if s := plain(m.Render()); !strings.Contains(s, "mouse: terminal (M) · #1 session.jsonl · system[0]/host-rules") {
		t.Fatalf("after M and another key, the status line does not say the terminal has the mouse:\n%s", s)
	}
	pressKeys(t, m, "M")
	if m.View().MouseMode != tea.MouseModeCellMotion || !strings.Contains(m.status, "mouse: the viewer's") {
		t.Fatalf("after M M: mode %v, status %q", m.View().MouseMode, m.status)
	}
}

// TestHopKeys: ] goes through every finding and hazard in order, within a
// segment, across segments and across requests, showing each in the
// content; past the last it says so and starts again at the first; [ goes
// back the same way; with none in the requests listed it says so.
func TestHopKeys(t *testing.T) {
	reqs, a := goldenSession()
	m := startModel(t, Options{Requests: reqs, Analysis: a, Theme: themes.Mono}, 120, 40)
	type at struct{ req, off int }
	var seen []at
	var statuses []string
	for range 8 {
		pressKeys(t, m, "]")
		seen = append(seen, at{m.cur(), m.body.Target})
		statuses = append(statuses, m.status)
		if m.view != viewWire || m.focus != focusContent || m.segID() == "" {
			t.Fatalf("] did not show the stop in the content: view %d focus %d", m.view, m.focus)
		}
	}
	// Request 1: the finding in its system prompt; request 4: the
	// control-char finding, the hazards (two escape sequences, the bidi
	// override) and the bidi-control finding, in the order of their
	// offsets; then back to request 1.
	want := []at{{0, 0}, {3, 25}, {3, 26}, {3, 30}, {3, 50}, {3, 51}, {0, 0}, {3, 25}}
	if fmt.Sprint(seen) != fmt.Sprint(want) {
		t.Fatalf("] stopped at %v, want %v (%q)", seen, want, statuses)
	}
	if statuses[0] != "#1 system[0]/agents-md @0 · high untrusted-in-system: workspace text in the system prompt" {
		t.Errorf("the first stop says %q", statuses[0])
	}
	if !strings.HasPrefix(statuses[6], "past the last finding or hazard, back to the first: ") || strings.Contains(statuses[5]+statuses[7], "past") {
		t.Errorf("the wrap is not said, or said early: %q", statuses)
	}
	pressKeys(t, m, "[")
	if got := (at{m.cur(), m.body.Target}); got != (at{0, 0}) || strings.Contains(m.status, "first") {
		t.Errorf("[ went to %v, want #1 @0 (%q)", got, m.status)
	}
	pressKeys(t, m, "[")
	if got := (at{m.cur(), m.body.Target}); got != (at{3, 51}) || !strings.HasPrefix(m.status, "before the first finding or hazard, on to the last: ") {
		t.Errorf("[ before the first went to %v (%q)", got, m.status)
	}
	pressKeys(t, m, "f")
	typeText(t, m, "#2")
	pressKeys(t, m, "enter", "]")
	if m.status != "no finding or hazard in the requests listed" {
		t.Errorf("] with none listed: %q", m.status)
	}
}

// segID is the ID of the selected segment, "" none.
func (m *Model) segID() string {
	if c, s := m.cur(), m.curSeg(); s >= 0 {
		return m.reqs[c].req.Segments[s].ID
	}
	return ""
}

// TestCutLinesKeys: W cuts the long lines of Raw and Response at the edge
// (› where they go on), ←/→ scroll sideways (‹), W wraps them again; in
// Diff the same; elsewhere W says where it works.
func TestCutLinesKeys(t *testing.T) {
	m := startModel(t, Options{Requests: responseSession(t), Theme: themes.Mono}, 80, 24)
	pressKeys(t, m, "7")
	row := func(sub string) string {
		for _, l := range strings.Split(plain(m.Render()), "\n") {
			if strings.Contains(l, sub) {
				return l
			}
		}
		return ""
	}
	if l := row("A long line follows"); strings.Contains(l, "›") || row("word39 END.") == "" {
		t.Fatalf("wrapped, the long line is cut: %q", l)
	}
	pressKeys(t, m, "W")
	if l := row("A long line follows"); !strings.Contains(l, "›") || row("END.") != "" || !m.cutLines {
		t.Fatalf("after W the long line is not cut with a marker: %q\n%s", l, plain(m.Render()))
	}
	for range 20 {
		pressKeys(t, m, "l")
	}
	if l := row("END."); !strings.Contains(l, "‹") {
		t.Fatalf("after l, the end of the long line does not show: %q\n%s", l, plain(m.Render()))
	}
	pressKeys(t, m, "h", "W")
	if m.cutLines || m.raw.XOff != 0 || row("word39 END.") == "" {
		t.Fatalf("W again does not wrap:\n%s", plain(m.Render()))
	}
	pressKeys(t, m, "6", "W", "1", "W")
	if !m.cutLines || !strings.Contains(m.status, "W wraps or cuts the long lines of Diff, Raw and Response") {
		t.Fatalf("W in the wire view: %v %q", m.cutLines, m.status)
	}
}

// TestUIGoldenNav renders the views the navigation keys change at 80x24
// and 120x40 in the dark, light and mono themes and compares them with
// testdata/TestUIGoldenNav/*.golden (-update rewrites them): the Response
// view with and without a response, the zoomed panes, Raw and Diff with
// their lines cut and scrolled sideways.
func TestUIGoldenNav(t *testing.T) {
	greqs, a := goldenSession()
	rreqs := responseSession(t)
	views := []struct {
		name string
		reqs []wire.Request
		keys []string
	}{
		{"response", rreqs, []string{"7"}},
		{"response-none", greqs, []string{"7"}},
		{"response-cut", rreqs, []string{"7", "W", "l"}},
		{"zoom-messages", greqs, []string{"shift+tab", "G", "tab", "tab", "z"}},
		{"zoom-content", greqs, []string{"shift+tab", "G", "tab", "tab", "tab", "z"}},
		{"zoom-list", greqs, []string{"shift+tab", "z"}},
		{"raw-wrapped", rreqs, []string{"6"}},
		{"raw-cut", rreqs, []string{"6", "W"}},
		{"diff-cut", greqs, []string{"5", "W"}},
	}
	for _, theme := range []string{themes.Dark, themes.Light, themes.Mono} {
		for _, size := range [][2]int{{80, 24}, {120, 40}} {
			for _, v := range views {
				name := fmt.Sprintf("%s_%dx%d_%s", v.name, size[0], size[1], theme)
				t.Run(name, func(t *testing.T) {
					an := a
					if len(v.reqs) != len(greqs) {
						an = DefaultAnalysis()
					}
					m := startModel(t, Options{Requests: v.reqs, Analysis: an, Theme: theme, Title: "golden"}, size[0], size[1])
					pressKeys(t, m, v.keys...)
					out := m.Render()
					assertClean(t, name, out)
					golden.RequireEqual(t, []byte(out))
				})
			}
		}
	}
}

// TestColumnsGrow (issue 25 item 9): at 200 columns the Escapes table's
// segment column holds whole the envelope, source and segment that 80
// columns cut, and the Findings table's segment column the whole segment
// ID; the column is no wider than its widest text needs.
func TestColumnsGrow(t *testing.T) {
	reqs, a := goldenSession()
	row := func(m *Model, sub string) string {
		for _, l := range strings.Split(plain(m.Render()), "\n") {
			if strings.Contains(l, sub) {
				return l
			}
		}
		return ""
	}
	where := "untrusted_agents_md /repo/AGENTS.md · messages[0].content[0]/untrusted_agents_md"
	narrow := startModel(t, Options{Requests: reqs, Analysis: a, Theme: themes.Mono}, 80, 24)
	wide := startModel(t, Options{Requests: reqs, Analysis: a, Theme: themes.Mono}, 200, 50)
	pressKeys(t, narrow, "2")
	pressKeys(t, wide, "2")
	if l := row(narrow, "entity"); l == "" || strings.Contains(l, where) {
		t.Fatalf("80 columns: %q", l)
	}
	l := row(wide, "@24")
	if !strings.Contains(l, where+" @24") && !strings.Contains(l, where+"  ") {
		t.Fatalf("200 columns, the escape's row does not hold its segment whole: %q", l)
	}
	if i := strings.Index(l, where); i < 0 || strings.Index(l, "@24")-i-len(where) > 4 {
		t.Fatalf("200 columns, the segment column is wider than it needs: %q", l)
	}
	pressKeys(t, wide, "3")
	if l := row(wide, "bidi-control"); !strings.Contains(l, "messages[1].content[0] @51") {
		t.Fatalf("200 columns, Findings: %q", l)
	}
}

// TestResponseViewHAR: a HAR export's response (Polly.js's gzip body in
// base64 chunks) in the Response view: its status, headers and the chat
// completion's message.
func TestResponseViewHAR(t *testing.T) {
	path := "../testdata/har/polly-openai-chat.har"
	var reqs []wire.Request
	for r, err := range decode.Path(path, decode.Options{}) {
		if err != nil {
			t.Fatal(err)
		}
		reqs = append(reqs, r)
	}
	m := startModel(t, Options{Requests: reqs, Theme: themes.Mono}, 120, 40)
	pressKeys(t, m, "7")
	s := plain(m.Render())
	for _, want := range []string{"HTTP 200 · application/json", "content-encoding: gzip", "── message", "OpenTelemetry"} {
		if !strings.Contains(s, want) {
			t.Errorf("the HAR's response does not show %q:\n%s", want, s)
		}
	}
}
