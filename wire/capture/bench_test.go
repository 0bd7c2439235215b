package capture

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// BenchmarkProxyLineRate measures what the recording proxy adds to an
// exchange: a request with a 40 KB body and an answer streamed as 21
// server-sent events (the first flushed at once, as a model's first token,
// the rest after it), against a local upstream, sent directly and through
// the proxy (recording to a file) in alternating rounds of the same run, at
// 1 and at 32 connections; and at 32 connections with the answer paced as a
// model's (the first event at once, then two every 5 ms, 50 ms in all), where the
// upstream's pace, not the machine's cores, bounds the throughput. With an
// upstream that answers at once, client, proxy and upstream share the
// machine's cores, and the proxy, which reads and writes every byte once
// more, is measured against a client and upstream that do nothing else. b.N requests go each way. It reports each
// side's time to first byte (ttfb) and to last byte (ttlb), median and
// 99th percentile, in µs; the proxy's added ttlb median; and the proxy's
// throughput (requests a second over its rounds) as a fraction of direct
// (goals, issue 27: under +200 µs at the median, at least 0.9).
//
// With WIRELENS_PROXY_BIN set to a wirelens binary, the proxy measured is
// that binary's `proxy --upstream` (.ci/proxy-bench.sh builds one), not
// the package's own in the benchmark's process; set to this package's test
// binary with WIRELENS_FLOOR_PROXY=1, it is the floor (floorProxy, which
// records nothing, in a process of its own: floor_test.go).
func BenchmarkProxyLineRate(b *testing.B) {
	body := `{"model":"m","stream":true,"messages":[{"role":"user","content":"` + strings.Repeat("w", 40<<10) + `"}]}`
	event := "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"delta\":{\"text\":\"4\"}}\n\n"
	rest := strings.Repeat(event, 20)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, event)
		w.(http.Flusher).Flush()
		if r.URL.RawQuery == "" {
			io.WriteString(w, rest)
			return
		}
		// Paced as a model streams its tokens: two events every 5 ms.
		for range 10 {
			time.Sleep(5 * time.Millisecond)
			io.WriteString(w, event+event)
			w.(http.Flusher).Flush()
		}
	}))
	defer up.Close()
	base, proxyCPU := benchProxy(b, up.URL)
	for _, c := range []struct {
		name  string
		conc  int
		query string
	}{{"c=1", 1, ""}, {"c=32", 32, ""}, {"c=32-paced", 32, "?paced"}} {
		conc := c.conc
		b.Run(c.name, func(b *testing.B) {
			sides := []*benchSide{{base: up.URL, query: c.query}, {base: base, query: c.query}}
			for _, s := range sides {
				s.client = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64, MaxIdleConns: 256}}
				defer s.client.CloseIdleConnections()
				s.run(b, body, len(event)+len(rest), conc, conc) // warm the pools
				s.reset()
			}
			round := max(conc, 50)
			b.ResetTimer()
			// Over the direct rounds too: the recorder writes the lines
			// of a proxy round in the gaps after it (its thread yields).
			c0 := proxyCPU()
			for left := b.N; left > 0; left -= round {
				for _, s := range sides {
					s.run(b, body, len(event)+len(rest), min(round, left), conc)
				}
			}
			cpu := proxyCPU() - c0
			b.StopTimer()
			if cpu > 0 {
				// The proxy process's own CPU time (user and system) per
				// exchange, recording included: what the machine's load
				// does not change much.
				b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "proxy-cpu-µs/req")
			}
			d, p := sides[0], sides[1]
			for _, m := range []struct {
				name string
				v    float64
			}{
				{"direct-ttfb-p50-µs", d.pct(d.ttfb, 50)}, {"proxy-ttfb-p50-µs", p.pct(p.ttfb, 50)},
				{"direct-ttlb-p50-µs", d.pct(d.ttlb, 50)}, {"proxy-ttlb-p50-µs", p.pct(p.ttlb, 50)},
				{"direct-ttlb-p99-µs", d.pct(d.ttlb, 99)}, {"proxy-ttlb-p99-µs", p.pct(p.ttlb, 99)},
				{"proxy-ttfb-p99-µs", p.pct(p.ttfb, 99)}, {"direct-ttfb-p99-µs", d.pct(d.ttfb, 99)},
				{"added-ttlb-p50-µs", p.pct(p.ttlb, 50) - d.pct(d.ttlb, 50)},
				{"direct-req/s", d.rate()}, {"proxy-req/s", p.rate()},
				{"throughput-ratio", p.rate() / d.rate()},
			} {
				b.ReportMetric(m.v, m.name)
			}
			b.ReportMetric(0, "ns/op")
		})
	}
}

// benchSide is one way of sending: directly or through the proxy.
type benchSide struct {
	base       string
	query      string // ?paced: the upstream paces its answer
	client     *http.Client
	mu         sync.Mutex
	ttfb, ttlb []time.Duration
	busy       time.Duration // wall time of its rounds
	n          int
}

func (s *benchSide) reset() {
	s.ttfb, s.ttlb, s.busy, s.n = nil, nil, 0, 0
}

// run sends n requests, conc at a time.
func (s *benchSide) run(b *testing.B, body string, answer, n, conc int) {
	start := time.Now()
	var wg sync.WaitGroup
	work := make(chan struct{}, n)
	for range n {
		work <- struct{}{}
	}
	close(work)
	for range min(conc, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]byte, 32<<10)
			for range work {
				t0 := time.Now()
				resp, err := s.client.Post(s.base+"/v1/messages"+s.query, "application/json", strings.NewReader(body))
				if err != nil {
					b.Error(err)
					return
				}
				k, err := resp.Body.Read(buf)
				first := time.Since(t0)
				rest, _ := io.CopyBuffer(io.Discard, resp.Body, buf)
				resp.Body.Close()
				last := time.Since(t0)
				if int(rest)+k != answer || (err != nil && err != io.EOF) {
					b.Errorf("answer of %d bytes (%v), want %d", int(rest)+k, err, answer)
					return
				}
				s.mu.Lock()
				s.ttfb = append(s.ttfb, first)
				s.ttlb = append(s.ttlb, last)
				s.mu.Unlock()
			}
		}()
	}
	wg.Wait()
	s.busy += time.Since(start)
	s.n += n
}

// pct is the p-th percentile of ds in µs.
func (s *benchSide) pct(ds []time.Duration, p int) float64 {
	if len(ds) == 0 {
		return 0
	}
	c := slices.Clone(ds)
	slices.Sort(c)
	return float64(c[min(len(c)-1, len(c)*p/100)].Nanoseconds()) / 1e3
}

func (s *benchSide) rate() float64 { return float64(s.n) / s.busy.Seconds() }

// benchProxy starts the proxy in front of upstream (the binary
// WIRELENS_PROXY_BIN names, else the package's own) and returns its base
// URL and a reading of its process's CPU time (always 0 for the package's,
// which shares the benchmark's process).
func benchProxy(b *testing.B, upstream string) (string, func() time.Duration) {
	out := filepath.Join(b.TempDir(), "bench.jsonl")
	if bin := os.Getenv("WIRELENS_PROXY_BIN"); bin != "" {
		ctx, cancel := context.WithCancel(context.Background())
		cmd := exec.CommandContext(ctx, bin, "proxy", "--upstream", upstream, "--out", out)
		cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
		stderr, err := cmd.StderrPipe()
		if err != nil {
			b.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { cancel(); cmd.Wait() })
		re := regexp.MustCompile(`proxy on (http://[^ ,]+)`)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				go io.Copy(io.Discard, stderr)
				return m[1], func() time.Duration { return procCPU(cmd.Process.Pid) }
			}
		}
		b.Fatalf("%s proxy did not say where it listens", bin)
	}
	rec, err := Create(out, nil)
	if err != nil {
		b.Fatal(err)
	}
	u, _ := url.Parse(upstream)
	ln, _, err := Listen("")
	if err != nil {
		b.Fatal(err)
	}
	srv := Serve(ln, New(rec, Options{Upstream: u}))
	b.Cleanup(func() { srv.Close(5 * time.Second) })
	return srv.URL(), func() time.Duration { return 0 }
}

// procCPU is the user and system time of process pid so far (Linux's
// /proc/PID/stat, in clock ticks of 10 ms; 0 elsewhere).
func procCPU(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The fields after the command's name, which is in parentheses.
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	if len(f) < 13 {
		return 0
	}
	u, _ := strconv.ParseInt(f[11], 10, 64)
	s, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(u+s) * 10 * time.Millisecond
}

// BenchmarkRecorderLine is the recorder's work for one exchange of
// BenchmarkProxyLineRate's shape (a 40 KB JSON request, 21 events back),
// with the headers an agent's SDK sends: what runs on the recorder's
// goroutine, off the exchange's path, but on the same cores.
func BenchmarkRecorderLine(b *testing.B) {
	body := `{"model":"m","stream":true,"messages":[{"role":"user","content":"` + strings.Repeat("w", 40<<10) + `"}]}`
	event := "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"delta\":{\"text\":\"4\"}}\n\n"
	x := &Exchange{Start: time.Now(), End: time.Now(), Method: "POST", URL: "http://127.0.0.1:8787/v1/messages", Status: 200,
		ReqHeader: http.Header{
			"Accept": {"application/json"}, "Anthropic-Version": {"2023-06-01"}, "Anthropic-Beta": {"claude-code-20250219,oauth-2025-04-20"},
			"Content-Type": {"application/json"}, "Content-Length": {strconv.Itoa(len(body))}, "User-Agent": {"claude-cli/2.0.0 (external, cli)"},
			"X-Api-Key": {"sk-ant-api03-" + strings.Repeat("Zq7x", 20)}, "X-App": {"cli"}, "X-Stainless-Arch": {"x64"},
			"X-Stainless-Lang": {"js"}, "X-Stainless-Os": {"Linux"}, "X-Stainless-Package-Version": {"0.60.0"},
			"X-Stainless-Retry-Count": {"0"}, "X-Stainless-Runtime": {"node"}, "X-Stainless-Runtime-Version": {"v22.0.0"},
			"X-Stainless-Timeout": {"600"}, "Connection": {"keep-alive"}, "Accept-Encoding": {"gzip, deflate"},
		},
		ReqBody:    []byte(body),
		RespHeader: http.Header{"Content-Type": {"text/event-stream"}, "Date": {"Wed, 02 Dec 2026 02:30:00 GMT"}, "Request-Id": {"req_011CUabc"}},
		RespBody:   []byte(strings.Repeat(event, 21)),
	}
	for _, c := range []struct {
		name  string
		masks *headerMasks
	}{{"masks-each-time", nil}, {"masks-remembered", newHeaderMasks()}} {
		b.Run(c.name, func(b *testing.B) {
			var out bytes.Buffer
			b.SetBytes(int64(len(x.ReqBody) + len(x.RespBody)))
			b.ReportAllocs()
			for b.Loop() {
				out.Reset()
				if err := writeLine(&out, x, c.masks); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkProxyFloor puts the package's proxy beside the floors it is
// measured against, at one connection, in alternating rounds of one run,
// with BenchmarkProxyLineRate's exchange: a raw TCP relay (no HTTP at all:
// the cost of a hop), a net/http proxy of 30 lines (a server, a Transport,
// a copy loop that flushes), httputil.ReverseProxy as net/http gives it,
// and the recording proxy. Each side's time to last byte, median, in µs,
// and what it adds to direct.
func BenchmarkProxyFloor(b *testing.B) {
	body := `{"model":"m","stream":true,"messages":[{"role":"user","content":"` + strings.Repeat("w", 40<<10) + `"}]}`
	event := "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"delta\":{\"text\":\"4\"}}\n\n"
	rest := strings.Repeat(event, 20)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, event)
		w.(http.Flusher).Flush()
		io.WriteString(w, rest)
	}))
	defer up.Close()
	u, _ := url.Parse(up.URL)
	duplex := func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.NewResponseController(w).EnableFullDuplex()
			h.ServeHTTP(w, r)
		})
	}
	hand := httptest.NewServer(floorProxy(up.URL))
	defer hand.Close()
	rp := httptest.NewServer(duplex(&httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) { pr.SetURL(u) }, FlushInterval: -1, ErrorLog: log.New(io.Discard, "", 0)}))
	defer rp.Close()
	relay := tcpRelay(b, u.Host)
	inline := httptest.NewServer(duplex(inlineClient(u.Host, up.URL)))
	defer inline.Close()
	ours, _ := benchProxy(b, up.URL)
	names := []string{"direct", "tcp-relay", "net/http-30-lines", "handler-goroutine-client", "reverseproxy", "wirelens"}
	sides := []*benchSide{{base: up.URL}, {base: relay}, {base: hand.URL}, {base: inline.URL}, {base: rp.URL}, {base: ours}}
	for _, s := range sides {
		s.client = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
		defer s.client.CloseIdleConnections()
		s.run(b, body, len(event)+len(rest), 5, 1) // warm the pools
		s.reset()
	}
	b.ResetTimer()
	for left := b.N; left > 0; left -= 50 {
		for _, s := range sides {
			s.run(b, body, len(event)+len(rest), min(50, left), 1)
		}
	}
	b.StopTimer()
	d := sides[0].pct(sides[0].ttlb, 50)
	b.ReportMetric(d, "direct-ttlb-p50-µs")
	for i, s := range sides[1:] {
		b.ReportMetric(s.pct(s.ttlb, 50)-d, names[i+1]+"-added-ttlb-p50-µs")
	}
	b.ReportMetric(0, "ns/op")
}

// inlineClient is the 30-line proxy with the Transport replaced by a
// client on the handler's goroutine (net/http's own Request.Write and
// ReadResponse over kept connections to addr): what the Transport's
// hand-offs to its writeLoop and readLoop goroutines cost, measured for
// item 3 of issue 27. Plain HTTP, no retries, no timeouts: a measurement,
// not a client.
func inlineClient(addr, base string) http.Handler {
	var mu sync.Mutex
	var idle []*bufio.ReadWriter
	conns := map[*bufio.ReadWriter]net.Conn{}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		var c *bufio.ReadWriter
		if n := len(idle); n > 0 {
			c, idle = idle[n-1], idle[:n-1]
		}
		mu.Unlock()
		if c == nil {
			nc, err := net.Dial("tcp", addr)
			if err != nil {
				w.WriteHeader(http.StatusBadGateway)
				return
			}
			c = bufio.NewReadWriter(bufio.NewReader(nc), bufio.NewWriter(nc))
			mu.Lock()
			conns[c] = nc
			mu.Unlock()
		}
		out, _ := http.NewRequestWithContext(r.Context(), r.Method, base+r.URL.Path, r.Body)
		out.ContentLength, out.Header = r.ContentLength, r.Header
		resp, err := func() (*http.Response, error) {
			if err := out.Write(c); err != nil {
				return nil, err
			}
			if err := c.Flush(); err != nil {
				return nil, err
			}
			return http.ReadResponse(c.Reader, out)
		}()
		if err != nil {
			w.WriteHeader(http.StatusBadGateway)
			return
		}
		answer(w, resp)
		resp.Body.Close()
		mu.Lock()
		if resp.Close {
			conns[c].Close()
		} else {
			idle = append(idle, c)
		}
		mu.Unlock()
	})
}

// tcpRelay relays each connection to addr byte for byte; it returns its
// base URL.
func tcpRelay(b *testing.B, addr string) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				u, err := net.Dial("tcp", addr)
				if err != nil {
					return
				}
				defer u.Close()
				go io.Copy(u, c)
				io.Copy(c, u)
			}()
		}
	}()
	return "http://" + ln.Addr().String()
}
