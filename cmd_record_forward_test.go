package main

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wirelens/wirelens/wire/capture"
)

// testForwardChild is an agent that knows no base URL: it posts a Chat
// Completions request to OpenAI's own host, through HTTPS_PROXY, trusting
// the roots of SSL_CERT_FILE (Go reads both), or, untrusting, only an
// empty pool. It prints the answer and the CA files it was given.
func testForwardChild(untrusting bool) int {
	fmt.Printf("SSL_CERT_FILE=%s\nNODE_EXTRA_CA_CERTS=%s\n", os.Getenv("SSL_CERT_FILE"), os.Getenv("NODE_EXTRA_CA_CERTS"))
	tr := http.DefaultTransport.(*http.Transport).Clone()
	if untrusting {
		tr.TLSClientConfig = &tls.Config{RootCAs: x509.NewCertPool()}
	}
	c := &http.Client{Transport: tr, Timeout: 30 * time.Second}
	resp, err := c.Post("https://api.openai.com/v1/chat/completions", "application/json",
		strings.NewReader(`{"model":"gpt-test","messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"What is 2+2?"}]}`))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 7
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	fmt.Printf("proto=%s status=%d\n%s\n", resp.Proto, resp.StatusCode, b)
	return 0
}

// TestRecordForwardModeInterceptsAProviderHost: with --intercept, a child
// that talks to api.openai.com itself is answered by the mock through the
// forward proxy and recorded under that host; the run's CA (its key with
// it) is gone when record returns.
func TestRecordForwardModeInterceptsAProviderHost(t *testing.T) {
	t.Setenv("WIRELENS_TEST_CHILD", "forward")
	out := filepath.Join(t.TempDir(), "fwd.jsonl")
	code, stdout, stderr := runCLI(t, "", "record", "--mock", "--intercept", "--out", out, "--", os.Args[0], "-test.run=NONE")
	os.Unsetenv("WIRELENS_TEST_CHILD")
	if code != 0 || !strings.Contains(stdout, "status=200") || !strings.Contains(stdout, `"content":"4"`) {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "proto=HTTP/2.0") {
		t.Errorf("the intercepted connection did not speak HTTP/2: %s", stdout)
	}
	var bundle string
	for _, l := range strings.Split(stdout, "\n") {
		if v, ok := strings.CutPrefix(l, "SSL_CERT_FILE="); ok {
			bundle = v
		}
	}
	if bundle == "" || !strings.Contains(stderr, "forward proxy, the run's CA in "+filepath.Dir(bundle)) {
		t.Fatalf("the child was given no bundle, or stderr does not name its folder: %q / %q", bundle, stderr)
	}
	if _, err := os.Stat(filepath.Dir(bundle)); !os.IsNotExist(err) {
		t.Errorf("the run's CA folder is still there: %v", err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if urls := recordedURLs(t, b); len(urls) != 1 || urls[0] != "https://api.openai.com/v1/chat/completions" {
		t.Errorf("recorded %q", urls)
	}
	if c, o, e := runCLI(t, "", "inspect", "--json", out); c != 0 || !strings.Contains(o, `"format": "openai-chat"`) {
		t.Errorf("inspect: %d %s %s", c, o, e)
	}
}

// TestRecordClientThatDoesNotTrustTheCA: a child that trusts none of the
// run's roots fails closed: nothing is recorded, and record says which
// host refused the CA and what to try.
func TestRecordClientThatDoesNotTrustTheCA(t *testing.T) {
	t.Setenv("WIRELENS_TEST_CHILD", "untrusting")
	out := filepath.Join(t.TempDir(), "fwd.jsonl")
	code, _, stderr := runCLI(t, "", "record", "--mock", "--intercept", "--out", out, "--", os.Args[0], "-test.run=NONE")
	os.Unsetenv("WIRELENS_TEST_CHILD")
	if code != 7 {
		t.Errorf("exit %d, want the child's 7 (its request failed)", code)
	}
	for _, want := range []string{"no exchange recorded", "TLS to api.openai.com refused by the client", "nothing recorded: TLS was refused by the client for api.openai.com"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q: %s", want, stderr)
		}
	}
	if b, _ := os.ReadFile(out); len(recordedURLs(t, b)) != 0 {
		t.Errorf("an exchange was recorded: %q", recordedURLs(t, b))
	}
}

// recordedURLs are the request URLs of a capture's exchange lines (not
// its provenance record).
func recordedURLs(t *testing.T, b []byte) []string {
	t.Helper()
	var urls []string
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var line struct {
			Request *struct{ URL string } `json:"request"`
		}
		if l == "" {
			continue
		}
		if err := json.Unmarshal([]byte(l), &line); err != nil {
			t.Fatalf("a line of the capture: %v", err)
		}
		if line.Request != nil {
			urls = append(urls, line.Request.URL)
		}
	}
	return urls
}

// TestRecordExplain: --explain runs nothing and prints the mode and the
// recipe of each agent; an unknown command gets both modes.
func TestRecordExplain(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"--mock", "--", "codex", "exec", "hi"}, []string{"base-URL mode", "recipe: Codex", `model_providers.wirelens={name="wirelens",base_url="http://127.0.0.1:PORT/v1"`, "command: codex -c"}},
		{[]string{"--mock", "--", "/opt/bin/qwen", "-p", "hi"}, []string{"recipe: qwen-code", "arguments --auth-type openai"}},
		{[]string{"--mock", "--", "qwen", "--auth-type", "qwen-oauth", "-p", "hi"}, []string{"not adding --auth-type openai: you gave --auth-type"}},
		{[]string{"--", "qwen", "-p", "hi"}, []string{"the forward proxy, keeping your provider", "HTTPS_PROXY=http://127.0.0.1:PORT", "SSL_CERT_FILE=$RUN/wirelens-ca-*/bundle.pem"}},
		{[]string{"--mock", "--", "cline", "-t", "60", "hi"}, []string{"CLINE_SESSION_BACKEND_MODE=local", "CLINE_PROVIDER_SETTINGS_PATH=$RUN/cline-providers.json", `"baseUrl":"http://127.0.0.1:PORT/v1"`}},
		{[]string{"--mock", "--", "opencode", "run", "hi"}, []string{"OPENCODE_CONFIG_CONTENT="}},
		{[]string{"--mock", "--", "pi", "-p", "hi"}, []string{"command: pi --extension $RUN/pi-wirelens.js -p hi", `pi.registerProvider("anthropic", { baseUrl: "http://127.0.0.1:PORT" })`}},
		{[]string{"--mock", "--", "some-agent"}, []string{"not a known agent: the base-URL variables and the forward proxy both", "ANTHROPIC_BASE_URL=", "NODE_EXTRA_CA_CERTS=", "other hosts refused (--mock: offline)"}},
		{[]string{"--intercept", "--intercept-host", "llm.corp.example", "--", "claude"}, []string{"--intercept: the forward proxy alone", "and llm.corp.example", "tunnelled untouched"}},
	} {
		code, out, stderr := runCLI(t, "", append([]string{"record", "--explain"}, c.args...)...)
		if code != 0 || stderr != "" {
			t.Errorf("%v: exit %d %q", c.args, code, stderr)
		}
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("%v: no %q in\n%s", c.args, w, out)
			}
		}
	}
	code, out, _ := runCLI(t, "", "record", "--explain", "--intercept", "--", "claude")
	if code != 0 || strings.Contains(out, "ANTHROPIC_BASE_URL=") {
		t.Errorf("--intercept sets base-URL variables: %s", out)
	}
	if len(capture.ProviderHosts) < 30 {
		t.Errorf("the provider table has %d hosts", len(capture.ProviderHosts))
	}
}
