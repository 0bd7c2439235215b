package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
)

// idleSession is a claude-trace session sent at 0, 2 min, 11 min, 13 min
// and 1 h 30 min: idle 9 minutes before the third request (past the
// 5-minute lifetime) and 77 minutes before the fifth (past an hour).
var idleSession = filepath.Join("testdata", "cache", "idle.claude-trace.jsonl")

// TestCacheJSONTimes: cache --json gives each request its time, the time
// since the request it was compared with, the request it reused, its lane
// and the expiry of a prefix that had been written; the summary counts the
// expiries and gives the scale (1, nothing recorded) and the lanes with
// their cost.
func TestCacheJSONTimes(t *testing.T) {
	code, out, errs := runCLI(t, "", "cache", "--json", idleSession)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var doc struct {
		Requests []struct {
			Index       int      `json:"index"`
			At          *string  `json:"at"`
			IdleSeconds *float64 `json:"idle_seconds"`
			ReusedFrom  *struct {
				Source string `json:"source"`
				Index  int    `json:"index"`
			} `json:"reused_from"`
			Lane struct {
				Name string `json:"name"`
				ID   string `json:"id"`
			} `json:"lane"`
			Expired *struct {
				Lifetime float64 `json:"lifetime_seconds"`
				Idle     float64 `json:"idle_seconds"`
			} `json:"expired"`
			Cost struct {
				Expiry *struct {
					Tokens int     `json:"tokens"`
					Cost   float64 `json:"cost"`
				} `json:"expiry"`
			} `json:"cost"`
		} `json:"requests"`
		Summary struct {
			Expiries   int     `json:"expiries"`
			TokenScale float64 `json:"token_scale"`
			Cost       struct {
				ExpiryCost float64 `json:"expiry_cost"`
			} `json:"cost"`
			Lanes []struct {
				Name     string  `json:"name"`
				Requests int     `json:"requests"`
				Reuse    float64 `json:"reuse_ratio"`
				Expiries int     `json:"expiries"`
				Cost     *struct {
					Spend      float64 `json:"spend"`
					ExpiryCost float64 `json:"expiry_cost"`
				} `json:"cost"`
			} `json:"lanes"`
		} `json:"summary"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Requests) != 4 {
		t.Fatalf("%d requests", len(doc.Requests))
	}
	wantIdle := []float64{120, 540, 120, 4620}
	for i, r := range doc.Requests {
		if r.At == nil || !strings.HasPrefix(*r.At, "2025-12-01T1") || r.IdleSeconds == nil || *r.IdleSeconds != wantIdle[i] {
			t.Errorf("request %d: at %v, idle %v, want idle %v", r.Index, r.At, r.IdleSeconds, wantIdle[i])
		}
		if r.Lane.Name != "main" || r.Lane.ID == "" {
			t.Errorf("request %d: lane %+v", r.Index, r.Lane)
		}
		expired := i == 1 || i == 3
		switch {
		case expired && (r.Expired == nil || r.Expired.Lifetime != 300 || r.Expired.Idle != wantIdle[i] ||
			r.Cost.Expiry == nil || r.Cost.Expiry.Tokens == 0 || r.Cost.Expiry.Cost <= 0):
			t.Errorf("request %d: expired %+v, cost %+v", r.Index, r.Expired, r.Cost.Expiry)
		case expired && r.ReusedFrom != nil:
			t.Errorf("request %d: reused %+v from an expired prefix", r.Index, r.ReusedFrom)
		case !expired && (r.Expired != nil || r.ReusedFrom == nil || r.ReusedFrom.Index != r.Index-1):
			t.Errorf("request %d: expired %+v, reused %+v", r.Index, r.Expired, r.ReusedFrom)
		}
	}
	s := doc.Summary
	if s.Expiries != 2 || s.TokenScale != 1 || s.Cost.ExpiryCost <= 0 || len(s.Lanes) != 1 || s.Lanes[0].Name != "main" ||
		s.Lanes[0].Requests != 5 || s.Lanes[0].Expiries != 2 || s.Lanes[0].Cost == nil || s.Lanes[0].Cost.ExpiryCost != s.Cost.ExpiryCost {
		t.Errorf("summary %+v", s)
	}
	// Without times: every new field is there, null.
	_, out, _ = runCLI(t, "", "cache", "--json", qwenMemory(t), filepath.Join("testdata", "sessions", "session.jsonl"))
	if !strings.Contains(out, `"reused_from"`) || !strings.Contains(out, `"expired": null`) {
		t.Errorf("fields missing where nothing expired:\n%.2000s", out)
	}
}

// qwenMemory is the qwen-code capture of the clean workspace
// (testdata/agents): the main agent and its memory subagent interleaved.
func qwenMemory(t *testing.T) string {
	t.Helper()
	return filepath.Join("testdata", "agents", "qwen-code-clean.jsonl")
}

// TestCacheTextTimes: cache's table shows the idle time and the expiry,
// and the text names the lifetime.
func TestCacheTextTimes(t *testing.T) {
	_, out, _ := runCLI(t, "", "cache", idleSession)
	for _, want := range []string{"IDLE", "+9m00s", "expired, idle 9m00s, past the 5-minute lifetime", "+1h17m",
		"2 expiries:", "expiries cost"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
}

// TestWhatifTTL1hGolden: whatif --ttl 1h replays the idle session with
// 1-hour writes: the expiry after 9 minutes is a read, the one after 77
// minutes is not, and every write is priced at the 1-hour rate.
func TestWhatifTTL1hGolden(t *testing.T) {
	code, out, errs := runCLI(t, "", "whatif", "--ttl", "1h", idleSession)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "3,864 tokens (2 expiries) → 1,967 tokens (1)") {
		t.Errorf("the expiries are not counted on both sides:\n%s", out)
	}
	golden.RequireEqual(t, []byte(out))
	if code, _, errs = runCLI(t, "", "whatif", "--ttl", "2h", idleSession); code != 2 || !strings.Contains(errs, "--ttl must be 1h") {
		t.Errorf("--ttl 2h: exit %d, %q", code, errs)
	}
}

// TestCheckCacheQwenMemory: on the qwen-code capture with its memory
// subagent, check --cache raises no unstable-prefix (the main agent's
// requests reuse their own lane), and the dates that stay the same in every
// request are not reported as volatile, said once.
func TestCheckCacheQwenMemory(t *testing.T) {
	path := qwenMemory(t)
	_, out, errs := runCLI(t, "", "check", "--cache", "--json", path)
	var doc struct {
		Findings []struct {
			Rule string `json:"rule"`
		} `json:"findings"`
		Summary struct {
			StableVolatile int `json:"stable_volatile"`
		} `json:"summary"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v: %s", err, errs)
	}
	for _, f := range doc.Findings {
		if f.Rule == "unstable-prefix" || f.Rule == "volatile-in-prefix" {
			t.Errorf("finding %s", f.Rule)
		}
	}
	if doc.Summary.StableVolatile < 2 {
		t.Errorf("stable_volatile %d, want the dates seen stable", doc.Summary.StableVolatile)
	}
	// Silent: --cache adds no finding to check's own (its trust findings
	// on the context files and the reminders stay, as without --cache).
	_, plain, _ := runCLI(t, "", "check", "--json", path)
	var without struct {
		Findings []struct {
			Rule string `json:"rule"`
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(plain), &without); err != nil {
		t.Fatal(err)
	}
	rules := func(fs []struct {
		Rule string `json:"rule"`
	}) string {
		var out []string
		for _, f := range fs {
			out = append(out, f.Rule)
		}
		return strings.Join(out, " ")
	}
	if got, want := rules(doc.Findings), rules(without.Findings); got != want || len(without.Findings) == 0 {
		t.Errorf("check --cache finds %q, check alone %q: --cache is not silent", got, want)
	}
	// The values are flagged when a request is checked apart (the memory
	// subagent's, request 2, holds its dates in its system prompt; the main
	// agent's come after the workspace's skill, outside the trusted prefix).
	_, out, _ = runCLI(t, "", "check", "--json", path+"@2")
	if !strings.Contains(out, "volatile-in-prefix") {
		t.Error("a single request's date is not flagged: the test shows nothing")
	}
	_, out, _ = runCLI(t, "", "check", "--cache", path)
	if !strings.Contains(out, "stayed the same in every request that carried them (seen stable)") {
		t.Errorf("the text does not say the values were seen stable:\n%s", out)
	}
}

// TestCacheJSONNeverWritten: a request whose shared prefix was never
// written to the cache says why in "never_written" (below the provider's
// minimum; no breakpoint), and the field is null on every other request:
// it agrees with the request's notes, which say the same in words.
func TestCacheJSONNeverWritten(t *testing.T) {
	for _, tc := range []struct {
		file, want string
	}{
		{filepath.Join("testdata", "agents", "qwen-code.jsonl"), "below the 1024-token minimum"},
		{filepath.Join("testdata", "payloads", "claude-trace.jsonl"), "no cache_control breakpoint: nothing written"},
	} {
		code, out, errs := runCLI(t, "", "cache", "--json", tc.file)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.file, code, errs)
		}
		var doc struct {
			Requests []struct {
				Index        int             `json:"index"`
				NeverWritten json.RawMessage `json:"never_written"`
				Notes        []string        `json:"notes"`
			} `json:"requests"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatal(err)
		}
		said, null := 0, 0
		for _, r := range doc.Requests {
			noted := false
			for _, n := range r.Notes {
				noted = noted || strings.Contains(n, "-token minimum") || strings.HasPrefix(n, "no cache_control breakpoint")
			}
			switch string(r.NeverWritten) {
			case "null":
				null++
				if noted {
					t.Errorf("%s #%d: notes say the prefix was never written, never_written is null: %q", tc.file, r.Index, r.Notes)
				}
			case `"` + tc.want + `"`:
				said++
				if !noted {
					t.Errorf("%s #%d: never_written without a note saying so: %q", tc.file, r.Index, r.Notes)
				}
			default:
				t.Errorf("%s #%d: never_written = %s, want %q or null (the field must always be present)", tc.file, r.Index, r.NeverWritten, tc.want)
			}
		}
		if said != 1 {
			t.Errorf("%s: %d requests say %q, want 1 (null on %d)", tc.file, said, tc.want, null)
		}
	}
}

// TestCacheLaneNamesSettled: cache writes each request's lane under the
// name it has once the session shows which lane is main, in the JSON as in
// the text and the summary. A chat without tools after a one-shot check:
// the chat's first request (2) is named main only when its second (3)
// comes, so cache holds request 2 until then; it would say oneshot:1.
// Gemini CLI's capture: its routing classifier is not main, the agent is.
func TestCacheLaneNamesSettled(t *testing.T) {
	body := func(sys string, turns ...string) string {
		msgs := []map[string]string{{"role": "system", "content": sys}}
		for i, q := range turns {
			msgs = append(msgs, map[string]string{"role": "user", "content": q})
			if i < len(turns)-1 {
				msgs = append(msgs, map[string]string{"role": "assistant", "content": "Noted: " + q})
			}
		}
		b, err := json.Marshal(map[string]any{"model": "gpt-5", "messages": msgs})
		if err != nil {
			t.Fatal(err)
		}
		return string(b) + "\n"
	}
	check := "Decide whether the question needs a large model. " + strings.Repeat("Answer yes or no. ", 40)
	chat := "You are a helpful assistant for a team of engineers. " + strings.Repeat("Answer with care. ", 40)
	path := filepath.Join(t.TempDir(), "chat.jsonl")
	text := body(check, "What is 2+2?") + body(chat, "What is 2+2?") + body(chat, "What is 2+2?", "And 3+3?")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Requests []struct {
			Index int `json:"index"`
			Lane  struct {
				Name string `json:"name"`
			} `json:"lane"`
		} `json:"requests"`
		Summary struct {
			Lanes []struct {
				Name     string `json:"name"`
				Requests int    `json:"requests"`
			} `json:"lanes"`
		} `json:"summary"`
	}
	_, out, _ := runCLI(t, "", "cache", "--json", path)
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range doc.Requests {
		got = append(got, strconv.Itoa(r.Index)+":"+r.Lane.Name)
	}
	for _, l := range doc.Summary.Lanes {
		got = append(got, l.Name+"="+strconv.Itoa(l.Requests))
	}
	if want := "2:main 3:main oneshot:1=1 main=2"; strings.Join(got, " ") != want {
		t.Errorf("cache --json lanes %q, want %q", strings.Join(got, " "), want)
	}
	_, out, _ = runCLI(t, "", "cache", path)
	if !regexp.MustCompile(`oneshot:1 \([0-9a-f]+\): 1 request`).MatchString(out) ||
		!regexp.MustCompile(`main \([0-9a-f]+\): 2 requests`).MatchString(out) {
		t.Errorf("cache text:\n%s", out)
	}

	_, out, _ = runCLI(t, "", "cache", "--json", filepath.Join("testdata", "agents", "gemini-cli.jsonl"))
	doc.Requests, doc.Summary.Lanes = nil, nil
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Requests) != 1 || doc.Requests[0].Lane.Name != "main" || len(doc.Summary.Lanes) != 2 ||
		doc.Summary.Lanes[0].Name != "classifier" || doc.Summary.Lanes[1].Name != "main" {
		t.Errorf("Gemini CLI: requests %+v, lanes %+v", doc.Requests, doc.Summary.Lanes)
	}
}
