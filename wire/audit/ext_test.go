package audit_test

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/audit"
	"github.com/wirelens/wirelens/wire/classify"
	"github.com/wirelens/wirelens/wire/decode"
	"github.com/wirelens/wirelens/wire/encode"
)

func TestAuditVolatileWithRealFinder(t *testing.T) {
	build := func(parts ...wire.Part) *wire.Request {
		r := &wire.Request{Format: wire.FormatAnthropic, Source: "v.json", Index: 1}
		b := &classify.Builder{Req: r, In: wire.NewInterner()}
		for _, p := range parts {
			b.Add(p)
		}
		return r
	}
	sys := "You are a coding agent.\n\nThe current date and time in ISO format is `2026-11-29T22:08:44Z`. This is only a reference.\n\nSession 0f8fad5b-d9cb-469f-a165-70867728950e.\n"
	r := build(
		wire.Part{ID: "system[0]", Channel: wire.ChannelSystem, Role: "system", Type: "text", Text: sys},
		wire.Part{ID: "messages[0].content[0]", Channel: wire.ChannelMessages, Role: "user", Type: "text", Text: "It is 2026-11-29T22:08:44Z. What is 2+2?"},
	)
	a := audit.New()
	var got []string
	for _, f := range a.Audit(r) {
		if f.Rule == audit.RuleVolatileInPrefix {
			got = append(got, f.Segment+"@"+strconv.Itoa(f.Offset))
			if f.Severity != audit.SeverityMedium {
				t.Errorf("severity %s", f.Severity)
			}
		}
	}
	// The timestamp line is its own segment (system[0]/time); the UUID sits
	// in the host rules after it. The user's message is not in the prefix.
	var want []string
	for _, s := range r.Segments {
		if k := strings.Index(s.Text, "2026-11-29T22:08:44Z"); k >= 0 && s.Channel == wire.ChannelSystem {
			want = append(want, s.ID+"@"+strconv.Itoa(k))
		}
		if k := strings.Index(s.Text, "0f8fad5b"); k >= 0 {
			want = append(want, s.ID+"@"+strconv.Itoa(k))
		}
	}
	if strings.Join(got, " ") != strings.Join(want, " ") || len(want) != 2 {
		t.Errorf("volatile-in-prefix at %v, want %v", got, want)
	}
	// A stable system prompt and a time fringe: quiet.
	iso := build(
		wire.Part{ID: "system[0]", Channel: wire.ChannelSystem, Role: "system", Type: "text", Text: "You are a coding agent.\n"},
		wire.Part{ID: "messages[0].content[0]", Channel: wire.ChannelMessages, Role: "user", Type: "text",
			Text: "# Current time (fringe)\nThe current date and time is 2026-11-29T22:08:44Z. It is a fact of this request, not an instruction.\n"},
	)
	if fs := a.Audit(iso); len(fs) != 0 {
		t.Errorf("isolated: want quiet, got %+v", fs)
	}
}

// BenchmarkAuditSessionWithVolatile is the audit as `check` runs it (the
// volatile finder included) over a generated session of 300 requests (about
// 80 MB of JSONL). MB/s is over every request's segment text; distinct-MB/s
// over the distinct text actually scanned.
func BenchmarkAuditSessionWithVolatile(b *testing.B) {
	var buf bytes.Buffer
	if err := encode.GenerateSession(&buf, 300, 7); err != nil {
		b.Fatal(err)
	}
	in := wire.NewInterner()
	var reqs []wire.Request
	var total int64
	for r, err := range decode.Decode(&buf, decode.Options{Source: "gen.jsonl", Interner: in}) {
		if err != nil {
			b.Fatal(err)
		}
		reqs = append(reqs, r)
		total += int64(r.Bytes())
	}
	b.SetBytes(total)
	b.ResetTimer()
	for b.Loop() {
		a := audit.New()
		for i := range reqs {
			a.Audit(&reqs[i])
		}
	}
	sec := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric(float64(in.Bytes)/sec/1e6, "distinct-MB/s")
	b.ReportMetric(sec/float64(len(reqs))*1e6, "µs/request")
}
