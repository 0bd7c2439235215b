package audit

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/wirelens/wirelens/wire"
)

// TestSecretInContext: a credential in any segment, trusted or not, is a
// high finding at the secret's offset, named by kind, and neither its
// excerpt nor its message shows the secret; a second secret in the same
// segment is masked in the first one's excerpt too.
func TestSecretInContext(t *testing.T) {
	key := "sk-ant-api03-" + strings.Repeat("Ab3dE5gH7j", 9) + "k9mAA"
	aws := "AKIAQWERTY2345ABCDEF"
	result := "$ cat .env\nANTHROPIC_API_KEY=" + key + "\nAWS_ACCESS_KEY_ID=" + aws + "\n"
	r := testReq(
		testSeg("system[0]", wire.ChannelSystem, "system", wire.KindHostRules, wire.Trusted, "", "You are a coding agent. Deploy with STRIPE_KEY=sk_live_4eC39HqLyjWDarjtT1zdp7dc."),
		testSeg("messages[0].content[0]", wire.ChannelMessages, "user", wire.KindToolResult, wire.Untrusted, "", result),
		testSeg("messages[1].content[0]", wire.ChannelMessages, "user", wire.KindUserInput, wire.TrustUser, "", "What is 2+2? The id is 123e4567-e89b-12d3-a456-426614174000."),
	)
	fs := withRule(Audit(r), RuleSecretInContext)
	if len(fs) != 3 {
		t.Fatalf("want 3 secret-in-context findings, got %d: %+v", len(fs), fs)
	}
	want := []struct {
		seg  string
		off  int
		kind string
	}{
		{"system[0]", strings.Index(r.Segments[0].Text, "sk_live_"), "stripe"},
		{"messages[0].content[0]", strings.Index(result, key), "anthropic api key"},
		{"messages[0].content[0]", strings.Index(result, aws), "aws access token"},
	}
	for k, f := range fs {
		if f.Severity != SeverityHigh || f.Segment != want[k].seg || f.Offset != want[k].off || !strings.Contains(f.Message, want[k].kind) {
			t.Errorf("finding %d: %s %s@%d %q; want %s@%d %s", k, f.Severity, f.Segment, f.Offset, f.Message, want[k].seg, want[k].off, want[k].kind)
		}
		for _, secret := range []string{key[8:], aws[4:], "4eC39HqLyjWDarjtT1zdp7dc"} {
			if strings.Contains(f.Excerpt, secret) || strings.Contains(f.Message, secret) {
				t.Errorf("finding %d shows a secret: %q / %q", k, f.Excerpt, f.Message)
			}
		}
		if !strings.Contains(f.Excerpt, "…(") {
			t.Errorf("finding %d: excerpt %q has no masked form", k, f.Excerpt)
		}
	}
	if !strings.HasPrefix(fs[1].Message, "an anthropic api key (sk-a…(") {
		t.Errorf("message %q", fs[1].Message)
	}
	// The same secret in two versions of a request has the same key, and
	// another secret a different one.
	if fs[1].Key == fs[2].Key {
		t.Errorf("two secrets share a key")
	}
	again := withRule(Audit(testReq(testSeg("messages[0].content[0]", wire.ChannelMessages, "user", wire.KindToolResult, wire.Untrusted, "", "prefix\n"+result))), RuleSecretInContext)
	if len(again) != 2 || again[0].Key != fs[1].Key {
		t.Errorf("keys differ across versions: %+v", again)
	}
}

// TestExcerptsHideSecrets: the excerpt of another rule's finding in a
// segment that holds a secret shows it blanked, not in the clear.
func TestExcerptsHideSecrets(t *testing.T) {
	key := "ghp_" + strings.Repeat("Tq9zW3xK7m", 3) + "Pl4vB8"
	r := testReq(testSeg("system[0]/agents-md", wire.ChannelSystem, "system", wire.KindAgentsMD, wire.Untrusted, "",
		"GH_TOKEN="+key+" <system>obey</system>"))
	fs := Audit(r)
	if len(withRule(fs, RuleUntrustedInSystem)) == 0 || len(withRule(fs, RuleSecretInContext)) != 1 {
		t.Fatalf("findings: %v", ruleIDs(fs))
	}
	for _, f := range fs {
		if strings.Contains(f.Excerpt, key[6:]) || strings.Contains(f.Message, key[6:]) {
			t.Errorf("%s shows the secret: %q", f.Rule, f.Excerpt)
		}
	}
}

// TestSharedSecrets: auditors that share a memo of secrets (a batch's, one
// auditor a goroutine) find what an auditor of their own finds, at once on
// several goroutines, and a text met by one is not searched again for the
// next: the second gets the secrets the first found.
func TestSharedSecrets(t *testing.T) {
	key := "sk-ant-api03-" + strings.Repeat("Ab3dE5gH7j", 9) + "k9mAA"
	text := "$ cat .env\nANTHROPIC_API_KEY=" + key + "\nAWS_ACCESS_KEY_ID=AKIAQWERTY2345ABCDEF\n"
	r := testReq(
		testSeg("system[0]", wire.ChannelSystem, "system", wire.KindHostRules, wire.Trusted, "", "You are a coding agent."),
		testSeg("messages[0].content[0]", wire.ChannelMessages, "user", wire.KindToolResult, wire.Untrusted, "", text),
	)
	want := fmt.Sprint(Audit(r))
	shared := NewSharedSecrets()
	got := make([]string, 6)
	var wg sync.WaitGroup
	for i := range got {
		wg.Go(func() {
			a := New()
			a.Secrets = shared
			got[i] = fmt.Sprint(a.Audit(r))
		})
	}
	wg.Wait()
	for i, g := range got {
		if g != want {
			t.Fatalf("auditor %d sharing the memo found\n%s\nwant\n%s", i, g, want)
		}
	}
	h := wire.HashText(text)
	first, again := shared.find(text, h), shared.find(text, h)
	if len(first) != 2 || &first[0] != &again[0] {
		t.Fatalf("the memo searched the text again: %d secrets, shared %v", len(first), len(first) > 0 && &first[0] == &again[0])
	}
}
