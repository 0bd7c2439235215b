// Package themes holds wirelens's colour tokens, the lipgloss Styles derived
// from them, and the chroma style derived from the same tokens, for dark,
// light, high-contrast and no-colour terminals. No colour literal lives
// anywhere else.
package themes

import (
	"image/color"
	"sync"

	"charm.land/lipgloss/v2"
	"github.com/alecthomas/chroma/v2"
)

// Names of the themes, as --theme takes them ("auto" picks dark or light).
const (
	Dark         = "dark"
	Light        = "light"
	HighContrast = "high-contrast"
	Mono         = "mono"
)

// Names lists the concrete themes.
func Names() []string { return []string{Dark, Light, HighContrast, Mono} }

// Tokens are the colours of a theme as hex strings; "" means the terminal's
// default. A mono theme has every token empty.
type Tokens struct {
	Fg, Muted, Subtle, Border, Accent   string
	SelBg, SelFg, CursorBg              string
	Trusted, Untrusted, User, Model     string
	BadgeFg                             string
	Hazard, Escape, Break, Match        string
	High, Medium, Low                   string
	Added, Removed, Changed             string
	Keyword, Str, Number, Comment, Tag  string
	Attr, Punct, Heading, Emph, Literal string
}

var palettes = map[string]Tokens{
	Dark: {
		Fg: "#D8DEE9", Muted: "#8A93A6", Subtle: "#5C6577", Border: "#4C566A", Accent: "#88C0D0",
		SelBg: "#3B4252", SelFg: "#ECEFF4", CursorBg: "#5E81AC",
		Trusted: "#A3BE8C", Untrusted: "#EBCB8B", User: "#81A1C1", Model: "#B48EAD", BadgeFg: "#1B1F27",
		Hazard: "#FF5F5F", Escape: "#5FD7FF", Break: "#FF8700", Match: "#FFD75F",
		High: "#FF5F5F", Medium: "#FFAF00", Low: "#87AFD7",
		Added: "#A3BE8C", Removed: "#FF6E6E", Changed: "#EBCB8B",
		Keyword: "#81A1C1", Str: "#A3BE8C", Number: "#B48EAD", Comment: "#7B8496", Tag: "#88C0D0",
		Attr: "#8FBCBB", Punct: "#9AA3B5", Heading: "#EBCB8B", Emph: "#D08770", Literal: "#D08770",
	},
	Light: {
		Fg: "#2E3440", Muted: "#5E6779", Subtle: "#8C94A4", Border: "#B0B7C3", Accent: "#005F87",
		SelBg: "#D8E2F0", SelFg: "#1B1F27", CursorBg: "#A9C4E8",
		Trusted: "#2E7D32", Untrusted: "#A15C00", User: "#1F5FA8", Model: "#7B3F9E", BadgeFg: "#FFFFFF",
		Hazard: "#C00000", Escape: "#006C9C", Break: "#B34700", Match: "#7A5C00",
		High: "#C00000", Medium: "#A15C00", Low: "#1F5FA8",
		Added: "#2E7D32", Removed: "#C00000", Changed: "#8A6D00",
		Keyword: "#1F5FA8", Str: "#2E7D32", Number: "#7B3F9E", Comment: "#6B7385", Tag: "#005F87",
		Attr: "#00796B", Punct: "#4C566A", Heading: "#8A4B00", Emph: "#A13D00", Literal: "#A13D00",
	},
	HighContrast: {
		Fg: "#FFFFFF", Muted: "#E0E0E0", Subtle: "#C0C0C0", Border: "#FFFFFF", Accent: "#00FFFF",
		SelBg: "#FFFFFF", SelFg: "#000000", CursorBg: "#FFFF00",
		Trusted: "#00FF00", Untrusted: "#FFFF00", User: "#00FFFF", Model: "#FF00FF", BadgeFg: "#000000",
		Hazard: "#FF0000", Escape: "#00FFFF", Break: "#FF8000", Match: "#FFFF00",
		High: "#FF0000", Medium: "#FFFF00", Low: "#00FFFF",
		Added: "#00FF00", Removed: "#FF0000", Changed: "#FFFF00",
		Keyword: "#00FFFF", Str: "#00FF00", Number: "#FF00FF", Comment: "#C0C0C0", Tag: "#00FFFF",
		Attr: "#FFFF00", Punct: "#FFFFFF", Heading: "#FFFF00", Emph: "#FF8000", Literal: "#FF8000",
	},
	Mono: {},
}

// Styles is every style the viewer uses, derived from one Tokens value.
type Styles struct {
	Name   string
	Tokens Tokens
	// Mono is set when no colour and no attribute may be used: every mark
	// must then be readable from text alone.
	Mono bool

	Base, Muted, Subtle, Title, Accent lipgloss.Style
	Header, Status, StatusKey          lipgloss.Style
	Tab, TabActive                     lipgloss.Style
	Frame, FrameFocus                  lipgloss.Style // box edges
	Edge, EdgeFocus                    lipgloss.Border
	Selected, Cursor                   lipgloss.Style

	BadgeTrusted, BadgeUntrusted, BadgeUser, BadgeModel lipgloss.Style
	// BadgeInSystem marks workspace text in the system channel: untrusted
	// text with the host's authority, the worst state a segment can be in.
	BadgeInSystem                                   lipgloss.Style
	TextTrusted, TextUntrusted, TextUser, TextModel lipgloss.Style

	Hazard, Escape, EscapeNote, Break, Match lipgloss.Style
	High, Medium, Low                        lipgloss.Style
	Added, Removed, Changed                  lipgloss.Style
	AddedWord, RemovedWord                   lipgloss.Style // changed words in a diff
	Hint                                     lipgloss.Style

	// Bracketing strings put around escapes, hazards and matches where colour
	// cannot show them (mono); empty otherwise.
	MarkOpen, MarkClose string

	// HelpKey, HelpDesc and HelpSep style the help view's keys, their
	// descriptions and the separators.
	HelpKey, HelpDesc, HelpSep lipgloss.Style

	// Chroma is the highlighting style derived from the same tokens.
	Chroma *chroma.Style
	mu     sync.Mutex
	code   map[chroma.TokenType]lipgloss.Style
}

// col turns a token into a colour; "" is no colour.
func col(hex string) color.Color {
	if hex == "" {
		return nil
	}
	return lipgloss.Color(hex)
}

// New returns the styles of the named theme; an unknown name gives the dark
// theme.
func New(name string) *Styles {
	t, ok := palettes[name]
	if !ok {
		name = Dark
		t = palettes[Dark]
	}
	s := &Styles{Name: name, Tokens: t, Mono: name == Mono}
	fg := func(hex string) lipgloss.Style {
		st := lipgloss.NewStyle()
		if c := col(hex); c != nil {
			st = st.Foreground(c)
		}
		return st
	}
	badge := func(hex string) lipgloss.Style {
		st := lipgloss.NewStyle()
		if c := col(hex); c != nil {
			st = st.Background(c).Foreground(col(t.BadgeFg)).Bold(true)
		}
		return st
	}
	attr := !s.Mono
	s.Base = fg(t.Fg)
	s.Muted = fg(t.Muted)
	s.Subtle = fg(t.Subtle)
	s.Accent = fg(t.Accent).Bold(attr)
	s.Title = fg(t.Accent).Bold(attr)
	s.Header = fg(t.Fg).Bold(attr)
	s.Status = fg(t.Muted)
	s.StatusKey = fg(t.Accent).Bold(attr)
	s.Tab = fg(t.Muted)
	s.TabActive = fg(t.Accent).Bold(attr).Underline(attr)
	border := lipgloss.RoundedBorder()
	if s.Mono {
		border = lipgloss.NormalBorder()
	}
	s.Edge, s.EdgeFocus = border, lipgloss.ThickBorder()
	if s.Mono {
		s.EdgeFocus = lipgloss.DoubleBorder()
	}
	s.Frame = fg(t.Border)
	s.FrameFocus = fg(t.Accent)
	s.Selected = lipgloss.NewStyle()
	s.Cursor = lipgloss.NewStyle()
	if !s.Mono {
		s.Selected = s.Selected.Background(col(t.SelBg)).Foreground(col(t.SelFg))
		s.Cursor = s.Cursor.Background(col(t.CursorBg)).Foreground(col(t.SelFg)).Bold(true)
	}
	s.BadgeTrusted = badge(t.Trusted)
	s.BadgeUntrusted = badge(t.Untrusted)
	s.BadgeUser = badge(t.User)
	s.BadgeModel = badge(t.Model)
	s.BadgeInSystem = badge(t.High)
	s.TextTrusted = fg(t.Trusted)
	s.TextUntrusted = fg(t.Untrusted)
	s.TextUser = fg(t.User)
	s.TextModel = fg(t.Model)
	s.Hazard = fg(t.Hazard).Bold(attr).Reverse(attr)
	s.Escape = fg(t.Escape).Underline(attr)
	s.EscapeNote = fg(t.Escape)
	s.Break = fg(t.Break).Bold(attr)
	s.Match = fg(t.Match).Reverse(attr)
	s.High = fg(t.High).Bold(attr)
	s.Medium = fg(t.Medium)
	s.Low = fg(t.Low)
	s.Added = fg(t.Added)
	s.Removed = fg(t.Removed)
	s.Changed = fg(t.Changed)
	s.AddedWord = fg(t.Added).Bold(attr).Reverse(attr)
	s.RemovedWord = fg(t.Removed).Bold(attr).Reverse(attr)
	s.Hint = fg(t.Fg)
	if !s.Mono {
		s.Hint = s.Hint.Border(border).BorderForeground(col(t.Accent)).Padding(0, 1)
	} else {
		s.Hint = s.Hint.Border(lipgloss.NormalBorder()).Padding(0, 1)
		s.MarkOpen, s.MarkClose = "⟦", "⟧"
	}
	s.HelpKey, s.HelpDesc, s.HelpSep = fg(t.Accent), fg(t.Muted), fg(t.Subtle)
	s.Chroma = chromaStyle(name, t)
	s.code = map[chroma.TokenType]lipgloss.Style{}
	return s
}

// chromaStyle derives the highlighting style from the theme's tokens.
func chromaStyle(name string, t Tokens) *chroma.Style {
	e := chroma.StyleEntries{}
	set := func(tt chroma.TokenType, hex string) {
		if hex != "" {
			e[tt] = hex
		}
	}
	set(chroma.Text, t.Fg)
	set(chroma.Keyword, t.Keyword)
	set(chroma.KeywordConstant, t.Literal)
	set(chroma.NameTag, t.Tag)
	set(chroma.NameAttribute, t.Attr)
	set(chroma.NameBuiltin, t.Keyword)
	set(chroma.LiteralString, t.Str)
	set(chroma.LiteralStringSymbol, t.Str)
	set(chroma.LiteralNumber, t.Number)
	set(chroma.Comment, t.Comment)
	set(chroma.Punctuation, t.Punct)
	set(chroma.Operator, t.Punct)
	set(chroma.GenericHeading, t.Heading)
	set(chroma.GenericSubheading, t.Heading)
	set(chroma.GenericEmph, t.Emph)
	set(chroma.GenericStrong, t.Emph)
	set(chroma.GenericInserted, t.Added)
	set(chroma.GenericDeleted, t.Removed)
	set(chroma.NameEntity, t.Escape)
	st, err := chroma.NewStyle("wirelens-"+name, e)
	if err != nil {
		// The entries above are built from fixed hex tokens; a failure is a
		// bug in a palette, shown as plain text rather than a crash.
		st, _ = chroma.NewStyle("wirelens-"+name+"-plain", chroma.StyleEntries{})
	}
	return st
}

// Code returns the lipgloss style of a chroma token type, derived from the
// chroma style (and so from the theme's tokens). Mono returns a plain style.
func (s *Styles) Code(tt chroma.TokenType) lipgloss.Style {
	s.mu.Lock()
	defer s.mu.Unlock()
	if st, ok := s.code[tt]; ok {
		return st
	}
	st := lipgloss.NewStyle()
	if !s.Mono && s.Chroma != nil {
		e := s.Chroma.Get(tt)
		if e.Colour.IsSet() {
			st = st.Foreground(lipgloss.Color(e.Colour.String()))
		}
		if e.Bold == chroma.Yes {
			st = st.Bold(true)
		}
		if e.Italic == chroma.Yes {
			st = st.Italic(true)
		}
	}
	s.code[tt] = st
	return st
}

// IsDark reports whether the theme is meant for a dark background.
func (s *Styles) IsDark() bool { return s.Name != Light }
