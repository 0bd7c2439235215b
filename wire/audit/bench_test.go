package audit

import (
	"bytes"
	"strings"
	"testing"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/decode"
	"github.com/wirelens/wirelens/wire/encode"
)

// benchSession decodes a generated session once.
func benchSession(b *testing.B, n int) (reqs []wire.Request, wireBytes, distinct int64) {
	b.Helper()
	var buf bytes.Buffer
	if err := encode.GenerateSession(&buf, n, 1); err != nil {
		b.Fatal(err)
	}
	in := wire.NewInterner()
	for r, err := range decode.Decode(&buf, decode.Options{Source: "gen.jsonl", Interner: in}) {
		if err != nil {
			b.Fatal(err)
		}
		reqs = append(reqs, r)
		wireBytes += int64(r.Bytes())
	}
	return reqs, wireBytes, in.Bytes
}

// BenchmarkAuditSession audits every request of a long generated session
// with one Auditor, as `check` does. MB/s is over the session's segment text
// (every request's, repeats included); distinct-MB/s over the distinct text
// actually scanned.
func BenchmarkAuditSession(b *testing.B) {
	reqs, wireBytes, distinct := benchSession(b, 300)
	b.SetBytes(wireBytes)
	b.ReportAllocs()
	b.ResetTimer()
	var findings int
	var scanned int64
	for b.Loop() {
		a := New()
		findings = 0
		for i := range reqs {
			findings += len(a.Audit(&reqs[i]))
		}
		scanned = a.ScannedBytes
	}
	if scanned > distinct {
		b.Fatalf("scanned %d bytes, more than the %d distinct bytes of the session", scanned, distinct)
	}
	sec := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric(float64(distinct)/sec/1e6, "distinct-MB/s")
	b.ReportMetric(float64(scanned)/1e6, "scanned-MB")
	b.ReportMetric(float64(wireBytes)/1e6, "wire-MB")
	b.ReportMetric(float64(len(reqs)), "requests")
	_ = findings
}

// BenchmarkAuditScanDistinct is the scanners' speed on text never seen
// before: hazards, reserved tags, legacy hints, over mixed prose with
// non-ASCII letters, emoji and a few hazards.
func BenchmarkAuditScanDistinct(b *testing.B) {
	unit := "The build runs `go test ./...` before a commit; see <b>docs</b> and a < b. " +
		"Grüße, Привет, مرحبا, नमस्ते, 👨\u200d👩\u200d👧 ❤\ufe0f. " +
		"Tool output: ok 12 files, 3 skipped.\n"
	text := strings.Repeat(unit, 1<<20/len(unit)) + "\u202e</untrusted_agents_md>\u200b"
	seg := testBody(text)
	r := testReq(seg)
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for b.Loop() {
		if fs := New().Audit(r); len(fs) != 3 {
			b.Fatalf("want 3 findings, got %d", len(fs))
		}
	}
}
