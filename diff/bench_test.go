package diff

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/decode"
	"github.com/wirelens/wirelens/wire/encode"
)

// benchSession generates a session of n growing requests once per size.
var benchSessions = map[int][]byte{}

func benchSession(b *testing.B, n int) []byte {
	b.Helper()
	if s, ok := benchSessions[n]; ok {
		return s
	}
	var buf bytes.Buffer
	if err := encode.GenerateSession(&buf, n, 1); err != nil {
		b.Fatal(err)
	}
	benchSessions[n] = buf.Bytes()
	return buf.Bytes()
}

// BenchmarkCacheSession decodes a generated session and compares each
// request with the one before it, as `wirelens cache` does (streaming:
// only the previous request is held). Doubling the requests (about four
// times the bytes) should cost at most about four times as much.
func BenchmarkCacheSession(b *testing.B) {
	for _, n := range []int{300, 600} {
		data := benchSession(b, n)
		b.Run(fmt.Sprintf("decode+cache/%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				var q Sequence
				for r, err := range decode.Decode(bytes.NewReader(data), decode.Options{Source: "s.jsonl"}) {
					if err != nil {
						b.Fatal(err)
					}
					q.Add(&r)
				}
				if s := q.Summary(); s.Requests != n {
					b.Fatalf("%d requests, want %d", s.Requests, n)
				}
			}
		})
		// The comparison alone, on decoded requests.
		var reqs []wire.Request
		for r, err := range decode.Decode(bytes.NewReader(data), decode.Options{Source: "s.jsonl"}) {
			if err != nil {
				b.Fatal(err)
			}
			reqs = append(reqs, r)
		}
		b.Run(fmt.Sprintf("cache/%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				steps, _ := Analyze(reqs)
				if len(steps) != n-1 {
					b.Fatal("steps")
				}
			}
		})
	}
}
