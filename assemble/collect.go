package assemble

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/wirelens/wirelens/wire"
)

// Limits of what Collect reads and lists.
const (
	// MaxFileBytes is the most of an AGENTS.md or SKILL.md that is read; the
	// rest is replaced by the truncation note.
	MaxFileBytes = 64 << 10
	// MaxDepth is how deep the directory listings go (1: the top level only).
	MaxDepth = 3
	// MaxEntries is the most entries one listing shows.
	MaxEntries = 200
	// maxLinkHops bounds the symbolic links followed to reach one file.
	maxLinkHops = 16
	// maxCounted bounds how many entries past MaxEntries are counted for
	// the cut note, so that a huge tree is not walked to the end.
	maxCounted = 50 * MaxEntries
)

// Dir is a directory as Collect reads it: the absolute path shown on the wire
// and a file system rooted at it.
type Dir struct {
	Path string
	FS   fs.FS
}

// Input is what Collect reads.
type Input struct {
	// Workspace is the working directory.
	Workspace Dir
	// Ancestors are the directories above the workspace up to and including
	// the repository root, outermost first; only their AGENTS.md is read.
	Ancestors []Dir
	// AddDirs are the additional directories (--add-dir).
	AddDirs []Dir
	// SkillsDirs hold skills as NAME/SKILL.md (--skills-dir).
	SkillsDirs []Dir
	// Now is the time of the request.
	Now time.Time
	// Notes are problems found while opening the directories (an ancestor
	// that could not be opened); Collect passes them on.
	Notes []string
}

// Baseline is the workspace as the agent would send it, before any layout.
// All text in it is hostile.
type Baseline struct {
	Workspace string // absolute path of the working directory
	Now       time.Time
	// Listing is the working directory's listing.
	Listing string
	// AddDirs are the listings of the additional directories.
	AddDirs []Listing
	// AgentsMD is the AGENTS.md chain, outermost first.
	AgentsMD []File
	// Skills are the skills found, sorted by name.
	Skills []Skill
	// Notes say what could not be read or was cut, for the user.
	Notes []string
}

// Listing is the listing of one directory.
type Listing struct {
	Path string
	Text string
}

// File is one file read for the baseline.
type File struct {
	Path string // absolute path
	Text string // valid UTF-8, capped, with visible notes
}

// Skill is a skill found under .agents/skills/NAME/SKILL.md or a skills dir.
type Skill struct {
	Name        string
	Description string
	Dir         string // absolute path of the skill's directory
	Source      string // "project" (the workspace) or "user" (--skills-dir)
	Body        string // SKILL.md without its front matter
}

// OpenDir opens a directory on disk as a Dir rooted at it. The caller closes
// the returned closer when Collect is done.
func OpenDir(dir string) (Dir, io.Closer, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return Dir{}, nil, fmt.Errorf("%s: %v", dir, err)
	}
	st, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return Dir{}, nil, fmt.Errorf("%s: no such directory", dir)
	case err != nil:
		return Dir{}, nil, fmt.Errorf("%s: %v", dir, wire.OSErrorReason(err))
	case !st.IsDir():
		return Dir{}, nil, fmt.Errorf("%s: not a directory", dir)
	}
	root, err := os.OpenRoot(abs)
	if err != nil {
		return Dir{}, nil, fmt.Errorf("%s: %v", dir, wire.OSErrorReason(err))
	}
	return Dir{Path: abs, FS: root.FS()}, root, nil
}

// OpenInput opens a workspace on disk with its AGENTS.md ancestors (up to the
// directory holding .git, never above it; none when there is no repository),
// additional directories and skills directories. close releases them all.
func OpenInput(workspace string, addDirs, skillsDirs []string, now time.Time) (in Input, close func(), err error) {
	var closers []io.Closer
	close = func() {
		for _, c := range closers {
			c.Close()
		}
	}
	open := func(p string) (Dir, error) {
		d, c, err := OpenDir(p)
		if err == nil {
			closers = append(closers, c)
		}
		return d, err
	}
	in.Now = now
	if in.Workspace, err = open(workspace); err != nil {
		close()
		return Input{}, nil, err
	}
	for _, a := range repoAncestors(in.Workspace.Path) {
		d, err := open(a)
		if err != nil {
			// An unreadable ancestor contributes no AGENTS.md, and says so.
			in.Notes = append(in.Notes, fmt.Sprintf("%v (AGENTS.md not read)", err))
			continue
		}
		in.Ancestors = append(in.Ancestors, d)
	}
	for _, a := range addDirs {
		d, err := open(a)
		if err != nil {
			close()
			return Input{}, nil, fmt.Errorf("--add-dir %v", err)
		}
		in.AddDirs = append(in.AddDirs, d)
	}
	for _, s := range skillsDirs {
		d, err := open(s)
		if err != nil {
			close()
			return Input{}, nil, fmt.Errorf("--skills-dir %v", err)
		}
		in.SkillsDirs = append(in.SkillsDirs, d)
	}
	return in, close, nil
}

// repoAncestors lists the directories above ws up to the repository root
// (the nearest directory holding .git), outermost first. Outside a repository
// the chain is the workspace alone, so it returns nothing.
func repoAncestors(ws string) []string {
	if _, err := os.Lstat(filepath.Join(ws, ".git")); err == nil {
		return nil
	}
	var up []string
	for d := filepath.Dir(ws); ; d = filepath.Dir(d) {
		up = append(up, d)
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			slices.Reverse(up)
			return up
		}
		if filepath.Dir(d) == d {
			return nil
		}
	}
}

// Collect reads the baseline. Problems with single files become visible notes
// in the payload and in Notes; only an unusable workspace is an error.
func Collect(in Input) (*Baseline, error) {
	if in.Workspace.FS == nil {
		return nil, errors.New("no workspace")
	}
	if _, err := fs.ReadDir(in.Workspace.FS, "."); err != nil {
		return nil, fmt.Errorf("%s: %v", in.Workspace.Path, wire.OSErrorReason(err))
	}
	b := &Baseline{Workspace: in.Workspace.Path, Now: in.Now, Notes: slices.Clone(in.Notes)}
	c := &collector{b: b}
	b.Listing = c.listing(in.Workspace, c.outerIgnores(in))
	for _, d := range in.AddDirs {
		b.AddDirs = append(b.AddDirs, Listing{Path: d.Path, Text: c.listing(d, nil)})
	}
	for _, d := range in.Ancestors {
		c.agentsMD(d)
	}
	c.agentsMD(in.Workspace)
	c.skills(in.Workspace, ".agents/skills", "project")
	for _, d := range in.SkillsDirs {
		c.skills(d, ".", "user")
	}
	slices.SortStableFunc(b.Skills, func(x, y Skill) int { return strings.Compare(x.Name, y.Name) })
	return b, nil
}

type collector struct{ b *Baseline }

func (c *collector) note(format string, args ...any) {
	c.b.Notes = append(c.b.Notes, fmt.Sprintf(format, args...))
}

// agentsMD reads AGENTS.md (or agents.md) in the top of d.
func (c *collector) agentsMD(d Dir) {
	for _, name := range []string{"AGENTS.md", "agents.md"} {
		if _, err := fs.Lstat(d.FS, name); err != nil {
			continue
		}
		full := joinPath(d.Path, name)
		text, _ := c.readFile(d, name, full)
		c.b.AgentsMD = append(c.b.AgentsMD, File{Path: full, Text: text})
		return
	}
}

// readFile reads a text file of d for the baseline: symbolic links are
// followed only while they stay inside d, the size is capped, binary data
// is not shown, invalid UTF-8 becomes U+FFFD. Every such change leaves a
// visible note in the text. ok is false when nothing could be read.
func (c *collector) readFile(d Dir, name, full string) (text string, ok bool) {
	real, fi, err := resolve(d.FS, name)
	if err != nil {
		c.note("%s: %v", full, err)
		return fmt.Sprintf("[wirelens: not read: %v]\n", err), false
	}
	// Only a regular file is opened: opening a named pipe would wait for a
	// writer forever, and a device is no text of the workspace.
	if !fi.Mode().IsRegular() {
		c.note("%s: not a regular file", full)
		return "[wirelens: not read: not a regular file]\n", false
	}
	f, err := d.FS.Open(real)
	if err != nil {
		c.note("%s: %v", full, wire.OSErrorReason(err))
		return fmt.Sprintf("[wirelens: not read: %v]\n", wire.OSErrorReason(err)), false
	}
	defer f.Close()
	st, stErr := f.Stat()
	if stErr == nil && !st.Mode().IsRegular() {
		c.note("%s: not a regular file", full)
		return "[wirelens: not read: not a regular file]\n", false
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		c.note("%s: %v", full, wire.OSErrorReason(err))
		return fmt.Sprintf("[wirelens: not read: %v]\n", wire.OSErrorReason(err)), false
	}
	size := int64(len(data))
	if stErr == nil && st.Size() > size {
		size = st.Size()
	}
	if i := bytes.IndexByte(data, 0); i >= 0 {
		c.note("%s: binary data (a NUL byte at byte %d), not shown", full, i)
		return fmt.Sprintf("[wirelens: binary file, NUL byte at byte %d]\n%s\n", i, TruncationNote(size)), true
	}
	cut := int64(0)
	if len(data) > MaxFileBytes {
		keep := MaxFileBytes
		for keep > 0 && !utf8.RuneStart(data[keep]) {
			keep--
		}
		data = data[:keep]
		cut = size - int64(keep)
		c.note("%s: %d bytes, only the first %d shown", full, size, keep)
	}
	text = string(data)
	if !utf8.ValidString(text) {
		var n int
		text, n = validUTF8(data)
		if !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		text += fmt.Sprintf("[wirelens: invalid UTF-8, %d bytes replaced with U+FFFD]\n", n)
		c.note("%s: invalid UTF-8, %d bytes replaced with U+FFFD", full, n)
	}
	if cut > 0 {
		if !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		text += TruncationNote(cut) + "\n"
	}
	return text, true
}

// TruncationNote is the line that stands where text was cut.
func TruncationNote(n int64) string {
	return fmt.Sprintf("[wirelens: truncated, %d bytes not shown]", n)
}

// validUTF8 replaces each byte of data that is not UTF-8 with U+FFFD
// and counts them.
func validUTF8(data []byte) (string, int) {
	var b strings.Builder
	b.Grow(len(data) + 16)
	n := 0
	for i := 0; i < len(data); {
		r, w := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && w <= 1 {
			b.WriteString("\uFFFD")
			n++
		} else {
			b.Write(data[i : i+w])
		}
		i += w
	}
	return b.String(), n
}

var (
	errOutside = errors.New("symbolic link points outside the directory, not followed")
	errLoop    = errors.New("too many symbolic links (a loop?), not followed")
)

// resolve follows the symbolic links of name inside fsys, refusing any
// that leave it and giving up after maxLinkHops. It returns the name reached
// and its information (not a link).
func resolve(fsys fs.FS, name string) (string, fs.FileInfo, error) {
	for hop := 0; hop <= maxLinkHops; hop++ {
		fi, err := fs.Lstat(fsys, name)
		if err != nil {
			return "", nil, errors.New(wire.OSErrorReason(err))
		}
		if fi.Mode().Type() != fs.ModeSymlink {
			return name, fi, nil
		}
		target, err := fs.ReadLink(fsys, name)
		if err != nil {
			return "", nil, errors.New(wire.OSErrorReason(err))
		}
		target = filepath.ToSlash(target)
		if path.IsAbs(target) || filepath.IsAbs(target) {
			return "", nil, errOutside
		}
		next := path.Join(path.Dir(name), target)
		if !fs.ValidPath(next) {
			return "", nil, errOutside
		}
		name = next
	}
	return "", nil, errLoop
}

// joinPath joins a display path and a slash-separated name.
func joinPath(dir, name string) string {
	if name == "." || name == "" {
		return dir
	}
	if strings.HasSuffix(dir, "/") {
		return dir + name
	}
	return dir + "/" + name
}

// listing lists d (the workspace or an additional directory): sorted, at
// most MaxDepth deep and MaxEntries long, with .git and what d's root
// .gitignore ignores skipped, after the rules of outer .gitignore files
// (those of the repository above the workspace). Symbolic links are shown
// as "name -> target" and never entered.
func (c *collector) listing(d Dir, outer []ignoreRule) string {
	l := &lister{c: c, d: d, ignore: append(slices.Clip(outer), c.gitignore(d, "")...)}
	l.walk(".", 0)
	if l.stopped {
		l.out.WriteString("[wirelens: listing stopped, the .gitignore rules cost too much to apply]\n")
		c.note("%s: listing stopped: the .gitignore rules cost too much to apply", d.Path)
	}
	switch {
	case l.cut > maxCounted:
		fmt.Fprintf(&l.out, "[wirelens: listing cut, more than %d more entries not shown]\n", maxCounted)
		c.note("%s: listing cut at %d entries", d.Path, MaxEntries)
	case l.cut > 0:
		fmt.Fprintf(&l.out, "[wirelens: listing cut, %d more entries not shown]\n", l.cut)
		c.note("%s: listing cut at %d entries", d.Path, MaxEntries)
	}
	if l.deep {
		fmt.Fprintf(&l.out, "[wirelens: directories deeper than %d levels not listed]\n", MaxDepth)
	}
	return l.out.String()
}

// lister writes the listing of one directory.
type lister struct {
	c      *collector
	d      Dir
	ignore []ignoreRule
	out    strings.Builder
	n      int  // entries written
	cut    int  // entries not written
	deep   bool // some directory was not entered for depth
	steps  int  // work of the ignore rules so far (see glob.match)
	// stopped says the rules cost maxIgnoreSteps: from then on every entry
	// counts as ignored, so the listing ends where it was.
	stopped bool
}

// ignored says whether the listing skips rel for the ignore rules.
func (l *lister) ignored(rel string, isDir bool) bool {
	if !l.stopped {
		ig := isIgnored(l.ignore, rel, isDir, &l.steps)
		l.stopped = l.steps > maxIgnoreSteps
		return ig || l.stopped
	}
	return true
}

func (l *lister) walk(dir string, depth int) {
	ents, err := fs.ReadDir(l.d.FS, dir)
	indent := strings.Repeat("  ", depth)
	if err != nil && len(ents) == 0 {
		fmt.Fprintf(&l.out, "%s[wirelens: not listed: %s]\n", indent, wire.OSErrorReason(err))
		l.c.note("%s: not listed: %s", joinPath(l.d.Path, dir), wire.OSErrorReason(err))
		return
	}
	slices.SortFunc(ents, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	for _, e := range ents {
		name := e.Name()
		rel := name
		if dir != "." {
			rel = dir + "/" + name
		}
		isDir := e.IsDir()
		if name == ".git" || l.ignored(rel, isDir) {
			continue
		}
		if l.n >= MaxEntries {
			// Past the cap, entries are counted (down to MaxDepth, as
			// they would have been listed) for the cut note.
			l.cut++
			if l.cut > maxCounted {
				return
			}
			if isDir && e.Type()&fs.ModeSymlink == 0 && depth+1 < MaxDepth {
				l.count(rel, depth+1)
			}
			continue
		}
		l.n++
		shown := showName(name)
		if shown != name {
			l.c.note("%s: a name that is not plain text (shown escaped)", joinPath(l.d.Path, dir))
		}
		switch {
		case e.Type()&fs.ModeSymlink != 0:
			target, err := fs.ReadLink(l.d.FS, rel)
			if err != nil {
				target = "[wirelens: unreadable link]"
			}
			fmt.Fprintf(&l.out, "%s%s -> %s\n", indent, shown, showName(target))
		case isDir:
			fmt.Fprintf(&l.out, "%s%s/\n", indent, shown)
			if depth+1 < MaxDepth {
				l.walk(rel, depth+1)
			} else if !l.deep {
				// Read only until one directory too deep is found: the
				// note is the same for one or many.
				if sub, err := fs.ReadDir(l.d.FS, rel); err == nil && len(sub) > 0 {
					l.deep = true
				}
			}
		default:
			fmt.Fprintf(&l.out, "%s%s\n", indent, shown)
		}
	}
}

// count counts the entries under dir that the listing would have shown,
// past the cap: what is ignored is not counted, links are not entered.
func (l *lister) count(dir string, depth int) {
	ents, err := fs.ReadDir(l.d.FS, dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		rel := dir + "/" + e.Name()
		if e.Name() == ".git" || l.ignored(rel, e.IsDir()) {
			continue
		}
		l.cut++
		if l.cut > maxCounted {
			return
		}
		if e.IsDir() && depth+1 < MaxDepth {
			l.count(rel, depth+1)
		}
	}
}

// showName makes a file name one line of valid UTF-8: line breaks and
// tabs are written as \n, \r, \t, invalid bytes become U+FFFD. Other hostile
// code points stay for the envelope sanitiser (the legacy layout shows them
// raw, as agents did).
func showName(name string) string {
	if utf8.ValidString(name) && !strings.ContainsAny(name, "\n\r\t") {
		return name
	}
	name, _ = validUTF8([]byte(name))
	return strings.NewReplacer("\n", `\n`, "\r", `\r`, "\t", `\t`).Replace(name)
}

// ignoreRule is one line of a .gitignore.
type ignoreRule struct {
	pattern  glob // without the leading "!" "/" and trailing "/"
	negate   bool
	dirOnly  bool
	anchored bool // contains a slash: matched against the whole path
	// prefix is the path from the .gitignore's directory to the listed
	// directory ("pkg/ws/" for the repository root's above pkg/ws).
	prefix string
}

// outerIgnores reads the .gitignore of each directory above the
// workspace up to the repository root (outermost first), their patterns
// made relative to the workspace.
func (c *collector) outerIgnores(in Input) []ignoreRule {
	var out []ignoreRule
	for _, a := range in.Ancestors {
		rel, err := filepath.Rel(a.Path, in.Workspace.Path)
		if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
			continue
		}
		out = append(out, c.gitignore(a, filepath.ToSlash(rel)+"/")...)
	}
	return out
}

// gitignore reads the .gitignore at the top of d (see readGitignore) and
// notes the rules it leaves out for the limits.
func (c *collector) gitignore(d Dir, prefix string) []ignoreRule {
	rules, over, long := readGitignore(d.FS, prefix)
	if over > 0 {
		c.note("%s: only the first %d rules applied, %d more not", joinPath(d.Path, ".gitignore"), maxIgnoreRules, over)
	}
	if long > 0 {
		c.note("%s: patterns longer than %d bytes not applied: %d", joinPath(d.Path, ".gitignore"), maxIgnorePattern, long)
	}
	return rules
}

// readGitignore reads the .gitignore at the top of fsys (small, never
// followed through a link out of it); prefix is the path from there to the
// directory listed. It reads at most maxIgnoreRules rules and counts those
// past them (over) and the patterns longer than maxIgnorePattern (long),
// which it leaves out: a hostile file must not make matching slow.
func readGitignore(fsys fs.FS, prefix string) (rules []ignoreRule, over, long int) {
	real, fi, err := resolve(fsys, ".gitignore")
	if err != nil || !fi.Mode().IsRegular() {
		return nil, 0, 0 // a named pipe would block the open
	}
	f, err := fsys.Open(real)
	if err != nil {
		return nil, 0, 0
	}
	defer f.Close()
	data, _ := io.ReadAll(io.LimitReader(f, 256<<10))
	for line := range strings.SplitSeq(string(data), "\n") {
		line = strings.TrimRight(line, "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		line = strings.TrimRight(line, " ")
		var r ignoreRule
		if strings.HasPrefix(line, "!") {
			r.negate = true
			line = line[1:]
		} else if strings.HasPrefix(line, `\`) {
			line = line[1:]
		}
		if strings.HasSuffix(line, "/") {
			r.dirOnly = true
			line = strings.TrimRight(line, "/")
		}
		if strings.Contains(line, "/") {
			r.anchored = true
			line = strings.TrimPrefix(line, "/")
		}
		switch {
		case line == "":
			continue
		case len(line) > maxIgnorePattern:
			long++
			continue
		case len(rules) == maxIgnoreRules:
			over++
			continue
		}
		r.pattern, r.prefix = compileGlob(line), prefix
		rules = append(rules, r)
	}
	return rules, over, long
}

// isIgnored applies the rules to a slash path; the last match wins. It
// adds the work of matching to steps and gives up (saying true) once that
// passes maxIgnoreSteps.
func isIgnored(rules []ignoreRule, rel string, isDir bool, steps *int) bool {
	ignored := false
	base := path.Base(rel)
	// full is prefix+rel for the prefix of the rule before: rules come in
	// runs of one prefix (one .gitignore each).
	full, prefix := rel, ""
	for _, r := range rules {
		if *steps += 4; *steps > maxIgnoreSteps {
			return true
		}
		if r.dirOnly && !isDir {
			continue
		}
		var m bool
		if r.anchored {
			if r.prefix != prefix {
				full, prefix = r.prefix+rel, r.prefix
				*steps += 8 + len(full)/8
			}
			m = r.pattern.match(full, steps)
		} else {
			m = r.pattern.match(base, steps)
		}
		if m {
			ignored = !r.negate
		}
	}
	return ignored
}

// skills finds NAME/SKILL.md under dir of d.
func (c *collector) skills(d Dir, dir, source string) {
	ents, err := fs.ReadDir(d.FS, dir)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			c.note("%s: skills not read: %s", joinPath(d.Path, dir), wire.OSErrorReason(err))
		}
		return
	}
	for _, e := range ents {
		sub := path.Join(dir, e.Name())
		real := sub
		switch {
		case e.Type()&fs.ModeSymlink != 0:
			// A linked skill directory is followed while it stays in d.
			r, fi, err := resolve(d.FS, sub)
			if err != nil {
				c.note("%s: %v", joinPath(d.Path, sub), err)
				continue
			}
			if !fi.IsDir() {
				continue
			}
			real = r
		case !e.IsDir():
			continue
		}
		rel := path.Join(real, "SKILL.md")
		if _, err := fs.Lstat(d.FS, rel); err != nil {
			continue
		}
		full := joinPath(d.Path, path.Join(sub, "SKILL.md"))
		text, ok := c.readFile(d, rel, full)
		if !ok {
			continue
		}
		name, desc, body := ParseSkill(text)
		if name == "" {
			name = showName(e.Name())
		}
		c.b.Skills = append(c.b.Skills, Skill{Name: name, Description: desc,
			Dir: joinPath(d.Path, sub), Source: source, Body: body})
	}
}

// ParseSkill reads the name and description of a SKILL.md's front matter
// (simple "key: value" lines, quoted or not, with ">" and "|" blocks) and
// returns the body after it.
func ParseSkill(text string) (name, desc, body string) {
	t := strings.TrimPrefix(text, "\uFEFF")
	if !strings.HasPrefix(t, "---\n") && !strings.HasPrefix(t, "---\r\n") {
		return "", "", text
	}
	lines := strings.SplitAfter(t, "\n")
	end := -1
	for i := 1; i < len(lines); i++ {
		if strings.TrimRight(lines[i], "\r\n") == "---" {
			end = i
			break
		}
	}
	if end < 0 {
		return "", "", text
	}
	fields := map[string]string{}
	for i := 1; i < end; i++ {
		l := strings.TrimRight(lines[i], "\r\n")
		if l == "" || l[0] == ' ' || l[0] == '\t' || l[0] == '#' {
			continue
		}
		k, v, ok := strings.Cut(l, ":")
		if !ok {
			continue
		}
		k = strings.TrimSpace(k)
		v = strings.TrimSpace(v)
		if v == ">" || v == "|" || v == ">-" || v == "|-" {
			var parts []string
			for i+1 < end {
				nl := strings.TrimRight(lines[i+1], "\r\n")
				if nl != "" && nl[0] != ' ' && nl[0] != '\t' {
					break
				}
				parts = append(parts, strings.TrimSpace(nl))
				i++
			}
			sep := " "
			if v[0] == '|' {
				sep = "\n"
			}
			v = strings.TrimSpace(strings.Join(parts, sep))
		} else if len(v) >= 2 && (v[0] == '"' && v[len(v)-1] == '"' || v[0] == '\'' && v[len(v)-1] == '\'') {
			q := v[0]
			v = v[1 : len(v)-1]
			if q == '"' {
				v = strings.NewReplacer(`\"`, `"`, `\\`, `\`, `\n`, "\n", `\t`, "\t").Replace(v)
			} else {
				v = strings.ReplaceAll(v, "''", "'")
			}
		}
		fields[k] = v
	}
	body = strings.TrimLeft(strings.Join(lines[end+1:], ""), "\r\n")
	return fields["name"], fields["description"], body
}
