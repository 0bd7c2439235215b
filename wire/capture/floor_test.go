package capture

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// floorEnv makes the package's test binary, run as `capture.test proxy
// --upstream U --out O`, a floor of .ci/proxy-bench.sh in a process of its
// own, in place of the wirelens binary, recording nothing (O is never
// written): set to 1, floorProxy, the net/http floor; set to relay, a TCP
// relay that reads no HTTP at all, what a hop through another process costs
// whatever that process does.
const floorEnv = "WIRELENS_FLOOR_PROXY"

func TestMain(m *testing.M) {
	if mode := os.Getenv(floorEnv); (mode == "1" || mode == "relay") && len(os.Args) > 1 && os.Args[1] == "proxy" {
		os.Exit(floorMain(mode, os.Args[2:]))
	}
	os.Exit(m.Run())
}

// floorMain serves the floor of mode in front of --upstream on 127.0.0.1,
// says where on stderr as `wirelens proxy` does ("proxy on http://ADDR,
// ..."), and stops on SIGINT or SIGTERM.
func floorMain(mode string, args []string) int {
	fs := flag.NewFlagSet("proxy", flag.ContinueOnError)
	upstream := fs.String("upstream", "", "the upstream's base URL")
	fs.String("out", "", "ignored: the floor records nothing")
	u, err := &url.URL{}, fs.Parse(args)
	if err == nil {
		u, err = url.Parse(*upstream)
	}
	if err != nil || fs.NArg() > 0 || u.Host == "" {
		fmt.Fprintln(os.Stderr, "usage: WIRELENS_FLOOR_PROXY=1|relay capture.test proxy --upstream http://HOST:PORT [--out FILE]")
		return 2
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	what, serve := "the net/http floor forwarding to "+*upstream+", recording nothing", func() error {
		return (&http.Server{Handler: floorProxy(strings.TrimSuffix(*upstream, "/"))}).Serve(ln)
	}
	if mode == "relay" {
		what, serve = "a TCP relay to "+u.Host+", reading nothing", func() error {
			for {
				c, err := ln.Accept()
				if err != nil {
					return err
				}
				go relayTCP(c, u.Host)
			}
		}
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- serve() }()
	fmt.Fprintf(os.Stderr, "proxy on http://%s, %s; Ctrl-C stops it\n", ln.Addr(), what)
	select {
	case <-sig:
		ln.Close()
		return 0
	case err := <-done:
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
}

// relayTCP passes the bytes of c to a new connection to host and back until
// either side ends.
func relayTCP(c net.Conn, host string) {
	defer c.Close()
	up, err := net.Dial("tcp", host)
	if err != nil {
		return
	}
	defer up.Close()
	done := make(chan struct{}, 2)
	go func() { io.Copy(up, c); done <- struct{}{} }()
	go func() { io.Copy(c, up); done <- struct{}{} }()
	<-done
}

// floorProxy is a net/http proxy of 30 lines in front of the upstream at
// base (a server, a Transport, a copy loop that flushes), recording
// nothing: the floor the recording proxy is measured against, in
// BenchmarkProxyFloor in the benchmark's process and, as floorMain, in a
// process of its own.
func floorProxy(base string) http.Handler {
	tr := &http.Transport{MaxIdleConnsPerHost: 64}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.NewResponseController(w).EnableFullDuplex()
		target := base + r.URL.Path
		if r.URL.RawQuery != "" {
			target += "?" + r.URL.RawQuery
		}
		out, _ := http.NewRequestWithContext(r.Context(), r.Method, target, r.Body)
		out.ContentLength, out.Header = r.ContentLength, r.Header
		resp, err := tr.RoundTrip(out)
		if err != nil {
			w.WriteHeader(http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		answer(w, resp)
	})
}

// answer writes the upstream's answer resp to w as the floors do: its head,
// then each piece of its body as it comes, flushed.
func answer(w http.ResponseWriter, resp *http.Response) {
	maps.Copy(w.Header(), resp.Header)
	w.WriteHeader(resp.StatusCode)
	buf := make([]byte, 32<<10)
	for {
		n, err := resp.Body.Read(buf)
		w.Write(buf[:n])
		w.(http.Flusher).Flush()
		if err != nil {
			return
		}
	}
}

// The test binary in either floor mode (the net/http floor, the TCP
// relay), a process of its own, says where it listens as `wirelens proxy` does, passes an exchange through byte for
// byte (method, path and query, body both ways, status and headers),
// writes no recording, and exits 0 on SIGINT.
func TestFloorProxyProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the test binary as a proxy")
	}
	for _, mode := range []string{"1", "relay"} {
		t.Run("WIRELENS_FLOOR_PROXY="+mode, func(t *testing.T) { floorProcess(t, mode) })
	}
}

// floorProcess is TestFloorProxyProcess for one floor mode.
func floorProcess(t *testing.T, mode string) {
	body := append([]byte(`{"model":"m","bytes":"`), bytes.Repeat([]byte{0xff, 0, '\r', '\n', 'x'}, 20000)...)
	answer := strings.Repeat("event: ping\ndata: {\"n\":1}\n\n", 500)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, _ := io.ReadAll(r.Body)
		if r.Method != "PUT" || r.URL.Path != "/v1/messages" || r.URL.RawQuery != "beta=true&x=%2F" || !bytes.Equal(got, body) || r.Header.Get("X-Probe") != "p" {
			t.Errorf("the upstream got %s %s?%s with %d bytes (byte-exact %t), X-Probe %q",
				r.Method, r.URL.Path, r.URL.RawQuery, len(got), bytes.Equal(got, body), r.Header.Get("X-Probe"))
		}
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("X-Answer", "a")
		w.WriteHeader(http.StatusTeapot)
		io.WriteString(w, answer[:100])
		w.(http.Flusher).Flush()
		io.WriteString(w, answer[100:])
	}))
	defer up.Close()
	out := filepath.Join(t.TempDir(), "floor.jsonl")
	cmd := exec.Command(os.Args[0], "proxy", "--upstream", up.URL+"/", "--out", out)
	cmd.Env = append(os.Environ(), floorEnv+"="+mode)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	line, err := bufio.NewReader(stderr).ReadString('\n')
	m := regexp.MustCompile(`^proxy on (http://127\.0\.0\.1:[0-9]+), `).FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("the floor said %q (%v), not where it listens", line, err)
	}
	go io.Copy(io.Discard, stderr)
	req, _ := http.NewRequest("PUT", m[1]+"/v1/messages?beta=true&x=%2F", bytes.NewReader(body))
	req.Header.Set("X-Probe", "p")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusTeapot || string(got) != answer || resp.Header.Get("X-Answer") != "a" {
		t.Errorf("the client got %d, %d bytes (byte-exact %t, %v), X-Answer %q", resp.StatusCode, len(got), string(got) == answer, err, resp.Header.Get("X-Answer"))
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	wait := make(chan error, 1)
	go func() { wait <- cmd.Wait() }()
	select {
	case err := <-wait:
		if err != nil {
			t.Errorf("the floor exited with %v after SIGINT, want 0", err)
		}
	case <-time.After(5 * time.Second):
		t.Error("the floor did not exit on SIGINT")
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the floor wrote %s (%v): it records nothing", out, err)
	}
}

// Without --upstream the floor says how to run it and exits 2, serving
// nothing.
func TestFloorProxyUsage(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the test binary")
	}
	cmd := exec.Command(os.Args[0], "proxy", "--out", "x.jsonl")
	cmd.Env = append(os.Environ(), floorEnv+"=1")
	got, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(string(got), "usage:") || strings.Contains(string(got), "proxy on") {
		t.Errorf("without --upstream: %v, %q; want exit 2 and a usage line", err, got)
	}
}
