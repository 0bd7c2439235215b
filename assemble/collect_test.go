package assemble

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"unicode/utf8"
)

func TestCollectMissingWorkspace(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "nope")
	_, _, err := OpenInput(dir, nil, nil, testNow)
	if err == nil || !strings.Contains(err.Error(), "no such directory") || !strings.Contains(err.Error(), dir) {
		t.Fatalf("missing workspace: got %v, want a 'no such directory' error naming %s", err, dir)
	}
}

func TestCollectWorkspaceIsAFile(t *testing.T) {
	f := filepath.Join(t.TempDir(), "file.txt")
	if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := OpenInput(f, nil, nil, testNow)
	if err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Fatalf("file as workspace: got %v, want 'not a directory'", err)
	}
	_, _, err = OpenInput(t.TempDir(), []string{f}, nil, testNow)
	if err == nil || !strings.Contains(err.Error(), "--add-dir") || !strings.Contains(err.Error(), "not a directory") {
		t.Fatalf("file as --add-dir: got %v", err)
	}
}

// denyFS refuses to open one file, like a file the user cannot read.
type denyFS struct {
	fstest.MapFS
	deny string
}

func (p denyFS) Open(name string) (fs.File, error) {
	if name == p.deny {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
	}
	return p.MapFS.Open(name)
}

func (p denyFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if name == p.deny {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrPermission}
	}
	return p.MapFS.ReadDir(name)
}

func TestCollectUnreadableDirectory(t *testing.T) {
	fsys := denyFS{MapFS: fstest.MapFS{
		"private/key.pem": {Data: []byte("KEY")},
		"public/a.txt":    {Data: []byte("a")},
	}, deny: "private"}
	b, err := Collect(Input{Workspace: Dir{Path: "/ws", FS: fsys}, Now: testNow})
	if err != nil {
		t.Fatal(err)
	}
	want := "private/\n  [wirelens: not listed: permission denied]\npublic/\n  a.txt\n"
	if b.Listing != want {
		t.Fatalf("listing:\n got %q\nwant %q", b.Listing, want)
	}
	if !hasNote(b, "/ws/private: not listed: permission denied") {
		t.Fatalf("notes %q", b.Notes)
	}
	_, err = Collect(Input{Workspace: Dir{Path: "/ws", FS: denyFS{MapFS: fstest.MapFS{}, deny: "."}}})
	if err == nil || err.Error() != "/ws: permission denied" {
		t.Fatalf("an unreadable workspace: %v", err)
	}
}

func TestCollectUnreadableAgentsMD(t *testing.T) {
	fsys := denyFS{MapFS: fstest.MapFS{
		"AGENTS.md": {Data: []byte("secret rules")},
		"README.md": {Data: []byte("hi")},
	}, deny: "AGENTS.md"}
	b, err := Collect(Input{Workspace: Dir{Path: "/ws", FS: fsys}, Now: testNow})
	if err != nil {
		t.Fatalf("an unreadable AGENTS.md must not fail the collect: %v", err)
	}
	if len(b.AgentsMD) != 1 || !strings.Contains(b.AgentsMD[0].Text, "[wirelens: not read: permission denied]") {
		t.Fatalf("want a visible 'not read' note in the payload, got %+v", b.AgentsMD)
	}
	if !hasNote(b, "/ws/AGENTS.md: permission denied") {
		t.Fatalf("want a note naming the file, got %q", b.Notes)
	}
	if !strings.Contains(b.Listing, "AGENTS.md\n") || !strings.Contains(b.Listing, "README.md\n") {
		t.Fatalf("the listing must still list the files: %q", b.Listing)
	}
}

func TestCollectUnreadableFileOnDisk(t *testing.T) {
	if os.Geteuid() == 0 {
		// Root reads a mode-000 file anyway; TestCollectUnreadableAgentsMD
		// covers the error path through a file system that refuses.
		t.Log("running as root: mode 000 does not stop reads here")
		return
	}
	dir := writeTree(t, t.TempDir(), map[string]string{"AGENTS.md": "rules"})
	if err := os.Chmod(filepath.Join(dir, "AGENTS.md"), 0); err != nil {
		t.Fatal(err)
	}
	b := collectDir(t, dir, testNow)
	if len(b.AgentsMD) != 1 || !strings.Contains(b.AgentsMD[0].Text, "permission denied") {
		t.Fatalf("want a permission note, got %+v", b.AgentsMD)
	}
}

func TestCollectBinaryAgentsMD(t *testing.T) {
	data := "PK\x03\x04\x00\x00binary\x1b[2Jjunk"
	dir := writeTree(t, t.TempDir(), map[string]string{"AGENTS.md": data})
	b := collectDir(t, dir, testNow)
	if len(b.AgentsMD) != 1 {
		t.Fatalf("want one AGENTS.md, got %d", len(b.AgentsMD))
	}
	text := b.AgentsMD[0].Text
	want := fmt.Sprintf("[wirelens: truncated, %d bytes not shown]", len(data))
	if !strings.Contains(text, want) || !strings.Contains(text, "binary file, NUL byte at byte 4") {
		t.Fatalf("binary AGENTS.md: got %q, want the binary note and %q", text, want)
	}
	if strings.Contains(text, "junk") || strings.Contains(text, "\x00") {
		t.Fatalf("binary content leaked into the payload: %q", text)
	}
}

func TestCollectHugeAgentsMD(t *testing.T) {
	line := "Be careful with the build. ééé\n" // multi-byte runes near the cut
	huge := strings.Repeat(line, MaxFileBytes/len(line)+500)
	dir := writeTree(t, t.TempDir(), map[string]string{"AGENTS.md": huge})
	b := collectDir(t, dir, testNow)
	text := b.AgentsMD[0].Text
	if !utf8.ValidString(text) {
		t.Fatal("the cut split a rune")
	}
	i := strings.Index(text, "[wirelens: truncated, ")
	if i < 0 {
		t.Fatalf("no truncation note in %d bytes", len(text))
	}
	// The cap falls mid-line, so a newline was added before the note.
	kept := strings.TrimSuffix(text[:i], "\n")
	if !strings.HasPrefix(huge, kept) {
		t.Fatal("the kept part is not a prefix of the file")
	}
	shown := len(kept)
	want := fmt.Sprintf("[wirelens: truncated, %d bytes not shown]", len(huge)-shown)
	if !strings.Contains(text, want) {
		t.Fatalf("want %q at the end, got %q", want, text[i:])
	}
	if shown > MaxFileBytes {
		t.Fatalf("kept %d bytes, more than the cap %d", shown, MaxFileBytes)
	}
}

func TestCollectInvalidUTF8(t *testing.T) {
	dir := writeTree(t, t.TempDir(), map[string]string{"AGENTS.md": "ok \xff\xfe then \xc3 end\n"})
	b := collectDir(t, dir, testNow)
	text := b.AgentsMD[0].Text
	if !utf8.ValidString(text) {
		t.Fatalf("payload is not valid UTF-8: %q", text)
	}
	if !strings.HasPrefix(text, "ok \uFFFD\uFFFD then \uFFFD end\n") {
		t.Fatalf("invalid bytes not replaced by U+FFFD: %q", text)
	}
	if !strings.Contains(text, "[wirelens: invalid UTF-8, 3 bytes replaced with U+FFFD]") {
		t.Fatalf("no visible note: %q", text)
	}
}

func TestCollectSymlinkOutside(t *testing.T) {
	base := t.TempDir()
	outside := writeTree(t, filepath.Join(base, "outside"), map[string]string{"secret.md": "TOP-SECRET-CONTENT"})
	ws := writeTree(t, filepath.Join(base, "ws"), map[string]string{"README.md": "hi"})
	for name, target := range map[string]string{
		"AGENTS.md": filepath.Join(outside, "secret.md"), // absolute
		"up":        "../outside",                        // relative, out
		"abs":       outside,
	} {
		if err := os.Symlink(target, filepath.Join(ws, name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(ws, ".agents", "skills"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(ws, ".agents", "skills", "evil")); err != nil {
		t.Fatal(err)
	}
	b := collectDir(t, ws, testNow)
	all := b.Listing + AgentsMDText(b) + SkillsText(b)
	if strings.Contains(all, "TOP-SECRET-CONTENT") {
		t.Fatal("a file outside the workspace was read")
	}
	for _, want := range []string{"up -> ../outside\n", "abs -> " + outside + "\n", "AGENTS.md -> " + filepath.Join(outside, "secret.md") + "\n"} {
		if !strings.Contains(b.Listing, want) {
			t.Errorf("listing lacks %q:\n%s", want, b.Listing)
		}
	}
	if strings.Contains(b.Listing, "secret.md\n") && !strings.Contains(b.Listing, "-> "+filepath.Join(outside, "secret.md")) {
		t.Error("the listing entered a link out of the workspace")
	}
	if len(b.AgentsMD) != 1 || !strings.Contains(b.AgentsMD[0].Text, "outside the directory, not followed") {
		t.Fatalf("want a visible 'not followed' note for AGENTS.md, got %+v", b.AgentsMD)
	}
	if len(b.Skills) != 0 {
		t.Fatalf("a skill directory linked from outside was followed: %+v", b.Skills)
	}
}

// TestCollectLinkedSkillDirs links skill directories: one to a directory
// inside the workspace (followed, shown at the link's path), one out of it
// and one to a file (neither followed; the one out leaves a note).
func TestCollectLinkedSkillDirs(t *testing.T) {
	base := t.TempDir()
	outside := writeTree(t, filepath.Join(base, "outside"), map[string]string{"evil/SKILL.md": "---\nname: evil\n---\nTOP-SECRET\n"})
	ws := writeTree(t, filepath.Join(base, "ws"), map[string]string{
		"tools/lint/SKILL.md": "---\nname: lint\ndescription: Lint.\n---\nRun the linter.\n",
		".agents/skills/":     "",
		"notes.txt":           "x",
	})
	for name, target := range map[string]string{
		".agents/skills/lint": "../../tools/lint",
		".agents/skills/evil": filepath.Join(outside, "evil"),
		".agents/skills/up":   "../../../outside/evil",
		".agents/skills/file": "../../notes.txt",
	} {
		if err := os.Symlink(target, filepath.Join(ws, filepath.FromSlash(name))); err != nil {
			t.Fatal(err)
		}
	}
	b := collectDir(t, ws, testNow)
	if len(b.Skills) != 1 || b.Skills[0].Name != "lint" || b.Skills[0].Body != "Run the linter.\n" ||
		b.Skills[0].Dir != filepath.Join(ws, ".agents", "skills", "lint") {
		t.Fatalf("skills %+v, want lint alone, at the link's path", b.Skills)
	}
	for _, link := range []string{"evil", "up"} {
		if !hasNote(b, filepath.Join(ws, ".agents", "skills", link)+": symbolic link points outside the directory, not followed") {
			t.Errorf("no note for the link %s out of the workspace: %q", link, b.Notes)
		}
	}
}

func TestCollectSymlinkLoop(t *testing.T) {
	ws := writeTree(t, t.TempDir(), map[string]string{"sub/file.txt": "x"})
	links := map[string]string{"a": "b", "b": "a", "AGENTS.md": "AGENTS.md", "sub/self": ".", "sub/up": ".."}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(ws, filepath.FromSlash(name))); err != nil {
			t.Fatal(err)
		}
	}
	b := collectDir(t, ws, testNow)
	for _, want := range []string{"a -> b\n", "b -> a\n", "  self -> .\n", "  up -> ..\n"} {
		if !strings.Contains(b.Listing, want) {
			t.Errorf("listing lacks %q:\n%s", want, b.Listing)
		}
	}
	if strings.Count(b.Listing, "file.txt") != 1 {
		t.Errorf("a looping link was entered:\n%s", b.Listing)
	}
	if len(b.AgentsMD) != 1 || !strings.Contains(b.AgentsMD[0].Text, "[wirelens: not read: ") {
		t.Fatalf("want a visible note for the looping AGENTS.md, got %+v", b.AgentsMD)
	}
}

func TestCollectSymlinkInsideIsFollowed(t *testing.T) {
	ws := writeTree(t, t.TempDir(), map[string]string{"docs/CLAUDE.md": "Use tabs.\n"})
	if err := os.Symlink("docs/CLAUDE.md", filepath.Join(ws, "AGENTS.md")); err != nil {
		t.Fatal(err)
	}
	b := collectDir(t, ws, testNow)
	if len(b.AgentsMD) != 1 || b.AgentsMD[0].Text != "Use tabs.\n" {
		t.Fatalf("AGENTS.md -> docs/CLAUDE.md inside the workspace must be read, got %+v", b.AgentsMD)
	}
}

func TestCollectAgentsChainStopsAtRepoRoot(t *testing.T) {
	base := t.TempDir()
	writeTree(t, base, map[string]string{
		"AGENTS.md":                  "ABOVE THE REPO",
		"repo/.git/HEAD":             "ref: refs/heads/main\n",
		"repo/AGENTS.md":             "root rules\n",
		"repo/pkg/agents.md":         "pkg rules\n",
		"repo/pkg/ws/AGENTS.md":      "ws rules\n",
		"repo/pkg/ws/src/AGENTS.md":  "below the workspace\n",
		"repo/pkg/ws/src/main.go":    "package main\n",
		"repo/pkg/other/AGENTS.md":   "sibling\n",
		"repo/pkg/ws/build/out.bin":  "x",
		"repo/pkg/ws/debug.log":      "x",
		"repo/pkg/ws/.gitignore":     "build/\n*.log\n!keep.log\n",
		"repo/pkg/ws/keep.log":       "x",
		"repo/pkg/ws/.git-like/file": "x",
	})
	ws := filepath.Join(base, "repo", "pkg", "ws")
	b := collectDir(t, ws, testNow)
	var got []string
	for _, f := range b.AgentsMD {
		got = append(got, f.Path+"="+strings.TrimSpace(f.Text))
	}
	want := []string{
		filepath.Join(base, "repo", "AGENTS.md") + "=root rules",
		filepath.Join(base, "repo", "pkg", "agents.md") + "=pkg rules",
		filepath.Join(ws, "AGENTS.md") + "=ws rules",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("AGENTS.md chain:\n got %q\nwant %q", got, want)
	}
	if strings.Contains(b.Listing, "build/") || strings.Contains(b.Listing, "debug.log") {
		t.Errorf(".gitignore not applied:\n%s", b.Listing)
	}
	if !strings.Contains(b.Listing, "keep.log") || !strings.Contains(b.Listing, ".git-like/") {
		t.Errorf("negated or look-alike entries dropped:\n%s", b.Listing)
	}
}

// TestCollectAgentsChainAtTheRepoRoot checks the two other ends of the
// chain: a workspace that is itself the repository root reads nothing above
// it, and a .git file (a worktree or submodule) marks a root too.
func TestCollectAgentsChainAtTheRepoRoot(t *testing.T) {
	base := t.TempDir()
	writeTree(t, base, map[string]string{
		"AGENTS.md":               "ABOVE\n",
		"repo/.git/HEAD":          "ref: refs/heads/main\n",
		"repo/AGENTS.md":          "root\n",
		"wt/.git":                 "gitdir: /elsewhere/.git/worktrees/wt\n",
		"wt/AGENTS.md":            "worktree root\n",
		"wt/sub/AGENTS.md":        "sub\n",
		"repo/nested/.git/HEAD":   "ref: refs/heads/main\n",
		"repo/nested/x/AGENTS.md": "nested\n",
	})
	for ws, want := range map[string][]string{
		"repo":          {"root"},
		"wt/sub":        {"worktree root", "sub"},
		"repo/nested/x": {"nested"},
	} {
		b := collectDir(t, filepath.Join(base, filepath.FromSlash(ws)), testNow)
		var got []string
		for _, f := range b.AgentsMD {
			got = append(got, strings.TrimSpace(f.Text))
		}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("workspace %s: chain %q, want %q", ws, got, want)
		}
	}
}

// TestCollectRepositoryGitignoresApply lists a workspace below the
// repository root: the .gitignore files of the root and of the directories
// between apply (anchored patterns relative to their own directory), and
// the workspace's own comes last, so it can re-include.
func TestCollectRepositoryGitignoresApply(t *testing.T) {
	base := t.TempDir()
	writeTree(t, base, map[string]string{
		"repo/.git/HEAD":             "ref: refs/heads/main\n",
		"repo/.gitignore":            "node_modules/\n*.log\n/pkg/ws/gen/\n/ws/\n",
		"repo/pkg/.gitignore":        "tmp/\n/ws/cache\n",
		"repo/pkg/ws/.gitignore":     "!keep.log\n",
		"repo/pkg/ws/node_modules/x": "x",
		"repo/pkg/ws/a.log":          "x",
		"repo/pkg/ws/keep.log":       "x",
		"repo/pkg/ws/gen/out.go":     "x",
		"repo/pkg/ws/src/gen/y.go":   "x",
		"repo/pkg/ws/tmp/t":          "x",
		"repo/pkg/ws/cache":          "x",
		"repo/pkg/ws/main.go":        "x",
	})
	b := collectDir(t, filepath.Join(base, "repo", "pkg", "ws"), testNow)
	want := ".gitignore\nkeep.log\nmain.go\nsrc/\n  gen/\n    y.go\n"
	if b.Listing != want {
		t.Fatalf("listing:\n got %q\nwant %q", b.Listing, want)
	}
}

// TestCollectAddDirsHonourTheirGitignore lists an additional directory the
// same way as the workspace: its own root .gitignore applies, .git is
// skipped, and the workspace's .gitignore does not reach it.
func TestCollectAddDirsHonourTheirGitignore(t *testing.T) {
	extra := writeTree(t, t.TempDir(), map[string]string{
		".gitignore":        "node_modules/\n*.tmp\n",
		".git/HEAD":         "ref: refs/heads/main\n",
		"node_modules/x.js": "x",
		"scratch.tmp":       "x",
		"lib/keep.go":       "package lib",
		"secret.env":        "x",
	})
	ws := writeTree(t, t.TempDir(), map[string]string{".gitignore": "*.env\n", "secret.env": "x", "main.go": "x"})
	in, closeIn, err := OpenInput(ws, []string{extra}, nil, testNow)
	if err != nil {
		t.Fatal(err)
	}
	defer closeIn()
	b, err := Collect(in)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.AddDirs) != 1 {
		t.Fatalf("want one additional directory, got %d", len(b.AddDirs))
	}
	if want := ".gitignore\nlib/\n  keep.go\nsecret.env\n"; b.AddDirs[0].Text != want {
		t.Fatalf("additional directory listing:\n got %q\nwant %q", b.AddDirs[0].Text, want)
	}
	if want := ".gitignore\nmain.go\n"; b.Listing != want {
		t.Fatalf("workspace listing:\n got %q\nwant %q", b.Listing, want)
	}
}

func TestCollectOutsideARepoReadsOnlyTheWorkspace(t *testing.T) {
	base := t.TempDir()
	writeTree(t, base, map[string]string{"AGENTS.md": "PARENT", "ws/AGENTS.md": "mine\n"})
	if repoAncestors(filepath.Join(base, "ws")) != nil {
		// The temporary directory sits inside a repository: nothing to test.
		t.Log("temp dir is inside a git repository")
		return
	}
	b := collectDir(t, filepath.Join(base, "ws"), testNow)
	if len(b.AgentsMD) != 1 || b.AgentsMD[0].Text != "mine\n" {
		t.Fatalf("outside a repository only the workspace's AGENTS.md is read, got %+v", b.AgentsMD)
	}
}

func TestCollectListingIsSortedAndBounded(t *testing.T) {
	files := map[string]string{"a/b/c/d/deep.txt": "x", "zeta": "", "Alpha": "", "beta/": "", "zz/inner/x.txt": "", "zz/inner/deeper/y": ""}
	for i := range MaxEntries + 30 {
		files[fmt.Sprintf("many/f%03d", i)] = ""
	}
	ws := writeTree(t, t.TempDir(), files)
	b := collectDir(t, ws, testNow)
	lines := strings.Split(strings.TrimSuffix(b.Listing, "\n"), "\n")
	if lines[0] != "Alpha" || lines[1] != "a/" {
		t.Fatalf("listing not sorted bytewise: %q", lines[:4])
	}
	entries := 0
	for _, l := range lines {
		if !strings.HasPrefix(strings.TrimLeft(l, " "), "[wirelens:") {
			entries++
		}
	}
	if entries != MaxEntries {
		t.Fatalf("listed %d entries, want the cap %d", entries, MaxEntries)
	}
	// Entries: Alpha a/ a/b/ a/b/c/ beta/ many/ + 194 of many/ = 200; the
	// rest of many/ (36), zeta, and zz/ with inner/, inner/x.txt and
	// inner/deeper/ are cut and counted (the levels the listing shows);
	// y, a level deeper, would not have been listed and is not counted.
	if !strings.Contains(b.Listing, "[wirelens: listing cut, 41 more entries not shown]") {
		t.Fatalf("no or wrong cut note:\n%s", b.Listing[len(b.Listing)-200:])
	}
	if !strings.Contains(b.Listing, fmt.Sprintf("[wirelens: directories deeper than %d levels not listed]", MaxDepth)) {
		t.Fatal("no depth note")
	}
	if strings.Contains(b.Listing, "deep.txt") {
		t.Fatal("listed deeper than MaxDepth")
	}
}

// TestCollectListingCutCountIsBounded gives the listing a tree far past the
// cap: the cut note gives a bound instead of walking the tree to its end.
func TestCollectListingCutCountIsBounded(t *testing.T) {
	fsys := fstest.MapFS{}
	for i := range maxCounted + MaxEntries + 50 {
		fsys[fmt.Sprintf("d%02d/f%05d", i%40, i)] = &fstest.MapFile{}
	}
	b, err := Collect(Input{Workspace: Dir{Path: "/ws", FS: fsys}, Now: testNow})
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("\n[wirelens: listing cut, more than %d more entries not shown]\n", maxCounted)
	if !strings.HasSuffix(b.Listing, want) {
		t.Fatalf("want the listing to end with %q, got %q", want, b.Listing[len(b.Listing)-120:])
	}
	if n := strings.Count(b.Listing, "\n"); n != MaxEntries+1 {
		t.Fatalf("%d lines, want %d entries and the note", n, MaxEntries)
	}
	if !hasNote(b, "/ws: listing cut at 200 entries") {
		t.Fatalf("notes %q", b.Notes)
	}
}

func TestCollectHostileNamesStayOneLine(t *testing.T) {
	ws := t.TempDir()
	names := []string{"photo_\u202egnp.sh", "two\nlines.txt", "tab\there", "bad\xffname"}
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(ws, n), nil, 0o644); err != nil {
			t.Skipf("file system refuses the name %q: %v", n, err)
		}
	}
	b := collectDir(t, ws, testNow)
	for _, want := range []string{"photo_\u202egnp.sh\n", `two\nlines.txt` + "\n", `tab\there` + "\n", "bad\uFFFDname\n"} {
		if !strings.Contains(b.Listing, want) {
			t.Errorf("listing lacks %q:\n%q", want, b.Listing)
		}
	}
	if n := strings.Count(b.Listing, "\n"); n != len(names) {
		t.Errorf("a name broke the one-entry-per-line listing: %d lines for %d names", n, len(names))
	}
}

func TestCollectSkills(t *testing.T) {
	extra := writeTree(t, t.TempDir(), map[string]string{
		"lint/SKILL.md": "---\nname: lint\ndescription: >\n  Run the linters\n  and fix what they find.\n---\nBody of lint.\n",
	})
	ws := writeTree(t, t.TempDir(), map[string]string{
		".agents/skills/deploy/SKILL.md":   "---\nname: \"deploy\"\ndescription: 'Ship it, don''t wait'\n---\n\n# Deploy\nsteps\n",
		".agents/skills/noname/SKILL.md":   "no front matter here\n",
		".agents/skills/empty-dir/x.txt":   "not a skill",
		".agents/skills/README.md":         "not a skill dir",
		".agents/skills/zz-notes/SKILL.md": "---\ndescription: no name given\n---\n",
	})
	in, closeIn, err := OpenInput(ws, nil, []string{extra}, testNow)
	if err != nil {
		t.Fatal(err)
	}
	defer closeIn()
	b, err := Collect(in)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range b.Skills {
		got = append(got, s.Name+"|"+s.Description+"|"+s.Source+"|"+strings.TrimSpace(s.Body))
	}
	want := []string{
		"deploy|Ship it, don't wait|project|# Deploy\nsteps",
		"lint|Run the linters and fix what they find.|user|Body of lint.",
		"noname||project|no front matter here",
		"zz-notes|no name given|project|",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("skills:\n got %q\nwant %q", got, want)
	}
	if b.Skills[0].Dir != filepath.Join(ws, ".agents", "skills", "deploy") {
		t.Fatalf("skill dir %q", b.Skills[0].Dir)
	}
}

// snapshotTree records every path, mode, size and content under dir.
func snapshotTree(t *testing.T, dir string) string {
	t.Helper()
	var sb strings.Builder
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		fmt.Fprintf(&sb, "%s %v %d %d", p, fi.Mode(), fi.Size(), fi.ModTime().UnixNano())
		if fi.Mode().IsRegular() {
			data, _ := os.ReadFile(p)
			sb.Write(data)
		}
		sb.WriteByte('\n')
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return sb.String()
}

func TestCollectNeverWrites(t *testing.T) {
	ws := writeTree(t, t.TempDir(), map[string]string{
		"AGENTS.md": "rules", ".agents/skills/x/SKILL.md": "---\nname: x\n---\nbody", "src/a.go": "package a",
	})
	before := snapshotTree(t, ws)
	b := collectDir(t, ws, testNow)
	for _, l := range []Layout{LayoutLegacy, LayoutIsolated} {
		if _, err := Bind(b, Config{Layout: l, Skills: []string{"x"}, Host: testHost}); err != nil {
			t.Fatal(err)
		}
	}
	if after := snapshotTree(t, ws); after != before {
		t.Fatalf("the workspace changed:\nbefore %s\nafter  %s", before, after)
	}
}

func TestParseSkillWithoutClosingFrontMatter(t *testing.T) {
	name, desc, body := ParseSkill("---\nname: x\nno end")
	if name != "" || desc != "" || body != "---\nname: x\nno end" {
		t.Fatalf("unterminated front matter must be body: %q %q %q", name, desc, body)
	}
}

func hasNote(b *Baseline, sub string) bool {
	for _, n := range b.Notes {
		if strings.Contains(n, sub) {
			return true
		}
	}
	return false
}
