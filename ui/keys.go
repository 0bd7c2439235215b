package ui

import (
	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
)

// The help view is generated from the key map.
var _ help.KeyMap = KeyMap{}

// KeyMap is every key the viewer answers to. The help view is generated from
// it.
type KeyMap struct {
	Up, Down, Left, Right          key.Binding
	PageUp, PageDown, Top, Bottom  key.Binding // HalfPage: ctrl+d/ctrl+u are half a page
	HalfPage                       key.Binding
	NextPane, PrevPane             key.Binding
	Enter, Back                    key.Binding
	Search, Next, Prev, Filter     key.Binding
	Wire, Escapes, Findings, Cache key.Binding
	Diff, Raw, Mark, Layout        key.Binding
	Trust, Secrets, Server, Lanes  key.Binding
	Copy, CopyRaw, Open, Edit      key.Binding // the action keys (actions.go)
	Export                         key.Binding
	Help, Quit                     key.Binding
	// The navigation keys (nav.go): ] and [ go from finding to finding,
	// z zooms the focused pane, W wraps or cuts Diff and Raw, M lets the
	// terminal have the mouse, 7 is the Response view.
	NextFind, PrevFind, Zoom, Wrap, Mouse, Response key.Binding
}

// DefaultKeyMap is the viewer's key map: vim keys and arrows.
func DefaultKeyMap() KeyMap {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return KeyMap{
		Up:       b("↑/k", "up", "up", "k"),
		Down:     b("↓/j", "down", "down", "j"),
		Left:     b("←/h", "left column", "left", "h"),
		Right:    b("→/l", "right column", "right", "l"),
		PageUp:   b("pgup/ctrl+b", "page up", "pgup", "ctrl+u", "ctrl+b"),
		PageDown: b("pgdn/space/ctrl+f", "page down", "pgdown", "ctrl+d", "ctrl+f", "space"),
		HalfPage: b("ctrl+d/ctrl+u", "half a page down / up", "ctrl+d", "ctrl+u"),
		Top:      b("g/home", "top", "g", "home"),
		Bottom:   b("G/end", "bottom", "G", "end"),
		NextPane: b("tab", "next pane", "tab"),
		PrevPane: b("shift+tab", "previous pane", "shift+tab"),
		Enter:    b("enter", "open / jump", "enter"),
		Back:     b("esc", "back; clear search, filter", "esc"),
		Search:   b("/", "search all requests", "/"),
		Next:     b("n", "next match", "n"),
		Prev:     b("N", "previous match", "N"),
		Filter:   b("f", "filter requests", "f"),
		Wire:     b("1", "wire view", "1"),
		Escapes:  b("2", "escapes & hazards", "2"),
		Findings: b("3/c", "findings (check)", "3", "c"),
		Cache:    b("4/p", "prompt cache", "4", "p"),
		Diff:     b("5/d", "diff", "5", "d"),
		Raw:      b("6/r", "raw JSON", "6", "r"),
		Mark:     b("m", "mark request for diff", "m"),
		Trust:    b("t", "diff: trust map / text", "t"),
		Secrets:  b("S", "show / mask secrets", "S"),
		Server:   b("s", "findings: by MCP server", "s"),
		Lanes:    b("v", "cache: lanes / table", "v"),
		Layout:   key.NewBinding(key.WithKeys("L"), key.WithHelp("L", "toggle layout (watch)"), key.WithDisabled()),
		Copy:     b("y", "copy segment / row", "y"),
		CopyRaw:  b("Y", "copy raw JSON", "Y"),
		Open:     b("o", "open in $PAGER", "o"),
		Edit:     b("e", "open in $EDITOR", "e"),
		Export:   b("w", "write to a file", "w"),
		NextFind: b("]", "next finding/hazard", "]"),
		PrevFind: b("[", "previous one", "["),
		Zoom:     b("z", "zoom pane / back", "z"),
		Wrap:     b("W", "wrap/cut lines; ←/→", "W"),
		Mouse:    b("M", "mouse on / off", "M"),
		Response: b("7", "response", "7"),
		Help:     b("?", "help", "?"),
		Quit:     b("q", "quit", "q", "ctrl+c"),
	}
}

// ShortHelp is the status line's list of keys.
func (k KeyMap) ShortHelp() []key.Binding {
	return append(k.ShortHelpMore(), k.ShortHelpFirst()...)
}

// ShortHelpFirst are the keys the status line always shows, whatever its
// width: how to get help and how to leave.
func (k KeyMap) ShortHelpFirst() []key.Binding { return []key.Binding{k.Help, k.Quit} }

// ShortHelpMore are the keys the status line shows before them, as many
// as the room left by what is selected holds.
func (k KeyMap) ShortHelpMore() []key.Binding {
	return []key.Binding{k.NextPane, k.Search, k.Filter, k.Wire, k.Escapes, k.Findings, k.Cache, k.Diff, k.Raw}
}

// FullHelp is the help view's columns.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Up, k.Down, k.Left, k.Right, k.PageUp, k.PageDown, k.HalfPage, k.Top, k.Bottom},
		{k.NextPane, k.PrevPane, k.Enter, k.Back, k.Search, k.Next, k.Prev, k.Filter},
		{k.Wire, k.Escapes, k.Findings, k.Cache, k.Diff, k.Raw, k.Response, k.Mark, k.Trust, k.Secrets, k.Server, k.Lanes, k.Layout},
		{k.Copy, k.CopyRaw, k.Open, k.Edit, k.Export}, {k.NextFind, k.PrevFind, k.Zoom, k.Wrap, k.Mouse, k.Help, k.Quit},
	}
}
