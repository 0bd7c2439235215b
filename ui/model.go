// Package ui is the terminal viewer of wirelens, for seeing what a coding
// agent really told its model: which text of each request the host trusts
// and which came from the workspace, what was escaped and what hazards are
// left, and where and why the prompt cache breaks from one request to the
// next.
//
// It is a Bubble Tea program over the analyses of packages wire and diff: a
// request list, the selected request's trusted prefix beside its untrusted
// fragments, the content of a segment, and the Escapes, Findings, Cache,
// Diff, Raw and Response views. Every payload text is hostile: it reaches
// lipgloss only through scan.Visible or scan.VisibleLine (package wire/scan).
package ui

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"github.com/wirelens/wirelens/diff"
	"github.com/wirelens/wirelens/themes"
	"github.com/wirelens/wirelens/ui/act"
	"github.com/wirelens/wirelens/ui/cells"
	"github.com/wirelens/wirelens/ui/find"
	"github.com/wirelens/wirelens/ui/memo"
	"github.com/wirelens/wirelens/ui/render"
	"github.com/wirelens/wirelens/ui/widget"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/audit"
	"github.com/wirelens/wirelens/wire/redact"
	"github.com/wirelens/wirelens/wire/scan"
)

// Title is the terminal window title. It is constant: nothing from a payload
// ever reaches it. Run restores the title the terminal had before.
const Title = "wirelens"

// pushTitle and popTitle save the terminal's window and icon titles on its
// title stack and restore them (xterm's XTWINOPS 22 and 23; terminals
// without the stack ignore both). Bubble Tea sets View.WindowTitle and, on
// exit, sets it empty: the pop after it puts the user's title back.
var (
	pushTitle = ansi.WindowOp(22, 0)
	popTitle  = ansi.WindowOp(23, 0)
)

// Item is one thing a request source delivers: a request, an error, or the
// end. Progress is 0..1 (or -1 when unknown).
type Item struct {
	Req      *wire.Request
	Err      error
	Progress float64
	Done     bool
	Note     string // a status message (watch: "rebuilt: AGENTS.md changed")
}

// Options configure the viewer.
type Options struct {
	// Title names what is shown in the header (a file name, "watch DIR",
	// "demo"). It is sanitised before display.
	Title string
	// Requests are shown from the start.
	Requests []wire.Request
	// Stream delivers more requests (a long file as it is decoded, or watch
	// rebuilds). Closing it ends loading.
	Stream <-chan Item
	// Analysis plugs in the audit's findings, the cache steps and the request
	// diffs; a nil Cache or Diff is DefaultAnalysis's (package diff), a nil
	// Findings shows no audit.
	Analysis Analysis
	// Theme is auto, dark, light, high-contrast or mono; NoColor forces mono.
	Theme   string
	NoColor bool
	// Tour opens where the story is (the selected request's untrusted
	// AGENTS.md, else its first untrusted segment) with a first-screen
	// hint under the panes (Hint, or the demo's guided tour), which the
	// first key or click closes.
	Tour bool
	Hint string
	// Labels name the requests of a source ("demo (legacy)": "LEGACY"):
	// the request list and the header show them at every width.
	Labels map[string]string
	// Toggle, when set, is called (in a command) by the layout key; it
	// returns the new layout's name. watch sets it, and Layout to the
	// layout it starts in (shown in the header).
	Toggle func() (string, error)
	Layout string
	// Live says the stream never ends (watch): the header says "watching"
	// and the selection follows the newest request.
	Live bool
	// Marks preselects two requests (0-based) for the Diff view.
	Marks []int
	// Export is how w writes the request or the findings.
	Export act.Export
	// StartView opens a view other than the wire view: "escapes",
	// "findings", "cache", "diff", "raw", "help".
	StartView string

	// Program plumbing (tests): input, output, fixed size and colour profile.
	Input         io.Reader
	Output        io.Writer
	Width, Height int
	Profile       *colorprofile.Profile
	// Headless runs without reading any input (tea.WithInput(nil)).
	Headless bool
}

type viewKind int

const (
	viewWire viewKind = iota
	viewEscapes
	viewFindings
	viewCache
	viewDiff
	viewRaw
	viewResponse
	viewHelp
)

var viewNames = []string{"Wire", "Escapes", "Findings", "Cache", "Diff", "Raw", "Response"}

type focusKind int

const (
	focusList focusKind = iota
	focusSegs
	focusContent
)

// entry is a request with what the loader measured about it (in a command,
// never in Update).
type entry struct {
	req    wire.Request
	order  []int // segment indices in cache order
	tokens int
	segTok []int // tokens per segment (index into Segments)
	// segHz are the hazards of each segment (index into Segments), shared
	// read-only with every request that holds the same text.
	segHz   [][]scan.Hazard
	hazards int // over all segments
	// segSecrets are the secrets of each segment (secret-in-context), which
	// the content pane masks until the Secrets key shows them.
	segSecrets [][]redact.Secret
	escapes    int
	escRows    []escRow // the Escapes view's rows
}

type hit struct{ req, seg, off int }

// segKey names a segment of a request: the request's index and the segment's
// ID.
type segKey struct {
	req int
	seg string
}

// Model is the root model of the viewer.
type Model struct {
	opts   Options
	st     *themes.Styles
	theme  string // as asked: auto, dark, ...
	keys   KeyMap
	help   help.Model
	w, h   int
	sized  bool
	ctx    context.Context
	cancel context.CancelFunc

	reqs    []entry
	dropped int      // requests of a live stream dropped before reqs[0]
	visible []int    // indices into reqs, after the filter
	list    listPane // the request list: selection (index into visible) and scroll

	seg int // cursor: index into the selected request's cache order
	// colSeg is the cursor last held in each segment column (tab comes back
	// to it).
	colSeg [2]int
	segs   segPane // the segment columns: their scroll
	focus  focusKind
	view   viewKind
	prev   viewKind // for help and back
	// helpTop is the first row of the help shown.
	helpTop int

	body    content // the selected segment
	bodyKey [2]int  // request, segment shown in body; -1 none

	loading  bool
	progress float64
	errs     []error
	status   string
	// showSecrets shows the secrets of segments in the clear (the Secrets
	// key; masked by default); cacheTable keeps the Cache view a table where
	// the lanes would fit (v).
	showSecrets, cacheTable bool

	pr                      widget.Prompt
	wr                      act.Pending // what the write prompt (w) writes
	history                 widget.History
	filter                  string
	query                   string
	hits                    []hit
	hitAt                   int
	searchGen               int
	searching               bool
	findings                []findingRow
	findServer              string         // the Findings view shows this MCP server's findings only ("" all)
	perReq                  map[int]int    // findings per request
	reusePrefix, reuseTotal int            // prefix and total tokens over the cache steps
	perSeg                  map[segKey]int // findings per request and segment
	allFindings             []findingRow   // every request's findings (m.findings: each distinct one once)
	steps                   []*diff.Step   // the cache step of each request (nil: none)
	anaGen                  int
	analysing               bool
	anaDone                 bool
	table                   widget.Cursor // cursor in the escapes, findings and cache tables
	marks                   []int
	stepDiff                int                 // 1 + the request Enter in Cache diffs with its cache step, marked or not; 0: none
	rowFilter               map[viewKind]string // the f filter of the Escapes and Findings tables
	vf                      viewFind            // the / search of the view, when not Wire
	diff                    diffState
	raw                     content  // the Raw or the Response view's text (rawOf)
	rawOf                   viewKind // the view whose text raw holds
	rawKey                  int
	rawGen                  int
	hint                    string
	layoutName              string
	// zoom shows the focused pane of the wire view alone (z); mouseOff
	// leaves the mouse to the terminal (M); cutLines cuts long lines in
	// Diff, Raw and Response instead of wrapping them (W).
	zoom, mouseOff, cutLines bool
	// hzMemo holds the hazards of each distinct text; only the loader (New
	// and the stream's commands) uses it.
	hzMemo *hazardMemo
	// pullStream leaves reading the stream to the caller (tests step it).
	pullStream bool
}

// New builds the viewer's model.
func New(opts Options) *Model { return newModel(context.Background(), opts) }

// newModel builds the viewer's model; its loading ends with ctx, or when
// the user quits.
func newModel(ctx context.Context, opts Options) *Model {
	m := &Model{opts: opts, keys: DefaultKeyMap(), help: help.New(), theme: opts.Theme,
		bodyKey: [2]int{-1, -1}, rawKey: -1, hzMemo: newHazardMemo(), history: widget.History{}}
	m.ctx, m.cancel = context.WithCancel(ctx)
	def := DefaultAnalysis()
	if m.opts.Analysis.Cache == nil {
		m.opts.Analysis.Cache = def.Cache
	}
	if m.opts.Analysis.Diff == nil {
		m.opts.Analysis.Diff = def.Diff
	}
	if m.theme == "" {
		m.theme = "auto"
	}
	name := m.theme
	if opts.NoColor {
		name = themes.Mono
	}
	if name == "auto" {
		name = themes.Dark
	}
	m.setTheme(name)
	m.keys.Layout.SetEnabled(opts.Toggle != nil)
	m.layoutName = opts.Layout
	for i := range opts.Requests {
		m.reqs = append(m.reqs, m.hzMemo.measure(opts.Requests[i]))
	}
	m.refilter()
	m.marks = append(m.marks, opts.Marks...)
	m.loading = opts.Stream != nil
	if opts.Tour {
		m.hint, m.diff.trust = cmp.Or(opts.Hint, TourHint), true
	}
	for v, name := range append(slices.Clone(viewNames), "Help") {
		if strings.ToLower(name) == opts.StartView {
			m.view = viewKind(v)
		}
	}
	m.w, m.h = 80, 24
	if opts.Width > 0 && opts.Height > 0 {
		m.w, m.h, m.sized = opts.Width, opts.Height, true
	}
	m.focus = focusSegs
	if opts.Tour && len(m.reqs) > 0 {
		// The list has the focus: j and k go from one layout to the other,
		// the same workspace text staying selected.
		m.seg, m.focus = render.StorySegment(m.reqs[0].req.Segments, m.reqs[0].order), focusList
	}
	return m
}

// TourHintShort is the demo's hint where the whole one does not fit.
const TourHintShort = `Tour: LEGACY has AGENTS.md in its trusted system prompt (⚠); ` +
	`ISOLATED keeps it in an escaped envelope. 4: the cache. Any key closes this.`

// TourHint is the first-screen hint of the demo.
const TourHint = `Tour: one poisoned workspace in two layouts, each built twice (a minute apart, ` +
	`around a one-line AGENTS.md edit). LEGACY pastes AGENTS.md into the trusted system prompt ` +
	`(marked ⚠): its text is below. ISOLATED keeps it out, in an escaped <untrusted_agents_md> ` +
	`fragment. 4: the cache, the legacy prefix breaking mid-system and the isolated one holding · ` +
	`5: side by side · j/k: the requests · ?: help. Any key closes this.`

func (m *Model) setTheme(name string) {
	m.st = themes.New(name)
	st := m.st
	m.body.Bracket = cells.Width(st.MarkOpen + st.MarkClose)
	m.raw.Bracket = m.body.Bracket
	m.help.Styles = help.Styles{
		Ellipsis: st.HelpSep, ShortKey: st.HelpKey, ShortDesc: st.HelpDesc, ShortSeparator: st.HelpSep,
		FullKey: st.HelpKey, FullDesc: st.HelpDesc, FullSeparator: st.HelpSep,
	}
}

// Init starts loading, asks the terminal's background colour, and runs the
// analyses of the requests given up front.
func (m *Model) Init() tea.Cmd {
	var cmds []tea.Cmd
	if m.theme == "auto" && !m.opts.NoColor {
		cmds = append(cmds, tea.RequestBackgroundColor)
	}
	if m.opts.Stream != nil {
		cmds = append(cmds, m.waitItems())
	}
	if len(m.reqs) > 0 {
		cmds = append(cmds, m.selectionChanged()...)
		if m.opts.Stream == nil {
			cmds = append(cmds, m.analyse())
		}
	}
	cmds = append(cmds, m.viewOpened()...)
	return tea.Batch(cmds...)
}

// itemsMsg is a batch of measured items from the stream.
type itemsMsg struct {
	entries []entry
	errs    []error
	notes   []string
	prog    float64
	done    bool
}

// waitItems reads the next batch from the stream: it blocks for one item,
// then takes what else is ready for up to 50 ms, measuring each request.
func (m *Model) waitItems() tea.Cmd {
	ch, ctx, memo := m.opts.Stream, m.ctx, m.hzMemo
	first := len(m.reqs) == 0
	return func() tea.Msg {
		var out itemsMsg
		out.prog = -1
		take := func(it Item, ok bool) bool {
			if !ok {
				out.done = true
				return false
			}
			if it.Req != nil {
				out.entries = append(out.entries, memo.measure(*it.Req))
			}
			if it.Err != nil {
				out.errs = append(out.errs, it.Err)
			}
			if it.Note != "" {
				out.notes = append(out.notes, it.Note)
			}
			if it.Progress >= 0 && (it.Req != nil || it.Progress > 0) {
				out.prog = it.Progress
			}
			if it.Done {
				out.done = true
				return false
			}
			return true
		}
		select {
		case it, ok := <-ch:
			if !take(it, ok) {
				return out
			}
		case <-ctx.Done():
			out.done = true
			return out
		}
		// Before the first request is shown, show it at once; after that,
		// gather for up to 50 ms so a long file does not redraw per line.
		wait := 50 * time.Millisecond
		if first {
			wait = 0
		}
		deadline := time.After(wait)
		for len(out.entries) < 512 {
			if first {
				select {
				case it, ok := <-ch:
					if !take(it, ok) {
						return out
					}
					continue
				default:
					return out
				}
			}
			select {
			case it, ok := <-ch:
				if !take(it, ok) {
					return out
				}
			case <-deadline:
				return out
			case <-ctx.Done():
				return out
			}
		}
		return out
	}
}

// hazardMemo holds the hazards and the secrets of each distinct segment
// text (package memo), and the last request measured.
type hazardMemo struct {
	texts *memo.Texts
	// run is the last request measured, its tables runs (wire.ExtendRun)
	// that the next shares when it repeats every segment of it; rank is
	// the highest cache rank of its segments. runMu is held while measure
	// reads and extends them.
	runMu sync.Mutex
	run   entry
	rank  int
}

func newHazardMemo() *hazardMemo { return &hazardMemo{texts: memo.New()} }

// secrets are the secrets of a segment's text (read-only: shared).
func (hm *hazardMemo) secrets(s *wire.Segment) []redact.Secret {
	if hm == nil {
		return (*memo.Texts)(nil).Secrets(s)
	}
	return hm.texts.Secrets(s)
}

// hazards are the hazards of a segment's text (read-only: shared).
func (hm *hazardMemo) hazards(s *wire.Segment) []scan.Hazard {
	if hm == nil {
		return (*memo.Texts)(nil).Hazards(s)
	}
	return hm.texts.Hazards(s)
}

// maskSecrets hides each secret of text (redact.Blank): asterisks of the
// same length, so every offset into the text (escapes, hazards, matches,
// the cache cut) still holds.
func maskSecrets(text string, secrets []redact.Secret) string { return redact.Blank(text, secrets) }

// measure counts tokens and finds hazards of a request. It runs in a
// command (or before the program starts). A request that repeats every
// segment of the one measured before and adds more (a growing session)
// shares that one's tables, and only its new segments are measured: the
// tables grow with the distinct segments, not with every request.
func (hm *hazardMemo) measure(r wire.Request) entry {
	var run entry
	rank := 0
	if hm != nil {
		hm.runMu.Lock()
		defer hm.runMu.Unlock()
		run, rank = hm.run, hm.rank
	}
	segs := r.Segments
	n := len(run.segTok) // the segments measured already
	if n == 0 || len(segs) < n || !wire.SameSegments(run.req.Segments, segs[:n]) {
		n, rank, run = 0, 0, entry{}
	}
	e := entry{req: r, tokens: run.tokens, hazards: run.hazards, escapes: run.escapes,
		segTok: wire.ExtendRun(run.segTok, len(segs)), segHz: wire.ExtendRun(run.segHz, len(segs)),
		segSecrets: wire.ExtendRun(run.segSecrets, len(segs))}
	// The cache order extends the run's when the new segments come in it.
	e.order = run.order
	for i := n; i < len(segs) && e.order != nil; i++ {
		if k := segs[i].Channel.CacheRank(); k >= rank {
			rank = k
		} else {
			e.order, rank = nil, 0
		}
	}
	from := len(e.order) // the place in the order of the first new segment
	if e.order == nil {
		from, e.order = 0, r.CacheIndex()
		if len(e.order) > 0 {
			rank = segs[e.order[len(e.order)-1]].Channel.CacheRank()
		}
	} else {
		e.order = wire.ExtendRun(e.order, len(segs))
		for i := n; i < len(segs); i++ {
			e.order[from+i-n] = i
		}
	}
	for i := n; i < len(segs); i++ {
		s := &segs[i]
		e.segTok[i] = s.Tokens()
		e.tokens += e.segTok[i]
		e.escapes += len(s.Escapes)
		e.segHz[i] = hm.hazards(s)
		e.hazards += len(e.segHz[i])
		e.segSecrets[i] = hm.secrets(s)
	}
	e.escRows = escRowsOf(&e, e.order[from:])
	if from > 0 && len(e.escRows) > 0 {
		more, n := e.escRows, len(run.escRows)
		e.escRows = wire.ExtendRun(run.escRows, n+len(more))
		copy(e.escRows[n:], more)
	} else if from > 0 {
		e.escRows = run.escRows
	}
	if hm != nil {
		hm.run, hm.rank = e, rank
	}
	// The request holds its tables with no room after them: what the next
	// request adds is out of its sight.
	e.segTok, e.segHz, e.segSecrets = slices.Clip(e.segTok), slices.Clip(e.segHz), slices.Clip(e.segSecrets)
	e.order, e.escRows = slices.Clip(e.order), slices.Clip(e.escRows)
	return e
}

// analysisMsg carries the results of the analyses.
type analysisMsg struct {
	gen      int
	findings [][]audit.Finding
	steps    []*diff.Step
}

// analyse runs the audit and the cache comparison over every request in a
// command.
func (m *Model) analyse() tea.Cmd {
	m.anaGen++
	m.analysing = true
	gen := m.anaGen
	reqs := make([]wire.Request, len(m.reqs))
	for i := range m.reqs {
		reqs[i] = m.reqs[i].req
	}
	a := m.opts.Analysis
	return func() tea.Msg {
		var msg analysisMsg
		msg.gen = gen
		if a.Findings != nil {
			msg.findings = a.Findings(reqs)
		}
		msg.steps = a.Cache(reqs)
		return msg
	}
}

// toggleMsg is the answer of Options.Toggle.
type toggleMsg struct {
	layout string
	err    error
}

// Update handles one message. It never does I/O or heavy work: it may ask
// for the highlighting the view now needs, in a command.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	_, cmd := m.update(msg)
	if f := m.body.Resize(0, m.contentWidth()); f != nil {
		// z, or tab while zoomed: the content has another width.
		cmd = tea.Batch(cmd, func() tea.Msg { return f() })
	}
	if lit := m.litCmd(); lit != nil {
		cmd = tea.Batch(cmd, lit)
	}
	return m, cmd
}

// litCmd asks for the highlighting of what the visible content pane shows,
// when it is not there yet.
func (m *Model) litCmd() tea.Cmd {
	var f func() contentLitMsg
	switch m.view {
	case viewWire:
		if m.body.Text != "" {
			f = m.body.LitJob(0, m.contentHeight())
		}
	case viewRaw, viewResponse:
		if m.raw.Text != "" {
			f = m.raw.LitJob(1, m.bodyHeight()-2)
		}
	}
	if f == nil {
		return nil
	}
	return func() tea.Msg { return f() }
}

func (m *Model) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h, m.sized = msg.Width, msg.Height, true
		return m, m.relayout()
	case tea.BackgroundColorMsg:
		if m.theme == "auto" && !m.opts.NoColor {
			if msg.IsDark() {
				m.setTheme(themes.Dark)
			} else {
				m.setTheme(themes.Light)
			}
		}
		return m, nil
	case itemsMsg:
		return m, m.onItems(msg)
	case analysisMsg:
		if msg.gen == m.anaGen {
			m.setAnalysis(findingRows(msg.findings), msg.steps)
			m.analysing, m.anaDone = false, true
			if k := m.bodyKey; k[0] >= 0 {
				return m, m.decorateBody(m.body.Marks, m.cutIn(k[0], k[1]))
			}
		}
		return m, nil
	case contentPrepMsg:
		if msg.Pane == 0 {
			if m.body.ApplyPrep(msg) && m.body.Target >= 0 {
				m.body.Reveal(m.body.Target, m.contentHeight())
			}
		} else if m.raw.ApplyPrep(msg) {
			m.raw.Scroll(0, m.bodyHeight()-2)
		}
		return m, nil
	case contentLitMsg:
		if msg.Pane == 0 {
			m.body.ApplyLit(msg)
		} else {
			m.raw.ApplyLit(msg)
		}
		return m, nil
	case searchMsg:
		return m, m.onSearch(msg)
	case diffMsg:
		m.onDiff(msg)
		return m, nil
	case rawMsg:
		return m, m.onRaw(msg)
	case toggleMsg:
		if msg.err != nil {
			m.status = "layout: " + scan.VisibleLine(msg.err.Error())
		} else {
			m.layoutName = msg.layout
			m.status = "layout: " + scan.VisibleLine(msg.layout) + " (rebuilding)"
		}
		return m, nil
	case tea.PasteMsg:
		if m.pr.Active {
			m.pr.Insert(msg.Content)
			return m, m.promptChanged()
		}
		return m, nil
	case act.Msg:
		return m, m.onActed(msg)
	case tea.KeyPressMsg:
		return m, m.onKey(msg)
	case tea.MouseWheelMsg:
		return m, m.onWheel(msg.Mouse())
	case tea.MouseClickMsg:
		return m, m.onClick(msg.Mouse())
	}
	return m, nil
}

// liveHistory is how many requests the viewer keeps of a live stream
// (watch): the oldest are dropped past it, so a long watch does not grow.
const liveHistory = 100

func (m *Model) onItems(msg itemsMsg) tea.Cmd {
	var cmds []tea.Cmd
	first := len(m.reqs) == 0
	// The segment selected, which a live view keeps as it follows.
	var held *wire.Segment
	if c, s := m.cur(), m.curSeg(); s >= 0 {
		seg := m.reqs[c].req.Segments[s]
		held = &seg
	}
	m.reqs = append(m.reqs, msg.entries...)
	m.errs = append(m.errs, msg.errs...)
	if len(msg.errs) > 0 {
		m.status = "input error: " + scan.VisibleLine(msg.errs[0].Error())
	}
	if len(msg.notes) > 0 {
		m.status = scan.VisibleLine(msg.notes[len(msg.notes)-1])
	}
	if msg.prog >= 0 {
		m.progress = msg.prog
	}
	if len(msg.entries) > 0 {
		wasLast := len(m.visible) > 0 && m.list.sel == len(m.visible)-1
		dropped := m.opts.Live && len(m.reqs) > liveHistory
		if dropped {
			m.dropOldest(len(m.reqs) - liveHistory)
		}
		m.refilter()
		if first {
			m.list.sel = 0
			cmds = append(cmds, m.selectionChanged()...)
			cmds = append(cmds, m.viewOpened()...)
		} else if m.opts.Live && wasLast && len(m.visible) > 0 {
			// watch: follow the newest rebuild, on the same segment (after
			// a change of layout, the same workspace text).
			m.list.sel = len(m.visible) - 1
			m.ensureListVisible()
			if held != nil {
				m.seg = m.sameSegment(held, &m.reqs[m.cur()], m.seg)
			}
			cmds = append(cmds, m.selectionChanged()...)
		}
		if dropped {
			cmds = append(append(cmds, m.selectionChanged()...), m.viewOpened()...)
		}
	}
	if msg.done {
		m.loading = false
		m.progress = 1
	} else if !m.pullStream {
		cmds = append(cmds, m.waitItems())
	}
	if len(msg.entries) > 0 && (msg.done || m.opts.Live) {
		cmds = append(cmds, m.analyse())
	} else if msg.done && !m.anaDone {
		cmds = append(cmds, m.analyse())
	}
	return tea.Batch(cmds...)
}

// setAnalysis keeps the findings and the cache steps of the requests and
// what is counted from them.
func (m *Model) setAnalysis(findings []findingRow, steps []*diff.Step) {
	m.allFindings, m.steps = findings, steps
	m.perReq, m.perSeg = map[int]int{}, map[segKey]int{}
	for k, f := range findings {
		findings[k].server = m.findingServer(&f)
		m.perReq[f.req]++
		m.perSeg[segKey{f.req, f.Segment}]++
	}
	m.findings = audit.DistinctOf(findings, func(f *findingRow) (*audit.Finding, *wire.Request) { return &f.Finding, &m.reqs[f.req].req })
	m.reusePrefix, m.reuseTotal = 0, 0
	for _, st := range steps {
		if st != nil {
			m.reusePrefix += st.PrefixTokens
			m.reuseTotal += st.TotalTokens
		}
	}
}

// dropOldest drops the n oldest requests (of a live stream) and moves every
// index into m.reqs down by n (a dropped selection goes to the first left);
// the caller reloads the selection and asks for the analyses again.
func (m *Model) dropOldest(n int) {
	c := m.cur()
	// A new slice: a command still running (a search) reads the old one.
	m.reqs = append([]entry(nil), m.reqs[n:]...)
	m.dropped += n
	index := func(i *int) *int { return i }
	m.visible, m.marks = find.DropBelow(m.visible, n, index), find.DropBelow(m.marks, n, index)
	m.list.sel = max(0, slices.Index(m.visible, c-n))
	if m.rawKey -= n; m.rawKey < 0 {
		m.rawKey, m.rawGen = -1, m.rawGen+1 // a body being read for it is stale
	}
	if a, b := m.diff.a-n, m.diff.b-n; b >= 0 && (a >= 0 || m.diff.a < 0) {
		m.diff.a, m.diff.b = max(-1, a), b // the same two requests
	} else {
		m.diff = diffState{gen: m.diff.gen + 1, a: -1, b: -1, trust: m.diff.trust}
	}
	k := len(m.hits)
	m.hits = find.DropBelow(m.hits, n, func(h *hit) *int { return &h.req })
	m.hitAt = max(-1, m.hitAt-(k-len(m.hits)))
	m.setAnalysis(find.DropBelow(m.allFindings, n, func(f *findingRow) *int { return &f.req }), m.steps[min(n, len(m.steps)):])
}

// cur is the index of the selected request in m.reqs, or -1.
func (m *Model) cur() int {
	if m.list.sel < 0 || m.list.sel >= len(m.visible) {
		return -1
	}
	return m.visible[m.list.sel]
}

// curSeg is the selected segment's index into Segments, or -1.
func (m *Model) curSeg() int {
	c := m.cur()
	if c < 0 || m.seg < 0 || m.seg >= len(m.reqs[c].order) {
		return -1
	}
	return m.reqs[c].order[m.seg]
}

// selectionChanged clamps the segment cursor and loads the content pane.
func (m *Model) selectionChanged() []tea.Cmd {
	m.stepDiff = 0
	c := m.cur()
	if c < 0 {
		return nil
	}
	if m.seg >= len(m.reqs[c].order) {
		m.seg = max(0, len(m.reqs[c].order)-1)
	}
	m.ensureSegVisible()
	return m.loadBody()
}

// loadBody shows the selected segment in the content pane when it changed.
func (m *Model) loadBody() []tea.Cmd {
	c, s := m.cur(), m.curSeg()
	if s < 0 {
		m.body = content{Bracket: m.body.Bracket}
		m.bodyKey = [2]int{-1, -1}
		return nil
	}
	if m.bodyKey == [2]int{c, s} {
		return nil
	}
	m.bodyKey = [2]int{c, s}
	seg := &m.reqs[c].req.Segments[s]
	text := seg.Text
	if !m.showSecrets && s < len(m.reqs[c].segSecrets) {
		text = maskSecrets(text, m.reqs[c].segSecrets[s])
	}
	open, close := render.Frame(m.reqs[c].req.Segments, s)
	if m.body.Sent == text && m.body.FrameOpen == open && m.body.FrameClose == close && m.body.Scanned && m.body.Width == m.contentWidth() {
		// The same text (interned) in another request: keep the work done.
		m.body.Key = seg.ID
		m.body.Top, m.body.TopOff, m.body.Target = 0, 0, -1
		if f := m.body.Decorate(0, seg.Escapes, m.matchMarks(c, s), m.cutIn(c, s), m.findingMarks(c, s)...); f != nil {
			return jobCmds([]any{f})
		}
		return nil
	}
	m.body.FrameOpen, m.body.FrameClose = open, close
	jobs := m.body.Set(0, seg.ID, text, seg.Escapes, m.reqs[c].segHz[s], true, m.contentWidth(), "")
	if f := m.body.Decorate(0, seg.Escapes, m.matchMarks(c, s), m.cutIn(c, s), m.findingMarks(c, s)...); f != nil {
		// The index counts the marks and the cut: it replaces set's.
		jobs[0] = f
	}
	return jobCmds(jobs)
}

// decorateBody shows search matches and the cache cut in the content pane;
// it returns the command that indexes its rows again when they change what
// a row holds.
func (m *Model) decorateBody(marks []mark, cut int) tea.Cmd {
	if f := m.body.Decorate(0, m.body.Escapes, marks, cut, m.findingMarks(m.bodyKey[0], m.bodyKey[1])...); f != nil {
		return func() tea.Msg { return f() }
	}
	return nil
}

// step is the cache step of request r, nil when it has none (the first of
// its source, or not analysed yet).
func (m *Model) step(r int) *diff.Step { return stepAt(m.steps, r) }

// cutIn is where the cache prefix of request r ends inside segment s, or -1
// when it does not end there.
func (m *Model) cutIn(r, s int) int {
	st := m.step(r)
	if st == nil || st.Break == nil || s < 0 {
		return -1
	}
	seg := &m.reqs[r].req.Segments[s]
	if st.Break.Segment != seg.ID || st.Break.Offset < 0 || st.Break.Offset > len(seg.Text) {
		return -1
	}
	return st.Break.Offset
}

// jobCmds turns prepared jobs into commands.
func jobCmds(jobs []any) []tea.Cmd {
	var cmds []tea.Cmd
	for _, j := range jobs {
		switch f := j.(type) {
		case func() contentPrepMsg:
			if f != nil {
				cmds = append(cmds, func() tea.Msg { return f() })
			}
		case func() contentLitMsg:
			if f != nil {
				cmds = append(cmds, func() tea.Msg { return f() })
			}
		}
	}
	return cmds
}

// relayout follows a size change.
func (m *Model) relayout() tea.Cmd {
	var cmds []tea.Cmd
	m.help.SetWidth(m.w)
	if f := m.body.Resize(0, m.contentWidth()); f != nil {
		cmds = append(cmds, func() tea.Msg { return f() })
	}
	if f := m.raw.Resize(1, m.w-2); f != nil {
		cmds = append(cmds, func() tea.Msg { return f() })
	}
	m.ensureListVisible()
	// The segment columns scroll from the top again for the new height
	// (the first layout, at 80x24 before the terminal's size is known,
	// would leave them scrolled down): as little as shows the cursor.
	m.segs.top = [2]int{}
	m.ensureSegVisible()
	return tea.Batch(cmds...)
}

// refilter recomputes the visible requests, keeping the selection when it
// stays visible.
func (m *Model) refilter() {
	keep := m.cur()
	m.visible = m.visible[:0]
	for i := range m.reqs {
		if m.filter == "" || m.matchesFilter(i, m.filter) {
			m.visible = append(m.visible, i)
		}
	}
	m.list.sel = 0
	for k, i := range m.visible {
		if i == keep {
			m.list.sel = k
		}
	}
	m.ensureListVisible()
}

// ensureListVisible scrolls the request list to the selection.
func (m *Model) ensureListVisible() { m.list.ensureVisible(len(m.visible), m.listHeight()) }

// programProfile is the colour profile the program is given: the one the
// options force, else, for standard output, the one Lip Gloss detected for
// it when the process started (lipgloss.Writer: the same output and
// environment Bubble Tea would look at), so that it is not detected twice.
// Detection can be slow: inside tmux it runs `tmux info`, tens of
// milliseconds before the first frame.
func programProfile(opts Options) *colorprofile.Profile {
	if opts.Profile != nil {
		return opts.Profile
	}
	if opts.Output == nil && lipgloss.Writer != nil {
		p := lipgloss.Writer.Profile
		return &p
	}
	return nil
}

// Run opens the viewer and returns when the user quits, or ctx ends. It
// waits for no command: one that reads the stream stops when the user
// quits, and the stream's writer is the caller's to stop.
func Run(ctx context.Context, opts Options) error {
	m := newModel(ctx, opts)
	defer m.cancel()
	out := opts.Output
	if out == nil {
		out = os.Stdout // Bubble Tea's own default
	}
	popts := []tea.ProgramOption{tea.WithContext(ctx), tea.WithOutput(out)}
	if opts.Headless {
		popts = append(popts, tea.WithInput(nil))
	} else if opts.Input != nil {
		popts = append(popts, tea.WithInput(opts.Input))
	}
	if opts.Width > 0 && opts.Height > 0 {
		popts = append(popts, tea.WithWindowSize(opts.Width, opts.Height))
	}
	if p := programProfile(opts); p != nil {
		popts = append(popts, tea.WithColorProfile(*p))
	}
	_, _ = io.WriteString(out, pushTitle)
	_, err := tea.NewProgram(m, popts...).Run()
	_, _ = io.WriteString(out, popTitle)
	if err != nil && ctx.Err() != nil {
		return nil
	}
	if err != nil {
		return fmt.Errorf("viewer: %w", err)
	}
	return nil
}

// matches reports whether a key press is one of the bindings.
func matches(k tea.KeyPressMsg, b ...key.Binding) bool { return key.Matches(k, b...) }
