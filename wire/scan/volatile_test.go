package scan

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/wirelens/wirelens/wire/wiretest"
)

// span marks the expected value in a table case with [[ ]] so the
// expected offsets are read from the text, not computed by the finder.
func span(t *testing.T, marked string) (text string, start, end int) {
	t.Helper()
	start = strings.Index(marked, "[[")
	end = strings.Index(marked, "]]")
	if start < 0 || end < start {
		t.Fatalf("bad case %q", marked)
	}
	text = marked[:start] + marked[start+2:end] + marked[end+2:]
	return text, start, end - 2
}

func TestFindVolatileKinds(t *testing.T) {
	cases := []struct {
		marked string
		kind   VolatileKind
	}{
		{"Current time: [[2026-11-29T22:15:42Z]].", VolatileTimestamp},
		{"now=[[2026-11-29T22:15:42.123456+08:00]]\n", VolatileTimestamp},
		{"The time is [[2026-11-29 22:15:42]] here", VolatileTimestamp},
		{"at [[2026-11-29T22:15:42-0700]]", VolatileTimestamp},
		{"at [[2026-11-29T22:15]] local", VolatileTimestamp},
		{"Date: [[Sun, 29 Nov 2026 22:15:42 GMT]]\r\n", VolatileTimestamp},
		{"Date: [[Sun, 29 Nov 2026 22:15:42 -0000]]", VolatileTimestamp},
		{"It is [[Sun Nov 29 22:15:42 UTC 2026]] now", VolatileTimestamp},
		{"It is [[Sun Nov 29 22:15:42 2026]] now", VolatileTimestamp},
		{"Today is [[Sunday, November 29, 2026]].", VolatileDate},
		{"Today is [[November 29, 2026 at 10:15 PM]].", VolatileTimestamp},
		{"Today's date: [[2026-11-29]]", VolatileDate},
		{"Today's date: [[2026/11/29]]", VolatileDate},
		{"on [[29 November 2026]] we", VolatileDate},
		{"当前时间：[[2026年11月29日 22:15:42]]。", VolatileTimestamp},
		{"日期：[[2026年11月29日]]", VolatileDate},
		{"clock [[22:15:42]] now", VolatileTimestamp},
		{"clock [[10:15 PM]] now", VolatileTimestamp},
		{"epoch [[1764454542]] s", VolatileTimestamp},
		{"epoch_ms=[[1764454542123]]", VolatileTimestamp},
		{"ts [[1764454542.25]]", VolatileTimestamp},
		{"id [[123e4567-e89b-12d3-a456-426614174000]] end", VolatileUUID},
		{"session [[550E8400-E29B-41D4-A716-446655440000]]", VolatileUUID},
		{"request [[req_011CUaBcDeFgH2jK]] failed", VolatileRequestID},
		{"[[chatcmpl-9xYzAbC123def]]", VolatileRequestID},
		{"Request-Id: [[a1b2c3d4e5]]", VolatileRequestID},
		{"session_id=[[s3ss10n-42x]]", VolatileRequestID},
		{`"requestId": "[[abc123def]]"`, VolatileRequestID},
		{"commit [[9fceb02d0ae598e95dc970b74767f19372d61af8]]", VolatileHexID},
		{"Turn [[Turn 7]]"[5:], VolatileCounter},
		{"this is [[turn #12]] of the session", VolatileCounter},
		{"[[request_count=41]]", VolatileCounter},
		{"[[iteration: 3]]", VolatileCounter},
	}
	for _, c := range cases {
		text, start, end := span(t, c.marked)
		got := FindVolatile(text)
		if len(got) != 1 {
			t.Errorf("%q: want one value %q, got %+v", text, text[start:end], got)
			continue
		}
		if got[0].Start != start || got[0].End != end || got[0].Kind != c.kind {
			t.Errorf("%q: want %s %q, got %s %q", text, c.kind, text[start:end], got[0].Kind, text[got[0].Start:got[0].End])
		}
	}
}

func TestFindVolatileStableText(t *testing.T) {
	// Text that does not change between requests must not be reported.
	stable := []string{
		"Step 1: read the file. Step 2: edit it.",
		"See issue #2028 and version 1.2.3 of the tool.",
		"Use port 8080 and 3:16 as a ratio; 10:30 is a verse.",
		"The year 2026 and the number 12345678901 (11 digits).",
		"call the function turn7() and read README.md",
		"0x1234abcd is a short hex; deadbeef too.",
		"Monday is a word; May I help? March on.",
		"requests are counted; session ids are secret",
		"turnover 5 and counterpart 3",
		"9999-99-99 is not a date, nor is 2026-13-01 or 2026-11-32.",
	}
	for _, s := range stable {
		if got := FindVolatile(s); len(got) != 0 {
			for _, v := range got {
				t.Errorf("%q: unexpected %s %q", s, v.Kind, s[v.Start:v.End])
			}
		}
	}
}

func TestFindVolatileSeveral(t *testing.T) {
	text := "Now: 2026-11-29T22:15:42Z\nSession: 123e4567-e89b-12d3-a456-426614174000\nTurn 3\n"
	got := FindVolatile(text)
	want := []struct {
		val  string
		kind VolatileKind
	}{
		{"2026-11-29T22:15:42Z", VolatileTimestamp},
		{"123e4567-e89b-12d3-a456-426614174000", VolatileUUID},
		{"Turn 3", VolatileCounter},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d values %+v, want %d", len(got), got, len(want))
	}
	for i, w := range want {
		if text[got[i].Start:got[i].End] != w.val || got[i].Kind != w.kind {
			t.Errorf("value %d: got %s %q, want %s %q", i, got[i].Kind, text[got[i].Start:got[i].End], w.kind, w.val)
		}
	}
}

func TestVolatileAt(t *testing.T) {
	prefix := strings.Repeat("host rules. ", 500)
	text := prefix + "The current time is 2026-11-29T22:15:42Z and more rules."
	at := len(prefix) + len("The current time is 2026-11-29T22:")
	v, ok := VolatileAt(text, at)
	if !ok || v.Kind != VolatileTimestamp || text[v.Start:v.End] != "2026-11-29T22:15:42Z" {
		t.Fatalf("VolatileAt inside the timestamp: got %+v %v", v, ok)
	}
	if _, ok := VolatileAt(text, len(prefix)+3); ok {
		t.Errorf("VolatileAt outside any value reported one")
	}
	if _, ok := VolatileAt(text, -1); ok {
		t.Errorf("VolatileAt(-1) reported a value")
	}
	if _, ok := VolatileAt(text, len(text)+5); ok {
		t.Errorf("VolatileAt past the end reported a value")
	}
}

// TestFindVolatileHostile runs the finder over the hostile
// corpora: it must never panic and its spans must lie inside the text, in
// order and without overlap.
func TestFindVolatileHostile(t *testing.T) {
	blns := append(wiretest.BLNS(t), "2026-11-29T", "2026-11-29T22:", "Sun, ", "Nov 29,", "req_", "request id:", "\xff2026-11-29\xfe",
		"2026年", "2026年11月", "12:", "+", "turn #", "1764454542.",
		"5/29/", "5/29/2", "29.05.", "29. 5. ", "2025. 5. ", "2025. 5. 29", "2025년 5월", "2025年5月29日木", "2025年5月29日(",
		"29 de ", "29 de mayo de ", "Donnerstag, 29. ", "quinta-", "quinta-feira, 29 de maio de 202", "29 мая 2025 г",
		"01-Dec-", "01-Dec-9", "Sunday, 06-Nov-94", "1st of ", "epoch ", "ts=", "\xff29/05/2025\xfe", "giovedì\xff 29")
	for _, s := range blns {
		prev := 0
		for _, v := range FindVolatile(s) {
			if v.Start < prev || v.End <= v.Start || v.End > len(s) {
				t.Fatalf("%q: bad span %+v", s, v)
			}
			prev = v.End
		}
		for off := 0; off <= len(s); off++ {
			if v, ok := VolatileAt(s, off); ok && (off < v.Start || off >= v.End) {
				t.Fatalf("%q: VolatileAt(%d) returned %+v", s, off, v)
			}
		}
	}
}

func FuzzFindVolatile(f *testing.F) {
	for _, s := range []string{"2026-11-29T22:15:42Z", "Sun, 29 Nov 2026 22:15:42 GMT", "turn 7", "req_0123456789",
		"123e4567-e89b-12d3-a456-426614174000", "2026年11月29日 22:15",
		"Today's date: 5/29/2025", "29.05.2025, 14:03:09", "2025. 5. 29.", "2025년 5월 29일 목요일", "2025年5月29日星期四",
		"Tue, 01 Dec 2026 03:21:27 +0000", "Sunday, 06-Nov-94 08:49:37 GMT", "jueves, 29 de mayo de 2025",
		"четверг, 29 мая 2025 г.", "epoch 1764558087123", `"created_at": 1764558087`, "page 5/29", "1.2.3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		prev := 0
		for _, v := range FindVolatile(s) {
			if v.Start < prev || v.End <= v.Start || v.End > len(s) {
				t.Fatalf("bad span %+v in %q", v, s)
			}
			prev = v.End
		}
	})
}

func BenchmarkDiffFindVolatile(b *testing.B) {
	text := strings.Repeat("You are a coding agent. Follow the rules; cite files like main.go:12. ", 15000) +
		"Now: 2026-11-29T22:15:42Z"
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if len(FindVolatile(text)) != 1 {
			b.Fatal("want one value")
		}
	}
}

// TestVolatileCurrent: a timestamp or date introduced as the present is
// marked Current; a fixed date in prose is not.
func TestVolatileCurrent(t *testing.T) {
	cases := []struct {
		text    string
		current bool
	}{
		{"Today's date: 2026-11-29", true},
		{"The current time is 2026-11-29T22:15:42Z.", true},
		{"now=1764454542", true},
		{"当前时间：2026年11月29日 22:15", true},
		{"Timestamps: 2026-11-29T22:15:42Z", true},
		{"Follow the MCP 2026-07-28 specification.", false},
		{"Released on 2025-12-09 as v1.0.", false},
		{"It is known that 2026-07-28 is a Tuesday.", false},
		{"Current rules.\nThe MCP 2026-07-28 spec.", false},
	}
	for _, c := range cases {
		vs := FindVolatile(c.text)
		if len(vs) != 1 {
			t.Errorf("%q: %d values", c.text, len(vs))
			continue
		}
		if vs[0].Current != c.current {
			t.Errorf("%q: current %v, want %v", c.text, vs[0].Current, c.current)
		}
	}
}

// readDates reads a fixture of testdata/dates: its tab-separated rows,
// without comments and blank lines.
func readDates(t *testing.T, name string) [][]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "dates", name))
	if err != nil {
		t.Fatal(err)
	}
	var rows [][]string
	for _, line := range strings.Split(string(b), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		rows = append(rows, strings.Split(line, "\t"))
	}
	if len(rows) == 0 {
		t.Fatalf("%s: no rows", name)
	}
	return rows
}

// TestFindVolatileDateShapes: every common shape of a date or a time
// (testdata/dates/shapes.tsv: numeric dates in either order, month and
// weekday names, RFC 1123 / 2822 / 850 and asctime, epochs after a time
// label) is one value of its kind, at the marked span.
func TestFindVolatileDateShapes(t *testing.T) {
	for _, row := range readDates(t, "shapes.tsv") {
		if len(row) != 3 {
			t.Fatalf("bad row %q", row)
		}
		kind := VolatileKind(row[0])
		text, start, end := span(t, row[1])
		got := FindVolatile(text)
		if len(got) != 1 || got[0].Start != start || got[0].End != end || got[0].Kind != kind {
			t.Errorf("%s: %q: want %s %q, got %s", row[2], text, kind, text[start:end], describe(text, got))
		}
		// VolatileAt finds it from any byte inside, as a cache break would.
		for off := start; off < end; off++ {
			if v, ok := VolatileAt(text, off); !ok || v.Start != start || v.End != end {
				t.Errorf("%q: VolatileAt(%d) = %+v, %v", text, off, v, ok)
				break
			}
		}
	}
}

// TestFindVolatileIntlDates: the dates Intl writes in sixteen locales
// (testdata/dates/intl_dates.tsv, made with Node's toLocaleDateString and
// toLocaleString: the long form is Gemini CLI's "Today's date is ...") are
// each found whole, after the words Gemini CLI puts before them, and marked
// as the present.
func TestFindVolatileIntlDates(t *testing.T) {
	for _, row := range readDates(t, "intl_dates.tsv") {
		if len(row) != 4 {
			t.Fatalf("bad row %q", row)
		}
		locale, style, date, want := row[0], row[1], row[2], row[3]
		const lead = "Today's date is "
		text := lead + date + " (formatted according to the user's locale)."
		kind := VolatileDate
		if style == "datetime" {
			kind = VolatileTimestamp
		}
		got := FindVolatile(text)
		start := len(lead) + strings.Index(date, want)
		if len(got) != 1 || got[0].Start != start || got[0].End != start+len(want) || got[0].Kind != kind || !got[0].Current {
			t.Errorf("%s %s: want current %s %q, got %s", locale, style, kind, want, describe(text, got))
		}
	}
}

// TestFindVolatileAgentDates: the date lines of real agents' context
// blocks (Claude Code's <env>, Gemini CLI's <session_context>, Codex's
// <environment_context>) are found, as the present, and nothing else in
// the block is.
func TestFindVolatileAgentDates(t *testing.T) {
	for name, want := range map[string]string{
		"claude_code_env_block.txt":     "5/22/2025",
		"gemini_session_context.txt":    "Thursday, May 29, 2025",
		"codex_environment_context.txt": "2026-05-16",
	} {
		b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "dates", name))
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		got := FindVolatile(text)
		if len(got) != 1 || text[got[0].Start:got[0].End] != want || got[0].Kind != VolatileDate || !got[0].Current {
			t.Errorf("%s: want the current date %q, got %s", name, want, describe(text, got))
		}
	}
}

// TestFindVolatileQuietNumbers: ordinary numbers stay quiet. The choices:
// a numeric date needs a four-digit year (or a word for the present before
// a two-digit one), so a fraction ("10/20"), a page ("page 5/29"), a
// version ("1.2.3", "v1.2.2025") or a ratio is not a date; a year alone is
// not one either; and a run of ten or thirteen digits is an epoch only
// after a label that names a time, so a phone number or an id is not.
// CalVer versions with dots ("2024.05.29") are versions, not dates.
func TestFindVolatileQuietNumbers(t *testing.T) {
	quiet := []string{
		"version 1.2.3 and 1.10.20; go1.26.1; v1.2.2025",
		"10/20 of the tests passed, 3/4 of them fast",
		"pi is 3.14, e is 2.718, and 1/3 is 0.333",
		"the year 2025 alone; copyright 2024-2025",
		"listen on port 8080, or 443",
		"order 123456 and user 654321 (ids of 6 digits)",
		"see page 5/29 and pages 10-20",
		"chapter 5.29 and section 12.31",
		"certifi==2024.02.02 is pinned",
		"call 2025550123 or 1234567890 for help",
		"a record id 1764558087123 in a table",
		"versions 1.2.2025.1 and 3/4/2025/5 are build numbers",
		"May I help? On the 5th of May we march.",
		"2025. It was a year.",
		"Step 1. 2. 3. 4.",
	}
	for _, s := range quiet {
		if got := FindVolatile(s); len(got) != 0 {
			t.Errorf("%q: want quiet, got %s", s, describe(s, got))
		}
	}
}

func describe(text string, vs []Volatile) string {
	var b strings.Builder
	b.WriteString("[")
	for k, v := range vs {
		if k > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s %q current=%v", v.Kind, text[v.Start:v.End], v.Current)
	}
	b.WriteString("]")
	return b.String()
}

// BenchmarkFindVolatileShapes runs the finder over texts dense in partial
// date shapes at two sizes: the time per byte stays flat when matching is
// linear (compare the two sub-benchmarks' ns/op divided by their bytes).
func BenchmarkFindVolatileShapes(b *testing.B) {
	unit := "5/29/ 29.05. 2025. 5. 29 de mayo de quinta-feira, 29. Mai Thursday, May 29, 01-Dec- " +
		"2025年5月29日( 2025년 5월 epoch ts= 1764558087 created_at 29 мая Nov 29 22:15 1st of December " +
		strings.Repeat(" ", 40) + strings.Repeat("1", 40) + " "
	for _, n := range []int{1000, 8000} {
		text := strings.Repeat(unit, n)
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				FindVolatile(text)
			}
		})
	}
}
