package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The record tests run this test binary as the recorded COMMAND: with
// WIRELENS_TEST_CHILD set it is a tiny agent that posts one Messages
// request, with the credentials of WIRELENS_TEST_SECRET in every header a
// client puts them in, to $ANTHROPIC_BASE_URL, prints the answer and exits
// with $WIRELENS_TEST_EXIT.
//
// With WIRELENS_TEST_AS_MAIN set it is wirelens itself (main's own call),
// for tests that need a real process: a controlling terminal, signals.
func TestMain(m *testing.M) {
	if os.Getenv("WIRELENS_TEST_SLEEP") != "" {
		testSleeper()
	}
	switch os.Getenv("WIRELENS_TEST_CHILD") {
	case "":
	case "forward", "untrusting":
		os.Exit(testForwardChild(os.Getenv("WIRELENS_TEST_CHILD") == "untrusting"))
	case "grandchildren":
		os.Exit(testParentOfSleepers())
	default:
		os.Exit(testChild())
	}
	if os.Getenv("WIRELENS_TEST_AS_MAIN") != "" {
		main()
	}
	os.Exit(m.Run())
}

func testChild() int {
	base := os.Getenv("ANTHROPIC_BASE_URL")
	secret := os.Getenv("WIRELENS_TEST_SECRET")
	req, err := http.NewRequest(http.MethodPost, base+"/v1/messages?key="+secret,
		strings.NewReader(`{"model":"claude-test","max_tokens":5,"stream":true,"system":"Be brief.","messages":[{"role":"user","content":"What is 2+2?"}]}`))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 99
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+secret)
	req.Header.Set("X-Api-Key", secret)
	req.Header.Set("Cookie", "session="+secret)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 98
	}
	io.Copy(os.Stdout, resp.Body)
	resp.Body.Close()
	code, _ := strconv.Atoi(os.Getenv("WIRELENS_TEST_EXIT"))
	return code
}

// testSecret is a credential no output may hold in the clear.
const testSecret = "sk-ant-api03-RECORDSECRET0123456789abcdefZ9y8"

// recordChild runs `record --mock` on the test child and returns the
// recording's path and the exit code, output and errors of record.
func recordChild(t *testing.T, exit int) (string, int, string, string) {
	t.Helper()
	t.Setenv("WIRELENS_TEST_CHILD", "1")
	t.Setenv("WIRELENS_TEST_EXIT", strconv.Itoa(exit))
	t.Setenv("WIRELENS_TEST_SECRET", testSecret)
	out := filepath.Join(t.TempDir(), "capture.jsonl")
	code, stdout, stderr := runCLI(t, "", "record", "--mock", "--out", out, "--", os.Args[0], "-test.run=NONE")
	os.Unsetenv("WIRELENS_TEST_CHILD")
	return out, code, stdout, stderr
}

// TestRecordRunsTheCommandAndPassesItsExitCode: the child reaches the mock
// through ANTHROPIC_BASE_URL, its output passes through, its exit code is
// record's, and the exchange is in a recording of mode 0600 that inspect
// reads, with the usage of the reassembled stream.
func TestRecordRunsTheCommandAndPassesItsExitCode(t *testing.T) {
	path, code, stdout, stderr := recordChild(t, 3)
	if code != 3 {
		t.Fatalf("exit %d, want the child's 3; stderr %q", code, stderr)
	}
	if !strings.Contains(stdout, "event: message_stop") {
		t.Errorf("the child's output did not pass through: %q", stdout)
	}
	if !strings.Contains(stderr, "1 exchange recorded in") {
		t.Errorf("stderr %q", stderr)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("recording mode %v", st.Mode().Perm())
	}
	code, out, errs := runCLI(t, "", "inspect", "--json", path)
	if code != 0 {
		t.Fatalf("inspect: exit %d %q", code, errs)
	}
	var doc struct {
		Requests []struct {
			Format, Model string
			Usage         *struct {
				InputTokens  int `json:"input_tokens"`
				CachedTokens int `json:"cached_tokens"`
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Requests) != 1 || doc.Requests[0].Format != "anthropic" || doc.Requests[0].Model != "claude-test" ||
		doc.Requests[0].Usage == nil || doc.Requests[0].Usage.InputTokens <= 0 || doc.Requests[0].Usage.CachedTokens != 0 {
		t.Errorf("inspect read %+v", doc.Requests)
	}
	if _, code, _, _ := recordChild(t, 0); code != 0 {
		t.Errorf("a child that exits 0: record exits %d", code)
	}
}

// TestNoCredentialInAnyRecordingOrOutput: the credentials the child sends
// in its headers, cookie and query reach neither the recording nor any
// output of any command on it.
func TestNoCredentialInAnyRecordingOrOutput(t *testing.T) {
	path, code, _, stderr := recordChild(t, 0)
	if code != 0 {
		t.Fatalf("record: exit %d %q", code, stderr)
	}
	rec, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	outputs := map[string]string{"recording": string(rec), "record's stderr": stderr}
	for _, args := range [][]string{
		{"inspect", path}, {"inspect", "--json", path}, {"check", path}, {"check", "--json", path}, {"check", "--sarif", path},
		{"cache", path}, {"cache", "--json", path}, {"view", path},
	} {
		_, out, errs := runCLI(t, "", args...)
		outputs[strings.Join(args[:len(args)-1], " ")] = out + errs
	}
	for name, out := range outputs {
		if strings.Contains(out, "RECORDSECRET") {
			i := strings.Index(out, "RECORDSECRET")
			t.Errorf("%s holds the credential: %q", name, out[max(0, i-50):min(len(out), i+30)])
		}
	}
	for _, hint := range []string{`"x-api-key":"sk-…Z9y8"`, `"authorization":"Bearer sk-…Z9y8"`, `"cookie":"session=sk-…Z9y8"`} {
		if !strings.Contains(string(rec), hint) {
			t.Errorf("the recording lacks the hint %s", hint)
		}
	}
}

// TestRecordAndProxyErrors: a command that does not exist, a port in use
// and contradictory flags are one line each, exit 2.
func TestRecordAndProxyErrors(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"record", "--mock", "--out", filepath.Join(dir, "a.jsonl"), "--", "wirelens-no-such-command"}, "wirelens-no-such-command: command not found"},
		{[]string{"record", "--mock", "--listen", ln.Addr().String(), "--out", filepath.Join(dir, "b.jsonl"), "--", os.Args[0]}, "cannot listen on " + ln.Addr().String()},
		{[]string{"proxy", "--mock", "--upstream", "https://api.openai.com"}, "--mock and --upstream cannot be used together"},
		{[]string{"proxy", "--upstream", "ftp://x"}, "--upstream"},
		{[]string{"record", "--mock", "--out", dir, "--", os.Args[0]}, dir},
	} {
		code, _, stderr := runCLI(t, "", c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q, want one line with %q", c.args, code, stderr, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "b.jsonl")); err == nil {
		t.Error("a recording was created for a proxy that could not listen")
	}
}

// TestAgentCapturesReadByEveryCommand: inspect, check, cache and view read
// the captures of testdata/agents (record --mock on Claude Code, Codex and
// Gemini CLI) without an error; check finds the hostile workspace.
func TestAgentCapturesReadByEveryCommand(t *testing.T) {
	for _, name := range []string{"claude-code", "codex", "gemini-cli"} {
		path := filepath.Join("testdata", "agents", name+".jsonl")
		for _, c := range []struct {
			args []string
			code int
			want string
		}{
			{[]string{"inspect", path}, 0, "recorded usage: input"},
			{[]string{"check", path}, 1, "tag-smuggling"},
			{[]string{"cache", path}, 0, ""},
			{[]string{"view", path}, 0, "agents-md"},
		} {
			code, out, stderr := runCLI(t, "", c.args...)
			if code != c.code || stderr != "" || !strings.Contains(out, c.want) {
				t.Errorf("%v: exit %d (want %d), stderr %q, output lacks %q", c.args, code, c.code, stderr, c.want)
			}
		}
	}
}

// TestRecordNothingLeavesNoFile: a command that sends no request leaves
// no empty capture behind (there was one, of 0 bytes) and says so; record
// still passes on the command's exit code.
func TestRecordNothingLeavesNoFile(t *testing.T) {
	sh, err := exec.LookPath("true")
	if err != nil {
		t.Skip("no true command here")
	}
	out := filepath.Join(t.TempDir(), "capture.jsonl")
	code, _, stderr := runCLI(t, "", "record", "--mock", "--out", out, "--", sh)
	if code != 0 || !strings.Contains(stderr, "no exchange recorded: no capture written") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if _, err := os.Lstat(out); !os.IsNotExist(err) {
		t.Errorf("an empty capture was left: %v", err)
	}
}
