package themes

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2"
)

// TestThemesEveryThemeBuilds checks each theme: badges, hazards and
// selection carry colour in the colour themes, and nothing does in mono.
func TestThemesEveryThemeBuilds(t *testing.T) {
	for _, name := range Names() {
		s := New(name)
		if s.Name != name {
			t.Fatalf("New(%q) gave %q", name, s.Name)
		}
		out := s.BadgeUntrusted.Render(" UNTRUSTED ") + s.Hazard.Render("x") + s.Selected.Render("y") + s.Code(chroma.LiteralString).Render(`"s"`)
		hasESC := strings.ContainsRune(out, 0x1b)
		if name == Mono && hasESC {
			t.Fatalf("mono styles write escape sequences: %q", out)
		}
		if name != Mono && !hasESC {
			t.Fatalf("%s styles carry no colour", name)
		}
		if name == Mono && (s.MarkOpen == "" || s.MarkClose == "") {
			t.Fatal("mono must mark hazards and escapes with text")
		}
	}
	if New("no-such-theme").Name != Dark {
		t.Fatal("an unknown theme does not fall back to dark")
	}
	if New(Light).IsDark() || !New(Dark).IsDark() {
		t.Fatal("IsDark is wrong")
	}
}

// TestThemesChromaFromTokens checks the chroma style is derived from the
// theme's tokens.
func TestThemesChromaFromTokens(t *testing.T) {
	for _, name := range []string{Dark, Light, HighContrast} {
		s := New(name)
		if got := s.Chroma.Get(chroma.LiteralString).Colour.String(); !strings.EqualFold(got, s.Tokens.Str) {
			t.Fatalf("%s: string colour %s, token %s", name, got, s.Tokens.Str)
		}
		if got := s.Chroma.Get(chroma.NameTag).Colour.String(); !strings.EqualFold(got, s.Tokens.Tag) {
			t.Fatalf("%s: tag colour %s, token %s", name, got, s.Tokens.Tag)
		}
	}
}

// TestThemesNoColourLiteralOutside enforces the house rule: colours are
// written only in themes/.
func TestThemesNoColourLiteralOutside(t *testing.T) {
	hex := regexp.MustCompile(`"#[0-9A-Fa-f]{6}"|lipgloss\.Color\(|ansi\.BasicColor|ansi\.IndexedColor|color\.RGBA\{`)
	files, err := filepath.Glob(filepath.Join("..", "ui", "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no ui sources found: %v", err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if loc := hex.FindIndex(b); loc != nil {
			t.Fatalf("%s holds a colour literal: %s", f, b[loc[0]:loc[1]])
		}
	}
}

// TestThemesNoBubbleTea keeps Bubble Tea out of the packages below ui.
func TestThemesNoBubbleTea(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no sources: %v", err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range []string{`"charm.land/bubbletea/v2"`, `"charm.land/bubbles/v2/`} {
			if strings.Contains(string(b), imp) && !strings.HasSuffix(f, "_test.go") {
				t.Fatalf("%s imports %s", f, imp)
			}
		}
	}
}
