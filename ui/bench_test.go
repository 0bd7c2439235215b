package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/wirelens/wirelens/themes"
	"github.com/wirelens/wirelens/ui/cells"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/decode"
	"github.com/wirelens/wirelens/wire/scan"
)

// bigText is about n bytes of markdown and JSON lines with a few hazards.
func bigText(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		switch i % 4 {
		case 0:
			fmt.Fprintf(&b, "## Section %d\n", i)
		case 1:
			fmt.Fprintf(&b, `{"id": %d, "name": "item-%d", "tags": ["a", "b"], "ok": true}`+"\n", i, i)
		case 2:
			fmt.Fprintf(&b, "- a list item with some words in it, number %d, and `code`\n", i)
		default:
			if i%400 == 3 {
				b.WriteString("hidden \x1b[2J escape and \u202e override\n")
			} else {
				b.WriteString("Plain prose that goes on for a while to fill the line with ordinary text.\n")
			}
		}
	}
	return b.String()
}

// bigModel opens a request whose tool result is text, prepared (indexed
// and highlighted), with the content pane focused.
func bigModel(b *testing.B, text string) *Model {
	r := testReq("m", 1,
		wire.Part{ID: "system[0]", Channel: wire.ChannelSystem, Role: "system", Type: "text", Text: "rules"},
		wire.Part{ID: "messages[0].content[0]", Channel: wire.ChannelMessages, Role: "tool", Type: "tool_result", Text: text})
	m := startModel(b, Options{Requests: []wire.Request{r}, Theme: themes.Dark}, 160, 48)
	pressKeys(b, m, "l", "tab")
	if m.focus != focusContent || len(m.body.Sent) != len(text) || m.body.Rows == nil {
		b.Fatalf("not on the big segment: focus %d, %d bytes, indexed %v", m.focus, len(m.body.Sent), m.body.Rows != nil)
	}
	return m
}

// BenchmarkUIKeypress1MB is one key press (scroll down a line) on a 1 MB
// segment and the frame it renders. The budget is 16 ms per frame.
func BenchmarkUIKeypress1MB(b *testing.B) {
	m := bigModel(b, bigText(1<<20))
	down, up := keyPress("j"), keyPress("k")
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		k := down
		if (i/500)%2 == 1 {
			k = up
		}
		m.Update(k)
		_ = m.View()
	}
}

// BenchmarkUIKeypress1MBOneLine is the same on a 1 MB segment of one line
// (minified JSON), page by page.
func BenchmarkUIKeypress1MBOneLine(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("[")
	for i := 0; sb.Len() < 1<<20; i++ {
		fmt.Fprintf(&sb, `{"id":%d,"name":"item-%d","ok":true},`, i, i)
	}
	sb.WriteString("0]")
	m := bigModel(b, sb.String())
	pg := keyPress("pgdown")
	b.ResetTimer()
	for b.Loop() {
		m.Update(pg)
		_ = m.View()
	}
}

// BenchmarkUIFirstPlainFrame is the frame shown for a 1 MB segment before
// its index and highlighting arrive (the plain view).
func BenchmarkUIFirstPlainFrame(b *testing.B) {
	text := bigText(1 << 20)
	r := testReq("m", 1, wire.Part{ID: "messages[0].content[0]", Channel: wire.ChannelMessages, Role: "tool", Type: "tool_result", Text: text})
	b.ResetTimer()
	for b.Loop() {
		m := New(Options{Requests: []wire.Request{r}, Theme: themes.Dark})
		m.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
		m.loadBody()
		_ = m.View()
	}
}

// writeSession writes a session of growing requests of about mb MB as
// JSONL, each request repeating the one before, and returns its path and
// size.
func writeSession(b *testing.B, mb int) (string, int64) {
	path := filepath.Join(b.TempDir(), "session.jsonl")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	var msgs []string
	size := int64(0)
	chunk := strings.Repeat("Some tool output that the agent read from the workspace. ", 40)
	for i := 0; size < int64(mb)<<20; i++ {
		msgs = append(msgs, fmt.Sprintf(`{"role":"user","content":"turn %d: %s"}`, i, chunk))
		line := `{"model":"claude-sonnet-4-5","max_tokens":1024,"system":"You are a coding agent.","messages":[` + strings.Join(msgs, ",") + "]}\n"
		n, err := f.WriteString(line)
		if err != nil {
			b.Fatal(err)
		}
		size += int64(n)
	}
	return path, size
}

// streamFile decodes a file into a stream, as the view command does.
func streamFile(path string, stop <-chan struct{}) <-chan Item {
	ch := make(chan Item, 64)
	go func() {
		defer close(ch)
		for r, err := range decode.Path(path, decode.Options{Interner: wire.NewInterner()}) {
			it := Item{Err: err, Progress: -1}
			if err == nil {
				req := r
				it.Req = &req
			}
			select {
			case ch <- it:
			case <-stop:
				return
			}
		}
	}()
	return ch
}

// BenchmarkUITimeToFirstFrame measures, on an 80 MB session, the time from
// opening it to the first frame showing its first request.
func BenchmarkUITimeToFirstFrame(b *testing.B) {
	path, size := writeSession(b, 80)
	b.ResetTimer()
	for b.Loop() {
		stop := make(chan struct{})
		ch := streamFile(path, stop)
		m := New(Options{Stream: ch, Theme: themes.Dark})
		m.pullStream = true
		m.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
		m.Update(m.waitItems()())
		if !strings.Contains(m.Render(), "TRUSTED PREFIX") || len(m.reqs) == 0 {
			b.Fatal("no first frame")
		}
		close(stop)
		for range ch {
		}
	}
	b.ReportMetric(float64(size)/(1<<20), "MB-file")
}

// BenchmarkUILoadAll loads a whole 80 MB session into the viewer and
// reports the heap it holds afterwards (text is interned: the distinct
// content, not the file, sets the memory).
func BenchmarkUILoadAll(b *testing.B) {
	path, size := writeSession(b, 80)
	var heap uint64
	b.ResetTimer()
	for b.Loop() {
		ch := streamFile(path, nil)
		m := New(Options{Stream: ch, Theme: themes.Dark})
		m.pullStream = true
		m.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
		for m.loading {
			m.Update(m.waitItems()())
		}
		_ = m.Render()
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		heap = ms.HeapAlloc
		runtime.KeepAlive(m)
	}
	b.ReportMetric(float64(size)/(1<<20), "MB-file")
	b.ReportMetric(float64(heap)/(1<<20), "MB-heap")
}

// BenchmarkUIWrapIndex1MBNonASCII is the wrap index (the prep command) of
// 1 MB of mixed CJK, accented and emoji text: every non-ASCII code point is
// measured as the sanitiser shows it.
func BenchmarkUIWrapIndex1MBNonASCII(b *testing.B) {
	text := strings.Repeat("日本語のテキストとéàü emoji 👍 mixed with ascii words here.\n", 1<<20/80)
	hz := scan.Hazards(text)
	b.ResetTimer()
	for b.Loop() {
		cells.Wrap(text, hz, nil, 100, 0, -1)
	}
}

// BenchmarkOpenLargeSegment opens a 500 KB segment of markdown, JSON lines
// and prose as the viewer does: the selection loads it, its prep (hazards,
// wrap index) and highlighting commands run, and the first frame is drawn
// with both. The goal is 100 ms and 50 MB per open (issue 15); the
// allocated bytes are B/op.
func BenchmarkOpenLargeSegment(b *testing.B) {
	text := bigText(500 << 10)
	r := testReq("m", 1,
		wire.Part{ID: "system[0]", Channel: wire.ChannelSystem, Role: "system", Type: "text", Text: "rules"},
		wire.Part{ID: "messages[0].content[0]", Channel: wire.ChannelMessages, Role: "tool", Type: "tool_result", Text: text})
	m := startModel(b, Options{Requests: []wire.Request{r}, Theme: themes.Dark}, 160, 48)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		// Select the small segment, then the big one: a fresh open.
		m.seg = 0
		m.loadBody()
		m.seg = 1
		for _, cmd := range m.loadBody() {
			m.Update(cmd())
		}
		if lit := m.litCmd(); lit != nil {
			m.Update(lit())
		}
		if len(m.body.Sent) != len(text) || m.body.Rows == nil || !m.body.LitCovers(m.contentHeight()) {
			b.Fatalf("not open: %d bytes, indexed %v, lit %v", len(m.body.Sent), m.body.Rows != nil, m.body.LitCovers(m.contentHeight()))
		}
		_ = m.View()
	}
}

// BenchmarkHop is ] from the first request of a session of 2,000 growing
// requests (2 to 2,001 segments each) whose one hazard is in the last
// segment of the last request: every request is passed over, then that
// one's stops found.
func BenchmarkHop(b *testing.B) {
	segs := []wire.Segment{handSeg("system[0]", wire.ChannelSystem, "system", wire.KindHostRules, wire.Trusted, "", "", "You are a coding agent.")}
	var reqs []wire.Request
	for i := range 2000 {
		text := "turn " + strconv.Itoa(i)
		if i == 1999 {
			text += " \u202e hidden"
		}
		segs = append(segs, handSeg("messages["+strconv.Itoa(i)+"].content[0]", wire.ChannelMessages, "user", wire.KindUserInput, wire.TrustUser, "", "", text))
		reqs = append(reqs, wire.Request{Format: wire.FormatAnthropic, Model: "m", Source: "s.jsonl", Index: i + 1, Offset: -1, Segments: segs[:len(segs):len(segs)]})
	}
	m := New(Options{Requests: reqs, Theme: themes.Mono})
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	for b.Loop() {
		m.list.sel, m.seg, m.bodyKey = 0, 0, [2]int{-1, -1}
		m.hop(1)
		if m.cur() != 1999 {
			b.Fatalf("] went to #%d: %q", m.cur()+1, m.status)
		}
	}
}
