package decode

import (
	"bytes"
	"io"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"testing"
	"time"
)

// brokenLines is a JSONL of one good body and n broken lines: most the
// given line, one in ten thousand binary (past the head detection reads).
func brokenLines(n int, broken string) []byte {
	var b bytes.Buffer
	b.WriteString(goodAnthropic + "\n")
	for i := 1; i <= n; i++ {
		if i%10000 == 5000 {
			b.WriteString("\x00\x01\n")
			continue
		}
		b.WriteString(broken + "\n")
	}
	return b.Bytes()
}

// A JSONL of one good line and 200,000 broken ones: what each broken line
// costs, and how many errors reach the caller. The lines are cut JSON, JSON
// of another shape, and not JSON.
func BenchmarkDecodeBrokenLines(b *testing.B) {
	for _, c := range []struct{ name, line string }{{"cut", "{"}, {"other-shape", `{"x":1}`}, {"not-json", "x"}} {
		b.Run(c.name, func(b *testing.B) {
			data := brokenLines(200_000, c.line)
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			var errs int
			for b.Loop() {
				errs = 0
				for _, err := range Decode(bytes.NewReader(data), Options{Source: "broken.jsonl"}) {
					if err != nil {
						errs++
					}
				}
			}
			b.ReportMetric(float64(errs), "errors")
		})
	}
}

// hugeLine is a one-line Anthropic body of about size bytes: a system
// prompt, and user messages of msg bytes each (one message of the whole size
// when msg is 0).
func hugeLine(size, msg int) []byte {
	var b bytes.Buffer
	b.Grow(size + 1024)
	b.WriteString(`{"model":"claude-x","system":"s","messages":[`)
	if msg == 0 {
		msg = size
	}
	text := strings.Repeat("lorem ipsum \\\"dolor\\\" sit amet ", msg/16+1)[:msg-8]
	for i := 0; b.Len() < size; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		role := "user"
		if i%2 == 1 {
			role = "assistant"
		}
		b.WriteString(`{"role":"` + role + `","content":"`)
		b.WriteString(text[:len(text)-i%7])
		b.WriteString(`"}`)
	}
	b.WriteString("]}\n")
	return b.Bytes()
}

// padLine is a one-line body of about size bytes padded with a member the
// decoder does not read: an array of tiny elements (members false) or many
// tiny members (members true).
func padLine(size int, members bool) []byte {
	var b bytes.Buffer
	b.Grow(size + 1024)
	b.WriteString(`{"model":"claude-x","system":"s","messages":[{"role":"user","content":"hi"}]`)
	if !members {
		b.WriteString(`,"pad":[0`)
	}
	for b.Len() < size {
		if members {
			b.WriteString(`,"p":0`)
		} else {
			b.WriteString(`,0`)
		}
	}
	if !members {
		b.WriteByte(']')
	}
	b.WriteString("}\n")
	return b.Bytes()
}

// One huge line, per input byte: the bytes allocated; the bytes live (after
// a collection) when the request reaches the caller; and the peak of the
// heap while it is decoded, sampled with the collector made eager (GOGC=5),
// so that it is near the most bytes held at once. The line buffer, the
// walked shape and the text should not all be held at once. An input that
// cannot seek (standard input) reads a long line differently from a file:
// the "stream" cases.
func BenchmarkDecodeHugeLine(b *testing.B) {
	for _, c := range []struct {
		name      string
		size, msg int
		stream    bool
	}{{"64MB-one-string", 64 << 20, 0, false}, {"64MB-one-string-stream", 64 << 20, 0, true},
		{"64MB-8KB-messages", 64 << 20, 8 << 10, false}, {"64MB-8KB-messages-stream", 64 << 20, 8 << 10, true},
		{"64MB-pad-array", 64 << 20, -1, false}, {"64MB-pad-members", 64 << 20, -2, false}} {
		b.Run(c.name, func(b *testing.B) {
			var data []byte
			switch c.msg {
			case -1, -2:
				data = padLine(c.size, c.msg == -2)
			default:
				data = hugeLine(c.size, c.msg)
			}
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			defer debug.SetGCPercent(debug.SetGCPercent(5))
			var total, live, peak float64
			var before, at runtime.MemStats
			for b.Loop() {
				runtime.GC()
				runtime.ReadMemStats(&before)
				done := make(chan float64)
				stop := make(chan struct{})
				go sampleHeap(stop, done)
				var in io.Reader = bytes.NewReader(data)
				if c.stream {
					in = struct{ io.Reader }{in}
				}
				n := 0
				for r, err := range Decode(in, Options{Source: "huge.jsonl"}) {
					if err != nil {
						b.Fatal(err)
					}
					b.StopTimer()
					runtime.GC()
					runtime.ReadMemStats(&at)
					b.StartTimer()
					n += len(r.Segments)
				}
				close(stop)
				if n == 0 {
					b.Fatal("no segments")
				}
				total += float64(at.TotalAlloc - before.TotalAlloc)
				live += float64(at.HeapAlloc) - float64(before.HeapAlloc)
				peak = max(peak, <-done-float64(before.HeapAlloc))
			}
			b.ReportMetric(total/float64(b.N)/float64(len(data)), "alloc-B/in-B")
			b.ReportMetric(live/float64(b.N)/float64(len(data)), "live-B/in-B")
			b.ReportMetric(peak/float64(len(data)), "peak-B/in-B")
		})
	}
}

// sampleHeap sends the most heap object bytes seen every half millisecond
// until stop is closed.
func sampleHeap(stop <-chan struct{}, done chan<- float64) {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var most uint64
	t := time.NewTicker(500 * time.Microsecond)
	defer t.Stop()
	for {
		metrics.Read(s)
		most = max(most, s[0].Value.Uint64())
		select {
		case <-stop:
			done <- float64(most)
			return
		case <-t.C:
		}
	}
}
