package assemble

import (
	"os"
	"path/filepath"
)

// Ignorer is what the .gitignore at the top of dir (and those of the
// directories above it up to its repository's root) leave out of a
// listing, as a function of a slash-separated path relative to dir: the
// same rules and bounds as the build's listing, for the provenance index.
// Past the rules' step bound every path counts as ignored. It is nil when
// dir cannot be opened.
func Ignorer(dir string) func(rel string, isDir bool) bool {
	d, closer, err := OpenDir(dir)
	if err != nil {
		return nil
	}
	c := &collector{b: &Baseline{}}
	var in Input
	in.Workspace = d
	var closers = []interface{ Close() error }{closer}
	for _, a := range repoAncestors(d.Path) {
		if a == d.Path {
			continue
		}
		if root, err := os.OpenRoot(a); err == nil {
			closers = append(closers, root)
			in.Ancestors = append(in.Ancestors, Dir{Path: a, FS: root.FS()})
		}
	}
	rules := append(c.outerIgnores(in), c.gitignore(d, "")...)
	for _, cl := range closers {
		cl.Close()
	}
	steps := 0
	return func(rel string, isDir bool) bool {
		if steps > maxIgnoreSteps {
			return true
		}
		return isIgnored(rules, filepath.ToSlash(rel), isDir, &steps)
	}
}
