package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/wirelens/wirelens/themes"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/decode"
)

// qwenSession is the qwen-code capture: the main agent's requests with
// its memory subagent's between them (two lanes).
func qwenSession(t *testing.T) []wire.Request {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "testdata", "agents", "qwen-code.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var reqs []wire.Request
	for r, err := range decode.Decode(f, decode.Options{Source: "qwen-code.jsonl"}) {
		if err != nil {
			t.Fatal(err)
		}
		reqs = append(reqs, r)
	}
	return reqs
}

// TestUIGoldenLanes renders the Cache view of a session of two lanes at
// 80x24 (the table: too narrow for the lanes) and 120x40 (the lanes side
// by side) in the dark, light and mono themes, against
// testdata/TestUIGoldenLanes/*.golden (-update rewrites them).
func TestUIGoldenLanes(t *testing.T) {
	reqs := qwenSession(t)
	for _, theme := range []string{themes.Dark, themes.Light, themes.Mono} {
		for _, size := range [][2]int{{80, 24}, {120, 40}} {
			name := fmt.Sprintf("cache_%dx%d_%s", size[0], size[1], theme)
			t.Run(name, func(t *testing.T) {
				m := startModel(t, Options{Requests: reqs, Analysis: DefaultAnalysis(), Theme: theme, Title: "lanes"}, size[0], size[1])
				pressKeys(t, m, "4")
				out := m.Render()
				assertClean(t, name, out)
				if theme == themes.Mono && strings.ContainsRune(out, 0x1b) {
					t.Fatal("mono output holds an escape sequence")
				}
				golden.RequireEqual(t, []byte(out))
			})
		}
	}
}

// laneRows are the screen's lines that hold a request of the Cache view
// (a "#N" name), by request number.
func laneRows(screen string) map[int]string {
	rows := map[int]string{}
	for _, l := range strings.Split(screen, "\n") {
		for n := 1; n <= 9; n++ {
			if strings.Contains(l, fmt.Sprintf("#%d ", n)) {
				rows[n] = l
			}
		}
	}
	return rows
}

// TestUICacheLanesSideBySide: at 120 columns a session of two lanes shows
// one column per lane, each headed by its name, requests, reuse and cost;
// every request is on its own row, in time order, in its own lane's column
// (the main agent's left of the separator, the subagent's right of it); v
// turns the view back into the table with its lane column and again into
// the lanes; narrower than 120 columns, and for a session of one lane, the
// view stays the table.
func TestUICacheLanesSideBySide(t *testing.T) {
	reqs := qwenSession(t)
	steps := DefaultAnalysis().Cache(reqs)
	m := startModel(t, Options{Requests: reqs, Analysis: DefaultAnalysis(), Theme: themes.Mono}, 120, 40)
	pressKeys(t, m, "4")
	screen := plain(m.Render())
	head := ""
	for _, l := range strings.Split(screen, "\n") {
		if strings.Contains(l, "main") && strings.Contains(l, "subagent:1") {
			head = l
		}
	}
	if head == "" || !strings.Contains(head, "reuse 0.99") || !strings.Contains(head, "no price") || !strings.Contains(screen, "lanes (v: table)") {
		t.Fatalf("no lane heads with their reuse and cost side by side:\n%s", screen)
	}
	if !strings.Contains(head, "│") {
		t.Fatalf("no separator between the lanes: %q", head)
	}
	rows := laneRows(screen)
	if len(rows) != len(reqs) {
		t.Fatalf("%d request rows, want %d:\n%s", len(rows), len(reqs), screen)
	}
	for n := 1; n <= len(reqs); n++ {
		lane := "main"
		if st := steps[n-1]; st != nil {
			lane = st.Lane.Name
		}
		before := rows[n][:strings.Index(rows[n], fmt.Sprintf("#%d ", n))]
		if left := !strings.Contains(before, "│"); left != (lane == "main") {
			t.Errorf("#%d of lane %s is in the wrong column: %q", n, lane, rows[n])
		}
	}
	if !strings.Contains(rows[2], "new lane") && !strings.Contains(rows[3], "new lane") {
		t.Errorf("the subagent's first request does not say it starts its lane:\n%s", screen)
	}
	pressKeys(t, m, "v")
	table := plain(m.Render())
	if strings.Contains(table, "lanes (v: table)") || !strings.Contains(table, "lane ") || !strings.Contains(table, "subagent:1") {
		t.Fatalf("v did not turn the lanes into the table with its lane column:\n%s", table)
	}
	pressKeys(t, m, "v")
	if again := plain(m.Render()); again != screen {
		t.Fatalf("v twice is not the lanes again:\n%s", again)
	}
	narrow := startModel(t, Options{Requests: reqs, Analysis: DefaultAnalysis(), Theme: themes.Mono}, 119, 40)
	pressKeys(t, narrow, "4")
	if s := plain(narrow.Render()); strings.Contains(s, "lanes (v: table)") {
		t.Fatalf("the lanes at 119 columns:\n%s", s)
	}
	one := startModel(t, Options{Requests: testSession(), Analysis: DefaultAnalysis(), Theme: themes.Mono}, 160, 40)
	pressKeys(t, one, "4")
	if s := plain(one.Render()); strings.Contains(s, "lanes (v: table)") {
		t.Fatalf("the lanes for a session of one lane:\n%s", s)
	}
}

// TestUICacheLanesFirstRequest: the first request of a session has no
// step; it goes in the lane the next request says it was compared with,
// not in main's whatever it is: Gemini CLI's routing classifier (#1, #3)
// in its own column left of the agent's (#2, #4); opencode's title
// request (#1) beside the agent's (#2), a session whose only step is
// main's.
func TestUICacheLanesFirstRequest(t *testing.T) {
	for _, tc := range []struct {
		file, first string
		left        []int
	}{
		{"gemini-cli-resume-clean.jsonl", "classifier", []int{1, 3}},
		{"opencode.jsonl", "title", []int{1}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			f, err := os.Open(filepath.Join("..", "testdata", "agents", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			var reqs []wire.Request
			for r, err := range decode.Decode(f, decode.Options{Source: tc.file}) {
				if err != nil {
					t.Fatal(err)
				}
				reqs = append(reqs, r)
			}
			m := startModel(t, Options{Requests: reqs, Analysis: DefaultAnalysis(), Theme: themes.Mono}, 140, 40)
			pressKeys(t, m, "4")
			screen := plain(m.Render())
			head := ""
			for _, l := range strings.Split(screen, "\n") {
				if i, j := strings.Index(l, tc.first), strings.Index(l, "main"); i >= 0 && j > i && strings.Contains(l[i:j], "│") {
					head = l
				}
			}
			if head == "" {
				t.Fatalf("no %s column left of main's:\n%s", tc.first, screen)
			}
			rows := laneRows(screen)
			if len(rows) != len(reqs) {
				t.Fatalf("%d request rows, want %d:\n%s", len(rows), len(reqs), screen)
			}
			for n := 1; n <= len(reqs); n++ {
				before := rows[n][:strings.Index(rows[n], fmt.Sprintf("#%d ", n))]
				want := false
				for _, k := range tc.left {
					want = want || k == n
				}
				if left := !strings.Contains(before, "│"); left != want {
					t.Errorf("#%d in the wrong column (left %v): %q", n, left, rows[n])
				}
			}
		})
	}
}
