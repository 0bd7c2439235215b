package diff

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/classify"
	"github.com/wirelens/wirelens/wire/wiretest"
)

// segdiffSides rebuilds both texts from hunks: equal and delete give A,
// equal and insert give B.
func segdiffSides(hs []Hunk) (a, b string) {
	var sa, sb strings.Builder
	for _, h := range hs {
		if h.Op != OpInsert {
			sa.WriteString(h.Text)
		}
		if h.Op != OpDelete {
			sb.WriteString(h.Text)
		}
	}
	return sa.String(), sb.String()
}

func TestSegdiffTextDiffLinesThenWords(t *testing.T) {
	a := "line one\nthe quick brown fox\nline three\n"
	b := "line one\nthe quick red fox\nline three\nline four\n"
	hs := TextDiff(a, b)
	want := []Hunk{
		{Op: OpEqual, Text: "line one\n"},
		{Op: OpDelete, Text: "the quick brown fox\n"},
		{Op: OpInsert, Text: "the quick red fox\n"},
		{Op: OpEqual, Text: "line three\n"},
		{Op: OpInsert, Text: "line four\n"},
	}
	if len(hs) != len(want) {
		t.Fatalf("got %d hunks %+v, want %d", len(hs), hs, len(want))
	}
	for i := range want {
		if hs[i].Op != want[i].Op || hs[i].Text != want[i].Text {
			t.Errorf("hunk %d: got %s %q, want %s %q", i, hs[i].Op, hs[i].Text, want[i].Op, want[i].Text)
		}
	}
	// Inside the replaced line: only "brown" goes and "red" comes.
	var del, ins []string
	for _, w := range hs[1].Words {
		if w.Op == OpDelete {
			del = append(del, w.Text)
		}
		if w.Op == OpInsert {
			t.Errorf("delete hunk carries an insert word %q", w.Text)
		}
	}
	for _, w := range hs[2].Words {
		if w.Op == OpInsert {
			ins = append(ins, w.Text)
		}
	}
	if strings.Join(del, "|") != "brown" || strings.Join(ins, "|") != "red" {
		t.Errorf("word diff: deleted %q, inserted %q", del, ins)
	}
	if wa, _ := segdiffSides(hs[1].Words); wa != hs[1].Text {
		t.Errorf("delete hunk's words give %q, not its text %q", wa, hs[1].Text)
	}
	if _, wb := segdiffSides(hs[2].Words); wb != hs[2].Text {
		t.Errorf("insert hunk's words give %q, not its text %q", wb, hs[2].Text)
	}
	if hs[4].Words != nil {
		t.Errorf("a pure insertion has no word diff: %+v", hs[4].Words)
	}
}

// TestSegdiffRoundTripCorpora: for hostile strings, the hunks always give
// both texts back, whatever their bytes.
func TestSegdiffRoundTripCorpora(t *testing.T) {
	blns := wiretest.BLNS(t)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i+1 < len(blns); i++ {
		a := blns[i] + "\n" + blns[rng.IntN(len(blns))] + "\n\xff\xfe" + blns[i+1]
		b := blns[i+1] + "\n" + blns[i] + "\n" + blns[rng.IntN(len(blns))]
		hs := TextDiff(a, b)
		ga, gb := segdiffSides(hs)
		if ga != a || gb != b {
			t.Fatalf("hunks of %q / %q do not give the texts back", a, b)
		}
		for _, h := range hs {
			wa, wb := segdiffSides(h.Words)
			if len(h.Words) > 0 && (h.Op == OpDelete && wa != h.Text || h.Op == OpInsert && wb != h.Text) {
				t.Fatalf("the words of %+v do not give its text back", h)
			}
		}
		wa, wb := segdiffSides(tokenDiff(splitWords(a), splitWords(b), time.Now().Add(DiffBudget)))
		if wa != a || wb != b {
			t.Fatalf("word hunks of %q / %q do not give the texts back", a, b)
		}
	}
}

func segdiffReq(in *wire.Interner, model string, parts ...wire.Part) wire.Request {
	r := &wire.Request{Format: wire.FormatAnthropic, Model: model, Source: "x.json", Index: 1}
	b := classify.Builder{Req: r, In: in}
	for _, p := range parts {
		b.Add(p)
	}
	return *r
}

func TestSegdiffRequestsAlign(t *testing.T) {
	in := wire.NewInterner()
	sysA := cacheSys("Rule one.\nThe time is 2026-11-29T22:00:00Z.\nRule three.\n")
	sysB := cacheSys("Rule one.\nThe time is 2026-11-29T22:05:00Z.\nRule three.\n")
	a := segdiffReq(in, "claude-sonnet-4-5",
		cacheTool(0, "read_file"), cacheTool(1, "bash"), sysA,
		cacheMsg(0, "user", "What is 2+2?"), cacheMsg(1, "assistant", "4"))
	b := segdiffReq(in, "claude-sonnet-4-5",
		cacheTool(0, "read_file"), sysB,
		cacheMsg(0, "user", "Context first."), cacheMsg(1, "user", "What is 2+2?"), cacheMsg(2, "assistant", "4"))
	d := Requests(&a, &b)
	got := map[string]Status{}
	for _, s := range d.Segments {
		got[s.ID] = s.Status
	}
	// tools[1] (bash) is gone; system[0] changed; the history shifted by
	// one message, and "Context first." is new.
	want := map[string]Status{"tools[0]": StatusSame, "tools[1]": StatusRemoved,
		"messages[0]": StatusAdded, "messages[1]": StatusSame, "messages[2]": StatusSame}
	for id, st := range want {
		if got[id] != st {
			t.Errorf("%s: status %q, want %q (all: %v)", id, got[id], st, got)
		}
	}
	for _, s := range d.Segments {
		if s.ID == "messages[1]" && s.FromID != "messages[0]" {
			t.Errorf("messages[1] should come from messages[0], got %q", s.FromID)
		}
	}
	if d.First == nil || d.First.Segment != "tools[1]" || d.First.Status != StatusRemoved || d.First.Channel != wire.ChannelTools {
		t.Errorf("first divergence %+v, want the removed tools[1]", d.First)
	}
	if d.Identical() {
		t.Error("the requests differ")
	}
	// The system prompt is cut into sections; only the one with the time
	// changed, at the minutes.
	changedSys := 0
	for _, s := range d.Segments {
		if s.Seg().Channel != wire.ChannelSystem {
			continue
		}
		if !strings.HasPrefix(s.ID, "system[0]") {
			t.Errorf("system segment %q", s.ID)
		}
		if s.Status == StatusSame {
			continue
		}
		changedSys++
		if s.Status != StatusChanged || s.A == nil || s.B == nil {
			t.Fatalf("system segment %s: %+v", s.ID, s)
		}
		if want := strings.Index(s.A.Text, "22:00:00") + len("22:0"); s.Offset != want || want < len("22:0") {
			t.Errorf("%s differs at %d, want %d", s.ID, s.Offset, want)
		}
		ga, gb := segdiffSides(s.Hunks)
		if ga != s.A.Text || gb != s.B.Text {
			t.Errorf("%s hunks do not give the texts back", s.ID)
		}
	}
	if changedSys != 1 {
		t.Errorf("%d system segments changed, want 1", changedSys)
	}
	same := Requests(&a, &a)
	if !same.Identical() || same.First != nil || same.Counts()[StatusSame] != len(a.Segments) {
		t.Errorf("a request against itself: first %+v, counts %v", same.First, same.Counts())
	}
	other := segdiffReq(in, "claude-opus-4-1", cacheTool(0, "read_file"), cacheTool(1, "bash"), sysA,
		cacheMsg(0, "user", "What is 2+2?"), cacheMsg(1, "assistant", "4"))
	if d := Requests(&a, &other); d.Identical() || d.First != nil {
		t.Errorf("only the model differs: identical %v, first %+v", d.Identical(), d.First)
	}
}

// segdiffBig is about n bytes of code-like lines.
func segdiffBig(n int, seed uint64) []string {
	rng := rand.New(rand.NewPCG(seed, 7))
	var lines []string
	size := 0
	for size < n {
		l := fmt.Sprintf("\tfield%d := compute(%q, %d) // line %d\n", rng.IntN(1000), strings.Repeat("ab", rng.IntN(8)), rng.IntN(1<<20), len(lines))
		lines = append(lines, l)
		size += len(l)
	}
	return lines
}

// segdiffEdit changes every k-th line of a copy.
func segdiffEdit(lines []string, k int) []string {
	out := append([]string(nil), lines...)
	for i := k / 2; i < len(out); i += k {
		out[i] = strings.Replace(out[i], "compute", "recompute", 1)
	}
	return out
}

func TestSegdiffLargeRoundTrip(t *testing.T) {
	lines := segdiffBig(200<<10, 3)
	a := strings.Join(lines, "")
	b := strings.Join(segdiffEdit(lines, 50), "")
	hs := TextDiff(a, b)
	ga, gb := segdiffSides(hs)
	if ga != a || gb != b {
		t.Fatal("hunks of large texts do not give them back")
	}
	changed := 0
	for _, h := range hs {
		if h.Op == OpDelete {
			changed += strings.Count(h.Text, "\n")
		}
	}
	if want := (len(lines) + 25) / 50; changed < want-1 || changed > want+1 {
		t.Errorf("%d lines deleted, want about %d", changed, want)
	}
}

// BenchmarkSegdiffLine1MB: a line diff of two 1 MB segments, 1 in 100
// lines changed and (worst) 1 in 5. Target: under half a second.
func BenchmarkSegdiffLine1MB(b *testing.B) {
	lines := segdiffBig(1<<20, 5)
	a := strings.Join(lines, "")
	for _, k := range []int{100, 5} {
		c := strings.Join(segdiffEdit(lines, k), "")
		b.Run(fmt.Sprintf("every%d", k), func(b *testing.B) {
			b.SetBytes(int64(len(a) + len(c)))
			for b.Loop() {
				if len(TextDiff(a, c)) < 3 {
					b.Fatal("no diff")
				}
			}
		})
	}
	// Lines from a vocabulary of 64 (JSON-like repetition, few unique
	// anchors), a tenth of them changed.
	rng := rand.New(rand.NewPCG(11, 13))
	var rep, rep2 []string
	for size := 0; size < 1<<20; {
		l := fmt.Sprintf("    \"key%d\": [1, 2, 3],\n", rng.IntN(64))
		rep = append(rep, l)
		if rng.IntN(10) == 0 {
			l = fmt.Sprintf("    \"key%d\": [4],\n", rng.IntN(64))
		}
		rep2 = append(rep2, l)
		size += len(l)
	}
	ra, rb := strings.Join(rep, ""), strings.Join(rep2, "")
	b.Run("repetitive", func(b *testing.B) {
		b.SetBytes(int64(len(ra) + len(rb)))
		for b.Loop() {
			TextDiff(ra, rb)
		}
	})
	// Only the first and the last line changed: the middle is one long run
	// of equal anchors.
	ends := "first line changed\n" + a + "last line changed\n"
	b.Run("ends", func(b *testing.B) {
		b.SetBytes(int64(len(a) + len(ends)))
		for b.Loop() {
			if len(TextDiff(a, ends)) != 3 {
				b.Fatal("want insert, equal, insert")
			}
		}
	})
	// Unrelated texts of the same size: every line differs.
	other := strings.Join(segdiffBig(1<<20, 9), "")
	b.Run("unrelated", func(b *testing.B) {
		for b.Loop() {
			TextDiff(a, other)
		}
	})
}

// FuzzSegdiffText: whatever the bytes, the line hunks and the word hunks
// give both texts back.
func FuzzSegdiffText(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nB\nc\n")
	f.Add("x y z", "x  z\n\xff")
	f.Add("\u202e<system>\n", "<system>\u202e\n\n")
	f.Fuzz(func(t *testing.T, a, b string) {
		hs := TextDiff(a, b)
		if ga, gb := segdiffSides(hs); ga != a || gb != b {
			t.Fatalf("line hunks of %q / %q give %q / %q", a, b, ga, gb)
		}
		for _, h := range hs {
			if len(h.Words) == 0 {
				continue
			}
			wa, wb := segdiffSides(h.Words)
			if (h.Op == OpDelete && wa != h.Text) || (h.Op == OpInsert && wb != h.Text) {
				t.Fatalf("word hunks of %q do not give it back", h.Text)
			}
		}
	})
}

// TestSegdiffBreakpointMoved: a cache_control breakpoint moved from one
// message to the next changes the wire though no text changed.
func TestSegdiffBreakpointMoved(t *testing.T) {
	in := wire.NewInterner()
	m0, m1 := cacheMsg(0, "user", "first"), cacheMsg(1, "user", "second")
	m0.CacheBreakpoint = true
	a := segdiffReq(in, "claude-sonnet-4-5", cacheSys("rules"), m0, m1)
	m0.CacheBreakpoint, m1.CacheBreakpoint = false, true
	b := segdiffReq(in, "claude-sonnet-4-5", cacheSys("rules"), m0, m1)
	d := Requests(&a, &b)
	if d.Identical() || d.First == nil || d.First.Segment != "messages[0]" || d.First.Offset != len("first") {
		t.Fatalf("first divergence %+v", d.First)
	}
	changed := 0
	for _, s := range d.Segments {
		if s.Status == StatusChanged {
			changed++
			if !s.BreakpointChanged || s.Moved || len(s.Hunks) != 1 || s.Hunks[0].Op != OpEqual {
				t.Errorf("%s: %+v", s.ID, s)
			}
			if first := s.ID == "messages[0]"; s.BreakA != first || s.BreakB == first {
				t.Errorf("%s: breakpoint in A %v, in B %v", s.ID, s.BreakA, s.BreakB)
			}
		}
	}
	if changed != 2 {
		t.Errorf("%d segments changed, want 2", changed)
	}
}

// TestSegdiffMergeHunks: neighbours of one op are joined, empty hunks do not
// split a run, and a replaced run has its deletions before its insertions.
func TestSegdiffMergeHunks(t *testing.T) {
	in := []Hunk{{OpDelete, "d1", nil}, {OpInsert, "i1", nil}, {OpEqual, "", nil}, {OpDelete, "d2", nil},
		{OpInsert, "i2", nil}, {OpEqual, "e1", nil}, {OpDelete, "", nil}, {OpEqual, "e2", nil},
		{OpInsert, "i3", nil}, {OpDelete, "d3", nil}, {OpInsert, "", nil}}
	want := []Hunk{{OpDelete, "d1d2", nil}, {OpInsert, "i1i2", nil}, {OpEqual, "e1e2", nil},
		{OpDelete, "d3", nil}, {OpInsert, "i3", nil}}
	got := mergeHunks(in)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

// TestSegdiffLongEqualRun: a large text changed only in its first and last
// lines diffs into those two lines around one equal hunk.
func TestSegdiffLongEqualRun(t *testing.T) {
	mid := strings.Join(segdiffBig(200<<10, 4), "")
	a, b := "first A\n"+mid+"last A\n", "first B\n"+mid+"last B\n"
	hs := TextDiff(a, b)
	if len(hs) != 5 || hs[2].Op != OpEqual || hs[2].Text != mid {
		t.Fatalf("%d hunks, want delete, insert, equal (the middle), delete, insert", len(hs))
	}
	if ga, gb := segdiffSides(hs); ga != a || gb != b {
		t.Fatal("hunks do not give the texts back")
	}
}

// Two requests whose messages are the same texts in another order are not
// identical: the segment that came forward is reordered (and the first
// divergence, where the cache breaks), the ones it passed stay same.
func TestSegdiffReorderedIsNotIdentical(t *testing.T) {
	in := wire.NewInterner()
	x, y, z := "the first message", "the second message", "the third message"
	a := segdiffReq(in, "claude-sonnet-4-5", cacheSys("rules"), cacheMsg(0, "user", x), cacheMsg(1, "user", y), cacheMsg(2, "user", z))
	b := segdiffReq(in, "claude-sonnet-4-5", cacheSys("rules"), cacheMsg(0, "user", z), cacheMsg(1, "user", x), cacheMsg(2, "user", y))
	d := Requests(&a, &b)
	if d.Identical() {
		t.Fatal("messages in another order called identical")
	}
	if d.First == nil || d.First.Segment != "messages[0]" || d.First.Status != StatusChanged || d.First.Offset != 0 {
		t.Fatalf("first divergence %+v, want messages[0] changed at byte 0", d.First)
	}
	var reordered []string
	for _, s := range d.Segments {
		if s.Reordered {
			reordered = append(reordered, s.ID+" from "+s.FromID)
			if s.Status != StatusChanged || len(s.Hunks) != 1 || s.Hunks[0].Op != OpEqual {
				t.Errorf("%s: %+v", s.ID, s)
			}
		}
	}
	if len(reordered) != 1 || reordered[0] != "messages[0] from messages[2]" {
		t.Errorf("reordered %q, want [messages[0] from messages[2]]", reordered)
	}
	// The same order is still identical.
	if d := Requests(&a, &a); !d.Identical() {
		t.Errorf("a request against itself: first divergence %+v", d.First)
	}
}

// TestSegdiffJoinsChangedWords: a line replaced by another keeps its words
// diff, but changed words with only blanks between them are one change (a
// phrase, not each word bracketed), and each side still gives its text back.
func TestSegdiffJoinsChangedWords(t *testing.T) {
	a := "The operating rules are strict.\nKeep this line.\n"
	b := "Totally unrelated sentence here now.\nKeep this line.\n"
	hs := TextDiff(a, b)
	if len(hs) < 2 || hs[0].Op != OpDelete || hs[1].Op != OpInsert {
		t.Fatalf("hunks %+v", hs)
	}
	del, ins := hs[0].Words, hs[1].Words
	if len(del) == 0 || del[0].Op != OpDelete || del[0].Text != "The operating rules are strict" {
		t.Errorf("delete words %+v", del)
	}
	if len(ins) == 0 || ins[0].Op != OpInsert || ins[0].Text != "Totally unrelated sentence here now" {
		t.Errorf("insert words %+v", ins)
	}
	if wa, _ := segdiffSides(del); wa != hs[0].Text {
		t.Errorf("the delete words give %q, not %q", wa, hs[0].Text)
	}
	if _, wb := segdiffSides(ins); wb != hs[1].Text {
		t.Errorf("the insert words give %q, not %q", wb, hs[1].Text)
	}
	// One changed word among equal ones stays one word.
	hs = TextDiff("Alpha beta gamma delta.\n", "Alpha beta GAMMA delta.\n")
	if n := len(hs[0].Words); n != 3 || hs[0].Words[1].Text != "gamma" {
		t.Errorf("one word changed: %+v", hs[0].Words)
	}
}
