package ui

import (
	"strings"
	"testing"

	"github.com/wirelens/wirelens/themes"
	"github.com/wirelens/wirelens/wire"
)

// TestUISecretsMaskedByDefault: a key a tool printed shows masked in the
// content pane (its head and asterisks, the text around it as it was), S
// shows it in the clear and S again masks it.
func TestUISecretsMaskedByDefault(t *testing.T) {
	key := "sk-ant-api03-" + strings.Repeat("Hq4Tz8Wm2B", 9) + "c5dAA"
	r := testReq("claude-sonnet-4-6", 1,
		wire.Part{ID: "messages[0].content[0]", Channel: wire.ChannelMessages, Role: "user", Type: "tool_result",
			Text: "ANTHROPIC_API_KEY=" + key + "\nREGION=eu-west-1\n"})
	m := startModel(t, Options{Requests: []wire.Request{r}, Theme: themes.Mono}, 200, 30)
	screen := plain(m.Render())
	if strings.Contains(screen, key[8:40]) {
		t.Fatalf("the key shows by default:\n%s", screen)
	}
	if !strings.Contains(screen, "ANTHROPIC_API_KEY=sk-a*****") || !strings.Contains(screen, "REGION=eu-west-1") {
		t.Fatalf("masked text not shown:\n%s", screen)
	}
	pressKeys(t, m, "S")
	if screen = plain(m.Render()); !strings.Contains(screen, key[:60]) {
		t.Fatalf("S does not show the key:\n%s", screen)
	}
	pressKeys(t, m, "S")
	if screen = plain(m.Render()); strings.Contains(screen, key[8:40]) {
		t.Fatalf("S again does not mask the key:\n%s", screen)
	}
}

// TestMaskSecretsKeepsOffsets: masking keeps the text's length, line feeds
// and everything outside the secrets.
func TestMaskSecretsKeepsOffsets(t *testing.T) {
	text := "a=1\nAKIAQWERTY2345ABCDEF\nb=2"
	m := newHazardMemo()
	seg := wire.Segment{Text: text}
	got := maskSecrets(text, m.secrets(&seg))
	if len(got) != len(text) || got != "a=1\nAK******************\nb=2" {
		t.Errorf("maskSecrets = %q", got)
	}
}
