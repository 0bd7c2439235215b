package provenance

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/classify"
)

// Bounds of one Build: a hostile or huge workspace must not stall a command.
// Past any of them Build stops and Index.Notes says where.
const (
	MaxFileSize = 256 << 10       // a file larger than this is not read (its name is still indexed)
	MaxFiles    = 5000            // files read
	MaxBytes    = 32 << 20        // bytes read in all
	MaxNames    = 20000           // entry names indexed
	MaxDepth    = 16              // directories below the root
	MaxTime     = 3 * time.Second // wall time of the walk
	maxLocs     = 64              // places one line is kept at (a line every file repeats is no evidence)
	sniffBytes  = 8000            // bytes looked at to tell a binary file
	homeMaxTime = time.Second / 2 // wall time of the HOME table's walk
)

// Source is what a file of the index is to the wire.
type Source string

// Sources: a file of the workspace (untrusted) or one of the user's own
// agent files in HOME (trust user).
const (
	Workspace Source = "workspace"
	Home      Source = "home"
)

// File is one indexed file: never its text, only what matching needs.
type File struct {
	// Path is relative to the workspace root (slash separated), or
	// "~/..." for a file of HOME.
	Path   string
	Size   int64
	Source Source
	// Kind is what the file is (Kind): agents-md for an instruction file,
	// skill-loaded for a SKILL.md, other for any other text.
	Kind wire.Kind
	// Lines are the hashes of its non-blank lines' canonical forms, in order.
	Lines []Hash
	// Values are the hashes of its front matter's description values (a
	// SKILL.md's description, which a skill listing quotes on a line of its
	// own making).
	Values []Hash
	// FrontMatter is how many of Lines are the front matter.
	FrontMatter int
}

// loc is one place of a line: file and index in the file's Lines.
type loc struct{ file, line int32 }

// Index is the text that could reach the wire from one workspace and HOME.
type Index struct {
	Root  string // the workspace's absolute path ("" when only HOME is indexed)
	Home  string // HOME's absolute path, "" when not indexed
	Files []File
	// Names are the hashes of the entry names a listing of the workspace
	// would show (base names and paths relative to the root).
	Names []Hash
	// Notes say where Build stopped or what it could not read; written by
	// wirelens, they may quote paths: render through scan.VisibleLine.
	Notes []string

	lines  map[Hash][]loc
	values map[Hash][]loc
	names  map[Hash]bool

	mu   sync.Mutex
	memo map[memoKey][]span
}

// Empty reports whether the index holds nothing to match.
func (x *Index) Empty() bool { return x == nil || len(x.Files) == 0 && len(x.Names) == 0 }

// Options bound and shape one Build.
type Options struct {
	// Skip, when set, says whether a path (slash separated, relative to the
	// root) is left out: the caller's .gitignore rules. .git is always
	// left out.
	Skip func(rel string, isDir bool) bool
	// Home is the user's HOME whose agent files (HomeFiles) are indexed
	// with trust user; "" indexes none.
	Home string
	// HomeSkip is Skip for HOME's folders (nil: nothing skipped).
	HomeSkip func(rel string, isDir bool) bool
}

// Build indexes the workspace at root ("" for none) and opts.Home. It
// fails only when root cannot be read at all; a file it cannot read is a
// note.
func Build(root string, opts Options) (*Index, error) {
	x := &Index{}
	if root != "" {
		abs, err := filepath.Abs(root)
		if err != nil {
			return nil, err
		}
		st, err := os.Stat(abs)
		if err != nil {
			return nil, fmt.Errorf("%s: %s", root, wire.OSErrorReason(err))
		}
		if !st.IsDir() {
			return nil, fmt.Errorf("%s: not a directory", root)
		}
		x.Root = abs
		w := walker{x: x, src: Workspace, skip: opts.Skip, deadline: time.Now().Add(MaxTime), names: true}
		w.walk(os.DirFS(abs), ".", 0)
	}
	if opts.Home != "" {
		if abs, err := filepath.Abs(opts.Home); err == nil {
			if st, err := os.Stat(abs); err == nil && st.IsDir() && abs != x.Root {
				x.Home = abs
				x.indexHome(abs, opts.HomeSkip)
			}
		}
	}
	x.finish()
	return x, nil
}

// HomeFile is one row of HomeFiles: a file or folder under HOME that an
// agent reads as the user's own instructions or skills.
type HomeFile struct {
	Path   string    // relative to HOME
	Dir    bool      // a folder: its text files (.md, .mdc, .txt) are read
	Kind   wire.Kind // what its files are (SKILL.md files are skills whatever the row says)
	Agents string    // who reads it
}

// HomeFiles is the table of the user's own agent files in HOME: their text
// on the wire is trust user, not the host's and not the workspace's.
var HomeFiles = []HomeFile{
	{".claude/CLAUDE.md", false, wire.KindAgentsMD, "Claude Code"},
	{".claude/skills", true, wire.KindSkillLoaded, "Claude Code"},
	{".claude/rules", true, wire.KindAgentsMD, "Claude Code"},
	{".codex/AGENTS.md", false, wire.KindAgentsMD, "Codex"},
	{".codex/AGENTS.override.md", false, wire.KindAgentsMD, "Codex"},
	{".codex/skills", true, wire.KindSkillLoaded, "Codex"},
	{".gemini/GEMINI.md", false, wire.KindAgentsMD, "Gemini CLI"},
	{".gemini/skills", true, wire.KindSkillLoaded, "Gemini CLI"},
	{".qwen", true, wire.KindAgentsMD, "qwen-code (QWEN.md, output-language.md, skills)"},
	{".config/opencode", true, wire.KindAgentsMD, "opencode (AGENTS.md, skills, agents)"},
	{".opencode", true, wire.KindAgentsMD, "opencode"},
	{".cline", true, wire.KindAgentsMD, "cline"},
	{"Documents/Cline/Rules", true, wire.KindAgentsMD, "cline (global rules)"},
	{".agents/skills", true, wire.KindSkillLoaded, "agents sharing ~/.agents/skills"},
	{".kimi/AGENTS.md", false, wire.KindAgentsMD, "Kimi"},
	{".pi/agent", true, wire.KindAgentsMD, "pi (AGENTS.md, skills)"},
	{".config/crush/CRUSH.md", false, wire.KindAgentsMD, "Crush"},
}

// indexHome indexes the rows of HomeFiles that exist under home.
func (x *Index) indexHome(home string, skip func(string, bool) bool) {
	fsys := os.DirFS(home)
	w := walker{x: x, src: Home, skip: skip, deadline: time.Now().Add(homeMaxTime), onlyDocs: true}
	for _, row := range HomeFiles {
		st, err := fs.Stat(fsys, row.Path)
		if err != nil {
			continue
		}
		if row.Dir && st.IsDir() {
			w.kind = row.Kind
			w.walk(fsys, row.Path, 0)
		} else if !row.Dir && st.Mode().IsRegular() {
			w.kind = row.Kind
			w.file(fsys, row.Path, st.Size())
		}
	}
}

// walker walks one tree into the index.
type walker struct {
	x        *Index
	src      Source
	skip     func(string, bool) bool
	deadline time.Time
	names    bool      // index entry names (the workspace)
	onlyDocs bool      // read only .md, .mdc and .txt files (HOME's folders)
	kind     wire.Kind // HOME's row kind ("" in the workspace: by name)
	bytes    int64
	stopped  bool
}

func (w *walker) note(format string, args ...any) {
	w.x.Notes = append(w.x.Notes, fmt.Sprintf(format, args...))
}

func (w *walker) walk(fsys fs.FS, dir string, depth int) {
	if w.stopped {
		return
	}
	if time.Now().After(w.deadline) {
		w.stopped = true
		w.note("%s: provenance index stopped after %s: files not read past this point", w.show(dir), MaxTime)
		return
	}
	ents, err := fs.ReadDir(fsys, dir)
	if err != nil {
		w.note("%s: not indexed: %s", w.show(dir), wire.OSErrorReason(err))
		return
	}
	sort.Slice(ents, func(i, j int) bool { return ents[i].Name() < ents[j].Name() })
	for _, e := range ents {
		if w.stopped {
			return
		}
		name := e.Name()
		rel := name
		if dir != "." {
			rel = dir + "/" + name
		}
		isDir := e.IsDir()
		if name == ".git" || w.skip != nil && w.skip(rel, isDir) {
			continue
		}
		if w.names {
			if len(w.x.Names) >= MaxNames {
				w.stopped = true
				w.note("%s: provenance index cut at %d entry names", w.show(dir), MaxNames)
				return
			}
			w.x.Names = append(w.x.Names, hashOf(name))
			if rel != name {
				w.x.Names = append(w.x.Names, hashOf(rel))
			}
		}
		switch {
		case e.Type()&fs.ModeSymlink != 0:
			// Never read through a link: its name is all a listing shows.
		case isDir:
			if depth+1 < MaxDepth {
				w.walk(fsys, rel, depth+1)
			}
		case e.Type().IsRegular():
			if w.onlyDocs && !isDoc(name) {
				continue
			}
			info, err := e.Info()
			if err != nil {
				continue
			}
			w.file(fsys, rel, info.Size())
		}
	}
}

// isDoc reports whether a file of a HOME folder is read: text an agent
// pastes, not its settings or history.
func isDoc(name string) bool {
	switch strings.ToLower(path.Ext(name)) {
	case ".md", ".mdc", ".txt":
		return true
	}
	return false
}

// show is how a note names a path.
func (w *walker) show(rel string) string {
	if w.src == Home {
		return "~/" + rel
	}
	return rel
}

// file reads one regular file into the index.
func (w *walker) file(fsys fs.FS, rel string, size int64) {
	if size > MaxFileSize {
		return
	}
	if len(w.x.Files) >= MaxFiles {
		w.stopped = true
		w.note("provenance index cut at %d files", MaxFiles)
		return
	}
	if w.bytes+size > MaxBytes {
		w.stopped = true
		w.note("provenance index cut at %d MB read", MaxBytes>>20)
		return
	}
	f, err := fsys.Open(rel)
	if err != nil {
		w.note("%s: not indexed: %s", w.show(rel), wire.OSErrorReason(err))
		return
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return // replaced by something else since it was listed
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil || len(data) > MaxFileSize {
		return
	}
	w.bytes += int64(len(data))
	if isBinary(data) {
		return
	}
	kind := fileKind(rel)
	if w.kind != "" && kind != wire.KindSkillLoaded {
		kind = w.kind
	}
	p := rel
	if w.src == Home {
		p = "~/" + rel
	}
	w.x.Files = append(w.x.Files, fileOf(p, w.src, kind, string(data)))
}

// isBinary reports whether data is not text: a NUL byte or invalid UTF-8 in
// its first bytes.
func isBinary(data []byte) bool {
	head := data[:min(len(data), sniffBytes)]
	if bytes.IndexByte(head, 0) >= 0 {
		return true
	}
	// A cut at the sniff's end may split a code point.
	for i := 0; i < 3 && len(head) > 0 && !utf8.Valid(head); i++ {
		head = head[:len(head)-1]
	}
	return !utf8.Valid(head)
}

// fileKind is what a workspace file is, by its path.
func fileKind(rel string) wire.Kind {
	base := strings.ToLower(path.Base(rel))
	switch {
	case base == "skill.md":
		return wire.KindSkillLoaded
	case classify.InstructionFile(rel):
		return wire.KindAgentsMD
	}
	return wire.KindOther
}

// fileOf hashes one file's text.
func fileOf(p string, src Source, kind wire.Kind, text string) File {
	f := File{Path: p, Size: int64(len(text)), Source: src, Kind: kind}
	inFront, first := false, true
	for line := range strings.SplitSeq(text, "\n") {
		c := canonical(line)
		if first && c == "---" && kind == wire.KindSkillLoaded {
			inFront = true
		} else if inFront && c == "---" {
			f.FrontMatter = len(f.Lines) + 1
			inFront = false
		} else if inFront {
			if k, v, ok := strings.Cut(c, ":"); ok && strings.TrimSpace(k) == "description" {
				if v = canonical(unquote(v)); weight(v) >= 12 {
					f.Values = append(f.Values, hashOf(v))
				}
			}
		}
		if c != "" {
			f.Lines = append(f.Lines, hashOf(c))
		}
		first = false
	}
	if inFront { // never closed: not front matter
		f.FrontMatter = 0
	}
	return f
}

// finish builds the lookup tables.
func (x *Index) finish() {
	x.lines = map[Hash][]loc{}
	x.values = map[Hash][]loc{}
	x.names = make(map[Hash]bool, len(x.Names))
	for fi := range x.Files {
		for li, h := range x.Files[fi].Lines {
			if l := x.lines[h]; len(l) < maxLocs {
				x.lines[h] = append(l, loc{int32(fi), int32(li)})
			}
		}
		for _, h := range x.Files[fi].Values {
			x.values[h] = append(x.values[h], loc{int32(fi), -1})
		}
	}
	for _, h := range x.Names {
		x.names[h] = true
	}
	x.memo = map[memoKey][]span{}
}
