package encode

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/decode"
)

// The generated session decodes to n requests, each holding one message
// more than the one before, with the system breakpoint and the moving one.
func TestDecodeGeneratedSession(t *testing.T) {
	var a, b bytes.Buffer
	if err := GenerateSession(&a, 9, 7); err != nil {
		t.Fatal(err)
	}
	if err := GenerateSession(&b, 9, 7); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("same seed, different bytes")
	}
	if n := strings.Count(a.String(), "\n"); n != 9 {
		t.Fatalf("%d lines, want 9", n)
	}
	in := wire.NewInterner()
	var reqs []wire.Request
	for r, err := range decode.Decode(bytes.NewReader(a.Bytes()), decode.Options{Source: "gen.jsonl", Interner: in}) {
		if err != nil {
			t.Fatal(err)
		}
		reqs = append(reqs, r)
	}
	if len(reqs) != 9 {
		t.Fatalf("%d requests, want 9", len(reqs))
	}
	prevMsgs := 0
	for i, r := range reqs {
		if r.Format != wire.FormatAnthropic || r.Model != "claude-sonnet-4-5" || r.Line != i+1 {
			t.Errorf("request %d: %s %s line %d", i+1, r.Format, r.Model, r.Line)
		}
		msgs := map[string]bool{}
		tools, bps := 0, 0
		for _, s := range r.Segments {
			if s.Channel == wire.ChannelMessages {
				msgs[strings.SplitN(s.Part, ".", 2)[0]] = true
			}
			if s.Channel == wire.ChannelTools {
				tools++
			}
		}
		bps = len(r.Breakpoints)
		if len(msgs) != prevMsgs+1 {
			t.Errorf("request %d: %d messages, want %d", i+1, len(msgs), prevMsgs+1)
		}
		prevMsgs = len(msgs)
		// system breakpoint, and the newest message's when it is a user turn
		want := 1
		if i%4 == 0 || i%4 == 2 {
			want = 2
		}
		if tools != 8 || bps != want {
			t.Errorf("request %d: %d tools, %d breakpoints; want 8, %d", i+1, tools, bps, want)
		}
	}
	// Interning holds each distinct text once: far less than the file.
	if in.Bytes*3 > int64(a.Len()) {
		t.Errorf("interned %d bytes of a %d-byte session", in.Bytes, a.Len())
	}
}

// BenchmarkDecodeSession decodes a generated session of 300 growing
// requests (about 80 MB) from a file, streaming, keeping only the interned
// text: MB/s, allocations, and the peak heap in use seen between requests
// (the session itself is never held).
func BenchmarkDecodeSession(b *testing.B) {
	path := filepath.Join(b.TempDir(), "session.jsonl")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	if err := GenerateSession(f, 300, 1); err != nil {
		b.Fatal(err)
	}
	size, _ := f.Seek(0, io.SeekCurrent)
	f.Close()
	b.SetBytes(size)
	b.ReportAllocs()
	var peak uint64
	var ms runtime.MemStats
	runtime.GC()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		n := 0
		for _, err := range decode.Path(path, decode.Options{}) {
			if err != nil {
				b.Fatal(err)
			}
			n++
			if n%25 == 0 {
				b.StopTimer()
				runtime.ReadMemStats(&ms)
				peak = max(peak, ms.HeapInuse)
				b.StartTimer()
			}
		}
		if n != 300 {
			b.Fatalf("%d requests", n)
		}
	}
	b.ReportMetric(float64(peak)/1e6, "peak-heap-MB")
}

// A session of N growing requests holds its distinct text once: every
// segment whose text was seen before shares the one copy, the interner
// holds exactly the distinct texts, and a second input of the same run
// (sharing the interner, as the commands do) adds nothing.
func TestDecodeInternHoldsDistinctTextOnce(t *testing.T) {
	var session bytes.Buffer
	if err := GenerateSession(&session, 12, 3); err != nil {
		t.Fatal(err)
	}
	in := wire.NewInterner()
	held := map[string]*byte{}
	var distinct, total int64
	check := func(source string, wantNew bool) {
		t.Helper()
		n := 0
		for r, err := range decode.Decode(bytes.NewReader(session.Bytes()), decode.Options{Source: source, Interner: in}) {
			if err != nil {
				t.Fatal(err)
			}
			n++
			for _, s := range r.Segments {
				total += int64(len(s.Text))
				p := unsafe.StringData(s.Text)
				if q, ok := held[s.Text]; ok {
					if p != q {
						t.Fatalf("%s request %d %s: a second copy of a %d-byte text", source, n, s.ID, len(s.Text))
					}
					continue
				}
				if !wantNew {
					t.Fatalf("%s request %d %s: a text the first input did not hold", source, n, s.ID)
				}
				held[s.Text] = p
				distinct += int64(len(s.Text))
			}
		}
		if n != 12 {
			t.Fatalf("%s: %d requests, want 12", source, n)
		}
	}
	check("a.jsonl", true)
	if in.Bytes != distinct || in.Len() != len(held) {
		t.Fatalf("interner holds %d texts of %d bytes; the requests have %d distinct texts of %d bytes",
			in.Len(), in.Bytes, len(held), distinct)
	}
	// Request k+1 repeats request k: the requests' text is many times the
	// distinct text.
	if total < 5*distinct {
		t.Errorf("requests hold %d bytes in all over %d distinct: the session does not grow as generated", total, distinct)
	}
	bytesBefore, lenBefore := in.Bytes, in.Len()
	check("b.jsonl", false)
	if in.Bytes != bytesBefore || in.Len() != lenBefore {
		t.Errorf("a second copy of the session grew the interner from %d to %d bytes", bytesBefore, in.Bytes)
	}
}
