package capture

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// BenchmarkProxyLatency measures a request and its streamed answer against
// a local upstream, directly and through the recording proxy, and reports
// each one's median as median-µs/req: the difference is what the proxy adds
// (goal: under 1 ms).
func BenchmarkProxyLatency(b *testing.B) {
	body := `{"model":"m","stream":true,"messages":[{"role":"user","content":"` + strings.Repeat("w", 40<<10) + `"}]}`
	answer := strings.Repeat("event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"delta\":{\"text\":\"4\"}}\n\n", 20)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, answer)
	}))
	defer up.Close()
	rec, err := Create(filepath.Join(b.TempDir(), "bench.jsonl"), nil)
	if err != nil {
		b.Fatal(err)
	}
	u, _ := url.Parse(up.URL)
	ln, _, err := Listen("")
	if err != nil {
		b.Fatal(err)
	}
	srv := Serve(ln, New(rec, Options{Upstream: u}))
	defer srv.Close(time.Second)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	for _, c := range []struct{ name, base string }{{"direct", up.URL}, {"proxy", srv.URL()}} {
		b.Run(c.name, func(b *testing.B) {
			times := make([]time.Duration, 0, b.N)
			b.SetBytes(int64(len(body) + len(answer)))
			for b.Loop() {
				start := time.Now()
				resp, err := client.Post(c.base+"/v1/messages", "application/json", strings.NewReader(body))
				if err != nil {
					b.Fatal(err)
				}
				n, _ := io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				times = append(times, time.Since(start))
				if n != int64(len(answer)) {
					b.Fatalf("answer of %d bytes", n)
				}
			}
			slices.Sort(times)
			b.ReportMetric(float64(times[len(times)/2].Microseconds()), "median-µs/req")
		})
	}
}
